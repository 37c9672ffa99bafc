// Discovery and hotplug. Neither serialport nor node-hid has plug events, so both are listed every
// 2 s and the lists diffed: a new known bridge is probed (by the injected reader factory, which
// knows the protocols), a device that disappears is announced absent and its reader closed, one
// that comes back is probed again. One of the readers found is the station's: the configured one
// when it is there, else the first that probed. Everything that changes is an event.
import type { FingerprintReader, ReaderInfo, ReaderState } from '../drivers/reader';
import type { DeviceSource } from '../service/device-source';
import type { HidAvailability, HidDeviceInfo } from '../transports/hid-cp2110/node-hid';
import {
  DEFAULT_KNOWN_HID_BRIDGES,
  DEFAULT_KNOWN_SERIAL_BRIDGES,
  hidCandidate,
  serialCandidate,
  type ReaderCandidate,
  type SerialPortListing,
  type UsbId,
} from './candidates';

/** Opens a candidate and finds out what answers on it; throws when nothing does. */
export type ReaderFactory = (candidate: ReaderCandidate) => Promise<{ reader: FingerprintReader; info: ReaderInfo }>;

export interface HidListing {
  readonly availability: HidAvailability;
  readonly devices: readonly HidDeviceInfo[];
}

export interface ReaderPreference {
  /** A reader's id as the readers list shows it, e.g. 'zfm:COM4' (the station's settings choose by it). */
  readonly readerId?: string;
  /** A port or HID path, e.g. 'COM4'. */
  readonly path?: string;
  /** The USB serial number of the bridge, which survives moving to another USB socket. */
  readonly serialNumber?: string;
}

export interface ReaderManagerOptions {
  readonly listSerialPorts: () => Promise<readonly SerialPortListing[]>;
  readonly listHidDevices: () => Promise<HidListing>;
  readonly openReader: ReaderFactory;
  readonly knownSerialBridges?: readonly UsbId[];
  readonly knownHidBridges?: readonly UsbId[];
  /** Ports the facility named in its settings: probed even when their USB id is not a known bridge. */
  readonly allowedSerialPaths?: readonly string[];
  readonly preferred?: ReaderPreference;
  /** Default 2 s. */
  readonly pollIntervalMs?: number;
  /** A candidate whose probe failed is tried again after this long while it stays plugged. Default 30 s. */
  readonly reprobeAfterMs?: number;
  readonly now?: () => number;
}

export interface ManagedReader {
  readonly reader: FingerprintReader;
  readonly info: ReaderInfo;
  readonly candidate: ReaderCandidate;
}

export type ReaderManagerEvent =
  | { readonly type: 'reader-found'; readonly readerId: string; readonly info: ReaderInfo; readonly candidate: ReaderCandidate }
  | { readonly type: 'reader-absent'; readonly readerId: string; readonly candidate: ReaderCandidate }
  | { readonly type: 'reader-state'; readonly readerId: string; readonly state: ReaderState }
  | { readonly type: 'chosen-changed'; readonly readerId: string | null }
  | { readonly type: 'device-ignored'; readonly candidate: ReaderCandidate; readonly reason: string }
  | { readonly type: 'probe-failed'; readonly candidate: ReaderCandidate; readonly message: string }
  | { readonly type: 'hid-availability'; readonly availability: HidAvailability }
  | { readonly type: 'listing-failed'; readonly source: 'serial' | 'hid'; readonly message: string };

export interface ReaderManagerSnapshot {
  readonly readers: readonly { readonly id: string; readonly info: ReaderInfo; readonly state: ReaderState; readonly candidate: ReaderCandidate }[];
  readonly chosenId: string | null;
  /** Listed devices the station leaves alone (not a known bridge). */
  readonly ignored: readonly ReaderCandidate[];
  /** Known bridges on which no reader answered (yet). */
  readonly unanswered: readonly { readonly candidate: ReaderCandidate; readonly message: string }[];
  readonly hid: HidAvailability | undefined;
}

interface Entry {
  readonly candidate: ReaderCandidate;
  status: 'ignored' | 'probing' | 'ready' | 'failed';
  managed?: ManagedReader;
  stopWatching?: () => void;
  failure?: { message: string; at: number };
  /** Set when the device left the listing while its probe was running. */
  gone?: boolean;
}

export class ReaderManager {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<(event: ReaderManagerEvent) => void>();
  private readonly options: Required<Omit<ReaderManagerOptions, 'preferred'>>;
  private preferred: ReaderPreference | undefined;
  private chosenKey: string | null = null;
  private hid: HidAvailability | undefined;
  private timer: NodeJS.Timeout | undefined;
  private ticking = false;
  private stopped = false;
  private polling: Promise<void> | undefined;
  private readonly probes = new Set<Promise<void>>();

  constructor(options: ReaderManagerOptions) {
    this.options = {
      knownSerialBridges: DEFAULT_KNOWN_SERIAL_BRIDGES,
      knownHidBridges: DEFAULT_KNOWN_HID_BRIDGES,
      allowedSerialPaths: [],
      pollIntervalMs: 2000,
      reprobeAfterMs: 30_000,
      now: () => Date.now(),
      ...options,
    };
    this.preferred = options.preferred;
  }

  /**
   * The facility's choice changed (settings): the preferred reader becomes the station's as soon as
   * it is there — at once when it already is. Without a preference the reader in use stays.
   */
  setPreferred(preferred: ReaderPreference | undefined): void {
    this.preferred = preferred;
    if (!this.stopped) this.choose();
  }

  onEvent(listener: (event: ReaderManagerEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Polls now and every `pollIntervalMs` until stopped. */
  start(): void {
    if (this.ticking || this.stopped) return;
    this.ticking = true;
    const tick = async () => {
      await this.poll();
      if (this.ticking) this.timer = setTimeout(() => void tick(), this.options.pollIntervalMs);
    };
    void tick();
  }

  /** Stops polling, waits for probes under way, closes every reader. The manager is done after this. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.ticking = false;
    clearTimeout(this.timer);
    await this.polling;
    await Promise.all([...this.probes]);
    await Promise.all([...this.entries.values()].map((entry) => this.release(entry)));
    this.entries.clear();
    this.setChosen(null);
  }

  /** One discovery pass: list, diff, start probes. Probes run on; `settle()` waits for them. */
  poll(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.polling ??= this.pollOnce().finally(() => (this.polling = undefined));
    return this.polling;
  }

  /** Waits until no probe is running (tests, the CLI). */
  async settle(): Promise<void> {
    while (this.probes.size > 0) await Promise.all([...this.probes]);
  }

  get chosen(): ManagedReader | undefined {
    return this.chosenKey === null ? undefined : this.entries.get(this.chosenKey)?.managed;
  }

  get hidAvailability(): HidAvailability | undefined {
    return this.hid;
  }

  snapshot(): ReaderManagerSnapshot {
    const entries = [...this.entries.values()];
    return {
      readers: entries.flatMap((e) =>
        e.managed ? [{ id: e.managed.reader.id, info: e.managed.info, state: e.managed.reader.state, candidate: e.candidate }] : [],
      ),
      chosenId: this.chosen?.reader.id ?? null,
      ignored: entries.filter((e) => e.status === 'ignored').map((e) => e.candidate),
      unanswered: entries.flatMap((e) => (e.status === 'failed' && e.failure ? [{ candidate: e.candidate, message: e.failure.message }] : [])),
      hid: this.hid,
    };
  }

  /** The manager as the local device service sees it: the readers found, the chosen one. */
  deviceSource(): DeviceSource {
    return {
      readers: () => [...this.entries.values()].flatMap((e) => (e.managed ? [{ reader: e.managed.reader, info: e.managed.info }] : [])),
      chosen: () => this.chosen?.reader,
      onChange: (listener) =>
        this.onEvent((event) => {
          if (event.type === 'reader-found' || event.type === 'reader-absent' || event.type === 'reader-state' || event.type === 'chosen-changed') {
            listener();
          }
        }),
    };
  }

  private async pollOnce(): Promise<void> {
    const listed = new Map<string, ReaderCandidate>();
    const [serial, hid] = await Promise.allSettled([this.options.listSerialPorts(), this.options.listHidDevices()]);
    let serialListed = true;
    let hidListed = true;
    if (serial.status === 'fulfilled') {
      for (const port of serial.value) {
        const candidate = serialCandidate(port, this.options.knownSerialBridges);
        listed.set(candidate.key, candidate);
      }
    } else {
      serialListed = false;
      this.emit({ type: 'listing-failed', source: 'serial', message: describe(serial.reason) });
    }
    if (hid.status === 'fulfilled') {
      this.noteHidAvailability(hid.value.availability);
      for (const device of hid.value.devices) {
        const candidate = hidCandidate(device, this.options.knownHidBridges);
        if (candidate) listed.set(candidate.key, candidate);
      }
    } else {
      hidListed = false;
      this.emit({ type: 'listing-failed', source: 'hid', message: describe(hid.reason) });
    }
    if (this.stopped) return;

    // Gone: only judged for a listing that worked, so a failed listing does not unplug everything.
    for (const [key, entry] of this.entries) {
      if (listed.has(key)) continue;
      if (entry.candidate.transport === 'serial' ? !serialListed : !hidListed) continue;
      this.entries.delete(key);
      entry.gone = true;
      await this.release(entry);
    }

    for (const [key, candidate] of listed) {
      const entry = this.entries.get(key);
      if (!entry) {
        this.discover(candidate);
      } else if (entry.status === 'failed' && entry.failure && this.options.now() - entry.failure.at >= this.options.reprobeAfterMs) {
        this.probe(entry);
      } else if (entry.status === 'ready' && entry.managed?.reader.state.kind === 'absent') {
        // The reader lost its device although the port is still listed (module unpowered, cable
        // half out): let it go and try again.
        await this.release(entry);
        this.probe(entry);
      }
    }
  }

  private discover(candidate: ReaderCandidate): void {
    const entry: Entry = { candidate, status: 'ignored' };
    this.entries.set(candidate.key, entry);
    if (candidate.transport === 'serial' && !candidate.bridge && !this.options.allowedSerialPaths.includes(candidate.path)) {
      const id = candidate.vendorId ? `USB ${candidate.vendorId}:${candidate.productId ?? '????'}` : 'no USB id';
      this.emit({ type: 'device-ignored', candidate, reason: `${id} is not a known USB-serial bridge; the station does not write to it` });
      return;
    }
    this.probe(entry);
  }

  private probe(entry: Entry): void {
    entry.status = 'probing';
    const run = (async () => {
      let found: { reader: FingerprintReader; info: ReaderInfo };
      try {
        found = await this.options.openReader(entry.candidate);
      } catch (error) {
        if (entry.gone) return;
        entry.status = 'failed';
        entry.failure = { message: describe(error), at: this.options.now() };
        this.emit({ type: 'probe-failed', candidate: entry.candidate, message: entry.failure.message });
        return;
      }
      if (entry.gone || this.stopped) {
        await found.reader.close().catch(() => undefined);
        return;
      }
      entry.status = 'ready';
      delete entry.failure;
      entry.managed = { ...found, candidate: entry.candidate };
      entry.stopWatching = found.reader.onStateChange((state) => {
        this.emit({ type: 'reader-state', readerId: found.reader.id, state });
      });
      this.emit({ type: 'reader-found', readerId: found.reader.id, info: found.info, candidate: entry.candidate });
      this.choose();
    })();
    this.probes.add(run);
    void run.finally(() => this.probes.delete(run));
  }

  /** Closes an entry's reader, announcing it absent, and chooses again if it was the station's. */
  private async release(entry: Entry): Promise<void> {
    const managed = entry.managed;
    if (!managed) return;
    delete entry.managed;
    entry.stopWatching?.();
    entry.status = 'failed';
    await managed.reader.close().catch(() => undefined);
    this.emit({ type: 'reader-absent', readerId: managed.reader.id, candidate: entry.candidate });
    if (this.chosenKey === entry.candidate.key) this.choose();
  }

  private choose(): void {
    const ready = [...this.entries.values()].filter((e) => e.managed);
    const preferred = this.preferred;
    const matchesPreference = (e: Entry) =>
      preferred !== undefined &&
      (preferred.readerId === undefined || e.managed?.reader.id === preferred.readerId) &&
      (preferred.path === undefined || e.candidate.path === preferred.path) &&
      (preferred.serialNumber === undefined || e.candidate.serialNumber === preferred.serialNumber);
    const current = this.chosenKey === null ? undefined : this.entries.get(this.chosenKey);
    const pick =
      ready.find(matchesPreference) ?? (current?.managed ? current : undefined) ?? ready[0];
    this.setChosen(pick ? pick.candidate.key : null);
  }

  private setChosen(key: string | null): void {
    if (key === this.chosenKey) return;
    this.chosenKey = key;
    this.emit({ type: 'chosen-changed', readerId: key === null ? null : (this.entries.get(key)?.managed?.reader.id ?? null) });
  }

  private noteHidAvailability(availability: HidAvailability): void {
    const changed = this.hid === undefined || this.hid.available !== availability.available;
    this.hid = availability;
    if (changed) this.emit({ type: 'hid-availability', availability });
  }

  private emit(event: ReaderManagerEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
