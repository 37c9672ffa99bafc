// What the core needs of the fingerprint side: the readers snapshot the nurse sees, the
// workstationID for the biometric authorize body, and change notifications. A shell builds it from
// native-bridge pieces with `nativeReaders`, or passes its own (tests pass a fixed one).
import type { z } from 'zod';
import type { captureRequest, readerInfo, ReadersSnapshot, StationSettings } from '../contract';
import { STATION_SERVICE_PROVIDER, type HardwareServiceMonitor, type HardwareServiceState } from '../../native-bridge/agent';
import type { FingerprintReader, ReaderInfo as DriverReaderInfo, ReaderState } from '../../native-bridge/drivers/reader';
import type { ReaderPreference } from '../../native-bridge/manager';
import type { DeviceSource } from '../../native-bridge/service';
import { officialServiceRuns, type DeviceServiceSettings, type LocalDeviceServiceView } from './device-service';

export type ReaderListing = z.infer<typeof readerInfo>;
export type CaptureRequest = z.infer<typeof captureRequest>;

/** What the fingerprint side follows in settings: the device service's origins, and the reader the facility chose. */
export interface ReaderSideSettings extends DeviceServiceSettings {
  readonly reader: StationSettings['reader'];
}

/** The facility's reader choice (settings.reader) as the reader manager takes it: by the id readers.list shows. */
export function readerPreferenceOf(reader: StationSettings['reader']): ReaderPreference | undefined {
  return reader.readerId === null ? undefined : { readerId: reader.readerId };
}

export interface ReadersFacade {
  snapshot(): ReadersSnapshot;
  /** Probes the hardware service (and whatever else can be probed) before answering. */
  refresh(): Promise<ReadersSnapshot>;
  list(): Promise<ReaderListing[]>;
  cancelCapture(): Promise<ReadersSnapshot>;
  /** For `work_station_id`: the hardware service's workstationID, else the local device service's. */
  workstationId(): string | undefined;
  /** Optional native pieces that could not load (node-hid without libusb …), for station.status. */
  unavailablePieces(): { piece: string; reason: string }[];
  onChange(listener: (snapshot: ReadersSnapshot) => void): () => void;
  onCaptureRequested(listener: (capture: CaptureRequest) => void): () => void;
  /**
   * The station's settings, at start and after every change: the local device service's CORS
   * follows the link allowlist, the reader manager's choice follows settings.reader. Resolves once
   * both match them.
   */
  useSettings?(settings: ReaderSideSettings): Promise<void>;
}

type ServiceEvent = { readonly type: string; readonly origin?: string | null; readonly at: string };

/** A local device service started by the shell, running as long as the station (structurally: native-bridge/service's LocalDeviceService). */
export interface LocalServiceHandle {
  readonly url: string;
  onEvent(listener: (event: ServiceEvent) => void): () => void;
}

/** A local device service the station starts, restarts and stops itself (structurally: ./device-service's LocalDeviceServiceController). */
export interface ManagedLocalService {
  view(): LocalDeviceServiceView;
  /** Set while the service runs. */
  readonly workstationId: string | undefined;
  onEvent(listener: (event: ServiceEvent) => void): () => void;
  onChange(listener: (view: LocalDeviceServiceView) => void): () => void;
  useSettings(settings: DeviceServiceSettings): Promise<void>;
}

export interface NativeReadersOptions {
  readonly hardwareService?: Pick<HardwareServiceMonitor, 'state' | 'workstationID' | 'onChange' | 'check'>;
  /** The station's own device service: one the shell runs, or a controller that follows settings (device-service.ts). */
  readonly localService?: LocalServiceHandle | ManagedLocalService;
  /** The workstationID a shell-run local device service reports in its GET /status (a managed one knows its own). */
  readonly localWorkstationId?: string;
  /** One reader (the virtual reader of training) … */
  readonly reader?: FingerprintReader;
  readonly readerInfo?: DriverReaderInfo;
  /** … or the station's readers as the reader manager finds them: the chosen one is the station's reader. */
  readonly devices?: DeviceSource;
  /** Readers found by discovery (the manager), for readers.list. */
  readonly discover?: () => Promise<DriverReaderInfo[]>;
  readonly cancelCapture?: () => Promise<void>;
  readonly unavailable?: { piece: string; reason: string }[];
  /** The reader manager's choice, following settings.reader (`manager.setPreferred`). */
  readonly preferReader?: (preference: ReaderPreference | undefined) => void;
}

function hardwareServiceView(state: HardwareServiceState | undefined): ReadersSnapshot['hardwareService'] {
  if (state === undefined) return { state: 'not-running', scanners: [], workstationId: null, version: null, checkedAt: null };
  // The station's own device service answering on the hardware service's port is not the exchange's service.
  if (state.kind === 'not-running' || state.status.provider === STATION_SERVICE_PROVIDER) {
    return { state: 'not-running', scanners: [], workstationId: null, version: null, checkedAt: state.checkedAt };
  }
  return {
    state: state.kind === 'agent-signed-out' ? 'agent-not-signed-in' : state.kind,
    scanners: state.status.devices.slice(0, 20).map((d) => ({ deviceId: d.deviceId.slice(0, 200), type: d.type.slice(0, 100), status: d.status.slice(0, 100) })),
    workstationId: state.status.workstationID?.slice(0, 200) ?? null,
    version: state.status.version?.slice(0, 100) ?? null,
    checkedAt: state.checkedAt,
  };
}

function connectionOf(info: DriverReaderInfo | undefined): ReadersSnapshot['reader']['connection'] {
  if (info === undefined) return null;
  return info.transport === 'hid-cp2110' ? 'hid' : info.transport;
}

function readerView(reader: FingerprintReader | undefined, info: DriverReaderInfo | undefined): ReadersSnapshot['reader'] {
  const virtual = info?.transport === 'virtual';
  const base = {
    readerId: reader?.id.slice(0, 200) ?? null,
    label: (info?.model ?? (virtual ? 'Virtual reader (training)' : null))?.slice(0, 200) ?? null,
    connection: connectionOf(info),
    protocol: info === undefined || info.protocol === 'virtual' ? null : info.protocol,
    virtual,
  };
  const state: ReaderState = reader?.state ?? { kind: 'absent' };
  if (state.kind === 'error') return { ...base, state: 'error', message: state.message.slice(0, 500) };
  return { ...base, state: state.kind, message: null };
}

/** A service the shell started and keeps running: always 'running' at its URL. */
function shellRunService(handle: LocalServiceHandle, workstationId: string | undefined): ManagedLocalService {
  const view: LocalDeviceServiceView = { state: 'running', url: handle.url.slice(0, 300), message: null };
  return {
    view: () => view,
    workstationId,
    onEvent: (listener) => handle.onEvent(listener),
    onChange: () => () => undefined,
    useSettings: async () => undefined,
  };
}

function isManaged(service: LocalServiceHandle | ManagedLocalService): service is ManagedLocalService {
  return 'view' in service;
}

/** The readers facade over native-bridge's pieces (any of them may be absent). */
export function nativeReaders(options: NativeReadersOptions): ReadersFacade & { close(): void } {
  const changeListeners = new Set<(snapshot: ReadersSnapshot) => void>();
  const captureListeners = new Set<(capture: CaptureRequest) => void>();
  const local = options.localService === undefined ? undefined : isManaged(options.localService) ? options.localService : shellRunService(options.localService, options.localWorkstationId);
  let capture: CaptureRequest | null = null;
  const stationReader = (): { reader: FingerprintReader | undefined; info: DriverReaderInfo | undefined } => {
    if (options.devices === undefined) return { reader: options.reader, info: options.readerInfo };
    const reader = options.devices.chosen();
    return { reader, info: options.devices.readers().find((r) => r.reader === reader)?.info };
  };
  const snapshot = (): ReadersSnapshot => {
    const { reader, info } = stationReader();
    return {
      reader: readerView(reader, info),
      hardwareService: hardwareServiceView(options.hardwareService?.state),
      localDeviceService: local?.view() ?? { state: 'off', url: null, message: null },
      capture,
    };
  };
  const changed = () => {
    const s = snapshot();
    for (const listener of [...changeListeners]) listener(s);
  };
  const unsubscribers: (() => void)[] = [];
  if (options.hardwareService !== undefined) unsubscribers.push(options.hardwareService.onChange(changed));
  if (options.reader !== undefined) unsubscribers.push(options.reader.onStateChange(changed));
  if (options.devices !== undefined) unsubscribers.push(options.devices.onChange(changed));
  if (local !== undefined) {
    unsubscribers.push(
      local.onChange(() => {
        // A service that stopped or restarted forgets the page's capture request.
        capture = null;
        changed();
      }),
      local.onEvent((event) => {
        if (event.type === 'capture-requested') {
          capture = { origin: (event.origin ?? 'this computer').slice(0, 300), requestedAt: event.at };
          for (const listener of [...captureListeners]) listener(capture);
          changed();
        } else if (event.type === 'capture-completed' || event.type === 'capture-failed') {
          capture = null;
          changed();
        }
      }),
    );
  }
  return {
    snapshot,
    async refresh() {
      await options.hardwareService?.check();
      return snapshot();
    },
    async list() {
      const found = options.discover === undefined ? (options.readerInfo === undefined ? [] : [options.readerInfo]) : await options.discover();
      const readers: ReaderListing[] = found.map((info) => ({
        readerId: info.id.slice(0, 200),
        label: (info.model ?? info.path).slice(0, 200) || info.id.slice(0, 200),
        connection: info.transport === 'hid-cp2110' ? 'hid' : info.transport,
        protocol: info.protocol === 'virtual' ? null : info.protocol,
        path: info.transport === 'virtual' ? null : info.path.slice(0, 300),
      }));
      const hs = options.hardwareService?.state;
      // The station's own service on the hardware service's port lists the station's readers, already above.
      const scanners: ReaderListing[] = !officialServiceRuns(hs) || hs === undefined || hs.kind === 'not-running'
        ? []
        : hs.status.devices.map((d) => ({
            readerId: `hardware-service:${d.deviceId}`.slice(0, 200),
            label: (d.type || d.deviceId).slice(0, 200),
            connection: 'hardware-service',
            protocol: null,
            path: null,
          }));
      return [...readers, ...scanners];
    },
    async cancelCapture() {
      await options.cancelCapture?.();
      capture = null;
      changed();
      return snapshot();
    },
    workstationId() {
      // The exchange's service names the workstation where it runs; else the station's own service,
      // while it runs; a facade without a service (tests) answers the workstation it was given.
      const official = officialServiceRuns(options.hardwareService?.state) ? options.hardwareService?.workstationID : undefined;
      return official ?? (local === undefined ? options.localWorkstationId : local.workstationId);
    },
    unavailablePieces: () => [...(options.unavailable ?? [])],
    onChange(listener) {
      changeListeners.add(listener);
      return () => changeListeners.delete(listener);
    },
    onCaptureRequested(listener) {
      captureListeners.add(listener);
      return () => captureListeners.delete(listener);
    },
    async useSettings(settings) {
      options.preferReader?.(readerPreferenceOf(settings.reader));
      await local?.useSettings(settings);
    },
    close() {
      for (const off of unsubscribers) off();
      changeListeners.clear();
      captureListeners.clear();
    },
  };
}

/** No readers at all: every state says so, and fingerprint consent reports the missing service. */
export function noReaders(): ReadersFacade {
  return nativeReaders({});
}
