// What the local device service needs to know about the station's readers: which ones to list in
// GET /status, which one serves a capture, and when any of that changes. The reader manager is
// one source; a single reader (the virtual reader of training mode, a test's fake) is another.
import type { FingerprintReader, ReaderInfo, ReaderState } from '../drivers/reader';

export interface SourceReader {
  readonly reader: FingerprintReader;
  /** What the reader's probe found, when it has been probed. */
  readonly info?: ReaderInfo;
}

export interface DeviceSource {
  readers(): readonly SourceReader[];
  /** The station's reader: the one a capture is served from. */
  chosen(): FingerprintReader | undefined;
  /** Any change: a reader found or gone, a reader's state, the choice. Returns the unsubscribe function. */
  onChange(listener: () => void): () => void;
}

/** One reader that is always the chosen one. */
export function singleReaderSource(reader: FingerprintReader, info?: ReaderInfo): DeviceSource {
  return {
    readers: () => [{ reader, ...(info ? { info } : {}) }],
    chosen: () => reader,
    onChange: (listener) => reader.onStateChange(() => listener()),
  };
}

/** The `status` of a device in GET /status, in the words the hardware service's clients know. */
export function deviceStatus(state: ReaderState): string {
  switch (state.kind) {
    case 'absent':
      return 'disconnected';
    case 'idle':
      return 'connected';
    case 'waiting-for-finger':
    case 'capturing':
      return 'busy';
    case 'error':
      return 'error';
  }
}
