import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ReaderError } from '../../../native-bridge/drivers/reader';
import { singleReaderSource, type DeviceSource } from '../../../native-bridge/service/device-source';
import { PortUnavailableError } from '../../../native-bridge/service/port';
import {
  describeServiceEvent,
  startLocalDeviceService,
  type LocalDeviceService,
  type LocalDeviceServiceEvent,
} from '../../../native-bridge/service/server';
import { FakeReader } from '../../unit/native-bridge/fake-reader';
import { freePort, startStandIn } from './hardware-service-stand-in';

const SANDBOX = 'http://127.0.0.1:4010';
const PAYER = 'https://ekyc.payer.example';
const STRANGER = 'https://evil.example';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function service(devices: DeviceSource, extra: { port?: number | 'auto'; preferredPort?: number } = {}) {
  const events: LocalDeviceServiceEvent[] = [];
  const started = await startLocalDeviceService({
    devices,
    allowedOrigins: [SANDBOX, `${PAYER}/`],
    port: extra.port ?? 0,
    ...(extra.preferredPort !== undefined ? { preferredPort: extra.preferredPort } : {}),
    workstationID: 'WS-TEST-01',
    version: '0.1.0-test',
  });
  started.onEvent((event) => events.push(event));
  cleanups.push(() => started.close());
  return { svc: started, events };
}

function fakeReader(id = 'zfm-ttyUSB0') {
  const reader = new FakeReader({ id, template: Uint8Array.from([1, 2, 3, 250]) });
  return { reader, source: singleReaderSource(reader, reader.info) };
}

const get = (svc: LocalDeviceService, path: string, origin?: string) =>
  fetch(`${svc.url}${path}`, { headers: origin ? { origin } : {} });

const capture = (svc: LocalDeviceService, body: unknown, origin: string | undefined = SANDBOX) =>
  fetch(`${svc.url}/capture`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}) },
    body: JSON.stringify(body),
  });

/** A request with headers fetch() will not let a caller set (Host), as a rebinding page's would arrive. */
function raw(svc: LocalDeviceService, o: { method?: string; path: string; headers: Record<string, string>; body?: string }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: svc.port, method: o.method ?? 'GET', path: o.path, headers: o.headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(o.body);
  });
}

describe('the local device service', () => {
  it('answers GET /status in the hardware service’s shape', async () => {
    const { reader, source } = fakeReader();
    await reader.probe();
    const { svc } = await service(source);
    const response = await get(svc, '/status');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      workstationID: 'WS-TEST-01',
      devices: [{ deviceId: 'zfm-ttyUSB0', status: 'connected', type: 'fingerprint', protocol: 'zfm', transport: 'serial', model: 'Fake R503' }],
      card_readers: [],
      isAuthed: true,
      version: '0.1.0-test',
      provider: 'idhini-station',
    });
    expect(svc.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('refuses an unlisted origin with 403 and no CORS headers, preflight included', async () => {
    const { source } = fakeReader();
    const { svc, events } = await service(source);
    const plain = await get(svc, '/status', STRANGER);
    expect(plain.status).toBe(403);
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
    expect(await plain.json()).toMatchObject({ error: 'ORIGIN_NOT_ALLOWED' });

    const preflight = await fetch(`${svc.url}/capture`, {
      method: 'OPTIONS',
      headers: { origin: STRANGER, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBe(403);
    expect([...preflight.headers.keys()].filter((h) => h.startsWith('access-control-'))).toEqual([]);

    const posted = await capture(svc, { hint: { patient_id: 'CR1' } }, STRANGER);
    expect(posted.status).toBe(403);
    expect(events.map((e) => e.type)).toEqual(['request-refused', 'request-refused', 'request-refused']);
    expect(describeServiceEvent(events[2]!)).toBe(`refused POST /capture from ${STRANGER}`);
  });

  it('accepts a listed origin, preflight included (with Private Network Access)', async () => {
    const { source } = fakeReader();
    const { svc } = await service(source);
    const preflight = await fetch(`${svc.url}/capture`, {
      method: 'OPTIONS',
      headers: {
        origin: PAYER,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
        'access-control-request-private-network': 'true',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(PAYER);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, POST');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type');
    expect(preflight.headers.get('access-control-allow-private-network')).toBe('true');

    const status = await get(svc, '/status', SANDBOX);
    expect(status.status).toBe(200);
    expect(status.headers.get('access-control-allow-origin')).toBe(SANDBOX);
    expect(status.headers.get('vary')).toMatch(/Origin/);
  });

  it('serves a capture from the chosen reader, passing the hint, and announces it', async () => {
    const { reader, source } = fakeReader();
    await reader.probe();
    const { svc, events } = await service(source);
    const response = await capture(svc, { hint: { patient_id: 'CR7001234567-8' }, finger: 'right-thumb', timeout_ms: 5000 });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toEqual({
      template: Buffer.from([1, 2, 3, 250]).toString('base64'),
      templateBytes: 4,
      deviceId: 'zfm-ttyUSB0',
      protocol: 'zfm',
      capturedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(response.headers.get('access-control-allow-origin')).toBe(SANDBOX);
    expect(reader.captures[0]).toMatchObject({ timeoutMs: 5000, hint: { patientId: 'CR7001234567-8' }, finger: 'right-thumb' });
    expect(events.map((e) => e.type)).toEqual(['capture-requested', 'capture-completed']);
    expect(describeServiceEvent(events[0]!)).toBe(`capture requested by ${SANDBOX}`);
  });

  it('says why a capture failed, in HTTP and in an event', async () => {
    const { reader, source } = fakeReader();
    await reader.probe();
    const { svc, events } = await service(source);

    reader.nextCaptureError = new ReaderError('no-finger', 'No finger within 1000 ms.');
    const noFinger = await capture(svc, { timeout_ms: 1000 });
    expect(noFinger.status).toBe(408);
    expect(await noFinger.json()).toEqual({ error: 'NO_FINGER', message: 'No finger within 1000 ms.' });

    reader.nextCaptureError = new ReaderError('checksum', 'bad checksum in ACK');
    expect((await capture(svc, {})).status).toBe(502);

    const invalid = await capture(svc, { timeout_ms: 'soon' });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ error: 'VALIDATION_ERROR' });

    const tooLong = await capture(svc, { timeout_ms: 3_600_000 });
    expect(tooLong.status).toBe(400);

    expect(events.filter((e) => e.type === 'capture-failed').map((e) => e.type === 'capture-failed' && e.error)).toEqual([
      'NO_FINGER',
      'READER_ERROR',
      'VALIDATION_ERROR',
    ]);
  });

  it('serves one capture at a time, and stops waiting when the page goes away', async () => {
    const { reader, source } = fakeReader();
    await reader.probe();
    reader.holdCaptures = true;
    const { svc } = await service(source);
    const leaving = new AbortController();
    const first = fetch(`${svc.url}/capture`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: SANDBOX },
      body: '{}',
      signal: leaving.signal,
    }).catch((error: unknown) => error);
    await waitFor(() => reader.captures.length === 1);
    const second = await capture(svc, {});
    expect(second.status).toBe(409);
    expect(await second.json()).toMatchObject({ error: 'READER_BUSY' });
    leaving.abort();
    await first;
    await waitFor(() => reader.state.kind === 'idle');
    expect(reader.captures[0]!.signal?.aborted).toBe(true);
  });

  it('has no reader to offer when none is chosen', async () => {
    const { svc } = await service({ readers: () => [], chosen: () => undefined, onChange: () => () => undefined });
    const response = await capture(svc, {});
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ error: 'NO_READER' });
  });

  it('sends the status on /ws/devices at once and on every change, to listed origins only', async () => {
    const { reader, source } = fakeReader();
    const { svc } = await service(source);
    const ws = new WebSocket(`${svc.url.replace('http', 'ws')}/ws/devices`, { origin: PAYER });
    cleanups.push(async () => ws.terminate());
    const messages: Record<string, unknown>[] = [];
    ws.on('message', (data: Buffer) => messages.push(JSON.parse(data.toString()) as Record<string, unknown>));
    await waitFor(() => messages.length === 1);
    expect(messages[0]).toMatchObject({ event: 'status', workstationID: 'WS-TEST-01', devices: [{ status: 'disconnected' }] });
    await reader.probe();
    await waitFor(() => messages.length === 2);
    expect(messages[1]).toMatchObject({ event: 'devices', devices: [{ deviceId: 'zfm-ttyUSB0', status: 'connected' }] });

    const refused = new WebSocket(`${svc.url.replace('http', 'ws')}/ws/devices`, { origin: STRANGER });
    const status = await new Promise<number>((resolve) => {
      refused.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      refused.on('error', () => undefined);
    });
    expect(status).toBe(403);
  });

  it('changes its origins without a restart: one removed loses access at once, its WebSockets and its capture under way included; a kept one’s capture goes on', async () => {
    const { reader, source } = fakeReader();
    await reader.probe();
    reader.holdCaptures = true;
    const { svc, events } = await service(source);
    const open = async (origin: string) => {
      const ws = new WebSocket(`${svc.url.replace('http', 'ws')}/ws/devices`, { origin });
      cleanups.push(async () => ws.terminate());
      const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
      await new Promise((resolve) => ws.once('message', resolve));
      return { ws, closed };
    };
    const payerPage = await open(PAYER);
    const sandboxPage = await open(SANDBOX);
    // The sandbox's page is waiting for the patient's finger.
    const held = capture(svc, {}, SANDBOX);
    await waitFor(() => reader.captures.length === 1);

    svc.setAllowedOrigins([SANDBOX, STRANGER]);
    expect((await get(svc, '/status', PAYER)).status).toBe(403);
    expect((await get(svc, '/status', STRANGER)).status).toBe(200);
    await payerPage.closed;
    expect(sandboxPage.ws.readyState).toBe(WebSocket.OPEN);
    expect(reader.captures[0]!.signal?.aborted).toBe(false);
    expect(reader.state.kind).toBe('waiting-for-finger');

    // Now the sandbox goes too: the capture it asked for is cancelled and its socket closed.
    svc.setAllowedOrigins([STRANGER]);
    const cancelled = await held;
    expect(cancelled.status).toBe(499);
    expect(await cancelled.json()).toMatchObject({ error: 'CANCELLED' });
    await sandboxPage.closed;
    expect(events.filter((e) => e.type === 'capture-failed').map((e) => e.origin)).toEqual([SANDBOX]);
    expect((await get(svc, '/status', SANDBOX)).status).toBe(403);

    // Something that is not an origin changes nothing.
    expect(() => svc.setAllowedOrigins([STRANGER, 'not an origin'])).toThrow(RangeError);
    expect((await get(svc, '/status', STRANGER)).status).toBe(200);
    expect((await get(svc, '/status', STRANGER)).headers.get('access-control-allow-origin')).toBe(STRANGER);
  });

  // Issue 20, defect 6: a DNS-rebinding page read /status (host name, devices, version) through its
  // own name, and any local caller without an Origin got a fingerprint template.
  it('answers only requests addressed to 127.0.0.1, localhost or [::1] with its port: a rebinding name gets 421, HTTP and WebSocket alike', async () => {
    const { reader, source } = fakeReader();
    await reader.probe();
    const { svc, events } = await service(source);
    for (const host of [`127.0.0.1:${svc.port}`, `localhost:${svc.port}`, `LOCALHOST:${svc.port}`, `[::1]:${svc.port}`]) {
      expect((await raw(svc, { path: '/status', headers: { host } })).status, host).toBe(200);
    }
    for (const host of [`rebind.attacker.example:${svc.port}`, `127.0.0.1.nip.io:${svc.port}`, '127.0.0.1', `127.0.0.1:${svc.port + 1}`, `localhost.attacker.example:${svc.port}`]) {
      const refused = await raw(svc, { path: '/status', headers: { host } });
      expect(refused.status, host).toBe(421);
      expect(JSON.parse(refused.body)).toMatchObject({ error: 'HOST_NOT_ALLOWED' });
      expect(refused.body).not.toContain('WS-TEST-01');
    }
    // The page's own origin is even allowed: the Host still decides.
    const rebound = await raw(svc, { method: 'POST', path: '/capture', headers: { host: `rebind.attacker.example:${svc.port}`, origin: SANDBOX, 'content-type': 'application/json' }, body: '{}' });
    expect(rebound.status).toBe(421);
    expect(reader.captures).toHaveLength(0);
    const ws = new WebSocket(`ws://127.0.0.1:${svc.port}/ws/devices`, { headers: { host: `rebind.attacker.example:${svc.port}` } });
    const status = await new Promise<number>((resolve) => {
      ws.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      ws.on('error', () => undefined);
    });
    expect(status).toBe(421);
    expect(events.filter((e) => e.type === 'request-refused').map((e) => e.type === 'request-refused' && e.reason)).toEqual(Array(7).fill('host-not-allowed'));
    expect(describeServiceEvent(events.at(-1)!)).toBe('refused GET /ws/devices from a program on this computer (not addressed to this machine: DNS rebinding?)');
  });

  it('takes a fingerprint only for an allowed origin: a program on this machine without an Origin reads the status but gets no capture', async () => {
    const { reader, source } = fakeReader();
    await reader.probe();
    const { svc, events } = await service(source);
    const withoutOrigin = await capture(svc, { hint: { patient_id: 'CR1' } }, '');
    expect(withoutOrigin.status).toBe(403);
    expect(await withoutOrigin.json()).toMatchObject({ error: 'ORIGIN_REQUIRED' });
    expect(reader.captures).toHaveLength(0);
    expect(events.map((e) => e.type)).toEqual(['request-refused']);
    expect(describeServiceEvent(events[0]!)).toBe('refused POST /capture from a program on this computer (no Origin: a capture is only for an allowed page)');
    expect((await get(svc, '/status')).status).toBe(200);
    expect((await capture(svc, {}, SANDBOX)).status).toBe(200);
    expect(reader.captures).toHaveLength(1);
  });

  it('takes the preferred port only when nothing answers there', async () => {
    const official = await startStandIn();
    cleanups.push(() => official.stop());
    const { source } = fakeReader();
    const { svc } = await service(source, { port: 'auto', preferredPort: official.port });
    expect(svc.port).not.toBe(official.port);
    // The official service still has its port and still answers.
    expect(await (await fetch(`${official.baseUrl}/status`)).json()).toMatchObject({ workstationID: 'WS-KNH-017' });

    const free = await freePort();
    const { svc: second } = await service(fakeReader('other').source, { port: 'auto', preferredPort: free });
    expect(second.port).toBe(free);

    await expect(
      startLocalDeviceService({ devices: source, allowedOrigins: [SANDBOX], port: official.port }),
    ).rejects.toThrow(PortUnavailableError);
  });
});

async function waitFor(condition: () => boolean, withinMs = 3000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
