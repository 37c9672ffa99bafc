// A ByteTransport over serialport 13. It moves bytes and reports the port going away; it never
// parses a protocol. Works with any SerialPortStream (the real SerialPort, or SerialPortMock in
// discovery tests).

import { SerialPort } from 'serialport';
import type { ByteTransport } from '../transport';

/** The part of serialport's SerialPortStream this transport uses. */
export interface SerialPortLike {
  readonly path: string;
  readonly baudRate: number;
  readonly isOpen: boolean;
  write(chunk: Buffer, callback: (error: Error | null | undefined) => void): boolean;
  drain(callback: (error: Error | null) => void): void;
  flush(callback: (error: Error | null) => void): void;
  update(options: { baudRate: number }, callback: (error: Error | null) => void): void;
  close(callback: (error: Error | null) => void): void;
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  on(event: 'close', listener: (error: (Error & { disconnected?: boolean }) | null) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

export class SerialTransportError extends Error {
  override readonly name = 'SerialTransportError';
  constructor(
    readonly code: 'open-failed' | 'closed' | 'disconnected' | 'io',
    message: string,
  ) {
    super(message);
  }
}

export interface SerialOpenOptions {
  readonly baudRate: number;
}

export class SerialTransport implements ByteTransport {
  readonly kind = 'serial' as const;
  private readonly dataListeners = new Set<(chunk: Uint8Array) => void>();
  private readonly disconnectListeners = new Set<(error: Error) => void>();
  private closeRequested = false;
  private gone: SerialTransportError | undefined;

  /** Opens `path` (a COM name on Windows, a device path elsewhere) at `baudRate`, 8N1. */
  static open(path: string, options: SerialOpenOptions): Promise<SerialTransport> {
    return new Promise((resolve, reject) => {
      const port = new SerialPort({ path, baudRate: options.baudRate, autoOpen: false });
      port.open((error) => {
        if (error) reject(new SerialTransportError('open-failed', `cannot open ${path}: ${error.message}`));
        else resolve(new SerialTransport(port));
      });
    });
  }

  /** Wraps a port that is already open. */
  constructor(private readonly port: SerialPortLike) {
    port.on('data', (chunk) => {
      const bytes = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      for (const listener of this.dataListeners) listener(bytes);
    });
    port.on('close', (error) => {
      if (this.closeRequested) return;
      this.vanish(error ?? new Error('the port closed'));
    });
    // serialport emits 'error' for failures it has no callback for; once the port is no longer
    // open that is the device going away.
    port.on('error', (error) => {
      if (!port.isOpen && !this.closeRequested) this.vanish(error);
    });
  }

  get path(): string {
    return this.port.path;
  }

  get baudRate(): number {
    return this.port.baudRate;
  }

  get isOpen(): boolean {
    return this.port.isOpen && !this.gone && !this.closeRequested;
  }

  write(bytes: Uint8Array): Promise<void> {
    const refused = this.refusal();
    if (refused) return Promise.reject(refused);
    return new Promise((resolve, reject) => {
      this.port.write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), (error) => {
        if (error) reject(this.refusal() ?? new SerialTransportError('io', `write to ${this.path} failed: ${error.message}`));
        else resolve();
      });
    });
  }

  onData(listener: (chunk: Uint8Array) => void): () => void {
    this.dataListeners.add(listener);
    return () => this.dataListeners.delete(listener);
  }

  onDisconnect(listener: (error: Error) => void): () => void {
    this.disconnectListeners.add(listener);
    return () => this.disconnectListeners.delete(listener);
  }

  /** Discards unread input and unsent output in the OS (tcflush / PurgeComm). */
  flush(): Promise<void> {
    const refused = this.refusal();
    if (refused) return Promise.reject(refused);
    return this.call((done) => this.port.flush(done), 'flush');
  }

  /** Lets pending output leave at the old rate, then switches the open port's rate. */
  async setBaudRate(baudRate: number): Promise<void> {
    const refused = this.refusal();
    if (refused) throw refused;
    if (baudRate === this.port.baudRate) return;
    await this.call((done) => this.port.drain(done), 'drain');
    await this.call((done) => this.port.update({ baudRate }, done), `set ${baudRate} baud on`);
  }

  async close(): Promise<void> {
    if (this.closeRequested || this.gone) return;
    this.closeRequested = true;
    if (!this.port.isOpen) return;
    await this.call((done) => this.port.close(done), 'close');
  }

  private vanish(error: Error): void {
    if (this.gone) return;
    this.gone = new SerialTransportError('disconnected', `${this.path} went away: ${error.message}`);
    for (const listener of this.disconnectListeners) listener(this.gone);
  }

  private refusal(): SerialTransportError | undefined {
    if (this.gone) return this.gone;
    if (this.closeRequested) return new SerialTransportError('closed', `${this.path} is closed`);
    return undefined;
  }

  private call(start: (done: (error: Error | null) => void) => void, what: string): Promise<void> {
    return new Promise((resolve, reject) => {
      start((error) => {
        if (error) reject(this.refusal() ?? new SerialTransportError('io', `${what} ${this.path} failed: ${error.message}`));
        else resolve();
      });
    });
  }
}
