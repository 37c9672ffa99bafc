// npm start's choice between Electron and browser mode, and the checks it rests on.
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planLaunch } from '../../../scripts/start';
import { findChromium, findElectronBinary, hasDisplay, parseOptions, UsageError } from '../../../scripts/start-support';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'idhini-start-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('npm start', () => {
  it('finds no Electron binary in this project (its download never ran) and says why', () => {
    const found = findElectronBinary();
    expect(found.available).toBe(false);
    if (!found.available) expect(found.reason).toMatch(/binary|path\.txt|dist/);
  });

  it('finds the Electron binary where the electron package puts it', async () => {
    const root = path.join(dir, 'project');
    const pkg = path.join(root, 'node_modules', 'electron');
    await mkdir(path.join(pkg, 'dist'), { recursive: true });
    await writeFile(path.join(pkg, 'package.json'), '{"name":"electron"}');
    expect(findElectronBinary(root)).toMatchObject({ available: false, reason: expect.stringMatching(/path\.txt/) });
    await writeFile(path.join(pkg, 'path.txt'), 'electron');
    expect(findElectronBinary(root)).toMatchObject({ available: false, reason: expect.stringMatching(/missing/) });
    await writeFile(path.join(pkg, 'dist', 'electron'), '');
    expect(findElectronBinary(root)).toEqual({ available: true, path: path.join(pkg, 'dist', 'electron') });
  });

  it('runs Electron when it is there, else browser mode in Chromium app mode, else prints the URL — saying why', () => {
    expect(planLaunch({ available: true, path: '/x/electron' }, '/usr/bin/chromium', true)).toMatchObject({ mode: 'electron', why: expect.stringMatching(/Electron is installed/) });
    const missing = { available: false as const, reason: 'no binary' };
    expect(planLaunch(missing, '/usr/bin/chromium', true)).toMatchObject({ mode: 'browser-app', chromium: '/usr/bin/chromium', why: expect.stringMatching(/not available \(no binary\).*browser mode.*app mode/) });
    expect(planLaunch(missing, '/usr/bin/chromium', false)).toMatchObject({ mode: 'browser-url', why: expect.stringMatching(/no display/) });
    expect(planLaunch(missing, null, true)).toMatchObject({ mode: 'browser-url', why: expect.stringMatching(/no Chromium/) });
  });

  it('finds Chromium on PATH, and Windows browsers by their .exe', async () => {
    const bin = path.join(dir, 'bin');
    await mkdir(bin, { recursive: true });
    expect(findChromium({ PATH: bin }, 'linux')).toBeNull();
    await writeFile(path.join(bin, 'chromium'), '#!/bin/sh\n');
    await chmod(path.join(bin, 'chromium'), 0o755);
    expect(findChromium({ PATH: bin }, 'linux')).toBe(path.join(bin, 'chromium'));
    await writeFile(path.join(bin, 'msedge.exe'), '');
    expect(findChromium({ PATH: bin, PATHEXT: '.EXE;.CMD' }, 'win32')).toBe(path.join(bin, 'msedge.exe'));
  });

  it('needs a display on Linux only', () => {
    expect(hasDisplay({}, 'linux')).toBe(false);
    expect(hasDisplay({ DISPLAY: ':0' }, 'linux')).toBe(true);
    expect(hasDisplay({ WAYLAND_DISPLAY: 'wayland-0' }, 'linux')).toBe(true);
    expect(hasDisplay({}, 'win32')).toBe(true);
  });

  it('refuses unknown options and options without a value, by name', () => {
    expect(parseOptions(['--port', '8080'], ['port'])).toEqual(new Map([['port', '8080']]));
    expect(() => parseOptions(['--prot', '8080'], ['port'])).toThrow(UsageError);
    expect(() => parseOptions(['--port'], ['port'])).toThrow(/needs a value/);
  });
});
