// The Electron main process entry (bundled to dist/electron/main.cjs by build/bundle-shell.ts): hands
// the real Electron modules and the station core to the shell (shell.ts). Nothing else lives here,
// so what tsc checks in this file is that the real Electron API fits every slice the shell's
// services take.
//   Training (npm start): --training-sandbox-url http://127.0.0.1:M --device-service-port P
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { BrowserWindow, WebContentsView, app, autoUpdater, dialog, ipcMain, powerMonitor, protocol, safeStorage, session } from 'electron';
import { createExchangeClient } from '../payer';
import { createStation, createStationLogger, memorySecretStore, OWNER_ONLY_FILE_MODE, OWNER_ONLY_FOLDER_MODE, ownerOnlyFolder, provisioningFilePath, readProvisioningFile, type SecretStore } from '../station';
import { trainingReaders, type ReaderSetup } from './reader-setup';
import { stationReaders } from './readers';
import { HARDWARE_SERVICE_PORT } from '../../native-bridge/service';
import { SafeStorageSecretStore } from './secret-store';
import { prepareShell, runShell, type CoreHandle, type ShellElectron } from './shell';
import { ShellLogRelay } from './shell-log';
import { guardLaunch } from './switches';
import { updatePolicyFile } from './update-policy';
import { linkWebPreferences } from './web-preferences';

interface Training {
  sandboxUrl: string;
  deviceServicePort: number;
}

/** The launcher's training options, or null for a real station. */
function trainingOptions(argv: readonly string[]): Training | null {
  const value = (name: string) => {
    const index = argv.indexOf(`--${name}`);
    return index >= 0 ? argv[index + 1] : undefined;
  };
  const sandboxUrl = value('training-sandbox-url');
  if (sandboxUrl === undefined) return null;
  const url = new URL(sandboxUrl);
  if (url.protocol !== 'http:' || url.hostname !== '127.0.0.1') throw new Error('--training-sandbox-url must be the loopback sandbox');
  return { sandboxUrl: url.origin, deviceServicePort: Number(value('device-service-port') ?? '0') };
}

const training = trainingOptions(process.argv);
const dataDir = path.join(app.getPath('userData'), training === null ? 'station' : 'training');
// The data folder and what is in it are this user's alone (createCore tightens an older folder).
mkdirSync(path.join(dataDir, 'logs'), { recursive: true, mode: OWNER_ONLY_FOLDER_MODE });
const logFile = createWriteStream(path.join(dataDir, 'logs', 'station.log'), { flags: 'a', mode: OWNER_ONLY_FILE_MODE });
// Until the core exists, the shell's few lines (the single-instance hand-over, a start that failed)
// go to this boot log; they carry fixed messages and error class names only. From the moment the
// core exists every line goes through station.log, whose scrubber knows the core's secrets (shell-log.ts).
const shellLog = new ShellLogRelay(createStationLogger({ destination: logFile }).log.child({ component: 'shell', phase: 'boot' }));

// A packaged station started with a debugger's or another network route's switch stops here,
// before anything else is set up (switches.ts); its log line is flushed before it exits.
const launchAllowed = guardLaunch({
  argv: process.argv,
  env: process.env,
  platform: process.platform,
  commandLine: app.commandLine,
  isPackaged: app.isPackaged,
  log: shellLog,
  tell: (title, body) => dialog.showErrorBox(title, body),
  exit: (code) => logFile.end(() => app.exit(code)),
});

const prepared = launchAllowed ? prepareShell({ app, protocol }, shellLog) : null;

function readUpdatePolicy(): string | null {
  const file = updatePolicyFile({ isPackaged: app.isPackaged, env: process.env, resourcesPath: process.resourcesPath, log: shellLog });
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** The ports a link's page may reach on this machine: the exchange's hardware service's, and the station's own device service's. */
function deviceServicePorts(setup: ReaderSetup): number[] {
  const own = setup.deviceService.view().url;
  const ports = new Set([HARDWARE_SERVICE_PORT]);
  if (own !== null && URL.canParse(own)) ports.add(Number(new URL(own).port));
  return [...ports];
}

function withProvisioning(provisioning: ReturnType<typeof readProvisioningFile>) {
  return provisioning === null ? {} : { provisioning };
}

async function createCore(): Promise<CoreHandle> {
  // Made by an older Idhini, the folder may be open to others: kept to this user now (Windows: ACL).
  const tightened: string[] = [];
  await ownerOnlyFolder(dataDir, { platform: process.platform, warn: (message) => tightened.push(message) });
  await ownerOnlyFolder(path.join(dataDir, 'logs'), { platform: process.platform, warn: (message) => tightened.push(message) });
  let secrets: SecretStore;
  let setup: ReaderSetup;
  let secretStoreProblem: string | null = null;
  if (training !== null) {
    // The demo facilities' credentials are public: nothing to protect in training.
    secrets = memorySecretStore();
    setup = await trainingReaders(training);
  } else {
    const store = new SafeStorageSecretStore({ safeStorage, platform: process.platform, file: path.join(dataDir, 'secrets.json') });
    await store.ensureUsable().catch((error: unknown) => {
      // The station still starts (look-ups of settings, the audit log); signing in will fail with this reason.
      secretStoreProblem = error instanceof Error ? error.message : String(error);
    });
    secrets = store;
    setup = await stationReaders({ workstationID: hostname(), version: app.getVersion() });
  }
  const station = createStation({
    databasePath: path.join(dataDir, 'station.db'),
    secrets,
    exchangeClientFactory: createExchangeClient,
    readers: setup.readers,
    platform: process.platform,
    host: 'electron',
    appVersion: app.getVersion(),
    log: { destination: logFile },
    ...(training === null ? {} : { initialSettings: { exchangeBaseUrl: training.sandboxUrl, trainingMode: true, allowedLinkOrigins: [training.sandboxUrl] } }),
    // The IT officer's provisioning file, read at every start (a wrong one stops the start with its reason).
    ...(training === null ? withProvisioning(readProvisioningFile(provisioningFilePath(process.platform, process.env))) : {}),
  });
  const log = station.log.child({ component: 'shell' });
  if (secretStoreProblem !== null) log.error({ reason: secretStoreProblem }, 'secret store unavailable');
  for (const message of tightened) log.warn({ reason: message }, 'data folder tightened');
  // The core hands its settings to the device service as it starts and on every change (CORS follows the link allowlist).
  await station.start();
  return {
    hosted: station.hosted,
    log,
    lock: (reason) => station.lock(reason),
    authorizationLink: (handle) => station.authorizationLink(handle)?.url ?? null,
    deviceServicePorts: () => deviceServicePorts(setup),
    async stop() {
      await station.stop();
      await setup.close();
    },
  };
}

const electron: ShellElectron<BrowserWindow, Electron.Session, WebContentsView> = {
  app,
  protocol,
  ipcMain,
  powerMonitor,
  dialog,
  stationSession: () => session.defaultSession,
  // The critical flags are repeated where the objects are made (they are in web-preferences.ts too):
  // a reviewer and Electronegativity see them at the constructor, and no refactor can drop them.
  createWindow: (webPreferences) =>
    new BrowserWindow({
      show: false,
      width: 1280,
      height: 860,
      minWidth: 1024,
      minHeight: 700,
      title: 'Idhini',
      autoHideMenuBar: true,
      webPreferences: { ...webPreferences, contextIsolation: true, sandbox: true, nodeIntegration: false, disableBlinkFeatures: 'Auxclick' },
    }),
  createLinkSession: (partition) => session.fromPartition(partition, { cache: false }),
  createLinkView: (linkSession) =>
    new WebContentsView({
      webPreferences: { ...linkWebPreferences(linkSession), contextIsolation: true, sandbox: true, nodeIntegration: false, disableBlinkFeatures: 'Auxclick' },
    }),
  attachView: (window, view) => window.contentView.addChildView(view),
  detachView: (window, view) => window.contentView.removeChildView(view),
  autoUpdater: () => autoUpdater,
};

if (prepared !== null) {
  app
    .whenReady()
    .then(async () => {
      const running = await runShell(electron, prepared, {
        rendererDir: path.join(__dirname, '..', 'renderer'),
        preloadPath: path.join(__dirname, 'preload.cjs'),
        createCore,
        log: shellLog,
        platform: process.platform,
        updatePolicyText: readUpdatePolicy(),
        devTools: !app.isPackaged,
      });
      let stopped = false;
      app.on('before-quit', (event) => {
        if (stopped) return;
        event.preventDefault();
        stopped = true;
        void running.stop().finally(() => app.quit());
      });
    })
    .catch((error: unknown) => {
      shellLog.error({ error: error instanceof Error ? error.name : typeof error }, 'the station could not start');
      dialog.showErrorBox('Idhini could not start', error instanceof Error ? error.message : String(error));
      app.quit();
    });
}
