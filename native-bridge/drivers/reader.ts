// The one interface the station sees for any fingerprint reader, whatever protocol and transport
// sit underneath (ZFM over serial, ZFM over a CP2110 HID bridge, GT-521 over serial, the virtual
// reader of training mode).

export type ReaderProtocol = 'zfm' | 'gt521' | 'virtual';
export type ReaderTransportKind = 'serial' | 'hid-cp2110' | 'virtual';

export type ReaderErrorCode =
  | 'timeout' // the module did not answer in time (also what a wrong address looks like)
  | 'checksum' // a packet arrived with a bad checksum
  | 'protocol' // a packet arrived that the protocol does not allow here
  | 'device' // the module answered with an error code (see `deviceCode`)
  | 'no-finger' // no finger arrived before the deadline
  | 'disconnected' // the port went away
  | 'busy' // a command was issued while another is running on a reader that cannot queue it
  | 'cancelled' // the caller aborted
  | 'not-supported' // the module cannot do this (e.g. identify on a reader without a library)
  | 'closed'; // the reader was closed

export class ReaderError extends Error {
  override readonly name = 'ReaderError';
  constructor(
    readonly code: ReaderErrorCode,
    message: string,
    /** The module's own error or confirmation code, when it gave one. */
    readonly deviceCode?: number,
  ) {
    super(message);
  }
}

export type ReaderState =
  | { readonly kind: 'absent' }
  | { readonly kind: 'idle' }
  | { readonly kind: 'waiting-for-finger'; readonly deadline: number }
  | { readonly kind: 'capturing' }
  | { readonly kind: 'error'; readonly code: ReaderErrorCode; readonly message: string };

export interface ReaderInfo {
  readonly id: string;
  readonly protocol: ReaderProtocol;
  readonly transport: ReaderTransportKind;
  /** Serial port path / COM name, HID path, or 'virtual'. */
  readonly path: string;
  readonly model?: string;
  readonly serialNumber?: string;
  readonly firmware?: string;
  readonly baudRate?: number;
  /** ZFM data-packet size read from ReadSysPara (32, 64, 128 or 256). */
  readonly packetSize?: number;
  readonly capacity?: number;
  readonly templateBytes?: number;
  /** The handshake the module answered (ZFM: 'HandShake', 'GetEcho', 'PortControl'; GT-521: 'Open'). */
  readonly handshake?: string;
  /** ZFM module address, eight hex digits. */
  readonly deviceAddress?: string;
  /** ZFM security level 1..5 from ReadSysPara. */
  readonly securityLevel?: number;
  readonly capabilities: { readonly identify: boolean; readonly verify: boolean; readonly led: boolean };
}

export interface Capture {
  readonly protocol: ReaderProtocol;
  /** The template bytes exactly as read from the module. */
  readonly template: Uint8Array;
  readonly templateBytes: number;
  readonly capturedAt: string;
  readonly durationMs: number;
}

export interface MatchResult {
  readonly matched: boolean;
  readonly id?: number;
  readonly score?: number;
}

export type LedSignal = 'ready' | 'busy' | 'ok' | 'fail' | 'off';

export interface WaitOptions {
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

export interface FingerprintReader {
  readonly id: string;
  readonly state: ReaderState;
  /** Subscribes to state changes; returns the unsubscribe function. */
  onStateChange(listener: (state: ReaderState) => void): () => void;
  probe(options?: { signal?: AbortSignal }): Promise<ReaderInfo>;
  waitForFinger(options: WaitOptions): Promise<void>;
  /** Waits for a finger, then returns its template. */
  capture(options: WaitOptions): Promise<Capture>;
  /** 1:N against the module's own library, where the module has one. */
  identify?(options: WaitOptions): Promise<MatchResult>;
  /** 1:1 against one stored id, where the module can. */
  verify?(id: number, options: WaitOptions): Promise<MatchResult>;
  led(signal: LedSignal): Promise<void>;
  close(): Promise<void>;
}
