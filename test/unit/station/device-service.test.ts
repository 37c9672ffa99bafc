// The controller of the station's local device service, with a stand-in for the service itself:
// which origins it allows (changed on the running service, never by a restart), which port it
// asks for, and what it reports.
import { describe, expect, it } from 'vitest';
import type { HardwareServiceState } from '../../../native-bridge/agent';
import type { DeviceSource, LocalDeviceService, LocalDeviceServiceOptions } from '../../../native-bridge/service';
import { LocalDeviceServiceController, deviceServiceOrigins, officialServiceRuns } from '../../../electron/station';

const devices: DeviceSource = { readers: () => [], chosen: () => undefined, onChange: () => () => undefined };
const settings = (allowedLinkOrigins: string[], trainingMode = false, exchangeBaseUrl: string | null = null) => ({ allowedLinkOrigins, trainingMode, exchangeBaseUrl });

/** Stand-in services: records every start; `refuse` makes the next starts on those ports fail. */
function fakeServices() {
  const starts: LocalDeviceServiceOptions[] = [];
  const closed: number[] = [];
  const originChanges: (readonly string[])[] = [];
  const refuse = new Set<number | 'auto'>();
  let nextFree = 40_000;
  const start = async (options: LocalDeviceServiceOptions): Promise<LocalDeviceService> => {
    starts.push(options);
    const wanted = options.port ?? 'auto';
    if (refuse.has(wanted)) throw new Error(`Port ${String(wanted)} is taken`);
    // 'auto' as the real service does it: the preferred port unless it is taken, else any free one.
    const preferred = options.preferredPort ?? 18065;
    const port = wanted === 'auto' ? (refuse.has(preferred) ? nextFree++ : preferred) : wanted === 0 ? nextFree++ : wanted;
    return {
      url: `http://127.0.0.1:${port}`,
      port,
      setAllowedOrigins: (origins) => void originChanges.push([...origins]),
      onEvent: () => () => undefined,
      close: async () => void closed.push(port),
    };
  };
  return { starts, closed, originChanges, refuse, start };
}

describe('deviceServiceOrigins', () => {
  it('is the link allowlist as bare origins, sorted and once each; the sandbox joins only in training', () => {
    expect(deviceServiceOrigins(settings(['https://payer.example.com', 'https://payer.example.com/', 'https://b.example.com:8443']))).toEqual([
      'https://b.example.com:8443',
      'https://payer.example.com',
    ]);
    expect(deviceServiceOrigins(settings(['https://payer.example.com'], true, 'http://127.0.0.1:4010/api/'))).toEqual(['http://127.0.0.1:4010', 'https://payer.example.com']);
    expect(deviceServiceOrigins(settings(['https://payer.example.com'], false, 'http://127.0.0.1:4010'))).toEqual(['https://payer.example.com']);
    expect(deviceServiceOrigins(settings(['ftp://x.example.com', 'not a url'], true, null))).toEqual([]);
  });
});

describe('officialServiceRuns', () => {
  const status = (provider?: string) => ({ devices: [], cardReaders: [], isAuthed: true, ...(provider === undefined ? {} : { provider }) });
  it('is true for any answer of the exchange’s service, false for none and for the station’s own service', () => {
    const at = '2025-03-04T09:00:00.000Z';
    expect(officialServiceRuns(undefined)).toBe(false);
    expect(officialServiceRuns({ kind: 'not-running', reason: 'refused', checkedAt: at })).toBe(false);
    expect(officialServiceRuns({ kind: 'no-scanner', baseUrl: 'http://localhost:18065', status: status(), checkedAt: at })).toBe(true);
    expect(officialServiceRuns({ kind: 'ready', baseUrl: 'http://localhost:18065', status: status('idhini-station'), checkedAt: at } as HardwareServiceState)).toBe(false);
  });
});

describe('LocalDeviceServiceController', () => {
  it('starts nothing before the station hands over its settings, and nothing for an empty allowlist', async () => {
    const fake = fakeServices();
    const controller = new LocalDeviceServiceController({ devices, port: 0, workstationID: 'WS-1', startService: fake.start });
    await controller.settled();
    expect(fake.starts).toEqual([]);
    expect(controller.view()).toEqual({ state: 'off', url: null, message: null });
    await controller.useSettings(settings([]));
    expect(fake.starts).toEqual([]);
    expect(controller.view().state).toBe('off');
    expect(controller.workstationId).toBeUndefined();
  });

  it('hands new origins to the running service instead of restarting it; stopped and started again, it looks for its port afresh', async () => {
    const fake = fakeServices();
    const controller = new LocalDeviceServiceController({ devices, port: 'auto', preferredPort: 18065, workstationID: 'WS-1', startService: fake.start });
    await controller.useSettings(settings(['https://a.example.com']));
    expect(controller.view()).toEqual({ state: 'running', url: 'http://127.0.0.1:18065', message: null });
    expect(controller.workstationId).toBe('WS-1');
    const changes: unknown[] = [];
    controller.onChange((view) => changes.push(view));
    await controller.useSettings(settings(['https://b.example.com', 'https://a.example.com']));
    // The same origins again (another order, a trailing slash): nothing to change.
    await controller.useSettings(settings(['https://a.example.com/', 'https://b.example.com']));
    await controller.useSettings(settings(['https://b.example.com']));
    expect(fake.starts.map((o) => o.port)).toEqual(['auto']);
    expect(fake.closed).toEqual([]);
    expect(fake.originChanges).toEqual([['https://a.example.com', 'https://b.example.com'], ['https://b.example.com']]);
    expect(changes, 'the service neither stopped nor moved').toEqual([]);

    // No origin left: off. Someone takes 18065 meanwhile; with auto the next start takes another port and says so.
    await controller.useSettings(settings([]));
    expect(controller.view().state).toBe('off');
    fake.refuse.add(18065);
    await controller.useSettings(settings(['https://c.example.com']));
    expect(fake.starts.map((o) => [o.port, [...o.allowedOrigins]])).toEqual([
      ['auto', ['https://a.example.com']],
      ['auto', ['https://c.example.com']],
    ]);
    expect(controller.view()).toEqual({ state: 'running', url: 'http://127.0.0.1:40000', message: expect.stringContaining('Port 18065 is taken by another program') });
    await controller.close();
    expect(controller.view()).toEqual({ state: 'off', url: null, message: null });
    expect(fake.closed).toEqual([18065, 40000]);
  });

  it('with a fixed port, a taken port is a failure named in the status, not a different port', async () => {
    const fake = fakeServices();
    fake.refuse.add(4100);
    const controller = new LocalDeviceServiceController({ devices, port: 4100, workstationID: 'WS-1', startService: fake.start });
    await controller.useSettings(settings(['https://a.example.com']));
    expect(fake.starts.map((o) => o.port)).toEqual([4100]);
    expect(controller.view()).toEqual({ state: 'failed', url: null, message: "The station's device service could not start: Port 4100 is taken" });
    expect(controller.workstationId).toBeUndefined();
  });
});
