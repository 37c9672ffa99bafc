// The station's lock: locked at start (unless training signs the demo nurse in), by hand, by the
// system (screen locked, suspend) or after the idle time of settings passes with no person acting.
// Its own unit so that the command table knows only "is it locked" and "a person acted" (which
// commands are a person's: the contract's personCommands; the screens' polling never is).
//
// Idle time is real time at the ward, counted on the machine's clock — not on the station's, which
// in training is the sandbox's and jumps hours at a time. It is checked every few seconds rather
// than by one long timer, so a machine that slept past its lock time locks as it wakes, and a test
// can move a fake machine clock. When the lock will fall (lockAt) is told on the station's clock,
// which the renderer's countdowns follow.
import type { Clock } from './deps';

export type LockReason = 'idle' | 'manual' | 'system';

export interface IdleLockOptions {
  /** The station's clock: lockAt is told on it. */
  readonly clock: Clock;
  /** The machine's clock, on which idle time is counted (default: the system's). */
  readonly idleClock?: Clock;
  /** How often the idle time is looked at, ms (default 5 s). */
  readonly checkEveryMs?: number;
  /** The idle time of settings, read at every check (it may change). */
  readonly idleMinutes: () => number;
  /** The lock took effect (not called when it was locked already). */
  readonly onLocked: (reason: LockReason) => void;
}

const DEFAULT_CHECK_MS = 5000;

export class IdleLock {
  private isLocked = true;
  private lastActivity: number;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly idleClock: Clock;

  constructor(private readonly o: IdleLockOptions) {
    this.idleClock = o.idleClock ?? { now: () => Date.now() };
    this.lastActivity = this.idleClock.now();
  }

  get locked(): boolean {
    return this.isLocked;
  }

  /** When the idle lock will fall, on the station's clock, while unlocked. */
  lockAt(): string | null {
    if (this.isLocked) return null;
    const left = this.lastActivity + this.idleMs() - this.idleClock.now();
    return new Date(this.o.clock.now() + left).toISOString();
  }

  lock(reason: LockReason): void {
    if (this.isLocked) return;
    this.isLocked = true;
    this.disarm();
    this.o.onLocked(reason);
  }

  /** Opens the station (a PIN was accepted); answers whether it was locked. */
  unlock(): boolean {
    const was = this.isLocked;
    this.isLocked = false;
    this.activity();
    return was;
  }

  /** A person acted: the idle time starts again. */
  activity(): void {
    this.lastActivity = this.idleClock.now();
    this.arm();
  }

  /** Watches the idle time while unlocked (the idle minutes are read at every check, so a change in settings is followed). */
  arm(): void {
    if (this.isLocked || this.stopped || this.timer !== undefined) return;
    this.timer = setInterval(() => this.check(), this.o.checkEveryMs ?? DEFAULT_CHECK_MS);
    this.timer.unref?.();
  }

  /** One look at the idle time. */
  check(): void {
    if (!this.isLocked && this.idleClock.now() >= this.lastActivity + this.idleMs()) this.lock('idle');
  }

  stop(): void {
    this.stopped = true;
    this.disarm();
  }

  private disarm(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private idleMs(): number {
    return this.o.idleMinutes() * 60_000;
  }
}
