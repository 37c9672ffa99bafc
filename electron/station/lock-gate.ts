// What a locked station does: nothing but let someone sign in. While locked — idle, by hand, by the
// system, or nobody signed in yet — every command but the status and the sign-in answers LOCKED,
// whoever was signed in before the lock (a command never acts with the role of someone who walked
// away), and only the lock's own events go out: no workflow, reader or capture news for a window
// nobody has opened. One allow-list, so a new command is locked out until it is named here.
import { makeError, type CommandName, type StationError } from '../contract';

/** The commands a locked station answers: its status, the sign-in, and locking (which then changes nothing). */
export const OPEN_WHILE_LOCKED: ReadonlySet<CommandName> = new Set<CommandName>(['station.status', 'station.unlock', 'station.setUpAdministrator', 'station.lock']);

/** LOCKED for a command a locked station does not answer, else null. */
export function lockedOut(name: CommandName, locked: boolean, nobodySignedIn: boolean): StationError | null {
  if (!locked || OPEN_WHILE_LOCKED.has(name)) return null;
  return makeError('LOCKED', nobodySignedIn ? 'Nobody is signed in: a staff member’s PIN opens the station.' : 'The station is locked: a staff member’s PIN opens it.');
}

/** Whether an event goes out while the station is locked: only the lock's own (station.*). */
export function sentWhileLocked(event: unknown): boolean {
  const type = (event as { type?: unknown } | null)?.type;
  return typeof type === 'string' && type.startsWith('station.');
}
