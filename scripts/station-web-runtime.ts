// The station in browser mode, in one of two ways. Training: its own conformance sandbox, the
// virtual reader behind the local device service (which the sandbox's authorization page captures
// from), the station core on the sandbox. Another exchange: no sandbox, training mode off, the
// production readers (the exchange's hardware service, else the station's own modules behind its
// device service), signed in as the facility. Either way the browser host serves the renderer and
// the contract. Shared by `npm run station:web` (scripts/station-web.ts), `npm start` in browser
// mode, and the tests. The device service is the core's to run (electron/station/device-service.ts):
// its CORS follows the link allowlist in settings (plus the sandbox in training). The browser host
// logs through the core's logger.
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { startBrowserHost, type BrowserHost } from '../electron/browser-host';
import { trainingReaders, type ReaderSetup } from '../electron/main/reader-setup';
import { stationReaders } from '../electron/main/readers';
import { createExchangeClient } from '../electron/payer';
import { startSandbox, TERMINOLOGY, type FaultProfileName, type RunningSandbox, type SandboxOptions } from '../electron/sandbox';
import type { CommandInput, CommandName, CommandOutput, HostedCore, StationSettings } from '../electron/contract';
import { createStation, FileSecretStore, OWNER_ONLY_FILE_MODE, ownerOnlyFolder, type LocalDeviceServiceController, type LogDestination, type SecretStore, type Station, type StationDeps } from '../electron/station';
import type { VirtualReader } from '../native-bridge/drivers/virtual-reader';
import { HARDWARE_SERVICE_PORT, somethingListens } from '../native-bridge/service';
import { RENDERER_OUT } from './start-support';
import { checkExchangeUrl, type LauncherStaff, type ReaderSource } from './station-web-options';

export interface TrainingStationOptions {
  /** The browser host's port; 0 for any free one. */
  port: number;
  /** The sandbox's port; 0 for any free one. */
  sandboxPort: number;
  /** Where the station's database lives; default a fresh temporary folder, removed at close. */
  dataDir?: string;
  rendererDir?: string;
  /** Every log line of the station core and the browser host (default: station.log in the data folder). */
  logDestination?: LogDestination;
  /** The local device service's port: 0 for any free one (default), 'auto' to prefer the hardware service's 18065. */
  deviceServicePort?: number | 'auto';
  appVersion?: string;
  /** Staff who may sign in besides the Training nurse (`--staff`, `--admin`). */
  staff?: readonly LauncherStaff[];
  /** The sandbox's network profile: `ward` for a ward's waits (default: none, every call at once). */
  profile?: FaultProfileName;
  /**
   * Tests and screenshots (test/support/scenario.ts), never the command line: the sandbox's seed and
   * the time it runs on, the settings of a fresh data folder beyond training's (the facility a first
   * run chooses, the station's role), the terminology in place of the sandbox's, the station's polls
   * and ids, and what stands between the browser host and the core.
   */
  scenario?: {
    sandbox?: Pick<SandboxOptions, 'seed' | 'now'>;
    settings?: Partial<StationSettings>;
    terminology?: StationSettings['terminology'];
    station?: Pick<StationDeps, 'timing' | 'randomId'>;
    hostCore?: (core: HostedCore) => HostedCore;
  };
}

export interface TrainingStation {
  /** The URL to open: the host with the per-launch secret in its fragment. */
  readonly launchUrl: string;
  readonly host: BrowserHost;
  readonly sandbox: RunningSandbox;
  readonly station: Station;
  /** The local device service, as the core runs it (its url while it runs). */
  readonly deviceService: LocalDeviceServiceController;
  /** The virtual reader behind it (its training controls). */
  readonly reader: VirtualReader;
  readonly dataDir: string;
  close(): Promise<void>;
}

/** A port nobody listens on right now (for a sandbox whose URL the reader must know before it starts). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** A concrete port for the device service: 0 → a free one; 'auto' → the hardware service's 18065 unless something answers there. */
async function deviceServicePort(wanted: number | 'auto'): Promise<number> {
  if (wanted === 'auto') return (await somethingListens(HARDWARE_SERVICE_PORT)) ? freePort() : HARDWARE_SERVICE_PORT;
  return wanted === 0 ? freePort() : wanted;
}

type Cleanups = (() => Promise<unknown>)[];

async function closeAll(cleanups: Cleanups): Promise<void> {
  while (cleanups.length > 0) await cleanups.pop()!().catch(() => undefined);
}

/** The data folder (a fresh temporary one, removed at close, unless named) and where the log goes. */
async function prepareDataDir(options: { dataDir?: string; logDestination?: LogDestination }, prefix: string, cleanups: Cleanups): Promise<{ dataDir: string; destination: LogDestination }> {
  const ownDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), prefix)));
  if (ownDataDir) cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  // A data folder named on the command line may not exist yet, as on a station's first run; either
  // way it and what is made in it are this user's alone (0700, files 0600; Windows: a user-only ACL).
  const tightened: string[] = [];
  await ownerOnlyFolder(dataDir, { platform: process.platform, warn: (message) => tightened.push(message) });
  let destination = options.logDestination;
  if (destination === undefined) {
    const stream = createWriteStream(path.join(dataDir, 'station.log'), { flags: 'a', mode: OWNER_ONLY_FILE_MODE });
    cleanups.push(() => new Promise((resolve) => stream.end(resolve)));
    destination = stream;
  }
  for (const message of tightened) destination.write(`${JSON.stringify({ level: 40, component: 'launcher', msg: message })}\n`);
  return { dataDir, destination };
}

/**
 * Browser mode's key store: a file in the data folder that only this user may read, so a restart
 * (after a crash too) opens the journal again with its key and signs in with the stored secret, as
 * Electron does with the OS keystore. Weaker than the OS keystore (see the README).
 */
function dataDirSecrets(dataDir: string, destination: LogDestination): SecretStore {
  return new FileSecretStore(path.join(dataDir, 'secrets.json'), {
    platform: process.platform,
    warn: (message) => destination.write(`${JSON.stringify({ level: 40, component: 'launcher', msg: message })}\n`),
  });
}

/** The browser host serving the renderer and the station's contract. */
async function serveStation(station: Station, options: { port: number; rendererDir?: string; core?: HostedCore }, cleanups: Cleanups): Promise<BrowserHost> {
  const host = await startBrowserHost({
    core: options.core ?? station.hosted,
    rendererDir: options.rendererDir ?? RENDERER_OUT,
    port: options.port,
    log: station.log.child({ component: 'browser-host' }),
  });
  cleanups.push(() => host.close());
  return host;
}

export async function startTrainingStation(options: TrainingStationOptions): Promise<TrainingStation> {
  const cleanups: Cleanups = [];
  try {
    const { dataDir, destination } = await prepareDataDir(options, 'idhini-training-', cleanups);

    // The sandbox's page is told where the device service listens before either starts, so its port
    // is settled first; the core starts the service once it has read its settings.
    const sandboxPort = options.sandboxPort === 0 ? await freePort() : options.sandboxPort;
    const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
    const devicePort = await deviceServicePort(options.deviceServicePort ?? 0);
    // The Electron shell's training readers (electron/main/reader-setup.ts): the virtual reader behind the station's device service.
    const { readers, deviceService, reader, close: closeReaders } = await trainingReaders({ sandboxUrl, deviceServicePort: devicePort });
    cleanups.push(closeReaders);
    const scenario = options.scenario ?? {};
    const sandbox = await startSandbox({
      port: sandboxPort,
      deviceServiceUrl: `http://127.0.0.1:${devicePort}`,
      ...(options.profile === undefined ? {} : { profile: options.profile }),
      ...scenario.sandbox,
    });
    cleanups.push(() => sandbox.close());

    const station = createStation({
      databasePath: path.join(dataDir, 'station.db'),
      secrets: dataDirSecrets(dataDir, destination),
      exchangeClientFactory: createExchangeClient,
      readers,
      platform: process.platform,
      host: 'browser',
      appVersion: options.appVersion ?? '0.1.0',
      log: { destination },
      // Training mode runs on sandbox time, so the sandbox's clock control moves the station too.
      clock: { now: () => sandbox.context.clock.now() },
      initialSettings: { ...scenario.settings, exchangeBaseUrl: sandboxUrl, trainingMode: true, allowedLinkOrigins: [sandboxUrl] },
      // The sandbox's terminology at every start: its medicines and its ICD-11, by the owner and source it files them under.
      provisioning: { source: 'launcher', settings: { terminology: scenario.terminology ?? TERMINOLOGY }, staff: options.staff ?? [] },
      ...scenario.station,
    });
    await station.start();
    cleanups.push(() => station.stop());
    const service = deviceService.view();
    // Training without the device service could take no fingerprint: say why instead of starting half a station.
    if (service.state !== 'running') throw new Error(service.message ?? 'the local device service did not start');

    const host = await serveStation(station, { ...options, core: scenario.hostCore?.(station.hosted) ?? station.hosted }, cleanups);
    return { launchUrl: host.launchUrl, host, sandbox, station, deviceService, reader, dataDir, close: () => closeAll(cleanups) };
  } catch (error) {
    await closeAll(cleanups);
    throw error;
  }
}

export interface ExchangeStationOptions {
  /** The browser host's port; 0 for any free one. */
  port: number;
  /** The exchange's base URL (without /api/v1): https, or http on loopback only. */
  exchangeUrl: string;
  /** The facility's credentials; the secret goes to the core's secret store (the data folder's key store) and nowhere else. */
  credentials?: { clientId: string; clientSecret: string };
  /** Facility details to set; those left out keep what the data folder holds (or are asked on the first-run screen). */
  facility?: { code?: string | undefined; name?: string | undefined; agentNationalId?: string | undefined };
  /** Origins the authorization page may load from; default the exchange's. */
  linkOrigins?: readonly string[];
  reader?: ReaderSource;
  /** The port the station's own device service prefers (default the hardware service's 18065). */
  deviceServicePort?: number;
  dataDir?: string;
  rendererDir?: string;
  logDestination?: LogDestination;
  appVersion?: string;
  /** Tests: readers other than the production ones. */
  readers?: () => Promise<ReaderSetup>;
  /** Staff who may sign in (`--staff`, `--admin`): outside training the station opens with a PIN only. */
  staff?: readonly LauncherStaff[];
}

export interface ExchangeStation {
  readonly launchUrl: string;
  readonly host: BrowserHost;
  readonly station: Station;
  readonly deviceService: LocalDeviceServiceController;
  readonly dataDir: string;
  /** The settings the station runs with; `missing` names what the first-run screen will ask for. */
  readonly settings: StationSettings;
  readonly signedIn: boolean;
  close(): Promise<void>;
}

/** A command of the station's own contract, from the launcher: its refusal becomes an Error with the station's message. */
async function command<N extends CommandName>(station: Station, name: N, input: CommandInput<N>, what: string): Promise<CommandOutput<N>> {
  const outcome = await station.bridge.invoke(name, input);
  if (outcome.ok) return outcome.value;
  const issues = outcome.error.details?.issues?.map((i) => `${i.field}: ${i.message}`).join('; ');
  throw new Error(`${what}: ${outcome.error.message}${issues ? ` (${issues})` : ''}`);
}

/**
 * The station against another exchange: no sandbox, training mode off, the production readers,
 * the given settings applied, then signed in with the given credentials (when given) before the
 * browser host opens. A refused sign-in ends the start with the station's reason.
 */
export async function startExchangeStation(options: ExchangeStationOptions): Promise<ExchangeStation> {
  const exchangeUrl = checkExchangeUrl(options.exchangeUrl);
  const cleanups: Cleanups = [];
  try {
    const { dataDir, destination } = await prepareDataDir(options, 'idhini-exchange-', cleanups);
    const setup =
      (await options.readers?.()) ??
      (await stationReaders({ workstationID: hostname(), version: options.appVersion ?? '0.1.0', ...(options.deviceServicePort === undefined ? {} : { preferredPort: options.deviceServicePort }) }));
    cleanups.push(() => setup.close());

    const facility = options.facility ?? {};
    const station = createStation({
      databasePath: path.join(dataDir, 'station.db'),
      secrets: dataDirSecrets(dataDir, destination),
      exchangeClientFactory: createExchangeClient,
      readers: setup.readers,
      platform: process.platform,
      host: 'browser',
      appVersion: options.appVersion ?? '0.1.0',
      log: { destination },
      // The launcher is the IT officer here: what its options say is applied at start, as an administrator's.
      provisioning: {
        source: 'launcher',
        settings: {
          exchangeBaseUrl: exchangeUrl,
          trainingMode: false,
          allowedLinkOrigins: [...(options.linkOrigins ?? [new URL(exchangeUrl).origin])],
          ...(facility.code === undefined ? {} : { facilityCode: facility.code }),
          ...(facility.name === undefined ? {} : { facilityName: facility.name }),
          ...(facility.agentNationalId === undefined ? {} : { agentNationalId: facility.agentNationalId }),
          ...(options.reader === undefined ? {} : { reader: { source: options.reader, readerId: null } }),
        },
        staff: options.staff ?? [],
        // checkExchangeUrl above let plain http through to loopback only: a stand-in on this machine.
        allowLoopbackHttp: true,
      },
    });
    await station.start();
    cleanups.push(() => station.stop());
    let signedIn = false;
    if (options.credentials !== undefined) {
      try {
        await station.signInFacility(options.credentials);
      } catch (error) {
        throw new Error(`could not sign in to ${exchangeUrl}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
      signedIn = (await command(station, 'station.status', {}, 'the status could not be read')).signedIn;
    }
    // Read as the launcher, not through the bridge: a station outside training starts locked, and a locked station answers the window nothing.
    const settings = await station.settings();

    const host = await serveStation(station, options, cleanups);
    return { launchUrl: host.launchUrl, host, station, deviceService: setup.deviceService, dataDir, settings, signedIn, close: () => closeAll(cleanups) };
  } catch (error) {
    await closeAll(cleanups);
    throw error;
  }
}
