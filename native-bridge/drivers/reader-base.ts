// What every driver over a ByteTransport shares: the state machine and its events, the command
// queue, one operation at a time, cancellation and disconnect handling.
//
// States: absent (not probed, closed, or the port went away) → idle after a probe;
// idle/error → waiting-for-finger → capturing → idle. A failed operation leaves the reader in
// `error` with the failure's code, except no-finger and cancelled, which are the caller's outcome
// rather than the reader's fault and return it to idle. A disconnect moves it to absent for good:
// the manager builds a new reader when the port returns.

import { CommandQueue, settleOrAbort, type CommandContext } from './command-queue';
import {
  ReaderError,
  type Capture,
  type FingerprintReader,
  type LedSignal,
  type MatchResult,
  type ReaderInfo,
  type ReaderState,
  type WaitOptions,
} from './reader';
import type { ByteTransport } from '../transports/transport';

/** Time on the wire for `bytes` at `baudRate`, 8N1 (10 bits a byte), in ms. */
export function wireMs(bytes: number, baudRate: number): number {
  return (bytes * 10_000) / baudRate;
}

export function toReaderError(error: unknown): ReaderError {
  if (error instanceof ReaderError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ReaderError('protocol', message);
}

const callerOutcomes: ReadonlySet<string> = new Set(['no-finger', 'cancelled']);

/**
 * Where a failed operation leaves a reader (every driver, the virtual one included): no-finger
 * and cancelled are the caller's outcome rather than the reader's fault and leave it idle; any
 * other failure leaves it in `error` with the failure's code.
 */
export function stateAfterFailure(failure: ReaderError): ReaderState {
  return callerOutcomes.has(failure.code) ? { kind: 'idle' } : { kind: 'error', code: failure.code, message: failure.message };
}

/** Waits `ms`, or rejects with `cancelled()` as soon as `signal` aborts. */
export function pause(ms: number, signal: AbortSignal | undefined, cancelled: () => ReaderError): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(cancelled());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(cancelled());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export abstract class TransportReader implements FingerprintReader {
  readonly id: string;
  private current: ReaderState = { kind: 'absent' };
  private readonly listeners = new Set<(state: ReaderState) => void>();
  private operating = false;
  private closing = false;
  private closed: Promise<void> | undefined;
  private ended: ReaderError | undefined;
  /** What the last probe learnt; undefined until the module has answered one. */
  protected info: ReaderInfo | undefined;
  protected readonly queue: CommandQueue;
  private readonly stopWatching: () => void;

  protected constructor(
    protected readonly transport: ByteTransport,
    id: string,
  ) {
    this.id = id;
    this.queue = new CommandQueue({ recover: () => this.resync() });
    this.stopWatching = transport.onDisconnect((error) => {
      this.end(new ReaderError('disconnected', `${transport.path} disconnected: ${error.message}`));
    });
  }

  get state(): ReaderState {
    return this.current;
  }

  onStateChange(listener: (state: ReaderState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  probe(options: { signal?: AbortSignal } = {}): Promise<ReaderInfo> {
    return this.operate(() => this.probeModule(options.signal));
  }

  abstract capture(options: WaitOptions): Promise<Capture>;
  abstract led(signal: LedSignal): Promise<void>;
  identify?(options: WaitOptions): Promise<MatchResult>;
  verify?(id: number, options: WaitOptions): Promise<MatchResult>;

  waitForFinger(options: WaitOptions): Promise<void> {
    return this.operate(async () => {
      await this.ensureProbed(options.signal);
      await this.pollForFinger(options);
    });
  }

  close(): Promise<void> {
    this.closed ??= this.shutdown();
    return this.closed;
  }

  private async shutdown(): Promise<void> {
    this.closing = true; // stops a finger wait at its next poll, so the last words are not queued behind it
    if (!this.ended) await this.beforeClose().catch(() => undefined);
    this.end(new ReaderError('closed', `reader ${this.id} is closed`));
    this.stopWatching();
    await this.transport.close().catch(() => undefined);
  }

  /** Flush, wait for silence, reset the parser: run by the queue after a failed command. */
  protected abstract resync(): Promise<void>;
  /** Handshakes with the module and sets `info` (and idle); also run by operations before the first probe. */
  protected abstract probeModule(signal?: AbortSignal): Promise<ReaderInfo>;
  /** Resolves once a finger is on the sensor; sets waiting-for-finger. */
  protected abstract pollForFinger(options: WaitOptions): Promise<void>;
  /** Last words to the module before the transport closes (GT-521: back to 9600). */
  protected abstract beforeClose(): Promise<void>;

  protected setState(state: ReaderState): void {
    if (this.ended && state.kind !== 'absent') return;
    if (sameState(this.current, state)) return;
    this.current = state;
    for (const listener of this.listeners) listener(state);
  }

  /** Probe unless done; drivers need what the probe learns (packet size, working baud rate). */
  protected async ensureProbed(signal?: AbortSignal): Promise<void> {
    if (!this.info) await this.probeModule(signal);
  }

  /**
   * Asks `fingerOn` until it answers yes: the wait is cancellable between asks, paced by
   * `intervalMs` (0: back to back, the module's own answer time paces it) and ends as `no-finger`
   * once `deadline` (epoch ms) has passed.
   */
  protected async pollUntilFinger(options: WaitOptions, deadline: number, intervalMs: number, fingerOn: () => Promise<boolean>): Promise<void> {
    for (;;) {
      this.throwIfCancelled(options.signal);
      if (await fingerOn()) return;
      if (Date.now() >= deadline) throw new ReaderError('no-finger', `no finger on the sensor within ${options.timeoutMs} ms`);
      if (intervalMs > 0) await pause(intervalMs, options.signal, cancelled);
    }
  }

  protected get isEnded(): boolean {
    return this.ended !== undefined;
  }

  /** Runs one operation of the FingerprintReader interface: one at a time, state settled after. */
  protected async operate<T>(body: () => Promise<T>): Promise<T> {
    if (this.ended) throw this.ended;
    if (this.operating) throw new ReaderError('busy', `reader ${this.id} is busy with another operation`);
    this.operating = true;
    try {
      const result = await body();
      this.setState({ kind: 'idle' });
      return result;
    } catch (error) {
      const failure = this.ended ?? toReaderError(error);
      if (!this.ended && !this.closing) {
        this.setState(stateAfterFailure(failure));
      }
      throw failure;
    } finally {
      this.operating = false;
    }
  }

  /** Runs one command through the queue; the caller's signal abandons the wait (not the command). */
  protected command<T>(
    name: string,
    timeoutMs: number,
    job: (context: CommandContext) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    const run = this.queue.run(name, timeoutMs, job);
    return signal ? settleOrAbort(run, signal, cancelled) : run;
  }

  protected throwIfCancelled(signal?: AbortSignal): void {
    if (this.closing) throw new ReaderError('closed', `reader ${this.id} is closing`);
    if (signal?.aborted) throw cancelled();
  }

  private end(error: ReaderError): void {
    if (this.ended) return;
    this.ended = error;
    this.queue.fail(error);
    this.setState({ kind: 'absent' });
  }
}

function cancelled(): ReaderError {
  return new ReaderError('cancelled', 'the operation was cancelled');
}

function sameState(a: ReaderState, b: ReaderState): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'waiting-for-finger' && b.kind === 'waiting-for-finger') return a.deadline === b.deadline;
  if (a.kind === 'error' && b.kind === 'error') return a.code === b.code && a.message === b.message;
  return true;
}
