// `npm run station:web -- --port N` as contracts.md fixes it, spawned as a child process: one line
// with each URL once ready (the sandbox on N+1 by default), the renderer and the bridge served.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBridge, secretOf } from './bridge-client';
import { startStationWeb, urlIn, type StationWebProcess } from '../../support/station-web-process';

let station: StationWebProcess;
let lines: string[] = [];
let port: number;

function isFree(candidate: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(candidate, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A port N with N+1 free too, for the sandbox's default. */
async function freePair(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const candidate = 20_000 + Math.floor(Math.random() * 40_000);
    if ((await isFree(candidate)) && (await isFree(candidate + 1))) return candidate;
  }
  throw new Error('no free pair of ports');
}

beforeAll(async () => {
  port = await freePair();
  station = await startStationWeb(['--port', String(port)], 2);
  lines = station.lines;
}, 150_000);

afterAll(async () => {
  await station?.stop();
});

describe('npm run station:web -- --port N', () => {
  it('prints one line with the station URL (secret in the fragment) and one with the sandbox on N+1', () => {
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`http://127\\.0\\.0\\.1:${port}/#k=[A-Za-z0-9_-]{32,}$`));
    expect(lines[1]).toMatch(new RegExp(`http://127\\.0\\.0\\.1:${port + 1}$`));
  });

  it('serves the renderer with its CSP, frame-src naming the sandbox', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/`);
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/<html/i);
    expect(response.headers.get('content-security-policy')).toContain(`frame-src http://127.0.0.1:${port + 1}`);
  });

  it('serves the sandbox on N+1', async () => {
    const response = await fetch(`http://127.0.0.1:${port + 1}/`);
    expect(await response.json()).toMatchObject({ service: 'idhini-sandbox' });
  });

  it('carries the contract over the bridge with the printed secret: training mode, browser host', async () => {
    const stationUrl = urlIn(lines[0]);
    const client = await connectBridge(`http://127.0.0.1:${port}`, secretOf(stationUrl));
    const status = await client.invoke('station.status', {});
    expect(status).toMatchObject({ ok: true, value: { host: 'browser', trainingMode: true } });
    const readers = await client.invoke('readers.state', {});
    expect(readers).toMatchObject({ ok: true, value: { localDeviceService: { state: 'running' } } });
    client.close();
  });
});
