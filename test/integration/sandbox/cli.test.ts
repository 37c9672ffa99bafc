// The CLI as a user runs it: `tsx electron/sandbox/cli.ts --port N`, the URL line once it accepts
// requests, a clean exit on SIGTERM, and a clear refusal of bad arguments.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const CLI = resolve(root, 'electron/sandbox/cli.ts');
const children: ChildProcessWithoutNullStreams[] = [];

function run(args: string[]): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], { cwd: root, env: { ...process.env, NODE_NO_WARNINGS: '1' } });
  children.push(child);
  return child;
}

function collect(child: ChildProcessWithoutNullStreams) {
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (c: Buffer) => (out.stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out.stderr += c.toString()));
  return out;
}

function exited(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return new Promise((r) => (child.exitCode !== null ? r(child.exitCode) : child.once('exit', (code) => r(code))));
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

describe('npm run sandbox', () => {
  it('prints one line with http://127.0.0.1:N once it serves, and exits 0 on SIGTERM', async () => {
    const port = await freePort();
    const child = run(['--port', String(port), '--latency-ms', '5', '--fail-rate', '0']);
    const out = collect(child);
    const started = Date.now();
    while (!out.stdout.includes('\n') && Date.now() - started < 20_000 && child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
    const lines = out.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`http://127.0.0.1:${port}`);
    const r = await fetch(`http://127.0.0.1:${port}/api/v1/tenants/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'client_id=demo-hospital&client_secret=demo-hospital-secret',
    });
    expect(r.status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
  });

  it('refuses an unknown flag and a bad value with a clear message and a non-zero exit', async () => {
    const unknown = run(['--port', '0', '--frobnicate']);
    const bad = run(['--fail-rate', '1.5']);
    const json = run(['--port', 'eighty', '--json']);
    const profile = run(['--port', '0', '--profile', 'village']);
    const both = run(['--port', '0', '--profile', 'ward', '--latency-ms', '300']);
    const [a, b, c, d, e] = [collect(unknown), collect(bad), collect(json), collect(profile), collect(both)];
    const codes = await Promise.all([exited(unknown), exited(bad), exited(json), exited(profile), exited(both)]);
    expect(codes.every((code) => code !== 0 && code !== null)).toBe(true);
    expect(a.stderr).toMatch(/Unknown option '--frobnicate'/);
    expect(b.stderr).toContain("--fail-rate must be a number from 0 to 1, got '1.5'");
    expect(JSON.parse(c.stdout.trim())).toEqual({ error: { code: 'USAGE', message: "--port must be an integer from 0 to 65535, got 'eighty'" } });
    expect(d.stderr).toContain("--profile must be one of ward, got 'village'");
    expect(e.stderr).toContain('--profile sets its own latencies and failures');
  });

  it('reports a port already in use', async () => {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    try {
      const child = run(['--port', String(port)]);
      const out = collect(child);
      expect(await exited(child)).toBe(1);
      expect(out.stderr).toContain(`port ${port} is already in use`);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
