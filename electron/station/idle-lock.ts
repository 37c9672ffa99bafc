// The station's lock: locked at start (unless training signs the demo nurse in), by hand, by the
// system (screen locked, suspend) or after the idle time of settings passes with no command. Its
// own unit so that the command table knows only "is it locked" and "there was activity".
import type { Clock } from './deps';

export type LockReason = 'idle' | 'manual' | 'system';

export interface IdleLockOptions {
  readonly clock: Clock;
  /** The idle time of settings, read at every arming (it may change). */
  readonly idleMinutes: () => number;
  /** The lock took effect (not called when it was locked already). */
  readonly onLocked: (reason: LockReason) => void;
}

export class IdleLock {
  private isLocked = true;
  private lastActivity: number;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly o: IdleLockOptions) {
    this.lastActivity = o.clock.now();
  }

  get locked(): boolean {
    return this.isLocked;
  }

  /** When the idle lock will fall, while unlocked. */
  lockAt(): string | null {
    if (this.isLocked) return null;
    return new Date(this.lastActivity + this.o.idleMinutes() * 60_000).toISOString();
  }

  lock(reason: LockReason): void {
    if (this.isLocked) return;
    this.isLocked = true;
    clearTimeout(this.timer);
    this.o.onLocked(reason);
  }

  /** Opens the station (a PIN was accepted); answers whether it was locked. */
  unlock(): boolean {
    const was = this.isLocked;
    this.isLocked = false;
    this.activity();
    return was;
  }

  /** A command: the idle time starts again. */
  activity(): void {
    this.lastActivity = this.o.clock.now();
    this.arm();
  }

  /** The idle time changed in settings: the timer follows. */
  arm(): void {
    clearTimeout(this.timer);
    if (this.isLocked || this.stopped) return;
    const due = this.lastActivity + this.o.idleMinutes() * 60_000 - this.o.clock.now();
    this.timer = setTimeout(
      () => {
        if (this.o.clock.now() >= this.lastActivity + this.o.idleMinutes() * 60_000) this.lock('idle');
        else this.arm();
      },
      Math.max(0, Math.min(due, 2 ** 31 - 1)),
    );
    this.timer.unref?.();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}
