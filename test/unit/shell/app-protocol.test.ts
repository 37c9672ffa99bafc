import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appScheme, createAppProtocolHandler, resolveAppPath } from '../../../electron/main/app-protocol';
import { rendererCsp } from '../../../electron/main/csp';
import { recordingLog } from './fake-electron';

let dir: string;
let handler: (request: Request) => Promise<Response>;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'idhini-app-protocol-'));
  const root = path.join(dir, 'renderer');
  await mkdir(path.join(root, 'assets'), { recursive: true });
  await writeFile(path.join(root, 'index.html'), '<!doctype html><title>Idhini</title>');
  await writeFile(path.join(root, 'assets', 'index-abc.js'), 'console.log(1)');
  await writeFile(path.join(dir, 'secret.txt'), 'client-secret-outside-the-folder');
  await symlink(path.join(dir, 'secret.txt'), path.join(root, 'assets', 'leak.js'));
  handler = createAppProtocolHandler({ root, log: recordingLog() });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const get = (url: string) => handler(new Request(url));

describe('app:// protocol', () => {
  it('is registered as a standard, secure scheme that does not bypass the CSP', () => {
    expect(appScheme.scheme).toBe('app');
    expect(appScheme.privileges).toMatchObject({ standard: true, secure: true, bypassCSP: false });
  });

  it('serves index.html at the root and the built assets, each with the CSP and the right type', async () => {
    const index = await get('app://idhini/');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(index.headers.get('content-security-policy')).toBe(rendererCsp);
    expect(index.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await index.text()).toContain('<title>Idhini</title>');
    const script = await get('app://idhini/assets/index-abc.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('content-security-policy')).toBe(rendererCsp);
  });

  it('answers 404 for a file that is not there', async () => {
    expect((await get('app://idhini/missing.js')).status).toBe(404);
    expect((await get('app://idhini/assets')).status).toBe(404);
  });

  it.each([
    'app://idhini/..%2fsecret.txt',
    'app://idhini/%2e%2e%2fsecret.txt',
    'app://idhini/assets/..%2f..%2fsecret.txt',
    'app://idhini/..%5csecret.txt',
    'app://idhini/assets%5c..%5c..%5csecret.txt',
    'app://idhini/index.html%00.js',
    'app://idhini/C:%5cWindows%5cwin.ini',
  ])('refuses the traversal %s', async (url) => {
    const response = await get(url);
    expect(response.status).toBe(403);
    expect(await response.text()).not.toContain('client-secret');
  });

  it('normalised dot segments stay inside the folder', async () => {
    for (const url of ['app://idhini/../secret.txt', 'app://idhini/%2e%2e/secret.txt', 'app://idhini/assets/../../secret.txt']) {
      const response = await get(url);
      expect(response.status).toBe(404);
    }
    // The URL parser resolves a lone %2e%2e to the root, which is the renderer's own index.
    expect(await (await get('app://idhini/%2e%2e')).text()).toContain('<title>Idhini</title>');
  });

  it('refuses a symlink that leads out of the folder', async () => {
    const response = await get('app://idhini/assets/leak.js');
    expect(response.status).toBe(403);
    expect(await response.text()).not.toContain('client-secret');
  });

  it('refuses other hosts, credentials and methods', async () => {
    expect((await get('app://evil/index.html')).status).toBe(403);
    expect((await get('app://idhini.attacker.net/index.html')).status).toBe(403);
    expect(resolveAppPath('app://user:pw@idhini/index.html')).toMatchObject({ ok: false, status: 403 });
    expect((await handler(new Request('app://idhini/index.html', { method: 'POST', body: 'x' }))).status).toBe(405);
  });

  it('resolves paths without touching the disk', () => {
    expect(resolveAppPath('app://idhini')).toEqual({ ok: true, relative: 'index.html' });
    expect(resolveAppPath('app://idhini/assets/a%20b.js')).toEqual({ ok: true, relative: 'assets/a b.js' });
    expect(resolveAppPath('app://idhini/%E0%A4%A')).toMatchObject({ ok: false, status: 400 });
  });
});
