// The contract over Electron IPC (docs/bridge-protocol.md): the preload invokes 'idhini:invoke' with
// {name, input} and gets a CommandOutcome; the main side sends events on 'idhini:event'. Before
// anything else, every call's sender is checked: it must be the top frame of the station window,
// showing the renderer from app://. A call from any other frame or window is refused with an
// error outcome and logged. Then the payload is validated against the contract.
import { checkEvent, makeError, validateInvoke } from '../contract';
import type { StationEvent } from '../contract';
import type { AnyOutcome, Dispatch } from './dispatch';
import type { InvokeEvent, IpcMainApi, ShellLog } from './electron-api';
import { isAppUrl, originOf } from './origins';

export const INVOKE_CHANNEL = 'idhini:invoke';
export const EVENT_CHANNEL = 'idhini:event';

/** The station window's webContents as IPC sees it: null before it exists and after it closed. */
export interface StationTarget {
  readonly id: number;
  isDestroyed(): boolean;
  send(channel: string, ...args: unknown[]): void;
}

function isStationSender(event: InvokeEvent, station: StationTarget | null): boolean {
  const frame = event.senderFrame;
  if (station === null || station.isDestroyed() || event.sender.id !== station.id) return false;
  return frame !== null && frame.parent === null && isAppUrl(frame.url);
}

const refusedSender: AnyOutcome = {
  ok: false,
  error: makeError('VALIDATION', 'Refused: the call did not come from the station window.', { field: 'sender' }),
};

export interface StationIpcDeps {
  ipcMain: IpcMainApi;
  station(): StationTarget | null;
  dispatch: Dispatch;
  subscribe(listener: (event: unknown) => void): () => void;
  /** Sees every event that goes to the renderer (the shell reacts to station.locked, learns links). */
  observeEvent(event: StationEvent): void;
  log: ShellLog;
}

/** Registers the handler and the event relay; returns what undoes both. */
export function registerStationIpc(deps: StationIpcDeps): () => void {
  const { ipcMain, log } = deps;
  ipcMain.handle(INVOKE_CHANNEL, async (event, message) => {
    if (!isStationSender(event, deps.station())) {
      const frame = event.senderFrame;
      log.warn({ contents: event.sender.id, frame: frame === null ? '(gone)' : (originOf(frame.url) ?? '(other)'), top: frame?.parent === null }, 'IPC call refused: foreign sender');
      return refusedSender;
    }
    const { name, input } = message !== null && typeof message === 'object' ? (message as { name?: unknown; input?: unknown }) : {};
    const call = validateInvoke(name, input);
    if (!call.ok) return call;
    return deps.dispatch(call.value);
  });

  const unsubscribe = deps.subscribe((event) => {
    const checked = checkEvent(event);
    if (!checked.ok) {
      log.error({ event: typeof (event as { type?: unknown }).type === 'string' ? (event as { type: string }).type : '(none)' }, 'station event refused: outside the contract');
      return;
    }
    const station = deps.station();
    // webContents.send reaches the top frame only: no subframe hears the station's events.
    if (station !== null && !station.isDestroyed()) station.send(EVENT_CHANNEL, checked.value);
    deps.observeEvent(checked.value);
  });

  return () => {
    unsubscribe();
    ipcMain.removeHandler(INVOKE_CHANNEL);
  };
}
