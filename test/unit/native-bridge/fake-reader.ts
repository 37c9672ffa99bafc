// A FingerprintReader without hardware for manager and service tests: states as the real drivers
// move them, a capture that resolves after a delay (or waits for the test), scripted failures.
import { ReaderError, type Capture, type FingerprintReader, type LedSignal, type ReaderInfo, type ReaderState, type WaitOptions } from '../../../native-bridge/drivers/reader';
import type { HintedWaitOptions } from '../../../native-bridge/drivers/virtual-reader';

export interface FakeReaderOptions {
  readonly id: string;
  readonly path?: string;
  readonly protocol?: 'zfm' | 'gt521';
  readonly template?: Uint8Array;
  readonly captureDelayMs?: number;
  /** The probe fails with this (a device on the port that is not a fingerprint module). */
  readonly probeError?: ReaderError;
}

export class FakeReader implements FingerprintReader {
  readonly id: string;
  state: ReaderState = { kind: 'absent' };
  readonly captures: HintedWaitOptions[] = [];
  nextCaptureError: ReaderError | undefined;
  /** When true, captures wait until aborted (a finger that never comes, a page that leaves). */
  holdCaptures = false;
  closed = false;
  probes = 0;
  private readonly listeners = new Set<(state: ReaderState) => void>();
  private operating = false;

  constructor(private readonly options: FakeReaderOptions) {
    this.id = options.id;
  }

  get info(): ReaderInfo {
    return {
      id: this.id,
      protocol: this.options.protocol ?? 'zfm',
      transport: 'serial',
      path: this.options.path ?? `/dev/${this.id}`,
      model: 'Fake R503',
      packetSize: 128,
      capabilities: { identify: true, verify: true, led: true },
    };
  }

  onStateChange(listener: (state: ReaderState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async probe(): Promise<ReaderInfo> {
    this.probes++;
    if (this.options.probeError) throw this.options.probeError;
    this.set({ kind: 'idle' });
    return this.info;
  }

  async waitForFinger(options: WaitOptions): Promise<void> {
    void options;
  }

  async capture(options: HintedWaitOptions): Promise<Capture> {
    if (this.closed) throw new ReaderError('closed', 'closed');
    if (this.operating) throw new ReaderError('busy', `${this.id} is busy`);
    this.operating = true;
    this.captures.push(options);
    this.set({ kind: 'waiting-for-finger', deadline: Date.now() + options.timeoutMs });
    try {
      await new Promise<void>((resolve, reject) => {
        const abort = () => reject(new ReaderError('cancelled', 'cancelled'));
        if (options.signal?.aborted) return abort();
        options.signal?.addEventListener('abort', abort, { once: true });
        if (!this.holdCaptures) setTimeout(resolve, this.options.captureDelayMs ?? 20);
      });
      if (this.nextCaptureError) {
        const error = this.nextCaptureError;
        this.nextCaptureError = undefined;
        throw error;
      }
      this.set({ kind: 'capturing' });
      const template = this.options.template ?? Uint8Array.from({ length: 512 }, (_, i) => i & 0xff);
      this.set({ kind: 'idle' });
      return { protocol: this.options.protocol ?? 'zfm', template, templateBytes: template.length, capturedAt: new Date().toISOString(), durationMs: 20 };
    } catch (error) {
      this.set({ kind: 'idle' });
      throw error;
    } finally {
      this.operating = false;
    }
  }

  async led(signal: LedSignal): Promise<void> {
    void signal;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.set({ kind: 'absent' });
  }

  /** What a pulled cable does to a real driver. */
  disconnect(): void {
    this.set({ kind: 'absent' });
  }

  set(state: ReaderState): void {
    this.state = state;
    for (const listener of [...this.listeners]) listener(state);
  }
}
