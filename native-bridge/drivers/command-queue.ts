// One command at a time per device. Both UART protocols are strict request/response and their
// replies do not say which command they answer, so a second command on the line before the first
// is answered would steal its reply. Each command has its own timeout; after a timeout (or a
// corrupted or unexpected reply) the queue runs the driver's recovery — flush, wait for the line
// to go quiet, reset the parser — before the next command starts, so a late reply can never be
// taken for the answer to the next command.

import { ReaderError } from './reader';

export interface CommandContext {
  /** Aborted (with a ReaderError as its reason) on timeout, or when the queue fails or closes. */
  readonly signal: AbortSignal;
  /** Restarts the command's timer: it is making progress (e.g. another data packet arrived). */
  extend(timeoutMs: number): void;
  /** Something the command saw and set aside (a stale reply), said in its timeout's message. */
  note(detail: string): void;
}

export interface CommandQueueOptions {
  /** Brings the line back to a known state after a failed command. Errors are swallowed. */
  readonly recover: () => Promise<void>;
}

/** A command's timeout; its message also says what the command set aside while it waited. */
export class CommandTimeout extends ReaderError {
  constructor(
    summary: string,
    /** Replies the command set aside as not its own (see CommandContext.note). */
    readonly ignored: readonly string[],
  ) {
    super('timeout', `${summary}${CommandTimeout.detail(ignored)}`);
  }

  /** '' or '; ignored <what>; <what>', to carry the detail over into a reworded timeout. */
  static detail(ignored: readonly string[]): string {
    return ignored.length > 0 ? `; ignored ${ignored.join('; ')}` : '';
  }
}

const recoverAfter: ReadonlySet<string> = new Set(['timeout', 'checksum', 'protocol']);

export class CommandQueue {
  private tail: Promise<void> = Promise.resolve();
  private failure: ReaderError | undefined;
  private readonly running = new Set<AbortController>();

  constructor(private readonly options: CommandQueueOptions) {}

  run<T>(name: string, timeoutMs: number, job: (context: CommandContext) => Promise<T>): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    const result = this.tail.then(() => this.execute(name, timeoutMs, job));
    this.tail = result.then(
      () => undefined,
      async (error: unknown) => {
        if (!this.failure && error instanceof ReaderError && recoverAfter.has(error.code)) {
          await this.options.recover().catch(() => undefined);
        }
      },
    );
    return result;
  }

  /** Fails the running command and every queued one with `error`, and refuses new ones. */
  fail(error: ReaderError): void {
    if (this.failure) return;
    this.failure = error;
    for (const controller of this.running) controller.abort(error);
  }

  private async execute<T>(name: string, timeoutMs: number, job: (context: CommandContext) => Promise<T>): Promise<T> {
    if (this.failure) throw this.failure;
    const controller = new AbortController();
    this.running.add(controller);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const notes: string[] = [];
    const arm = (ms: number): void => {
      clearTimeout(timer);
      timer = setTimeout(() => controller.abort(new CommandTimeout(`${name}: no reply within ${Math.round(ms)} ms`, [...notes])), ms);
    };
    arm(timeoutMs);
    try {
      const context: CommandContext = { signal: controller.signal, extend: arm, note: (detail) => notes.push(detail) };
      return await settleOrAbort(job(context), controller.signal);
    } finally {
      clearTimeout(timer);
      this.running.delete(controller);
    }
  }
}

/**
 * The promise's result, or a failure as soon as the signal fires (even if the work behind the
 * promise ignores it): the signal's reason, or what `abortError` makes.
 */
export function settleOrAbort<T>(
  promise: Promise<T>,
  signal: AbortSignal,
  abortError: () => Error = () => signal.reason as Error,
): Promise<T> {
  if (signal.aborted) return Promise.reject(abortError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortError());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
