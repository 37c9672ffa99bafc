// The shell put together, driven through a fake of the Electron modules: what runs before ready,
// the station window and its preferences, and the services wired around it.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EventEmitter } from 'node:events';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { INVOKE_CHANNEL } from '../../../electron/main/ipc';
import { APP_ENTRY_URL } from '../../../electron/main/origins';
import { prepareShell, runShell, type ShellElectron, type ShellOptions, type StationSession, type StationWindow } from '../../../electron/main/shell';
import { ShellLogRelay } from '../../../electron/main/shell-log';
import type { LinkSessionApi, LinkViewApi } from '../../../electron/main/electron-api';
import type { ShellLog } from '../../../electron/main/electron-api';
import { createExchangeClient } from '../../../electron/payer';
import { createStation, createStationLogger, memorySecretStore, type Station } from '../../../electron/station';
import { outputExamples } from '../contract/examples';
import { FakeContents, FakeIpcMain, FakePowerMonitor, FakeSession, FakeView, asApi, recordingLog } from './fake-electron';
import { expectHardened } from './hardened-preferences';
import { testStation } from './test-station';

class FakeApp extends EventEmitter {
  isPackaged = false;
  sandboxed = false;
  quits = 0;
  constructor(public lockFree = true) {
    super();
  }
  enableSandbox() {
    this.sandboxed = true;
  }
  requestSingleInstanceLock() {
    return this.lockFree;
  }
  quit() {
    this.quits++;
  }
}

class FakeWindow extends EventEmitter {
  readonly webContents = new FakeContents();
  readonly children: FakeView[] = [];
  shown = 0;
  constructor(readonly webPreferences: Record<string, unknown>) {
    super();
  }
  show() {
    this.shown++;
  }
  focus() {}
  isMinimized() {
    return false;
  }
  restore() {}
}

class FakeStationSession extends FakeSession {
  readonly handlers = new Map<string, (request: Request) => Promise<Response>>();
  readonly protocol = { handle: (scheme: string, handler: (request: Request) => Promise<Response>) => void this.handlers.set(scheme, handler) };
}

let dir: string;
const running: { stop(): Promise<void> }[] = [];
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'idhini-shell-'));
  await mkdir(path.join(dir, 'renderer'));
  await writeFile(path.join(dir, 'renderer', 'index.html'), '<!doctype html><title>Idhini</title>');
});
afterAll(async () => {
  for (const shell of running) await shell.stop();
  await rm(dir, { recursive: true, force: true });
});

function fakeElectron(app = new FakeApp()) {
  const registered: unknown[] = [];
  const windows: FakeWindow[] = [];
  const stationSession = new FakeStationSession('default');
  const ipcMain = new FakeIpcMain();
  const powerMonitor = new FakePowerMonitor();
  const updater = vi.fn();
  const errors: string[] = [];
  const electron: ShellElectron<StationWindow, LinkSessionApi, LinkViewApi> = {
    app: asApi(app),
    protocol: { registerSchemesAsPrivileged: (schemes) => void registered.push(...schemes) },
    ipcMain: asApi(ipcMain),
    powerMonitor: asApi(powerMonitor),
    dialog: { showErrorBox: (title) => void errors.push(title) },
    stationSession: () => asApi<StationSession>(stationSession),
    createWindow: (webPreferences) => {
      const window = new FakeWindow(webPreferences as Record<string, unknown>);
      windows.push(window);
      app.emit('web-contents-created', {}, window.webContents);
      return asApi<StationWindow>(window);
    },
    createLinkSession: (partition) => {
      const session = new FakeSession(partition);
      app.emit('session-created', session);
      return asApi<LinkSessionApi>(session);
    },
    createLinkView: (session) => {
      const view = new FakeView(session as unknown as FakeSession);
      app.emit('web-contents-created', {}, view.webContents);
      return asApi<LinkViewApi>(view);
    },
    attachView: (window, view) => void (window as unknown as FakeWindow).children.push(view as unknown as FakeView),
    detachView: (window, view) => {
      const children = (window as unknown as FakeWindow).children;
      children.splice(children.indexOf(view as unknown as FakeView), 1);
    },
    autoUpdater: () => updater() as never,
  };
  return { electron, app, registered, windows, stationSession, ipcMain, powerMonitor, updater, errors };
}

/** The shell prepared and run on `fake` with this file's options around `createCore`; stopped after the file. */
async function runOn(fake: ReturnType<typeof fakeElectron>, log: ShellLogRelay, createCore: ShellOptions['createCore']) {
  const prepared = prepareShell(fake.electron, log);
  if (prepared === null) throw new Error('lock refused');
  const shell = await runShell(fake.electron, prepared, {
    rendererDir: path.join(dir, 'renderer'),
    preloadPath: '/app/dist/electron/preload.cjs',
    createCore,
    log,
    platform: 'linux',
    updatePolicyText: null,
    devTools: false,
  });
  running.push(shell);
  return { shell, window: fake.windows[0]! };
}

async function started() {
  const fake = fakeElectron();
  const bootLog = recordingLog();
  const coreLog = recordingLog();
  const log = new ShellLogRelay(bootLog);
  const core = testStation();
  const stop = vi.fn(async () => undefined);
  const locks: string[] = [];
  const links = new Map<string, string>();
  const { shell, window } = await runOn(fake, log, async () => ({
    hosted: core,
    log: coreLog,
    stop,
    lock: (reason) => void locks.push(reason),
    authorizationLink: (handle) => links.get(handle) ?? null,
    deviceServicePorts: () => [18065],
  }));
  const call = (message: unknown, frame: { url: string; parent: object | null } = { url: APP_ENTRY_URL, parent: null }) =>
    fake.ipcMain.invoke(INVOKE_CHANNEL, window.webContents, frame, message) as Promise<{ ok: boolean; value?: unknown; error?: { code: string } }>;
  return { ...fake, log, bootLog, coreLog, core, stop, locks, links, shell, window, call };
}

describe('before ready', () => {
  it('quits when another station instance holds the lock, and sets nothing up', () => {
    const fake = fakeElectron(new FakeApp(false));
    expect(prepareShell(fake.electron, recordingLog())).toBeNull();
    expect(fake.app.quits).toBe(1);
    expect(fake.registered).toEqual([]);
  });

  it('sandboxes every renderer, registers app:// as privileged, and guards every new session and webContents', async () => {
    const fake = fakeElectron();
    expect(prepareShell(fake.electron, recordingLog())).not.toBeNull();
    expect(fake.app.sandboxed).toBe(true);
    expect(fake.registered).toEqual([expect.objectContaining({ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true, bypassCSP: false }) })]);
    const session = new FakeSession('any');
    fake.app.emit('session-created', session);
    expect(await session.request('notifications', 'https://anything.example.com/')).toBe(false);
    const contents = new FakeContents();
    fake.app.emit('web-contents-created', {}, contents);
    expect(contents.navigate('will-navigate', 'https://anything.example.com/')).toBe(false);
    expect(contents.windowOpenHandler?.({ url: 'https://anything.example.com/' })).toEqual({ action: 'deny' });
  });
});

describe('the running shell', () => {
  it('opens one station window with every security flag and the preload, loading app://idhini', async () => {
    const { windows, window } = await started();
    expect(windows).toHaveLength(1);
    expectHardened(window.webPreferences);
    expect(window.webPreferences).toMatchObject({ devTools: false, preload: '/app/dist/electron/preload.cjs' });
    expect(window.webContents.loaded).toEqual([APP_ENTRY_URL]);
    window.emit('ready-to-show');
    expect(window.shown).toBe(1);
  });

  it('serves the renderer from app:// on the station session, which denies every permission', async () => {
    const { stationSession } = await started();
    const response = await stationSession.handlers.get('app')?.(new Request('app://idhini/'));
    expect(response?.status).toBe(200);
    expect(response?.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await stationSession.request('media', APP_ENTRY_URL)).toBe(false);
    expect(await stationSession.request('loopback-network', APP_ENTRY_URL)).toBe(false);
  });

  it('lets the station window navigate within app://idhini only', async () => {
    const { window } = await started();
    expect(window.webContents.navigate('will-navigate', 'app://idhini/index.html')).toBe(true);
    expect(window.webContents.navigate('will-navigate', 'https://payer.example.com/')).toBe(false);
    expect(window.webContents.navigate('will-frame-navigate', 'http://127.0.0.1:4100/ekyc')).toBe(false);
  });

  it('carries the contract over IPC from the station window and refuses any other frame', async () => {
    const { call, core } = await started();
    expect(await call({ name: 'station.status', input: {} })).toEqual({ ok: true, value: outputExamples['station.status'] });
    expect(await call({ name: 'station.status', input: {} }, { url: APP_ENTRY_URL, parent: {} })).toMatchObject({ ok: false, error: { code: 'VALIDATION' } });
    expect(core.calls.filter((c) => c.name === 'station.status')).toHaveLength(1);
  });

  it('shows the authorization link in a view over the window, its URL from the core, in a fresh session granted the loopback only', async () => {
    const { call, core, window, links } = await started();
    // The example settings allow http://127.0.0.1:4100; the link must come from there. The view the
    // renderer gets names the link's origin only; the URL with its embed token comes from the core.
    core.answer('consent.startFingerprint', {
      ok: true,
      value: {
        ...outputExamples['consent.startFingerprint'],
        verification: {
          ...(outputExamples['consent.startFingerprint'] as { verification: object }).verification,
          fingerprint: { link: { handle: 'lk_sandbox01', url: 'http://127.0.0.1:4100/', expiresAt: '2025-03-04T09:25:00+03:00' }, checkedAt: null },
        },
      },
    });
    links.set('lk_sandbox01', 'http://127.0.0.1:4100/ekyc/verify?t=embed-token-1');
    expect(await call({ name: 'consent.startFingerprint', input: { workflowId: 'wf_discharge1' } })).toMatchObject({ ok: true });
    expect(await call({ name: 'authorizationView.setArea', input: { handle: 'lk_sandbox01', area: { x: 0, y: 0, width: 400, height: 500 } } })).toEqual({
      ok: true,
      value: { shownBy: 'shell' },
    });
    expect(window.children).toHaveLength(1);
    const view = window.children[0]!;
    expect(view.webContents.loaded).toEqual(['http://127.0.0.1:4100/ekyc/verify?t=embed-token-1']);
    expect(view.session.partition).not.toMatch(/^persist:/);
    expect(await view.session.request('loopback-network', 'http://127.0.0.1:4100/ekyc/verify')).toBe(true);
    expect(await view.session.request('local-network-access', 'http://127.0.0.1:4100/ekyc/verify')).toBe(false);
    expect(await view.session.request('loopback-network', 'https://attacker.net/')).toBe(false);
    expect(view.webContents.navigate('will-navigate', 'https://attacker.net/')).toBe(false);
    // The page reaches the device service, and no other port of this machine or of the LAN.
    expect(await view.session.send('http://127.0.0.1:18065/status')).toBe(true);
    expect(await view.session.send('ws://localhost:18065/ws/devices', 'webSocket')).toBe(true);
    expect(await view.session.send('http://127.0.0.1:5432/')).toBe(false);
    expect(await view.session.send('http://192.168.1.1/admin')).toBe(false);
  });

  it('refuses every client certificate a server asks for, instead of handing over the first in the store', async () => {
    const { app, log } = await started();
    const event = { defaultPrevented: false, preventDefault: () => void (event.defaultPrevented = true) };
    const answers: unknown[][] = [];
    app.emit('select-client-certificate', event, null, 'https://payer.example.com/ekyc', [{ subjectName: 'workstation' }], (...given: unknown[]) => void answers.push(given));
    expect(event.defaultPrevented).toBe(true);
    expect(answers).toEqual([[]]);
    expect(log.attached).toBe(true);
  });

  it('wipes the renderer when the station locks', async () => {
    const { core, window, stationSession } = await started();
    core.emit({ type: 'station.locked', reason: 'idle', at: '2025-03-04T09:15:00+03:00' });
    await vi.waitFor(() => expect(window.webContents.loaded).toEqual([APP_ENTRY_URL, APP_ENTRY_URL]));
    expect(stationSession.cleared).toHaveLength(1);
  });

  it('locks through the core, saying why, when the screen locks', async () => {
    const { locks, powerMonitor } = await started();
    powerMonitor.emit('lock-screen');
    await vi.waitFor(() => expect(locks).toEqual(['system']));
  });

  it('reloads the renderer after its process dies', async () => {
    const { window } = await started();
    window.webContents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 139 });
    await vi.waitFor(() => expect(window.webContents.loaded).toEqual([APP_ENTRY_URL, APP_ENTRY_URL]));
  });

  it('logs through the core once it exists, the guards made before ready included; before that, only the boot log', async () => {
    const { window, bootLog, coreLog, log, stationSession } = await started();
    expect(log.attached).toBe(true);
    window.webContents.navigate('will-navigate', 'https://payer.example.com/');
    await stationSession.handlers.get('app')?.(new Request('app://idhini/missing.js'));
    expect(coreLog.lines.map((l) => l.message)).toEqual(expect.arrayContaining(['navigation refused', 'app:// request refused', 'station window loaded']));
    expect(bootLog.lines).toEqual([]);

    const boot = recordingLog();
    expect(prepareShell(fakeElectron(new FakeApp(false)).electron, new ShellLogRelay(boot))).toBeNull();
    expect(boot.lines).toEqual([{ level: 'info', fields: {}, message: 'another Idhini station is running: handing over to it' }]);
  });

  it('leaves the updater alone when no update policy is configured, and stops the core on stop', async () => {
    const { updater, shell, stop } = await started();
    expect(updater).not.toHaveBeenCalled();
    await shell.stop();
    expect(stop).toHaveBeenCalledTimes(1);
  });
});

describe("the shell's log lines and the core's secrets", () => {
  const CLIENT_SECRET = 'shell-scan-secret-7731';

  /** The shell around a real station core; `shellLogOf` says which logger the shell's lines go to once the core exists. */
  async function withRealCore(name: string, shellLogOf: (station: Station, destination: { write(line: string): void }) => ShellLog) {
    const fake = fakeElectron();
    const lines: string[] = [];
    const destination = { write: (line: string) => void lines.push(line) };
    const log = new ShellLogRelay(recordingLog());
    const station = createStation({
      databasePath: path.join(dir, `${name}.db`),
      secrets: memorySecretStore(),
      exchangeClientFactory: createExchangeClient,
      host: 'electron',
      log: { destination },
      // Nothing listens there: the sign-in fails, but the core has seen the secret (training: anyone signed in may sign the facility in).
      initialSettings: { exchangeBaseUrl: 'http://127.0.0.1:9', trainingMode: true },
    });
    const { window } = await runOn(fake, log, async () => {
      await station.start();
      return {
        hosted: station.hosted,
        log: shellLogOf(station, destination),
        stop: () => station.stop(),
        lock: (reason) => station.lock(reason),
        authorizationLink: (handle) => station.authorizationLink(handle)?.url ?? null,
        deviceServicePorts: () => [],
      };
    });
    const signIn = await fake.ipcMain.invoke(INVOKE_CHANNEL, window.webContents, { url: APP_ENTRY_URL, parent: null }, {
      name: 'facility.signIn',
      input: { clientId: 'demo-hospital', clientSecret: CLIENT_SECRET },
    });
    expect(signIn).toMatchObject({ ok: false });
    // A page asking app:// for a path that carries the secret: the shell logs the refused path.
    expect((await fake.stationSession.handlers.get('app')?.(new Request(`app://idhini/${CLIENT_SECRET}.js`)))?.status).toBe(404);
    const refused = lines.filter((line) => line.includes('app:// request refused'));
    expect(refused).toHaveLength(1);
    return refused[0]!;
  }

  it("through station.log, a secret the core has seen is blanked in the shell's own lines", async () => {
    const line = await withRealCore('scrubbed', (station) => station.log.child({ component: 'shell' }));
    expect(line).not.toContain(CLIENT_SECRET);
    expect(line).toContain('[secret]');
    expect(JSON.parse(line)).toMatchObject({ component: 'shell', path: '/[secret].js' });
  });

  it('a logger of the shell’s own would have written it: the check above can fail', async () => {
    const line = await withRealCore('own-logger', (_station, destination) => createStationLogger({ destination }).log.child({ component: 'shell' }));
    expect(line).toContain(CLIENT_SECRET);
  });
});
