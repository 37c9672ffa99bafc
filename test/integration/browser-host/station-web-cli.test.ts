// `npm run station:web -- --port N` as contracts.md fixes it, spawned as a child process: one line
// with each URL once ready (the sandbox on N+1 by default), the renderer and the bridge served.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBridge, secretOf } from './bridge-client';

let child: ChildProcess;
let lines: string[] = [];
let stderr = '';
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
  // Its own process group, so teardown stops npm, its shell and the station together.
  child = spawn('npm', ['run', '--silent', 'station:web', '--', '--port', String(port)], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => reject(new Error(`no two lines within 120 s; stderr: ${stderr}`)), 120_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      lines = buffer.split('\n').filter((line) => line.trim() !== '');
      if (lines.length >= 2) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`station:web exited (${code}): ${stderr}`)));
  });
}, 150_000);

afterAll(async () => {
  if (child.pid !== undefined && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid, 'SIGTERM');
    await exited;
  }
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
    const stationUrl = /(http:\/\/\S+)/.exec(lines[0] ?? '')?.[1] ?? '';
    const client = await connectBridge(`http://127.0.0.1:${port}`, secretOf(stationUrl));
    const status = await client.invoke('station.status', {});
    expect(status).toMatchObject({ ok: true, value: { host: 'browser', trainingMode: true } });
    const readers = await client.invoke('readers.state', {});
    expect(readers).toMatchObject({ ok: true, value: { localDeviceService: { state: 'running' } } });
    client.close();
  });
});
