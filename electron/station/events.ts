// What the station tells those who listen, and what it says of itself. A shell's listeners get every
// event as it is (the shell checks each one, once); the in-process bridge's get only events inside
// the contract, checked here. The status, its changes and the jumps of the station's clock are
// announced from here too.
import type { Logger } from 'pino';
import { checkEvent, contractVersion, type StationEvent, type StationStatus } from '../contract';
import type { Clock, StationDeps } from './deps';
import type { IdleLock } from './idle-lock';
import type { Quarantine } from './quarantine';
import type { ReadersFacade } from './readers';
import type { StaffMember, StaffRegistry } from './staff';
import type { Ctx } from './workflows/context';

export class StationEvents {
  /** The in-process bridge's listeners: they get checked events only. */
  private readonly checked = new Set<(event: StationEvent) => void>();
  /** A shell's listeners: it checks each event itself. */
  private readonly hosted = new Set<(event: unknown) => void>();

  /** Events held back (a locked station's: lock-gate.ts), set once the lock exists. */
  private held: (event: unknown) => boolean = () => false;

  constructor(private readonly log: Logger) {}

  /** Holds back every event the rule names, from now on. */
  withhold(rule: (event: unknown) => boolean): void {
    this.held = rule;
  }

  subscribe(listener: (event: StationEvent) => void): () => void {
    this.checked.add(listener);
    return () => this.checked.delete(listener);
  }

  subscribeHosted(listener: (event: unknown) => void): () => void {
    this.hosted.add(listener);
    return () => this.hosted.delete(listener);
  }

  emit(event: unknown): void {
    if (this.held(event)) return;
    this.deliver(this.hosted, event);
    if (this.checked.size === 0) return;
    const checked = checkEvent(event);
    if (!checked.ok) {
      this.log.error({ issues: checked.error.details?.issues?.map((i) => i.field) }, 'an event outside the contract was dropped');
      return;
    }
    this.deliver(this.checked, checked.value);
  }

  clear(): void {
    this.checked.clear();
    this.hosted.clear();
  }

  private deliver<E>(to: Iterable<(event: E) => void>, value: E): void {
    for (const listener of [...to]) {
      try {
        listener(value);
      } catch (error) {
        this.log.warn({ err: (error as Error).message }, 'an event listener failed');
      }
    }
  }
}

/** What the status is made of: the running station's parts. */
export interface StatusSources {
  readonly deps: StationDeps;
  readonly host: 'electron' | 'browser';
  readonly clock: Clock;
  readonly readers: ReadersFacade;
  readonly ctx: Ctx;
  readonly lock: IdleLock;
  readonly staff: StaffRegistry;
  readonly quarantine: Quarantine;
  current(): StaffMember | null;
}

export function stationStatus(s: StatusSources): StationStatus {
  const settings = s.ctx.settings.values;
  const current = s.current();
  return {
    contractVersion,
    host: s.host,
    appVersion: (s.deps.appVersion ?? '0.0.0').slice(0, 60),
    trainingMode: settings.trainingMode,
    signedIn: s.ctx.session.view().signedIn,
    facility: settings.facilityCode && settings.facilityName ? { code: settings.facilityCode, name: settings.facilityName } : null,
    exchange: s.ctx.session.reachability,
    unavailablePieces: s.readers.unavailablePieces().slice(0, 20).map((p) => ({ piece: p.piece.slice(0, 100), reason: p.reason.slice(0, 500) })),
    locked: s.lock.locked,
    staff: current === null ? null : { staffRef: current.ref, name: current.name.slice(0, 200), role: current.role },
    administratorExists: s.staff.administratorExists,
    language: settings.language,
    lockAt: s.lock.lockAt(),
    now: new Date(s.clock.now()).toISOString(),
    setAside: setAsideOf(s.quarantine),
  };
}

/** The records set aside, as the status tells them: how many, and the first few for the IT officer. */
function setAsideOf(quarantine: Quarantine): StationStatus['setAside'] {
  const all = quarantine.list();
  return {
    count: all.length,
    records: all.slice(0, SET_ASIDE_SHOWN).map((r) => ({ source: r.source, key: r.key.slice(0, 100), kind: r.kind?.slice(0, 40) ?? null, reason: r.reason, foundAt: r.foundAt })),
  };
}

const SET_ASIDE_SHOWN = 20;

/** A change of the station clock's lead over the machine's this large is a jump, not drift. */
const CLOCK_JUMP_MS = 1000;

/**
 * The station's clock may not be the machine's: in training it is the sandbox's, which its clock
 * control moves forward. A jump is announced (station.statusChanged carries `now`), so the
 * renderer's countdowns follow at once; with the system clock nothing ever jumps. Answers the stop.
 */
export function watchClockJumps(clock: Clock, everyMs: number, announce: () => void): () => void {
  let lastOffset = clock.now() - Date.now();
  const watch = setInterval(() => {
    const offset = clock.now() - Date.now();
    if (Math.abs(offset - lastOffset) < CLOCK_JUMP_MS) return;
    lastOffset = offset;
    announce();
  }, everyMs);
  watch.unref?.();
  return () => clearInterval(watch);
}
