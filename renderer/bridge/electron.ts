// The Electron transport: the preload exposes the contract as window.idhini (contextBridge). This
// adapter only turns a failure of the IPC call itself into an error outcome, so screens handle one
// shape of failure whatever the transport.
import type { CommandInput, CommandName, CommandOutcome, Connection, StationBridge } from './types';

export function preloadBridge(api: StationBridge): StationBridge {
  return {
    async invoke<N extends CommandName>(name: N, input: CommandInput<N>): Promise<CommandOutcome<N>> {
      try {
        return await api.invoke(name, input);
      } catch {
        return transportFailure('The station did not answer the call.');
      }
    },
    subscribe: (listener) => api.subscribe(listener),
  } satisfies StationBridge;
}

export const alwaysReady: Connection = { state: 'ready', onChange: () => () => undefined };

/** A call whose fate is unknown: not retryable, since the station may have acted on it. */
export function transportFailure<N extends CommandName>(message: string): CommandOutcome<N> {
  return { ok: false, error: { code: 'INTERNAL', message, retryable: false } };
}
