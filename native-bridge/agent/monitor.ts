// Watches the exchange's hardware service on the workstation (localhost:18065 by default): polls
// GET /status, trying http then https, and listens on the /ws/devices WebSocket so that a scanner
// plugged in or pulled out shows within moments instead of at the next poll. The payload of a
// device event is not documented, so an event only triggers a fresh GET /status: the status stays
// the single source of truth.
import WebSocket from 'ws';
import { getJson, tlsOptionsFor } from './loopback-http';
import { parseStatus, stateKind, type HardwareServiceState } from './status';

export const DEFAULT_HARDWARE_SERVICE_URLS: readonly string[] = ['http://localhost:18065', 'https://localhost:18065'];

export interface HardwareServiceMonitorOptions {
  /** Tried in order (the one that answered last goes first next time). Default http, then https, on localhost:18065. */
  readonly baseUrls?: readonly string[];
  /** Between two polls when no device event comes. Default 5 s. */
  readonly pollIntervalMs?: number;
  /** For the whole of one check, across the base URLs. Default 4 s (clients of the service use 3–5 s). */
  readonly timeoutMs?: number;
  /** Listen on /ws/devices for device events. Default true. */
  readonly watchDeviceEvents?: boolean;
  readonly now?: () => Date;
}

export class HardwareServiceMonitor {
  private readonly baseUrls: URL[];
  private readonly pollIntervalMs: number;
  private readonly timeoutMs: number;
  private readonly watchDeviceEvents: boolean;
  private readonly now: () => Date;
  private readonly listeners = new Set<(state: HardwareServiceState) => void>();
  private current: HardwareServiceState;
  private running = false;
  private pollTimer: NodeJS.Timeout | undefined;
  private inFlight: Promise<HardwareServiceState> | undefined;
  private checkAgain = false;
  private socket: WebSocket | undefined;
  private socketUrl: string | undefined;

  constructor(options: HardwareServiceMonitorOptions = {}) {
    const urls = options.baseUrls ?? DEFAULT_HARDWARE_SERVICE_URLS;
    if (urls.length === 0) throw new RangeError('The hardware service monitor needs at least one base URL.');
    this.baseUrls = urls.map((url) => new URL(url));
    this.pollIntervalMs = options.pollIntervalMs ?? 5000;
    this.timeoutMs = options.timeoutMs ?? 4000;
    this.watchDeviceEvents = options.watchDeviceEvents ?? true;
    this.now = options.now ?? (() => new Date());
    this.current = { kind: 'not-running', reason: 'not checked yet', checkedAt: this.now().toISOString() };
  }

  get state(): HardwareServiceState {
    return this.current;
  }

  /** The workstationID the service reports, for the biometric authorize body (`work_station_id`). */
  get workstationID(): string | undefined {
    return this.current.kind === 'not-running' ? undefined : this.current.status.workstationID;
  }

  /** Called on every change of state (not on every poll); returns the unsubscribe function. */
  onChange(listener: (state: HardwareServiceState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    void this.check();
  }

  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.pollTimer);
    this.pollTimer = undefined;
    this.closeSocket();
    await this.inFlight?.catch(() => undefined);
  }

  /** Checks now (joining a check already under way) and returns the resulting state. */
  check(): Promise<HardwareServiceState> {
    if (this.inFlight) {
      this.checkAgain = true;
      return this.inFlight;
    }
    clearTimeout(this.pollTimer);
    this.inFlight = this.checkOnce().finally(() => {
      this.inFlight = undefined;
      if (!this.running) return;
      if (this.checkAgain) {
        this.checkAgain = false;
        void this.check();
      } else {
        this.pollTimer = setTimeout(() => void this.check(), this.pollIntervalMs);
      }
    });
    return this.inFlight;
  }

  private async checkOnce(): Promise<HardwareServiceState> {
    const deadline = Date.now() + this.timeoutMs;
    const reasons: string[] = [];
    for (const baseUrl of [...this.baseUrls]) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        reasons.push(`${baseUrl.origin}: no time left within ${this.timeoutMs} ms`);
        continue;
      }
      try {
        const status = parseStatus(await getJson(new URL('status', withSlash(baseUrl)), remaining));
        this.preferBaseUrl(baseUrl);
        const state: HardwareServiceState = {
          kind: stateKind(status),
          baseUrl: baseUrl.origin,
          status,
          checkedAt: this.now().toISOString(),
        };
        this.publish(state);
        if (this.running && this.watchDeviceEvents) this.watchEvents(baseUrl);
        return state;
      } catch (error) {
        reasons.push(error instanceof Error ? error.message : String(error));
      }
    }
    this.closeSocket();
    const state: HardwareServiceState = { kind: 'not-running', reason: reasons.join('; '), checkedAt: this.now().toISOString() };
    this.publish(state);
    return state;
  }

  private publish(state: HardwareServiceState): void {
    const changed = signature(state) !== signature(this.current);
    this.current = state;
    if (!changed) return;
    for (const listener of [...this.listeners]) listener(state);
  }

  private preferBaseUrl(url: URL): void {
    const index = this.baseUrls.indexOf(url);
    if (index > 0) {
      this.baseUrls.splice(index, 1);
      this.baseUrls.unshift(url);
    }
  }

  private watchEvents(baseUrl: URL): void {
    const url = new URL('ws/devices', withSlash(baseUrl));
    url.protocol = baseUrl.protocol === 'https:' ? 'wss:' : 'ws:';
    if (this.socket && this.socketUrl === url.href) return;
    this.closeSocket();
    const socket = new WebSocket(url, { ...tlsOptionsFor(url), handshakeTimeout: this.timeoutMs });
    this.socket = socket;
    this.socketUrl = url.href;
    let opened = false;
    socket.on('open', () => (opened = true));
    socket.on('message', () => {
      if (this.running) void this.check();
    });
    socket.on('close', () => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.socketUrl = undefined;
      // A channel that was open and closed often means the service stopped: find out now. One that
      // never opened (a service without the WebSocket) is retried at the next poll, not in a loop.
      if (opened && this.running) void this.check();
    });
    // Errors end in 'close'.
    socket.on('error', () => undefined);
  }

  private closeSocket(): void {
    const socket = this.socket;
    this.socket = undefined;
    this.socketUrl = undefined;
    if (socket) socket.terminate();
  }
}

function withSlash(url: URL): URL {
  return url.pathname.endsWith('/') ? url : new URL(`${url.href}/`);
}

/** What makes two states different for the station: not the time of the check, not the wording of a failure. */
function signature(state: HardwareServiceState): string {
  return state.kind === 'not-running' ? 'not-running' : JSON.stringify([state.kind, state.baseUrl, state.status]);
}
