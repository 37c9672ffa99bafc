// What the ZFM and GT-521 links share: a protocol parser fed by the transport's data events, its
// frames (and checksum failures) handed to the one waiting command, the resync after a failed
// command, and writes that fail as `disconnected`. Each link adds only its protocol's commands.

import type { CommandContext } from './command-queue';
import { LineActivity, PacketInbox } from './packet-inbox';
import { ReaderError } from './reader';
import { wireMs } from './reader-base';
import { hex } from '../protocols/hex';
import type { ByteTransport } from '../transports/transport';

/** Bytes that were not part of any frame (an R503's power-on 0x55, line noise). */
export interface SkippedBytes {
  readonly kind: 'skipped';
  readonly bytes: Uint8Array;
}

/** A well-formed frame whose checksum did not add up. */
export interface ChecksumFailure {
  readonly kind: 'checksum';
  /** Which kind of frame, for protocols that have more than one (GT-521: 'packet' or 'data'). */
  readonly frame?: string;
  readonly expected: number;
  readonly received: number;
}

/** A streaming deframer: `F` is what it reports besides skipped bytes and checksum failures. */
export interface FrameParser<F> {
  push(chunk: Uint8Array): ReadonlyArray<F | SkippedBytes | ChecksumFailure>;
  reset(): void;
}

export interface LinkStats {
  /** Stray bytes dropped while resyncing (an R503's 0x55, noise). */
  skippedBytes: number;
  /** Frames refused for a bad checksum. */
  checksumErrors: number;
  /** Well-formed replies set aside because the waiting command cannot give them (late answers to earlier commands). */
  staleReplies: number;
}

/** `F`: the parser's frame events; `R`: what a waiting command receives for each. */
export abstract class ProtocolLink<F extends object, R> {
  protected abstract readonly parser: FrameParser<F>;
  protected readonly inbox = new PacketInbox<R>();
  /** How messages name each kind of frame the parser reports, for protocols with more than one. */
  protected readonly frameNames: Readonly<Record<string, string>> = {};
  private readonly activity = new LineActivity();
  private readonly stopListening: () => void;
  readonly stats: LinkStats = { skippedBytes: 0, checksumErrors: 0, staleReplies: 0 };

  constructor(protected readonly transport: ByteTransport) {
    this.stopListening = transport.onData((chunk) => this.receive(chunk));
  }

  dispose(): void {
    this.stopListening();
  }

  /** After a failed command: let a late reply finish, drop everything, start framing afresh. */
  async resync(): Promise<void> {
    const byteMs = wireMs(1, this.transport.baudRate);
    await this.activity.quiet(Math.max(25, 24 * byteMs), 500);
    await this.transport.flush().catch(() => undefined);
    this.parser.reset();
    this.inbox.clear();
  }

  /**
   * Sets aside a reply the waiting command cannot give. Replies do not name their command, so
   * this is the late answer to an earlier one (abandoned by a timeout, or by a host that crashed
   * mid-poll); the real answer is still on its way and the command keeps waiting for it, within
   * its own timeout. Resending instead would make the module run the command twice.
   */
  protected setAside(context: CommandContext, reason: string): void {
    this.stats.staleReplies += 1;
    context.note(reason);
  }

  /** What a waiting command receives for a frame the parser found. */
  protected abstract received(frame: F): R;

  protected async write(bytes: Uint8Array): Promise<void> {
    try {
      await this.transport.write(bytes);
    } catch (error) {
      throw new ReaderError('disconnected', `cannot write to ${this.transport.path}: ${(error as Error).message}`);
    }
  }

  private receive(chunk: Uint8Array): void {
    this.activity.touch();
    for (const event of this.parser.push(chunk)) {
      if (isSkipped(event)) {
        this.stats.skippedBytes += event.bytes.length;
      } else if (isChecksumFailure(event)) {
        this.stats.checksumErrors += 1;
        // Every failed frame is refused, even if good packets follow: a dropped data packet must
        // fail the stream, never shorten it.
        const frame = (event.frame === undefined ? undefined : this.frameNames[event.frame]) ?? 'packet';
        this.inbox.deliver(
          new ReaderError(
            'checksum',
            `a ${frame} from the module failed its checksum (computed 0x${hex(event.expected, 4)}, received 0x${hex(event.received, 4)})`,
          ),
        );
      } else {
        this.inbox.deliver(this.received(event));
      }
    }
  }
}

function isSkipped(event: object): event is SkippedBytes {
  return (event as { kind?: unknown }).kind === 'skipped';
}

function isChecksumFailure(event: object): event is ChecksumFailure {
  return (event as { kind?: unknown }).kind === 'checksum';
}
