// The renderer's view of the station contract: types only, so the contract's zod schemas never
// reach the bundle. Everything the screens know about the station comes through these.
export type {
  CommandInput,
  CommandName,
  CommandOutcome,
  CommandOutput,
  StationBridge,
  StationError,
  StationEvent,
} from '../../electron/contract';

/** How the transport to the station is doing; the Electron preload is always 'ready'. */
export type ConnectionState = 'connecting' | 'ready' | 'reconnecting' | 'refused';

export interface Connection {
  readonly state: ConnectionState;
  /** Called on every change; a return to 'ready' after 'reconnecting' means events may have been missed. */
  onChange(listener: (state: ConnectionState) => void): () => void;
}
