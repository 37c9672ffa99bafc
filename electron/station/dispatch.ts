// A validated command on its way to its handler. Three decisions are taken here and nowhere else:
// BUSY past the station's bound on commands under way (nothing done, the caller told at once),
// LOCKED while the station is locked (`lockGate`, the one place that says what a locked station
// answers), and which commands count as someone acting for the idle lock (`isActivity`). Then the
// handler, its failure turned into the contract's error, and one log line per command.
import type { Logger } from 'pino';
import { isPersonCommand, isShellCommand, makeError, type CommandName, type CommandOutcome, type Invocation, type StationError } from '../contract';
import type { Handlers, StationServices } from './commands/services';
import { toStationError } from './errors';
import { lockedOut } from './lock-gate';

/**
 * Commands the whole station has under way at once at most; past it, BUSY (nothing is done). Above
 * one window's bound (CALLS_IN_FLIGHT_PER_CONNECTION), so one busy window leaves room for the others.
 */
export const STATION_COMMANDS_IN_FLIGHT = 320;

/** The lock's gate: the refusal a locked station answers this command with, or null to let it through (lock-gate.ts). */
export function lockGate(invocation: Invocation, s: Pick<StationServices, 'lock' | 'current'>): StationError | null {
  return lockedOut(invocation.name, s.lock.locked, s.current() === null);
}

/**
 * Whether the command is a person at the station acting: it starts the idle time again. The
 * contract names them (personCommands); the screens' polling and reads never are.
 */
export function isActivity(invocation: Invocation): boolean {
  return isPersonCommand(invocation.name);
}

/** What the dispatcher needs of the station: the running station (undefined when it is not running), and its log. */
export interface DispatchOptions {
  readonly running: () => Promise<{ readonly services: StationServices; readonly handlers: Handlers }> | undefined;
  readonly maxInFlight: number;
  readonly log: Logger;
  readonly scrub: (text: string) => string;
}

export type Dispatch = (invocation: Invocation) => Promise<CommandOutcome<CommandName>>;

/**
 * A validated call: BUSY past the station's bound (nothing is done, and the caller is told at once
 * instead of waiting behind the queue), else the command, its answer as the handler gave it.
 */
export function createDispatch(o: DispatchOptions): Dispatch {
  let inFlight = 0;
  return async (invocation) => {
    const started = performance.now();
    const running = o.running();
    if (running === undefined) return { ok: false, error: makeError('INTERNAL', 'The station is not running.') };
    if (inFlight >= o.maxInFlight) return { ok: false, error: makeError('BUSY', 'The station has too many requests under way: nothing was done; try again in a moment.') };
    inFlight += 1;
    let outcome: CommandOutcome<CommandName>;
    try {
      const station = await running.catch(() => undefined);
      outcome = station === undefined ? { ok: false, error: makeError('INTERNAL', 'The station could not start; see its log.') } : await handle(o, station, invocation);
    } finally {
      inFlight -= 1;
    }
    o.log.info({ command: invocation.name, ok: outcome.ok, code: outcome.ok ? undefined : outcome.error.code, ms: Math.round(performance.now() - started) }, 'command');
    return outcome;
  };
}

async function handle(o: DispatchOptions, station: { services: StationServices; handlers: Handlers }, invocation: Invocation): Promise<CommandOutcome<CommandName>> {
  // Where the authorization link is shown is the shell's own command; no shell stands in front of this call.
  if (isShellCommand(invocation.name)) return { ok: false, error: makeError('WRONG_STATE', `${invocation.name} is answered by the shell that shows the station, not by its core.`) };
  const refused = lockGate(invocation, station.services);
  if (refused !== null) return { ok: false, error: refused };
  if (isActivity(invocation)) station.services.lock.activity();
  try {
    const handler = station.handlers[invocation.name] as (input: unknown) => Promise<unknown>;
    return { ok: true, value: await handler(invocation.input) } as CommandOutcome<CommandName>;
  } catch (error) {
    const stationError = toStationError(error, o.scrub);
    if (stationError.code === 'INTERNAL') o.log.error({ command: invocation.name, err: error instanceof Error ? error.stack : String(error) }, 'command failed');
    return { ok: false, error: stationError };
  }
}
