// The module's side of a UART, paced to its baud rate. A PTY moves bytes instantly; a real line
// takes 10 bits a byte (8N1). So a reply is released in chunks, each at the moment its last byte
// would have left the module, and a command counts as received only once its bytes would have
// arrived. Times are absolute (performance.now), so timer lateness never accumulates.

export interface LineStats {
  /** Bytes received from the host. */
  rxBytes: number;
  /** Bytes sent to the host. */
  txBytes: number;
  /** Scripted processing delays applied (module latencies and injected delays), ms. */
  processingMs: number;
  /** Commands handled (including ignored ones). */
  commands: number;
}

export interface Transmission {
  readonly bytes: Uint8Array;
  /** Module processing time before the first byte leaves, ms. */
  readonly delayMs: number;
  /** Runs once the last byte has left (GT-521: switch to the new baud rate after the ACK). */
  readonly after?: () => void;
  /** Send only this many bytes, then call `cut` (an injected truncation or a process exit). */
  readonly cutAfterBytes?: number;
  readonly cut?: () => void;
}

interface Scheduled {
  readonly at: number;
  readonly bytes: Uint8Array;
  readonly then?: () => void;
}

export class PacedLine {
  readonly stats: LineStats = { rxBytes: 0, txBytes: 0, processingMs: 0, commands: 0 };
  private freeAt = 0;
  private readonly queue: Scheduled[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly sink: (bytes: Uint8Array) => void,
    public baudRate: number,
    private readonly chunkBytes: number,
  ) {}

  byteMs(): number {
    return 10_000 / this.baudRate;
  }

  /** A complete command of `bytes` has just come out of the PTY: the time its last byte arrived. */
  commandArrived(bytes: number): number {
    this.stats.rxBytes += bytes;
    this.stats.commands += 1;
    return Math.max(performance.now(), this.freeAt) + bytes * this.byteMs();
  }

  /** Queues a reply to start after `readyAt` + its processing delay. Returns when it will have been sent. */
  transmit(readyAt: number, transmission: Transmission): number {
    const { bytes, delayMs } = transmission;
    this.stats.processingMs += delayMs;
    const sendBytes = transmission.cutAfterBytes === undefined ? bytes : bytes.subarray(0, transmission.cutAfterBytes);
    let at = Math.max(readyAt, this.freeAt) + delayMs;
    const byteMs = this.byteMs();
    if (sendBytes.length === 0) this.queue.push({ at, bytes: sendBytes });
    for (let offset = 0; offset < sendBytes.length; offset += this.chunkBytes) {
      const chunk = sendBytes.subarray(offset, offset + this.chunkBytes);
      at += chunk.length * byteMs;
      this.queue.push({ at, bytes: chunk });
    }
    const last = this.queue.at(-1);
    const finish = transmission.cutAfterBytes === undefined ? transmission.after : transmission.cut;
    if (last && finish) this.queue[this.queue.length - 1] = { ...last, then: finish };
    this.freeAt = at;
    this.pump();
    return at;
  }

  /** Drops whatever has not been sent yet (power cycle). */
  clear(): void {
    this.queue.length = 0;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.freeAt = 0;
  }

  private pump(): void {
    if (this.timer !== undefined) return;
    const next = this.queue[0];
    if (!next) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        const now = performance.now();
        while (this.queue[0] && this.queue[0].at <= now + 0.25) {
          const item = this.queue.shift() as Scheduled;
          if (item.bytes.length > 0) {
            this.stats.txBytes += item.bytes.length;
            this.sink(item.bytes);
          }
          item.then?.();
        }
        this.pump();
      },
      Math.max(0, next.at - performance.now()),
    );
  }
}
