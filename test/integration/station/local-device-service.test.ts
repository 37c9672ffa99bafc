// The station's own local device service as the core runs it (electron/station/device-service.ts),
// over real HTTP: its CORS follows the link allowlist in settings (plus the sandbox in training),
// it stays off while the exchange's hardware service runs — and off its port — and takes that port
// when the hardware service goes away; readers.state says which, and why.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HardwareServiceMonitor } from '../../../native-bridge/agent';
import { VirtualReader } from '../../../native-bridge/drivers/virtual-reader';
import { singleReaderSource, startLocalDeviceService, type LocalDeviceServiceOptions } from '../../../native-bridge/service';
import { LocalDeviceServiceController, nativeReaders } from '../../../electron/station';
import { eventually, startWorld, type StationHandle, type World } from './harness';

const PAYER = 'https://payer.example.com';
const OTHER = 'https://elsewhere.example.com';

let world: World;
let reader: VirtualReader;
const cleanups: (() => Promise<unknown> | unknown)[] = [];

beforeAll(async () => {
  world = await startWorld();
  reader = new VirtualReader({ sandboxUrl: world.sandbox.url, fingerDelayMs: 10 });
});
afterEach(async () => {
  // Stations first (they drive the service), then the service, then whatever stood in for the hardware service.
  for (const s of world.stations.splice(0)) await s.station.stop();
  while (cleanups.length > 0) await cleanups.pop()!();
});
afterAll(async () => {
  await reader.close();
  await world.close();
});

/** What a browser at `origin` gets from GET /status: the status code and the CORS header. */
async function fromPage(serviceUrl: string, origin: string): Promise<{ status: number; allowOrigin: string | null }> {
  const response = await fetch(`${serviceUrl}/status`, { headers: { origin } });
  await response.arrayBuffer();
  return { status: response.status, allowOrigin: response.headers.get('access-control-allow-origin') };
}

async function listening(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function closed(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** A stand-in for the exchange's hardware service: GET /status as the field notes show it. */
function officialService(): Server {
  return createServer((request, response) => {
    if (request.url !== '/status') return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ workstationID: 'WS-OFFICIAL-01', devices: [{ deviceId: 'SCN-1', status: 'connected', type: 'fingerprint' }], card_readers: [], isAuthed: true, version: '3.1.0' }));
  });
}

async function stationWith(controller: LocalDeviceServiceController, monitor?: HardwareServiceMonitor): Promise<StationHandle> {
  const readers = nativeReaders({ localService: controller, reader, readerInfo: await reader.probe(), ...(monitor === undefined ? {} : { hardwareService: monitor }) });
  cleanups.push(() => readers.close());
  // The link origins and training mode are the administrator's: she is signed in.
  const s = await world.station({ readers, extra: { provisioning: { source: 'launcher', settings: {}, staff: [{ name: 'IT officer', role: 'administrator', pin: '771199' }] } } });
  await s.ok('station.unlock', { pin: '771199' });
  return s;
}

describe('the local device service follows settings', () => {
  it('allows exactly the link origins (and the sandbox in training), following their changes without a restart', async () => {
    const starts: LocalDeviceServiceOptions[] = [];
    const controller = new LocalDeviceServiceController({
      devices: singleReaderSource(reader),
      port: 0,
      workstationID: 'WS-STATION-07',
      startService: (options) => {
        starts.push(options);
        return startLocalDeviceService(options);
      },
    });
    cleanups.push(() => controller.close());
    const s = await stationWith(controller);

    // Training on the sandbox: its origin is the allowlist (the harness's first-run settings).
    const first = (await s.ok('readers.state', {})).localDeviceService;
    expect(first).toEqual({ state: 'running', url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), message: null });
    const url = first.url!;
    expect(await fromPage(url, world.sandbox.url)).toEqual({ status: 200, allowOrigin: world.sandbox.url });
    expect(await fromPage(url, PAYER)).toEqual({ status: 403, allowOrigin: null });

    // The payer's origin added: allowed at once, on the port the page already knows; others still refused.
    await s.ok('settings.update', { allowedLinkOrigins: [PAYER] });
    expect((await s.ok('readers.state', {})).localDeviceService).toEqual({ state: 'running', url, message: null });
    expect(await fromPage(url, PAYER)).toEqual({ status: 200, allowOrigin: PAYER });
    expect(await fromPage(url, world.sandbox.url)).toEqual({ status: 200, allowOrigin: world.sandbox.url });
    expect(await fromPage(url, OTHER)).toEqual({ status: 403, allowOrigin: null });

    // Out of training the sandbox is just another origin.
    await s.ok('settings.update', { trainingMode: false });
    expect(await fromPage(url, world.sandbox.url)).toEqual({ status: 403, allowOrigin: null });
    expect(await fromPage(url, PAYER)).toEqual({ status: 200, allowOrigin: PAYER });

    // Neither those changes nor one elsewhere in settings restarted it: a capture under way would have been cut.
    await s.ok('settings.update', { language: 'sw', idleLockMinutes: 7 });
    expect(starts.map((o) => [...o.allowedOrigins])).toEqual([[world.sandbox.url]]);
    expect((await s.ok('readers.state', {})).localDeviceService).toEqual({ state: 'running', url, message: null });

    // No origin at all: no page could use it, so it is off, and says why (the renderer hears it at once).
    const events = s.events.length;
    await s.ok('settings.update', { allowedLinkOrigins: [] });
    const off = (await s.ok('readers.state', {})).localDeviceService;
    expect(off).toMatchObject({ state: 'off', url: null, message: expect.stringMatching(/No authorization-link origin/) });
    expect(s.events.slice(events)).toContainEqual({ type: 'readers.changed', readers: expect.objectContaining({ localDeviceService: off }) });
    await expect(fetch(`${url}/status`)).rejects.toThrow();
    // Fingerprint consent then has no workstation to name.
    expect(controller.workstationId).toBeUndefined();
  });

  it('reports a port it cannot have as failed, and the station still works', async () => {
    const squatter = createServer((_req, res) => res.end('mine'));
    const port = await listening(squatter);
    cleanups.push(() => closed(squatter));
    const controller = new LocalDeviceServiceController({ devices: singleReaderSource(reader), port, workstationID: 'WS-STATION-07' });
    cleanups.push(() => controller.close());
    const s = await stationWith(controller);
    expect((await s.ok('readers.state', {})).localDeviceService).toMatchObject({ state: 'failed', url: null, message: expect.stringContaining(`Port ${port} is taken`) });
    expect((await s.ok('station.status', {})).locked).toBe(false);
  });
});

describe('the local device service and the exchange’s hardware service', () => {
  it('stays off, and off the hardware service’s port, while that service runs; takes the port when it stops', async () => {
    const official = officialService();
    const port = await listening(official);
    let officialUp = true;
    cleanups.push(() => (officialUp ? closed(official) : undefined));
    const monitor = new HardwareServiceMonitor({ baseUrls: [`http://127.0.0.1:${port}`], pollIntervalMs: 50, timeoutMs: 1000, watchDeviceEvents: false });
    monitor.start();
    cleanups.push(() => monitor.stop());
    const starts: LocalDeviceServiceOptions[] = [];
    const controller = new LocalDeviceServiceController({
      devices: singleReaderSource(reader),
      officialService: monitor,
      port: 'auto',
      preferredPort: port,
      workstationID: 'WS-STATION-07',
      startService: (options) => {
        starts.push(options);
        return startLocalDeviceService(options);
      },
    });
    cleanups.push(() => controller.close());
    const s = await stationWith(controller, monitor);

    const whileOfficial = await s.ok('readers.state', {});
    expect(whileOfficial.hardwareService).toMatchObject({ state: 'ready', workstationId: 'WS-OFFICIAL-01', scanners: [{ deviceId: 'SCN-1' }] });
    expect(whileOfficial.localDeviceService).toMatchObject({ state: 'off', url: null, message: expect.stringMatching(/hardware service runs on this computer/) });
    expect(starts).toEqual([]);
    // The port still answers with the exchange's service, not the station's.
    expect(await (await fetch(`http://127.0.0.1:${port}/status`)).json()).toMatchObject({ workstationID: 'WS-OFFICIAL-01' });

    // The hardware service stops: the station offers its own readers where the payer's page looks.
    await closed(official);
    officialUp = false;
    const taken = await eventually(() => s.ok('readers.state', {}), (r) => r.localDeviceService.state === 'running', 'the station’s service');
    expect(taken.localDeviceService).toEqual({ state: 'running', url: `http://127.0.0.1:${port}`, message: null });
    expect(starts.map((o) => o.port)).toEqual(['auto']);
    const own = (await (await fetch(`http://127.0.0.1:${port}/status`)).json()) as { provider: string; workstationID: string; devices: { deviceId: string }[] };
    expect(own).toMatchObject({ provider: 'idhini-station', workstationID: 'WS-STATION-07', devices: [{ deviceId: reader.id }] });

    // The monitor now finds the station's own service on that port: that is not the exchange's.
    await monitor.check();
    const after = await s.ok('readers.state', { refresh: true });
    expect(after.hardwareService).toMatchObject({ state: 'not-running', scanners: [] });
    expect(after.localDeviceService.state).toBe('running');
    expect(controller.workstationId).toBe('WS-STATION-07');
    expect((await s.ok('readers.list', {})).items.map((r) => r.connection)).toEqual(['virtual']);
  });

  it('never shares the port with another program that answers there: any free port, and says so', async () => {
    const other = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('not a hardware service'));
    const port = await listening(other);
    cleanups.push(() => closed(other));
    const monitor = new HardwareServiceMonitor({ baseUrls: [`http://127.0.0.1:${port}`], pollIntervalMs: 1000, timeoutMs: 1000, watchDeviceEvents: false });
    monitor.start();
    cleanups.push(() => monitor.stop());
    const controller = new LocalDeviceServiceController({ devices: singleReaderSource(reader), officialService: monitor, port: 'auto', preferredPort: port, workstationID: 'WS-STATION-07' });
    cleanups.push(() => controller.close());
    const s = await stationWith(controller, monitor);
    const state = await s.ok('readers.state', {});
    expect(state.hardwareService.state).toBe('not-running');
    expect(state.localDeviceService).toMatchObject({ state: 'running', message: expect.stringContaining(`Port ${port} is taken by another program`) });
    expect(state.localDeviceService.url).not.toBe(`http://127.0.0.1:${port}`);
    expect(await (await fetch(`http://127.0.0.1:${port}/status`)).text()).toBe('not a hardware service');
  });
});
