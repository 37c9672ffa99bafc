// The station's own local device service (native-bridge/service), kept in step with the station.
// The payer's authorization page takes fingerprints from a service on the workstation. Where the
// exchange's hardware service runs, the page uses it and the station stays out of its way; where it
// does not, the station offers its own readers (serial and CP2110 modules, or the virtual reader in
// training) through this service. Which web pages may use it follows settings: exactly the
// authorization-link origins, plus the sandbox's in training mode; a change of them is handed to the
// running service (no restart, so a capture under way for an origin still allowed goes on).
import { STATION_SERVICE_PROVIDER, type HardwareServiceState } from '../../native-bridge/agent';
import {
  HARDWARE_SERVICE_PORT,
  startLocalDeviceService,
  type DeviceSource,
  type LocalDeviceService,
  type LocalDeviceServiceEvent,
  type LocalDeviceServiceOptions,
} from '../../native-bridge/service';
import type { ReadersSnapshot } from '../contract';

export type LocalDeviceServiceView = ReadersSnapshot['localDeviceService'];

/** What the service follows in settings. */
export interface DeviceServiceSettings {
  readonly allowedLinkOrigins: readonly string[];
  readonly trainingMode: boolean;
  /** In training, the sandbox: its authorization page captures from this service. */
  readonly exchangeBaseUrl: string | null;
}

/** The exchange's hardware service as its monitor (native-bridge/agent) reports it. */
export interface OfficialServiceWatch {
  readonly state: HardwareServiceState;
  onChange(listener: (state: HardwareServiceState) => void): () => void;
  /** Checks now; the first decision waits for it, so the station does not start its service in a gap the official one fills. */
  check(): Promise<HardwareServiceState>;
}

export interface DeviceServiceControllerOptions {
  /** The readers to offer: the reader manager's `deviceSource()`, or `singleReaderSource(virtualReader)`. */
  readonly devices: DeviceSource;
  /**
   * The exchange's hardware service: while it runs (and is not this station's own service, which
   * answers on its port too), the station's service stays off. Absent in training: always on.
   */
  readonly officialService?: OfficialServiceWatch;
  /** 'auto' (default): the preferred port when nothing answers there, else any free port. A number: exactly that one (training: the port the sandbox was told). */
  readonly port?: number | 'auto';
  /** Where payers' pages look: the hardware service's 18065 (tests use a free port). */
  readonly preferredPort?: number;
  /** Reported in GET /status, and sent by the station as work_station_id while the service runs. */
  readonly workstationID: string;
  readonly version?: string;
  /** Tests: a stand-in for native-bridge's startLocalDeviceService. */
  readonly startService?: (options: LocalDeviceServiceOptions) => Promise<LocalDeviceService>;
}

const MESSAGE_MAX = 500;

/** The origins the service allows: the link allowlist, plus the sandbox in training; bare http(s) origins only, sorted. */
export function deviceServiceOrigins(settings: DeviceServiceSettings): string[] {
  const origins = new Set<string>();
  const add = (value: string | null) => {
    if (value === null || !URL.canParse(value)) return;
    const url = new URL(value);
    if (url.protocol === 'https:' || url.protocol === 'http:') origins.add(url.origin);
  };
  for (const origin of settings.allowedLinkOrigins) add(origin);
  if (settings.trainingMode) add(settings.exchangeBaseUrl);
  return [...origins].sort();
}

/** Whether the monitor found the exchange's own hardware service (not this station's service answering on 18065). */
export function officialServiceRuns(state: HardwareServiceState | undefined): boolean {
  return state !== undefined && state.kind !== 'not-running' && state.status.provider !== STATION_SERVICE_PROVIDER;
}

export class LocalDeviceServiceController {
  private readonly startService: (options: LocalDeviceServiceOptions) => Promise<LocalDeviceService>;
  private readonly eventListeners = new Set<(event: LocalDeviceServiceEvent) => void>();
  private readonly changeListeners = new Set<(view: LocalDeviceServiceView) => void>();
  private readonly stopWatching: (() => void) | undefined;
  /** null until the station has handed over its settings. */
  private origins: string[] | null = null;
  private service: { readonly running: LocalDeviceService; readonly origins: string; readonly off: () => void } | undefined;
  private current: LocalDeviceServiceView = { state: 'off', url: null, message: null };
  private queue: Promise<void> = Promise.resolve();
  private officialChecked = false;
  private closed = false;

  constructor(private readonly options: DeviceServiceControllerOptions) {
    this.startService = options.startService ?? startLocalDeviceService;
    this.stopWatching = options.officialService?.onChange(() => void this.reconcileSoon());
  }

  /** What readers.state shows as localDeviceService. */
  view(): LocalDeviceServiceView {
    return this.current;
  }

  /** The workstationID for the biometric authorize: only while the service runs (the page captures through it). */
  get workstationId(): string | undefined {
    return this.service === undefined ? undefined : this.options.workstationID;
  }

  /** The service's origin while it runs. */
  get url(): string | null {
    return this.service?.running.url ?? null;
  }

  /** The station's settings now (at start and after every change): starts or stops the service, or changes its origins, to match. */
  useSettings(settings: DeviceServiceSettings): Promise<void> {
    this.origins = deviceServiceOrigins(settings);
    return this.reconcileSoon();
  }

  /** The events of whichever service runs (capture requested, completed, failed, refused origins). */
  onEvent(listener: (event: LocalDeviceServiceEvent) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  onChange(listener: (view: LocalDeviceServiceView) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** Resolves once every change asked for so far has been made. */
  settled(): Promise<void> {
    return this.queue;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopWatching?.();
    await this.reconcileSoon();
    this.eventListeners.clear();
    this.changeListeners.clear();
  }

  private reconcileSoon(): Promise<void> {
    this.queue = this.queue.then(() => this.reconcile());
    return this.queue;
  }

  private async reconcile(): Promise<void> {
    const official = this.options.officialService;
    if (official !== undefined && !this.officialChecked && !this.closed && this.origins !== null) {
      this.officialChecked = true;
      await official.check().catch(() => undefined);
    }
    const origins = this.origins;
    if (this.closed || origins === null) return this.stop({ state: 'off', url: null, message: null });
    if (officialServiceRuns(official?.state)) {
      return this.stop({ state: 'off', url: null, message: "The exchange's hardware service runs on this computer; the payer's page takes fingerprints through it." });
    }
    if (origins.length === 0) {
      return this.stop({ state: 'off', url: null, message: 'No authorization-link origin is set in settings, so no page may use the station’s readers.' });
    }
    const key = origins.join(' ');
    if (this.service !== undefined) {
      // New origins are taken as the service runs (no restart): a capture under way for an origin
      // still allowed goes on, and the port stays the one the payer's page knows.
      if (this.service.origins !== key) {
        this.service.running.setAllowedOrigins(origins);
        this.service = { ...this.service, origins: key };
      }
      return;
    }
    let running: LocalDeviceService;
    try {
      running = await this.startService({
        devices: this.options.devices,
        allowedOrigins: origins,
        workstationID: this.options.workstationID,
        version: this.options.version ?? 'idhini-station',
        port: this.options.port ?? 'auto',
        ...(this.options.preferredPort === undefined ? {} : { preferredPort: this.options.preferredPort }),
      });
    } catch (error) {
      this.show({ state: 'failed', url: null, message: `The station's device service could not start: ${error instanceof Error ? error.message : String(error)}`.slice(0, MESSAGE_MAX) });
      return;
    }
    const off = running.onEvent((event) => {
      for (const listener of [...this.eventListeners]) listener(event);
    });
    this.service = { running, origins: key, off };
    const wanted = this.options.port ?? 'auto';
    const preferred = this.options.preferredPort ?? HARDWARE_SERVICE_PORT;
    const message =
      wanted === 'auto' && running.port !== preferred
        ? `Port ${preferred} is taken by another program, so the station's readers are on ${running.url}, where the payer's page does not look.`
        : null;
    this.show({ state: 'running', url: running.url.slice(0, 300), message });
  }

  private async stop(view: LocalDeviceServiceView): Promise<void> {
    const service = this.service;
    this.service = undefined;
    if (service !== undefined) {
      service.off();
      await service.running.close().catch(() => undefined);
    }
    this.show(view);
  }

  private show(view: LocalDeviceServiceView): void {
    if (view.state === this.current.state && view.url === this.current.url && view.message === this.current.message) return;
    this.current = view;
    for (const listener of [...this.changeListeners]) listener(view);
  }
}
