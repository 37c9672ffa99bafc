// A byte pipe to a device. Protocols never see this type (they are bytes in, bytes out); drivers
// join a protocol to a transport. Transports never parse a protocol.

export interface ByteTransport {
  readonly kind: 'serial' | 'hid-cp2110';
  readonly path: string;
  write(bytes: Uint8Array): Promise<void>;
  /** Every chunk of bytes as it arrives; returns the unsubscribe function. */
  onData(listener: (chunk: Uint8Array) => void): () => void;
  /** Fires once when the device goes away (unplugged, PTY closed) — not on a requested close. */
  onDisconnect(listener: (error: Error) => void): () => void;
  /** Drops whatever is buffered in both directions (after a timeout, before a resync). */
  flush(): Promise<void>;
  /** Reopens at another baud rate (GT-521 ChangeBaudrate). */
  setBaudRate(baudRate: number): Promise<void>;
  readonly baudRate: number;
  close(): Promise<void>;
}
