// The station in browser mode, training: its own conformance sandbox, the virtual reader behind
// the local device service (which the sandbox's authorization page captures from), the station core
// on the sandbox, and the browser host serving the renderer and the contract. Shared by
// `npm run station:web` (scripts/station-web.ts), `npm start` in browser mode, and the tests.
// The device service is the core's to run (electron/station/device-service.ts): its CORS follows the
// link allowlist in settings, plus the sandbox. The browser host logs through the core's logger.
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startBrowserHost, type BrowserHost } from '../electron/browser-host';
import { trainingReaders } from '../electron/main/reader-setup';
import { createExchangeClient } from '../electron/payer';
import { startSandbox, type RunningSandbox } from '../electron/sandbox';
import { createStation, memorySecretStore, type LocalDeviceServiceController, type LogDestination, type Station } from '../electron/station';
import { HARDWARE_SERVICE_PORT, somethingListens } from '../native-bridge/service';
import { RENDERER_OUT } from './start-support';

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
}

export interface TrainingStation {
  /** The URL to open: the host with the per-launch secret in its fragment. */
  readonly launchUrl: string;
  readonly host: BrowserHost;
  readonly sandbox: RunningSandbox;
  readonly station: Station;
  /** The local device service, as the core runs it (its url while it runs). */
  readonly deviceService: LocalDeviceServiceController;
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

export async function startTrainingStation(options: TrainingStationOptions): Promise<TrainingStation> {
  const cleanups: (() => Promise<unknown>)[] = [];
  const closeAll = async () => {
    while (cleanups.length > 0) await cleanups.pop()!().catch(() => undefined);
  };
  try {
    const ownDataDir = options.dataDir === undefined;
    const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'idhini-training-')));
    if (ownDataDir) cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    // A data folder named on the command line may not exist yet, as on a station's first run.
    else await mkdir(dataDir, { recursive: true });
    let destination = options.logDestination;
    if (destination === undefined) {
      const stream = createWriteStream(path.join(dataDir, 'station.log'), { flags: 'a' });
      cleanups.push(() => new Promise((resolve) => stream.end(resolve)));
      destination = stream;
    }

    // The sandbox's page is told where the device service listens before either starts, so its port
    // is settled first; the core starts the service once it has read its settings.
    const sandboxPort = options.sandboxPort === 0 ? await freePort() : options.sandboxPort;
    const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
    const devicePort = await deviceServicePort(options.deviceServicePort ?? 0);
    // The Electron shell's training readers (electron/main/reader-setup.ts): the virtual reader behind the station's device service.
    const { readers, deviceService, close: closeReaders } = await trainingReaders({ sandboxUrl, deviceServicePort: devicePort });
    cleanups.push(closeReaders);
    const sandbox = await startSandbox({ port: sandboxPort, deviceServiceUrl: `http://127.0.0.1:${devicePort}` });
    cleanups.push(() => sandbox.close());

    const station = createStation({
      databasePath: path.join(dataDir, 'station.db'),
      secrets: memorySecretStore(),
      exchangeClientFactory: createExchangeClient,
      readers,
      platform: process.platform,
      host: 'browser',
      appVersion: options.appVersion ?? '0.1.0',
      log: { destination },
      // Training mode runs on sandbox time, so the sandbox's clock control moves the station too.
      clock: { now: () => sandbox.context.clock.now() },
      initialSettings: { exchangeBaseUrl: sandboxUrl, trainingMode: true, allowedLinkOrigins: [sandboxUrl] },
    });
    await station.start();
    cleanups.push(() => station.stop());
    const service = deviceService.view();
    // Training without the device service could take no fingerprint: say why instead of starting half a station.
    if (service.state !== 'running') throw new Error(service.message ?? 'the local device service did not start');

    const host = await startBrowserHost({
      core: station.bridge,
      rendererDir: options.rendererDir ?? RENDERER_OUT,
      port: options.port,
      log: station.log.child({ component: 'browser-host' }),
    });
    cleanups.push(() => host.close());

    return { launchUrl: host.launchUrl, host, sandbox, station, deviceService, dataDir, close: closeAll };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
