// Issue 20, defect 5: a packaged build accepted --remote-debugging-port (the fuses stop --inspect,
// not this switch), --proxy-server and --host-resolver-rules, which would redirect the link view.
// The launch guard against a fake of Electron's app (isPackaged, commandLine, exit, the error box).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { guardLaunch, refusedLaunchItems, REFUSED_SWITCHES, switchName } from '../../../electron/main/switches';
import { recordingLog } from './fake-electron';

const EXE = 'C:\\Program Files\\Idhini\\Idhini.exe';

/** app as the guard sees it: Chromium's parsed switches, whether packaged, and how it exits. */
function fakeApp(o: { argv: string[]; env?: Record<string, string>; packaged?: boolean; platform?: string; chromiumSwitches?: string[] }) {
  const log = recordingLog();
  const told: string[] = [];
  const exits: number[] = [];
  const allowed = guardLaunch({
    argv: o.argv,
    env: o.env ?? {},
    platform: o.platform ?? 'win32',
    commandLine: { hasSwitch: (name) => (o.chromiumSwitches ?? []).includes(name) },
    isPackaged: o.packaged ?? true,
    log,
    tell: (title, body) => void told.push(`${title}: ${body}`),
    exit: (code) => void exits.push(code),
  });
  return { allowed, log, told, exits };
}

describe('a packaged station’s command line', () => {
  it.each([
    ['--remote-debugging-port=9222'],
    ['--remote-debugging-pipe'],
    ['--inspect=9229'],
    ['--inspect-brk'],
    ['--proxy-server=http://10.0.0.9:3128'],
    ['--proxy-pac-url=http://10.0.0.9/p.pac'],
    ['--host-resolver-rules=MAP * 127.0.0.1'],
    ['--ignore-certificate-errors'],
    ['--remote-allow-origins=*'],
    ['--js-flags=--allow-natives-syntax'],
    ['--log-net-log=C:\\Temp\\net.json'],
    ['--ssl-key-log-file=C:\\Temp\\keys.txt'],
    ['--no-sandbox'],
    ['--enable-features=SomethingElse'],
  ])('refuses %s at start: logs which and why, tells the user, exits 1 before anything else', (argument) => {
    const { allowed, log, told, exits } = fakeApp({ argv: [EXE, argument] });
    expect(allowed).toBe(false);
    expect(exits).toEqual([1]);
    const name = `--${argument.replace(/^--/, '').split('=')[0]}`;
    expect(log.lines).toEqual([expect.objectContaining({ level: 'error', message: expect.stringMatching(/^refused to start/) })]);
    expect(JSON.stringify(log.lines[0]!.fields)).toContain(name);
    expect(told[0]).toContain(name);
    // Names only: a proxy URL may carry credentials, a rule a host.
    const value = argument.split('=')[1];
    if (value !== undefined) expect(JSON.stringify(log.lines) + told.join('')).not.toContain(value);
  });

  it('reads switches as Chromium does: one dash, upper case and slashes on Windows, none after a lone "--"', () => {
    expect(fakeApp({ argv: [EXE, '-remote-debugging-port=9222'] }).allowed).toBe(false);
    expect(fakeApp({ argv: [EXE, '--Proxy-Server=x:1'] }).allowed).toBe(false);
    expect(fakeApp({ argv: [EXE, '/remote-debugging-port=9222'], platform: 'win32' }).allowed).toBe(false);
    expect(fakeApp({ argv: ['/opt/Idhini/idhini', '/remote-debugging-port=9222'], platform: 'linux' }).allowed).toBe(true);
    expect(fakeApp({ argv: [EXE, '--', '--remote-debugging-port=9222'] }).allowed).toBe(true);
    expect(switchName('--proxy-server=a', 'linux')).toBe('proxy-server');
    expect(switchName('C:\\file.txt', 'win32')).toBeNull();
  });

  it('also asks Chromium which switches it took, and refuses the environment variables with the same effect', () => {
    expect(fakeApp({ argv: [EXE], chromiumSwitches: ['host-resolver-rules'] })).toMatchObject({ allowed: false, exits: [1] });
    const fromEnv = fakeApp({ argv: [EXE], env: { SSLKEYLOGFILE: 'C:\\Temp\\keys.txt' } });
    expect(fromEnv.allowed).toBe(false);
    expect(fromEnv.told[0]).toContain('SSLKEYLOGFILE');
    expect(fakeApp({ argv: [EXE], env: { ELECTRON_ENABLE_LOGGING: '1' } }).allowed).toBe(false);
    // The fuses already make a packaged station ignore these; a ward PC may set NODE_OPTIONS for another program.
    expect(fakeApp({ argv: [EXE], env: { NODE_OPTIONS: '--max-old-space-size=4096', HTTPS_PROXY: 'http://proxy.facility:3128' } }).allowed).toBe(true);
  });

  it('starts with its own arguments and harmless switches', () => {
    for (const argv of [[EXE], [EXE, '--lang=sw'], [EXE, '--force-device-scale-factor=1.25'], [EXE, '--training-sandbox-url', 'http://127.0.0.1:4010']]) {
      const { allowed, exits, told } = fakeApp({ argv });
      expect(allowed, argv.join(' ')).toBe(true);
      expect(exits).toEqual([]);
      expect(told).toEqual([]);
    }
  });

  it('only warns in a development run (npm run smoke:electron drives Electron through --remote-debugging-port)', () => {
    const { allowed, exits, log } = fakeApp({ argv: ['electron', '.', '--remote-debugging-port=0'], packaged: false });
    expect(allowed).toBe(true);
    expect(exits).toEqual([]);
    expect(log.lines).toEqual([expect.objectContaining({ level: 'warn', fields: { refused: ['--remote-debugging-port'] } })]);
  });

  it('names every switch the issue lists', () => {
    const inputs = (argument: string) => ({ argv: [EXE, argument], env: {}, platform: 'win32', commandLine: { hasSwitch: () => false } });
    for (const name of ['remote-debugging-port', 'remote-debugging-pipe', 'inspect', 'inspect-brk', 'inspect-port', 'proxy-server', 'proxy-pac-url', 'host-resolver-rules']) {
      expect(refusedLaunchItems(inputs(`--${name}`)).map((r) => r.item), name).toEqual([`--${name}`]);
    }
    expect(Object.keys(REFUSED_SWITCHES)).toEqual(expect.arrayContaining(['proxy-auto-detect', 'host-rules', 'ip-address-space-overrides', 'unsafely-treat-insecure-origin-as-secure']));
  });

  it('is the entry’s first step: nothing of the shell is prepared when it refuses', () => {
    // index.ts is the one file that touches the real modules (tsc checks the fit); its order is read here.
    const entry = readFileSync(new URL('../../../electron/main/index.ts', import.meta.url), 'utf8');
    expect(entry.indexOf('guardLaunch({')).toBeGreaterThan(0);
    expect(entry.indexOf('guardLaunch({')).toBeLessThan(entry.indexOf('prepareShell({ app, protocol }'));
    expect(entry).toMatch(/const prepared = launchAllowed \? prepareShell\(/);
  });
});
