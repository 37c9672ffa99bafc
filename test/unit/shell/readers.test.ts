// The Electron shell's production readers (electron/main/readers.ts) around a real station core:
// the hardware-service monitor, the reader manager with the real reader factory (listings given by
// the test: no serial port, node-hid unavailable) and the station's device service. While a
// stand-in for the exchange's hardware service answers, the station's service stays off; when it
// stops, the station's service takes its port with CORS from settings.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ReaderSetup } from '../../../electron/main/reader-setup';
import { stationReaders } from '../../../electron/main/readers';
import { createExchangeClient } from '../../../electron/payer';
import { createStation, memorySecretStore, type Station } from '../../../electron/station';

const PAYER = 'https://payer.example.com';

let dir: string;
let official: Server;
let port: number;
let setup: ReaderSetup;
let station: Station;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'idhini-shell-readers-'));
  official = createServer((request, response) => {
    if (request.url !== '/status') return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ workstationID: 'WS-OFFICIAL-02', devices: [{ deviceId: 'SCN-9', status: 'connected', type: 'fingerprint' }], isAuthed: true }));
  });
  await new Promise<void>((resolve) => official.listen(0, '127.0.0.1', resolve));
  port = (official.address() as AddressInfo).port;
  setup = await stationReaders({
    workstationID: 'WARD-PC-3',
    version: '0.1.0-test',
    monitor: { baseUrls: [`http://127.0.0.1:${port}`], pollIntervalMs: 50, timeoutMs: 1000, watchDeviceEvents: false },
    preferredPort: port,
    listings: { listSerialPorts: async () => [], listHidDevices: async () => ({ availability: { available: false, reason: 'libusb is missing (test)' }, devices: [] }) },
  });
  station = createStation({
    databasePath: path.join(dir, 'station.db'),
    secrets: memorySecretStore(),
    exchangeClientFactory: createExchangeClient,
    readers: setup.readers,
    host: 'electron',
    log: { destination: { write: () => undefined } },
    initialSettings: { exchangeBaseUrl: 'https://exchange.example.com', allowedLinkOrigins: [PAYER] },
    // Outside training the station opens with a staff member's PIN.
    provisioning: { source: 'launcher', settings: {}, staff: [{ name: 'Ward nurse', role: 'nurse', pin: '2468' }] },
  });
  await station.start();
  await station.bridge.invoke('station.unlock', { pin: '2468' });
});

afterAll(async () => {
  await station.stop();
  await setup.close();
  official.closeAllConnections();
  await new Promise((resolve) => official.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

async function ok<T>(name: 'readers.state' | 'station.status'): Promise<T> {
  const outcome = await station.bridge.invoke(name, {});
  if (!outcome.ok) throw new Error(`${name}: ${outcome.error.code}`);
  return outcome.value as T;
}

type Readers = { hardwareService: { state: string; workstationId: string | null }; localDeviceService: { state: string; url: string | null; message: string | null }; reader: { state: string } };

describe('production readers in the Electron shell', () => {
  it('leaves the payer’s page to the hardware service while it runs, then offers the station’s readers on its port', async () => {
    const during = await ok<Readers>('readers.state');
    expect(during.hardwareService).toMatchObject({ state: 'ready', workstationId: 'WS-OFFICIAL-02' });
    expect(during.localDeviceService).toMatchObject({ state: 'off', url: null });
    expect(during.reader.state).toBe('absent');
    expect((await ok<{ unavailablePieces: { piece: string }[] }>('station.status')).unavailablePieces).toEqual([{ piece: 'node-hid', reason: 'libusb is missing (test)' }]);

    official.closeAllConnections();
    await new Promise((resolve) => official.close(resolve));
    await vi.waitFor(async () => expect((await ok<Readers>('readers.state')).localDeviceService.state).toBe('running'), { timeout: 5000, interval: 50 });
    const after = await ok<Readers>('readers.state');
    expect(after.localDeviceService).toEqual({ state: 'running', url: `http://127.0.0.1:${port}`, message: null });

    const fromPayer = await fetch(`http://127.0.0.1:${port}/status`, { headers: { origin: PAYER } });
    expect(fromPayer.status).toBe(200);
    expect(fromPayer.headers.get('access-control-allow-origin')).toBe(PAYER);
    expect(await fromPayer.json()).toMatchObject({ provider: 'idhini-station', workstationID: 'WARD-PC-3', devices: [] });
    expect((await fetch(`http://127.0.0.1:${port}/status`, { headers: { origin: 'https://attacker.example' } })).status).toBe(403);
  });
});
