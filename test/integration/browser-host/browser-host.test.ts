// The browser host over real loopback HTTP and WebSocket, with a small in-test station behind it.
import { request as httpRequest } from 'node:http';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startBrowserHost, type BrowserHost } from '../../../electron/browser-host';
import { browserCsp } from '../../../electron/browser-host/csp';
import { rendererCsp } from '../../../electron/main/csp';
import { eventExamples, outputExamples } from '../../unit/contract/examples';
import { recordingLog } from '../../unit/shell/fake-electron';
import { testStation, type TestStation } from '../../unit/shell/test-station';

let dir: string;
let host: BrowserHost;
let station: TestStation;
const log = recordingLog();
const secret = 'per-launch-secret-for-the-test-0123456789';

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'idhini-browser-host-'));
  const rendererDir = path.join(dir, 'renderer');
  await mkdir(path.join(rendererDir, 'assets'), { recursive: true });
  await writeFile(path.join(rendererDir, 'index.html'), '<!doctype html><title>Idhini</title><script type="module" src="/assets/index.js"></script>');
  await writeFile(path.join(rendererDir, 'assets', 'index.js'), 'export {}');
  await writeFile(path.join(dir, 'secret.txt'), 'outside-the-renderer');
  station = testStation();
  host = await startBrowserHost({ core: station, rendererDir, secret, log, helloTimeoutMs: 300 });
});

afterAll(async () => {
  await host.close();
  await rm(dir, { recursive: true, force: true });
});

/** A raw HTTP GET, so the path reaches the server exactly as written (fetch would normalise it). */
function rawGet(pathname: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: host.port, path: pathname, method: 'GET', headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

interface Client {
  ws: WebSocket;
  frames: Record<string, unknown>[];
  closed: Promise<{ code: number; reason: string }>;
  next(predicate: (frame: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
}

function connect(origin: string | null = host.url): Promise<Client> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/bridge`, origin === null ? {} : { origin });
    const frames: Record<string, unknown>[] = [];
    const waiters: { predicate: (frame: Record<string, unknown>) => boolean; resolve: (frame: Record<string, unknown>) => void }[] = [];
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Record<string, unknown>;
      frames.push(frame);
      for (const waiter of [...waiters]) {
        if (waiter.predicate(frame)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(frame);
        }
      }
    });
    const closed = new Promise<{ code: number; reason: string }>((done) => ws.on('close', (code, reason) => done({ code, reason: reason.toString() })));
    ws.on('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    ws.on('error', reject);
    ws.on('open', () =>
      resolve({
        ws,
        frames,
        closed,
        next: (predicate) => {
          const found = frames.find(predicate);
          return found ? Promise.resolve(found) : new Promise((done) => waiters.push({ predicate, resolve: done }));
        },
      }),
    );
  });
}

async function readyClient(): Promise<Client> {
  const client = await connect();
  client.ws.send(JSON.stringify({ type: 'hello', secret }));
  await client.next((f) => f.type === 'ready');
  return client;
}

let nextId = 1;
async function invoke(client: Client, name: string, input: unknown): Promise<Record<string, unknown>> {
  const id = nextId++;
  client.ws.send(JSON.stringify({ type: 'invoke', id, name, input }));
  const result = await client.next((f) => f.type === 'result' && f.id === id);
  return result.outcome as Record<string, unknown>;
}

describe('browser host: HTTP', () => {
  it('prints a launch URL with the secret in the fragment only', () => {
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(host.launchUrl).toBe(`${host.url}/#k=${secret}`);
  });

  it('serves the renderer with its CSP, frame-src from settings', async () => {
    const index = await rawGet('/');
    expect(index.status).toBe(200);
    expect(index.body).toContain('<title>Idhini</title>');
    const csp = String(index.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`connect-src 'self' ws://127.0.0.1:${host.port}`);
    expect(csp).toContain('frame-src http://127.0.0.1:4100;');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(index.headers['x-content-type-options']).toBe('nosniff');
    expect(index.headers['referrer-policy']).toBe('no-referrer');
    expect(index.headers['cache-control']).toBe('no-store');
    const script = await rawGet('/assets/index.js');
    expect(script.status).toBe(200);
    expect(script.body).toBe('export {}');
    expect(script.headers['content-security-policy']).toBe(csp);
  });

  it('follows the allowlist as settings.update changes it', async () => {
    const client = await readyClient();
    station.answer('settings.update', { ok: true, value: { ...outputExamples['settings.get'], allowedLinkOrigins: ['https://payer.example.com', 'http://127.0.0.1:4100'] } });
    await invoke(client, 'settings.update', { allowedLinkOrigins: ['https://payer.example.com', 'http://127.0.0.1:4100'] });
    const csp = String((await rawGet('/')).headers['content-security-policy']);
    expect(csp).toContain('frame-src https://payer.example.com http://127.0.0.1:4100;');
    station.answer('settings.update', { ok: true, value: { ...outputExamples['settings.get'], allowedLinkOrigins: [] } });
    await invoke(client, 'settings.update', { allowedLinkOrigins: [] });
    expect(String((await rawGet('/')).headers['content-security-policy'])).toContain("frame-src 'none'");
    client.ws.close();
  });

  it.each(['/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/assets/..%2f..%2fsecret.txt', '/..%5csecret.txt', '/assets/%2e%2e/%2e%2e/secret.txt'])(
    'refuses the traversal %s',
    async (pathname) => {
      const response = await rawGet(pathname);
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.body).not.toContain('outside-the-renderer');
    },
  );

  it('answers 404 for what is not there, and refuses a foreign Host (DNS rebinding)', async () => {
    expect((await rawGet('/missing.js')).status).toBe(404);
    const rebound = await rawGet('/', { host: 'attacker.example.com' });
    expect(rebound.status).toBe(421);
    expect(rebound.body).not.toContain('<title>Idhini</title>');
  });
});

describe('browser host: the CSP', () => {
  const directives = (csp: string) => new Map(csp.split('; ').map((d) => [d.split(' ')[0], d] as const));

  it("is the Electron shell's policy but for the loopback WebSocket and frame-src (neither folder may import the other)", () => {
    const browser = directives(browserCsp({ hostOrigin: 'http://127.0.0.1:4000', frameOrigins: ['https://payer.example.com'] }));
    const electron = directives(rendererCsp);
    expect([...browser.keys()]).toEqual([...electron.keys()]);
    for (const [name, directive] of electron) {
      if (name === 'connect-src' || name === 'frame-src') continue;
      expect(browser.get(name)).toBe(directive);
    }
    expect(browser.get('connect-src')).toBe("connect-src 'self' ws://127.0.0.1:4000");
    expect(browser.get('frame-src')).toBe('frame-src https://payer.example.com');
  });

  it('lets only bare https (or loopback http) origins into frame-src, once each', () => {
    const csp = browserCsp({
      hostOrigin: 'http://127.0.0.1:4000',
      frameOrigins: ["https://payer.example.com; script-src 'unsafe-inline'", 'https://*', 'https://*.example.com', 'https://x;script-src', 'http://attacker.net', 'https://payer.example.com/x', 'https://payer.example.com', 'https://payer.example.com', 'http://127.0.0.1:4100'],
    });
    expect(directives(csp).get('frame-src')).toBe('frame-src https://payer.example.com http://127.0.0.1:4100');
    expect(directives(browserCsp({ hostOrigin: 'http://127.0.0.1:4000', frameOrigins: ['javascript:alert(1)'] })).get('frame-src')).toBe("frame-src 'none'");
  });
});

describe('browser host: the /bridge WebSocket', () => {
  it('refuses the upgrade from a foreign Origin, and without one', async () => {
    await expect(connect('http://attacker.example.com')).rejects.toThrow(/403/);
    await expect(connect(`http://127.0.0.1:${host.port + 1}`)).rejects.toThrow(/403/);
    await expect(connect(`http://localhost:${host.port}`)).rejects.toThrow(/403/);
    await expect(connect(null)).rejects.toThrow(/403/);
  });

  it('closes with 4401 on a wrong secret', async () => {
    const client = await connect();
    client.ws.send(JSON.stringify({ type: 'hello', secret: 'wrong' }));
    expect((await client.closed).code).toBe(4401);
    expect(client.frames).toEqual([]);
  });

  it('takes a one-time launch code once, answering it with the secret; a spent or made-up code is refused', async () => {
    const launch = host.issueLaunchUrl();
    expect(launch).toMatch(new RegExp(`^${host.url}/#c=[A-Za-z0-9_-]{32}$`));
    expect(launch).not.toContain(secret);
    const code = launch.slice(launch.indexOf('#c=') + 3);
    const first = await connect();
    first.ws.send(JSON.stringify({ type: 'hello', code }));
    expect(await first.next((f) => f.type === 'ready')).toEqual({ type: 'ready', secret });
    expect(await invoke(first, 'station.status', {})).toMatchObject({ ok: true });
    for (const spent of [code, 'made-up-code']) {
      const again = await connect();
      again.ws.send(JSON.stringify({ type: 'hello', code: spent }));
      expect((await again.closed).code).toBe(4401);
    }
  });

  it('closes with 4401 when no hello comes in time', async () => {
    const client = await connect();
    expect((await client.closed).code).toBe(4401);
  });

  it('accepts nothing before ready: an invoke first closes with 4401 unanswered', async () => {
    const before = station.calls.length;
    const client = await connect();
    client.ws.send(JSON.stringify({ type: 'invoke', id: 1, name: 'settings.get', input: {} }));
    expect((await client.closed).code).toBe(4401);
    expect(client.frames).toEqual([]);
    expect(station.calls.length).toBe(before);
  });

  it('round-trips an invoke to its result, once per id', async () => {
    const client = await readyClient();
    const outcome = await invoke(client, 'station.status', {});
    expect(outcome).toEqual({ ok: true, value: outputExamples['station.status'] });
    expect(station.calls.at(-1)).toEqual({ name: 'station.status', input: {} });
    expect(client.frames.filter((f) => f.type === 'result')).toHaveLength(1);
    client.ws.close();
  });

  it('refuses an invalid command with an outcome, before the core sees it', async () => {
    const client = await readyClient();
    const before = station.calls.length;
    expect(await invoke(client, 'station.selfDestruct', {})).toMatchObject({ ok: false, error: { code: 'UNKNOWN_COMMAND' } });
    expect(await invoke(client, 'patient.lookUp', { idType: 'National ID', idNumber: '<script>' })).toMatchObject({ ok: false, error: { code: 'VALIDATION' } });
    expect(station.calls.length).toBe(before);
    client.ws.close();
  });

  it('answers authorizationView.setArea itself: the renderer shows the link', async () => {
    const client = await readyClient();
    expect(await invoke(client, 'authorizationView.setArea', { handle: 'lk_c0ffee42', area: { x: 0, y: 0, width: 10, height: 10 } })).toEqual({ ok: true, value: { shownBy: 'renderer' } });
    client.ws.close();
  });

  it('keeps anything outside the contract from the page', async () => {
    const client = await readyClient();
    station.answer('facility.signIn', { ok: true, value: { ...outputExamples['facility.signIn'], accessToken: 'eyJ.leak' } });
    const outcome = await invoke(client, 'facility.signIn', {});
    expect(outcome).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    station.emit({ type: 'station.locked', reason: 'idle', at: '2025-03-04T09:15:00+03:00', token: 'eyJ.leak' });
    await invoke(client, 'station.status', {});
    expect(JSON.stringify(client.frames)).not.toContain('eyJ.leak');
    client.ws.close();
  });

  it('pushes events to every ready connection and to no other', async () => {
    const first = await readyClient();
    const second = await readyClient();
    const waiting = await connect();
    for (const event of eventExamples) station.emit(event);
    const eventsOf = async (client: Client) => {
      await client.next((f) => f.type === 'event' && (f.event as { type: string }).type === eventExamples.at(-1)?.type);
      return client.frames.filter((f) => f.type === 'event').map((f) => f.event);
    };
    expect(await eventsOf(first)).toEqual(eventExamples);
    expect(await eventsOf(second)).toEqual(eventExamples);
    expect(waiting.frames).toEqual([]);
    for (const client of [first, second, waiting]) client.ws.close();
  });

  it('closes with 4400 on a frame that is not an invoke', async () => {
    const client = await readyClient();
    client.ws.send('not json');
    expect((await client.closed).code).toBe(4400);
  });

  it('never logs the secret', () => {
    expect(JSON.stringify(log.lines)).not.toContain(secret);
  });
});

describe('browser host: closing', () => {
  it('has every connection closed, and logged as closed, by the time close() resolves: nothing logs after its owner ends the log', async () => {
    const ownLog = recordingLog();
    const own = await startBrowserHost({ core: testStation(), rendererDir: path.join(dir, 'renderer'), secret, log: ownLog, helloTimeoutMs: 5_000 });
    const open = (hello: boolean) =>
      new Promise<WebSocket>((resolve, reject) => {
        const ws = new WebSocket(`ws://127.0.0.1:${own.port}/bridge`, { origin: own.url });
        ws.on('error', () => undefined);
        ws.on('open', () => {
          if (!hello) return resolve(ws);
          ws.send(JSON.stringify({ type: 'hello', secret }));
          ws.once('message', () => resolve(ws));
        });
        ws.on('unexpected-response', () => reject(new Error('upgrade refused')));
      });
    // One ready, one that has not said hello yet, one whose page has just gone away.
    const sockets = await Promise.all([open(true), open(false), open(true)]);
    sockets[2]!.close();
    await own.close();
    const logged = (message: string) => ownLog.lines.filter((line) => line.message === message).map((line) => line.fields.connection);
    expect(logged('bridge connection opened')).toHaveLength(3);
    expect(logged('bridge connection closed').sort()).toEqual(logged('bridge connection opened').sort());
  });
});
