import { SerialPortMock } from 'serialport';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HardwareServiceMonitor } from '../../../native-bridge/agent/monitor';
import { createListCommand, type ListDependencies } from '../../../native-bridge/manager/list-command';
import type { ReaderCandidate } from '../../../native-bridge/manager/candidates';
import { FakeReader } from '../../unit/native-bridge/fake-reader';
import { freePort, startStandIn, type StandIn } from './hardware-service-stand-in';

const MockBinding = SerialPortMock.binding;
const opened: string[] = [];
let service: StandIn | undefined;

beforeEach(() => {
  MockBinding.reset();
  opened.length = 0;
});
afterEach(async () => {
  await service?.stop();
  service = undefined;
  MockBinding.reset();
});

function deps(overrides: Partial<ListDependencies> = {}): ListDependencies {
  return {
    listSerialPorts: () => MockBinding.list(),
    listHidDevices: async () => ({
      availability: { available: true, hidapiVersion: '0.15.0' },
      devices: [
        { vendorId: 0x10c4, productId: 0xea80, path: '/dev/hidraw2', serialNumber: '0001A2B3', manufacturer: 'Silicon Laboratories' },
        { vendorId: 0x046d, productId: 0xc31c, path: '/dev/hidraw0' },
      ],
    }),
    checkHardwareService: (baseUrls, timeoutMs) => new HardwareServiceMonitor({ baseUrls, timeoutMs, watchDeviceEvents: false }).check(),
    openReader: async (candidate: ReaderCandidate) => {
      opened.push(candidate.path);
      if (candidate.path === '/dev/ttyUSB1') throw new Error(`No fingerprint module answered on ${candidate.path}`);
      const reader = new FakeReader({ id: `zfm:${candidate.path}`, path: candidate.path });
      return { reader, info: await reader.probe() };
    },
    ...overrides,
  };
}

describe('reader list', () => {
  it('lists serial ports, CP2110 bridges and the hardware service’s scanners without opening anything', async () => {
    service = await startStandIn();
    MockBinding.createPort('/dev/ttyUSB0', { vendorId: '1a86', productId: '7523', manufacturer: 'QinHeng' });
    MockBinding.createPort('/dev/ttyACM0', { vendorId: '2341', productId: '0043', manufacturer: 'Arduino' });
    const result = (await createListCommand(deps()).run({ 'service-url': service.baseUrl }, new AbortController().signal)) as Record<string, unknown>;
    expect(opened).toEqual([]);
    expect(result.readers).toEqual([
      { source: 'serial', path: '/dev/ttyUSB0', vendorId: '1a86', productId: '7523', manufacturer: 'QinHeng', serialNumber: '1', bridge: 'WCH CH340' },
      { source: 'hid-cp2110', path: '/dev/hidraw2', vendorId: '10c4', productId: 'ea80', manufacturer: 'Silicon Laboratories', serialNumber: '0001A2B3', bridge: 'Silicon Labs CP2110' },
      { source: 'hardware-service', deviceId: 'U4500-0042', type: 'FINGERPRINT', status: 'connected' },
    ]);
    expect(result.serial).toEqual([
      expect.objectContaining({ path: '/dev/ttyUSB0', knownBridge: 'WCH CH340' }),
      expect.objectContaining({ path: '/dev/ttyACM0', knownBridge: null }),
    ]);
    expect(result.hid).toMatchObject({ available: true, bridges: [{ path: '/dev/hidraw2' }] });
    expect(result.hardwareService).toMatchObject({ state: 'ready', baseUrl: service.baseUrl, workstationID: 'WS-KNH-017', isAuthed: true });
  });

  it('probes the known bridges only with --probe, and says what answered', async () => {
    MockBinding.createPort('/dev/ttyUSB0', { vendorId: '1a86', productId: '7523' });
    MockBinding.createPort('/dev/ttyUSB1', { vendorId: '0403', productId: '6001' });
    MockBinding.createPort('/dev/ttyACM0', { vendorId: '2341', productId: '0043' });
    const port = await freePort();
    const result = (await createListCommand(deps()).run({ probe: true, 'service-url': `http://127.0.0.1:${port}` }, new AbortController().signal)) as {
      readers: Record<string, unknown>[];
      hardwareService: Record<string, unknown>;
    };
    expect(opened).toEqual(['/dev/ttyUSB0', '/dev/ttyUSB1', '/dev/hidraw2']);
    expect(result.readers[0]).toMatchObject({ path: '/dev/ttyUSB0', info: { protocol: 'zfm', packetSize: 128 } });
    expect(result.readers[1]).toMatchObject({ path: '/dev/ttyUSB1', error: 'No fingerprint module answered on /dev/ttyUSB1' });
    expect(result.hardwareService).toMatchObject({ state: 'not-running', reason: expect.stringMatching(/connection refused/) });
  });

  it('says why HID bridges cannot be listed when node-hid cannot load', async () => {
    const port = await freePort();
    const result = (await createListCommand(
      deps({ listHidDevices: async () => ({ availability: { available: false, reason: "node-hid's native binding did not load: no libudev" }, devices: [] }) }),
    ).run({ 'service-url': `http://127.0.0.1:${port}` }, new AbortController().signal)) as Record<string, unknown>;
    expect(result.hid).toEqual({ available: false, reason: "node-hid's native binding did not load: no libudev", bridges: [] });
  });

  it('refuses a service URL that is not a URL', async () => {
    await expect(createListCommand(deps()).run({ 'service-url': 'localhost' }, new AbortController().signal)).rejects.toThrow(/--service-url must be a URL/);
  });
});
