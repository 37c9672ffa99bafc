// The packets (or failures) a protocol parser delivered, waiting for the command that expects them.
// Commands are serialized by the CommandQueue, so there is at most one reader at a time.

import { ReaderError } from './reader';

export class PacketInbox<P> {
  private readonly items: Array<P | ReaderError> = [];
  private waiter: ((item: P | ReaderError) => void) | undefined;

  deliver(item: P | ReaderError): void {
    const waiter = this.waiter;
    if (waiter) {
      this.waiter = undefined;
      waiter(item);
    } else {
      this.items.push(item);
    }
  }

  clear(): void {
    this.items.length = 0;
  }

  /** The next packet; rejects with a delivered failure, or with the signal's reason. */
  next(signal: AbortSignal): Promise<P> {
    const queued = this.items.shift();
    if (queued !== undefined) return queued instanceof ReaderError ? Promise.reject(queued) : Promise.resolve(queued);
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    return new Promise<P>((resolve, reject) => {
      const onAbort = (): void => {
        this.waiter = undefined;
        reject(signal.reason as Error);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiter = (item) => {
        signal.removeEventListener('abort', onAbort);
        if (item instanceof ReaderError) reject(item);
        else resolve(item);
      };
    });
  }
}

/** Tracks when bytes last arrived, to wait for a late reply to finish before flushing. */
export class LineActivity {
  private lastAt = 0;

  touch(): void {
    this.lastAt = performance.now();
  }

  /** Resolves once nothing has arrived for `quietMs` (counted from now at the earliest), or after `maxMs`. */
  async quiet(quietMs: number, maxMs: number): Promise<void> {
    const started = performance.now();
    const giveUpAt = started + maxMs;
    for (;;) {
      const now = performance.now();
      const quietAt = Math.max(this.lastAt, started) + quietMs;
      if (now >= quietAt || now >= giveUpAt) return;
      await new Promise((resolve) => setTimeout(resolve, Math.min(quietAt, giveUpAt) - now));
    }
  }
}
