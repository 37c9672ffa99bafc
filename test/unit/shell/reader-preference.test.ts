// The reader chosen in settings reaches the Electron shell's reader manager (electron/main/readers.ts
// around a real station core): at start, and after every settings.update, the station's reader is
// the one the facility chose whenever it is plugged in. Two fake modules on two USB-serial bridges.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ReaderSetup } from '../../../electron/main/reader-setup';
import { stationReaders } from '../../../electron/main/readers';
import { createExchangeClient } from '../../../electron/payer';
import { createStation, memorySecretStore, type Station } from '../../../electron/station';
import { FakeReader } from '../native-bridge/fake-reader';

const CH340 = { vendorId: '1a86', productId: '7523', manufacturer: 'QinHeng' };

let dir: string;
let setup: ReaderSetup;
let station: Station;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'idhini-shell-reader-preference-'));
  setup = await stationReaders({
    workstationID: 'WARD-PC-4',
    version: '0.1.0-test',
    // No hardware service anywhere; the station's service on any free port.
    monitor: { baseUrls: ['http://127.0.0.1:9'], pollIntervalMs: 60_000, timeoutMs: 500, watchDeviceEvents: false },
    preferredPort: 0,
    listings: {
      listSerialPorts: async () => [
        { path: 'COM3', serialNumber: 'A1', ...CH340 },
        { path: 'COM4', serialNumber: 'B2', ...CH340 },
      ],
      listHidDevices: async () => ({ availability: { available: true, hidapiVersion: 'test' }, devices: [] }),
      openReader: async (candidate) => {
        const reader = new FakeReader({ id: `zfm:${candidate.path}`, path: candidate.path });
        return { reader, info: await reader.probe() };
      },
    },
  });
  station = createStation({
    databasePath: path.join(dir, 'station.db'),
    secrets: memorySecretStore(),
    exchangeClientFactory: createExchangeClient,
    readers: setup.readers,
    host: 'electron',
    log: { destination: { write: () => undefined } },
    initialSettings: { exchangeBaseUrl: 'https://exchange.example.com', allowedLinkOrigins: ['https://payer.example.com'], reader: { source: 'station-reader', readerId: 'zfm:COM4' } },
    // Outside training the station opens with a staff member's PIN.
    provisioning: { source: 'launcher', settings: {}, staff: [{ name: 'Ward nurse', role: 'nurse', pin: '2468' }] },
  });
  await station.start();
  await station.bridge.invoke('station.unlock', { pin: '2468' });
});

afterAll(async () => {
  await station.stop();
  await setup.close();
  await rm(dir, { recursive: true, force: true });
});

async function stationReader(): Promise<string | null> {
  const outcome = await station.bridge.invoke('readers.state', {});
  if (!outcome.ok) throw new Error(outcome.error.code);
  return outcome.value.reader.readerId;
}

async function chooseInSettings(readerId: string | null): Promise<void> {
  const outcome = await station.bridge.invoke('settings.update', { reader: { source: 'station-reader', readerId } });
  if (!outcome.ok) throw new Error(outcome.error.code);
}

describe('the reader chosen in settings', () => {
  it('is the station’s reader from the start, and follows every change of settings', async () => {
    await vi.waitFor(async () => expect(await stationReader()).toBe('zfm:COM4'), { timeout: 5000, interval: 20 });
    await chooseInSettings('zfm:COM3');
    expect(await stationReader()).toBe('zfm:COM3');
    // No choice any more: the reader in use stays the station's.
    await chooseInSettings(null);
    expect(await stationReader()).toBe('zfm:COM3');
    await chooseInSettings('zfm:COM4');
    expect(await stationReader()).toBe('zfm:COM4');
  });
});
