// The contract as the preload exposes it (docs/bridge-protocol.md): invoke goes to the main side on
// 'idhini:invoke' as {name, input}; events arrive on 'idhini:event' and are handed to subscribers
// without the IPC event object, so the page never gets hold of anything of Electron's.
import type { IpcRendererEvent } from 'electron';
import type { CommandName, CommandInput, CommandOutcome, StationBridge, StationEvent } from '../contract';

export const INVOKE_CHANNEL = 'idhini:invoke';
export const EVENT_CHANNEL = 'idhini:event';

/** ipcRenderer, by the calls the bridge makes. */
export interface IpcRendererApi {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: IpcRendererEvent, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: IpcRendererEvent, ...args: unknown[]) => void): unknown;
}

export function createPreloadBridge(ipcRenderer: IpcRendererApi) {
  return {
    invoke<N extends CommandName>(name: N, input: CommandInput<N>): Promise<CommandOutcome<N>> {
      return ipcRenderer.invoke(INVOKE_CHANNEL, { name, input }) as Promise<CommandOutcome<N>>;
    },
    subscribe(listener: (event: StationEvent) => void): () => void {
      const relay = (_event: IpcRendererEvent, payload: unknown) => {
        try {
          listener(payload as StationEvent);
        } catch (error) {
          // One failing subscriber must not stop the others; the page's console shows it.
          console.error('idhini: an event listener failed', error);
        }
      };
      ipcRenderer.on(EVENT_CHANNEL, relay);
      return () => void ipcRenderer.removeListener(EVENT_CHANNEL, relay);
    },
  } satisfies StationBridge;
}
