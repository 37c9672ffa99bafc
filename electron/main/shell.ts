// The Electron shell put together: what runs before 'ready' (privileged app:// scheme, sandbox for
// every renderer, single-instance lock, the permission policy on every session and the navigation
// guard on every webContents as they are created) and what runs after (the station window, the
// contract over IPC, the authorization view, the idle lock, renderer recovery, the update policy).
// Electron comes in through ShellElectron, so test/unit/shell drives all of it with fakes; index.ts
// hands in the real modules.
import type { Certificate, CustomScheme, Event, WebPreferences } from 'electron';
import { checkOutcome } from '../contract';
import type { HostedCore } from '../contract';
import { appScheme, createAppProtocolHandler } from './app-protocol';
import { AuthorizationView } from './authorization-view';
import { createDispatcher } from './dispatch';
import type {
  GuardedContentsApi,
  IpcMainApi,
  LinkSessionApi,
  LinkViewApi,
  PowerMonitorApi,
  SessionApi,
  ShellLog,
  StationContentsApi,
  StationSessionApi,
} from './electron-api';
import { IdleLock, resetRenderer } from './idle-lock';
import { registerStationIpc } from './ipc';
import { NavigationPolicy, describe } from './navigation';
import { APP_ENTRY_URL, isAppUrl } from './origins';
import { applyPermissionPolicy } from './permissions';
import type { ShellLogRelay } from './shell-log';
import { watchRendererProcess } from './recovery';
import { applyUpdatePolicy, decideUpdatePolicy, type AutoUpdaterApi } from './update-policy';
import { SettingsMirror } from './settings-mirror';
import { stationWebPreferences } from './web-preferences';

export interface AppApi {
  readonly isPackaged: boolean;
  enableSandbox(): void;
  requestSingleInstanceLock(): boolean;
  quit(): void;
  on(event: 'second-instance', listener: () => void): unknown;
  on(event: 'session-created', listener: (session: SessionApi) => void): unknown;
  on(event: 'web-contents-created', listener: (event: Event, contents: GuardedContentsApi) => void): unknown;
  on(event: 'window-all-closed', listener: () => void): unknown;
  on(
    event: 'select-client-certificate',
    listener: (event: Event, webContents: unknown, url: string, certificateList: Certificate[], callback: (certificate?: Certificate) => void) => void,
  ): unknown;
}

export interface StationSession extends SessionApi, StationSessionApi {
  readonly protocol: { handle(scheme: string, handler: (request: Request) => Promise<Response>): void };
}

export interface StationWindow {
  readonly webContents: StationContentsApi & GuardedContentsApi;
  show(): void;
  focus(): void;
  isMinimized(): boolean;
  restore(): void;
  on(event: 'ready-to-show' | 'closed', listener: () => void): unknown;
}

/** The Electron modules the shell uses, and the constructors it needs, as index.ts provides them. */
export interface ShellElectron<W extends StationWindow, S extends LinkSessionApi, V extends LinkViewApi> {
  app: AppApi;
  protocol: { registerSchemesAsPrivileged(schemes: CustomScheme[]): void };
  ipcMain: IpcMainApi;
  powerMonitor: PowerMonitorApi;
  dialog: { showErrorBox(title: string, content: string): void };
  /** session.defaultSession, where the station window renders (after ready). */
  stationSession(): StationSession;
  /** new BrowserWindow({ show: false, webPreferences, … }) */
  createWindow(webPreferences: WebPreferences): W;
  /** session.fromPartition(partition, { cache: false }), the partition named by the authorization view. */
  createLinkSession(partition: string): S;
  /** new WebContentsView({ webPreferences: linkWebPreferences(session) }) */
  createLinkView(session: S): V;
  attachView(window: W, view: V): void;
  detachView(window: W, view: V): void;
  autoUpdater(): AutoUpdaterApi;
}

export interface CoreHandle {
  /** The core as this shell hosts it (`station.hosted`): the shell validates calls and checks answers and events. */
  readonly hosted: HostedCore;
  /** The core's logger for the shell's lines: `station.log.child({component: 'shell'})`. */
  readonly log: ShellLog;
  /** Locks for a reason only the shell sees (the system idle time, the screen locking), as station.lock does. */
  lock(reason: 'idle' | 'system'): void;
  /**
   * The URL behind a link handle (station.authorizationLink): in Electron mode the renderer's views
   * carry the link's origin only, so its embed token never leaves the main process.
   */
  authorizationLink(handle: string): string | null;
  /** The ports the device service answers on, for the link session's request guard. */
  deviceServicePorts(): readonly number[];
  stop(): Promise<void>;
}

export interface ShellOptions {
  /** The built renderer (dist/renderer, inside app.asar when packaged). */
  rendererDir: string;
  /** The preload bundle. */
  preloadPath: string;
  /** Starts the station core. */
  createCore(): Promise<CoreHandle>;
  /** The relay prepareShell was given too: switched to the core's logger as soon as the core exists. */
  log: ShellLogRelay;
  platform: string;
  /** The update policy file's text, or null when there is none. */
  updatePolicyText: string | null;
  /** Dev tools in the station window (never in the authorization view). */
  devTools: boolean;
}

export interface PreparedShell {
  readonly navigation: NavigationPolicy;
}

/**
 * Before 'ready'. Returns null when another instance of the station already runs: that one is
 * brought to the front (second-instance) and this one quits.
 */
export function prepareShell(electron: Pick<ShellElectron<StationWindow, LinkSessionApi, LinkViewApi>, 'app' | 'protocol'>, log: ShellLog): PreparedShell | null {
  const { app, protocol } = electron;
  if (!app.requestSingleInstanceLock()) {
    log.info({}, 'another Idhini station is running: handing over to it');
    app.quit();
    return null;
  }
  app.enableSandbox();
  protocol.registerSchemesAsPrivileged([appScheme]);
  const navigation = new NavigationPolicy(log);
  // Every session gets deny-all as it is created; a link view's session then gets its own grant.
  app.on('session-created', (session) => applyPermissionPolicy(session, { label: 'session', log }));
  app.on('web-contents-created', (_event, contents) => navigation.attach(contents));
  // Left alone, Electron answers a server's request for a client certificate with the first one in
  // the OS store: a page could learn who the workstation is, or sign in as it. None is ever given.
  app.on('select-client-certificate', (event, _contents, url, certificates, callback) => {
    event.preventDefault();
    callback();
    log.warn({ target: describe(url), offered: certificates.length }, 'client certificate request refused');
  });
  return { navigation };
}

export interface RunningShell<W> {
  readonly window: W;
  stop(): Promise<void>;
}

/** After 'ready': the station window and everything around it. */
export async function runShell<W extends StationWindow, S extends LinkSessionApi, V extends LinkViewApi>(
  electron: ShellElectron<W, S, V>,
  prepared: PreparedShell,
  options: ShellOptions,
): Promise<RunningShell<W>> {
  const { app } = electron;
  const { log } = options;
  const { navigation } = prepared;

  const session = electron.stationSession();
  applyPermissionPolicy(session, { label: 'station', log });
  session.protocol.handle(appScheme.scheme, createAppProtocolHandler({ root: options.rendererDir, log }));

  const core = await options.createCore();
  log.attach(core.log);
  const settings = new SettingsMirror();
  settings.observe('settings.get', checkOutcome('settings.get', await core.hosted.invoke({ name: 'settings.get', input: {} })));

  const window = electron.createWindow(stationWebPreferences({ preload: options.preloadPath, devTools: options.devTools }));
  const contents = window.webContents;
  navigation.allow(contents.id, isAppUrl);
  let windowOpen = true;

  const authorizationView = new AuthorizationView<S, V>({
    createSession: (partition) => electron.createLinkSession(partition),
    createView: (linkSession) => electron.createLinkView(linkSession),
    attach: (view) => electron.attachView(window, view),
    detach: (view) => electron.detachView(window, view),
    zoomFactor: () => contents.getZoomFactor(),
    allowedOrigins: () => settings.allowedLinkOrigins,
    linkUrl: (handle) => core.authorizationLink(handle),
    deviceServicePorts: () => core.deviceServicePorts(),
    navigation,
    log,
  });

  const reset = () =>
    resetRenderer({ contents: () => (windowOpen ? contents : null), session, closeAuthorizationView: () => authorizationView.closeAll(), log }).catch(
      (error: unknown) => log.error({ error: error instanceof Error ? error.name : typeof error }, 'renderer reset failed'),
    );

  const dispatch = createDispatcher({
    core: core.hosted,
    setArea: (input) => authorizationView.setArea(input),
    observe: (name, outcome) => {
      settings.observe(name, outcome);
      authorizationView.learn(outcome);
    },
    log,
  });
  const undoIpc = registerStationIpc({
    ipcMain: electron.ipcMain,
    station: () => (windowOpen ? contents : null),
    dispatch,
    subscribe: (listener) => core.hosted.subscribe(listener),
    observeEvent: (event) => {
      authorizationView.learn(event);
      if (event.type === 'station.locked') void reset();
    },
    log,
  });

  const idleLock = new IdleLock({
    powerMonitor: electron.powerMonitor,
    idleMinutes: () => settings.idleLockMinutes,
    lock: async (reason) => core.lock(reason),
    reportActivity: async () => void (await core.hosted.invoke({ name: 'station.reportActivity', input: {} })),
    log,
  });
  idleLock.start();

  watchRendererProcess({
    contents,
    restart: reset,
    giveUp: (details) => {
      electron.dialog.showErrorBox('Idhini stopped', `The station's screen failed again and again (${details.reason}). Start Idhini again; unfinished work is kept.`);
      app.quit();
    },
    log,
  });

  applyUpdatePolicy(decideUpdatePolicy({ fileText: options.updatePolicyText, platform: options.platform, isPackaged: app.isPackaged }), () => electron.autoUpdater(), log);

  app.on('second-instance', () => {
    if (!windowOpen) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  window.on('ready-to-show', () => window.show());
  window.on('closed', () => {
    windowOpen = false;
    navigation.forget(contents.id);
  });
  app.on('window-all-closed', () => app.quit());

  await contents.loadURL(APP_ENTRY_URL);
  log.info({}, 'station window loaded');

  return {
    window,
    async stop() {
      idleLock.stop();
      authorizationView.closeAll();
      undoIpc();
      await core.stop();
    },
  };
}
