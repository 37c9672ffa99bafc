// What the core needs of the fingerprint side: the readers snapshot the nurse sees, the
// workstationID for the biometric authorize body, and change notifications. A shell builds it from
// native-bridge pieces with `nativeReaders`, or passes its own (tests pass a fixed one).
import type { z } from 'zod';
import type { captureRequest, readerInfo, ReadersSnapshot } from '../contract';
import type { HardwareServiceMonitor, HardwareServiceState } from '../../native-bridge/agent';
import type { FingerprintReader, ReaderInfo as DriverReaderInfo, ReaderState } from '../../native-bridge/drivers/reader';

export type ReaderListing = z.infer<typeof readerInfo>;
export type CaptureRequest = z.infer<typeof captureRequest>;

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
}

/** The local device service as the core sees it (structurally: native-bridge/service's LocalDeviceService). */
export interface LocalServiceHandle {
  readonly url: string;
  onEvent(listener: (event: { readonly type: string; readonly origin?: string | null; readonly at: string }) => void): () => void;
}

export interface NativeReadersOptions {
  readonly hardwareService?: Pick<HardwareServiceMonitor, 'state' | 'workstationID' | 'onChange' | 'check'>;
  readonly localService?: LocalServiceHandle;
  /** The workstationID the local device service reports in its GET /status. */
  readonly localWorkstationId?: string;
  readonly reader?: FingerprintReader;
  readonly readerInfo?: DriverReaderInfo;
  /** Readers found by discovery (the manager), for readers.list. */
  readonly discover?: () => Promise<DriverReaderInfo[]>;
  readonly cancelCapture?: () => Promise<void>;
  readonly unavailable?: { piece: string; reason: string }[];
}

function hardwareServiceView(state: HardwareServiceState | undefined): ReadersSnapshot['hardwareService'] {
  if (state === undefined) return { state: 'not-running', scanners: [], workstationId: null, version: null, checkedAt: null };
  if (state.kind === 'not-running') return { state: 'not-running', scanners: [], workstationId: null, version: null, checkedAt: state.checkedAt };
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

/** The readers facade over native-bridge's pieces (any of them may be absent). */
export function nativeReaders(options: NativeReadersOptions): ReadersFacade & { close(): void } {
  const changeListeners = new Set<(snapshot: ReadersSnapshot) => void>();
  const captureListeners = new Set<(capture: CaptureRequest) => void>();
  let capture: CaptureRequest | null = null;
  const snapshot = (): ReadersSnapshot => ({
    reader: readerView(options.reader, options.readerInfo),
    hardwareService: hardwareServiceView(options.hardwareService?.state),
    localDeviceService: options.localService === undefined ? { state: 'off', url: null, message: null } : { state: 'running', url: options.localService.url.slice(0, 300), message: null },
    capture,
  });
  const changed = () => {
    const s = snapshot();
    for (const listener of [...changeListeners]) listener(s);
  };
  const unsubscribers: (() => void)[] = [];
  if (options.hardwareService !== undefined) unsubscribers.push(options.hardwareService.onChange(changed));
  if (options.reader !== undefined) unsubscribers.push(options.reader.onStateChange(changed));
  if (options.localService !== undefined) {
    unsubscribers.push(
      options.localService.onEvent((event) => {
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
      const scanners: ReaderListing[] =
        hs === undefined || hs.kind === 'not-running'
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
      return options.hardwareService?.workstationID ?? options.localWorkstationId;
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
