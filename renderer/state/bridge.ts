// The one place screens reach the station from. Stores call `call(name, input)`; a LOCKED answer
// (the station locked itself while a call was on its way) locks the screen too.
import type { CommandInput, CommandName, CommandOutcome, Connection, StationBridge, StationEvent } from '../bridge/types';

let bridge: StationBridge | null = null;
let connection: Connection | null = null;
const lockedListeners = new Set<() => void>();

export function setTransport(next: { bridge: StationBridge; connection: Connection }): void {
  bridge = next.bridge;
  connection = next.connection;
}

export function currentConnection(): Connection | null {
  return connection;
}

export async function call<N extends CommandName>(name: N, input: CommandInput<N>): Promise<CommandOutcome<N>> {
  if (bridge === null) return { ok: false, error: { code: 'INTERNAL', message: 'Not connected to the station.', retryable: false } };
  const outcome = await bridge.invoke(name, input);
  if (!outcome.ok && outcome.error.code === 'LOCKED') for (const listener of lockedListeners) listener();
  return outcome;
}

export function subscribe(listener: (event: StationEvent) => void): () => void {
  return bridge === null ? () => undefined : bridge.subscribe(listener);
}

export function onLockedAnswer(listener: () => void): () => void {
  lockedListeners.add(listener);
  return () => lockedListeners.delete(listener);
}
