// node-hid whose native binding cannot load (no libudev, no prebuild): the station must get a
// status value with the reason, never an exception.
import { describe, expect, it, vi } from 'vitest';

vi.mock('node-hid', () => {
  // node-hid is CommonJS: Node's ESM import shows it both as named exports and as `default`.
  const hid = {
    getHidapiVersion: () => {
      throw new Error('libudev.so.1: cannot open shared object file: No such file or directory');
    },
    devicesAsync: () => Promise.reject(new Error('must not be called')),
    HIDAsync: { open: () => Promise.reject(new Error('must not be called')) },
  };
  return { ...hid, default: hid };
});

describe('node-hid that cannot load', () => {
  it('is reported as unavailable with the reason', async () => {
    const { loadNodeHid } = await import('../../../native-bridge/transports/hid-cp2110/node-hid');
    const { api, availability } = await loadNodeHid();
    expect(api).toBeUndefined();
    expect(availability).toEqual({
      available: false,
      reason: "node-hid's native binding did not load: libudev.so.1: cannot open shared object file: No such file or directory",
    });
  });

  it('makes opening a bridge fail with that reason instead of crashing', async () => {
    const { openCp2110Transport } = await import('../../../native-bridge/transports/hid-cp2110/transport');
    await expect(openCp2110Transport('/dev/hidraw0')).rejects.toThrow(/native binding did not load: libudev/);
  });
});
