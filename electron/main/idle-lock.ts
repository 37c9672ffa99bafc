// The idle lock in the Electron shell. The station core owns the lock (station.lock, lockAt, the
// station.locked event); the shell feeds it what only the OS knows: the system idle time
// (powerMonitor) and the screen locking or the machine going to sleep. Whenever the station locks,
// for whatever reason, the shell also wipes what the renderer holds: the authorization view goes,
// the station session's storage and cache are cleared, and the renderer is loaded afresh, so no
// patient detail survives in its memory.
import type { PowerMonitorApi, ShellLog, StationContentsApi, StationSessionApi } from './electron-api';
import { APP_ENTRY_URL } from './origins';

export interface IntervalTimers {
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export interface IdleLockDeps {
  powerMonitor: PowerMonitorApi;
  /** Minutes of no input before the station locks (settings.idleLockMinutes). */
  idleMinutes(): number;
  /** Locks the station (the core's station.lock). */
  lock(reason: 'idle' | 'system'): Promise<void>;
  /** Tells the core the nurse is at the station (station.reportActivity), pushing lockAt back. */
  reportActivity(): Promise<void>;
  log: ShellLog;
  timers?: IntervalTimers;
  /** How often the system idle time is read. */
  checkEverySeconds?: number;
}

export class IdleLock {
  readonly #deps: IdleLockDeps;
  readonly #every: number;
  #timer: unknown = null;
  /** Set once the idle lock fired, until input is seen again: one lock per idle spell. */
  #lockedForThisSpell = false;

  constructor(deps: IdleLockDeps) {
    this.#deps = deps;
    this.#every = deps.checkEverySeconds ?? 15;
  }

  start(): void {
    if (this.#timer !== null) return;
    const timers = this.#deps.timers ?? globalThis;
    this.#timer = timers.setInterval(() => void this.check(), this.#every * 1000);
    const onSystemLock = (what: string) => () => {
      this.#deps.log.info({ what }, 'system lock: locking the station');
      void this.#safely(() => this.#deps.lock('system'));
    };
    this.#deps.powerMonitor.on('lock-screen', onSystemLock('lock-screen'));
    this.#deps.powerMonitor.on('suspend', onSystemLock('suspend'));
  }

  stop(): void {
    if (this.#timer === null) return;
    (this.#deps.timers ?? globalThis).clearInterval(this.#timer as ReturnType<typeof setInterval>);
    this.#timer = null;
  }

  /** One reading of the idle time: activity since the last reading, or long enough idle to lock. */
  async check(): Promise<void> {
    const idleSeconds = this.#deps.powerMonitor.getSystemIdleTime();
    if (idleSeconds < this.#every) {
      this.#lockedForThisSpell = false;
      await this.#safely(() => this.#deps.reportActivity());
      return;
    }
    if (!this.#lockedForThisSpell && idleSeconds >= this.#deps.idleMinutes() * 60) {
      this.#lockedForThisSpell = true;
      this.#deps.log.info({ idleSeconds }, 'idle: locking the station');
      await this.#safely(() => this.#deps.lock('idle'));
    }
  }

  async #safely(task: () => Promise<void>): Promise<void> {
    try {
      await task();
    } catch (error) {
      this.#deps.log.error({ error: error instanceof Error ? error.name : typeof error }, 'idle lock call failed');
    }
  }
}

export interface RendererResetDeps {
  contents(): StationContentsApi | null;
  session: StationSessionApi;
  closeAuthorizationView(): void;
  log: ShellLog;
}

/** Wipes the renderer's state: on every station.locked, and before a crashed renderer comes back. */
export async function resetRenderer(deps: RendererResetDeps): Promise<void> {
  deps.closeAuthorizationView();
  await deps.session.clearStorageData({
    storages: ['cookies', 'filesystem', 'indexdb', 'localstorage', 'shadercache', 'serviceworkers', 'cachestorage'],
  });
  await deps.session.clearCache();
  const contents = deps.contents();
  if (contents !== null && !contents.isDestroyed()) await contents.loadURL(APP_ENTRY_URL);
  deps.log.info({}, 'renderer state cleared');
}
