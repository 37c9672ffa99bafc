// The ZFM protocol joined to a ByteTransport: writes command packets, deframes what comes back,
// and hands replies to the command that waits for them. Used only inside queue jobs.

import type { CommandContext } from './command-queue';
import { LineActivity, PacketInbox } from './packet-inbox';
import { ReaderError } from './reader';
import { wireMs } from './reader-base';
import { hex } from '../protocols/hex';
import {
  ZfmDataAssembler,
  ZfmDecodeError,
  ZfmPacketParser,
  ZfmPid,
  decodeAck,
  encodeDataPackets,
  encodeZfmPacket,
  type ZfmAck,
  type ZfmPacket,
} from '../protocols/zfm';
import type { ByteTransport } from '../transports/transport';

export interface ZfmLinkStats {
  /** Stray bytes dropped while resyncing (an R503's 0x55, noise). */
  skippedBytes: number;
  /** Frames refused for a bad checksum. */
  checksumErrors: number;
}

export class ZfmLink {
  private readonly parser = new ZfmPacketParser();
  private readonly inbox = new PacketInbox<ZfmPacket>();
  private readonly activity = new LineActivity();
  private readonly stopListening: () => void;
  readonly stats: ZfmLinkStats = { skippedBytes: 0, checksumErrors: 0 };

  constructor(
    private readonly transport: ByteTransport,
    readonly address: number,
  ) {
    this.stopListening = transport.onData((chunk) => this.receive(chunk));
  }

  dispose(): void {
    this.stopListening();
  }

  /** Sends one command packet and returns its acknowledge. */
  async command(context: CommandContext, content: Uint8Array): Promise<ZfmAck> {
    this.inbox.clear();
    await this.write(encodeZfmPacket({ address: this.address, pid: ZfmPid.command, content }));
    const packet = await this.next(context);
    if (packet.pid !== ZfmPid.ack) {
      throw new ReaderError('protocol', `expected an acknowledge packet, got PID 0x${hex(packet.pid, 2)}`);
    }
    try {
      return decodeAck(packet);
    } catch (error) {
      throw asProtocolError(error);
    }
  }

  /** Receives the data stream that follows an UpChar/UpImage acknowledge. */
  async receiveData(context: CommandContext, packetSize: number, maxBytes: number, slackMs: number): Promise<Uint8Array> {
    const assembler = new ZfmDataAssembler(packetSize, maxBytes);
    const perPacketMs = this.perPacketTimeoutMs(packetSize, slackMs);
    for (;;) {
      context.extend(perPacketMs);
      const packet = await this.next(context);
      try {
        if (assembler.push(packet)) return assembler.bytes();
      } catch (error) {
        throw asProtocolError(error);
      }
    }
  }

  /** Sends a DownChar/DownImage data stream, split at the module's packet size. */
  async sendData(context: CommandContext, data: Uint8Array, packetSize: number, slackMs: number): Promise<void> {
    const perPacketMs = this.perPacketTimeoutMs(packetSize, slackMs);
    for (const packet of encodeDataPackets(this.address, data, packetSize)) {
      context.extend(perPacketMs);
      await this.write(packet);
    }
  }

  /** After a failed command: let a late reply finish, drop everything, start framing afresh. */
  async resync(): Promise<void> {
    const byteMs = wireMs(1, this.transport.baudRate);
    await this.activity.quiet(Math.max(25, 24 * byteMs), 500);
    await this.transport.flush().catch(() => undefined);
    this.parser.reset();
    this.inbox.clear();
  }

  /** A stream must keep moving: each packet within twice its wire time plus some slack. */
  private perPacketTimeoutMs(packetSize: number, slackMs: number): number {
    return 2 * wireMs(packetSize + 11, this.transport.baudRate) + slackMs;
  }

  private async next(context: CommandContext): Promise<ZfmPacket> {
    const packet = await this.inbox.next(context.signal);
    if (packet.address !== this.address) {
      throw new ReaderError(
        'protocol',
        `a packet came from address 0x${hex(packet.address, 8)}, but this module is 0x${hex(this.address, 8)}`,
      );
    }
    return packet;
  }

  private async write(bytes: Uint8Array): Promise<void> {
    try {
      await this.transport.write(bytes);
    } catch (error) {
      throw new ReaderError('disconnected', `cannot write to ${this.transport.path}: ${(error as Error).message}`);
    }
  }

  private receive(chunk: Uint8Array): void {
    this.activity.touch();
    const events = this.parser.push(chunk);
    for (const event of events) {
      if (event.kind === 'skipped') {
        this.stats.skippedBytes += event.bytes.length;
      } else if (event.kind === 'checksum') {
        this.stats.checksumErrors += 1;
        // Every failed frame is refused, even if good packets follow: a dropped data packet must
        // fail the stream, never shorten it.
        this.inbox.deliver(
          new ReaderError(
            'checksum',
            `a packet from the module failed its checksum (computed 0x${hex(event.expected, 4)}, received 0x${hex(event.received, 4)})`,
          ),
        );
      } else {
        this.inbox.deliver(event.packet);
      }
    }
  }
}

function asProtocolError(error: unknown): ReaderError {
  if (error instanceof ZfmDecodeError) return new ReaderError('protocol', error.message);
  if (error instanceof ReaderError) return error;
  return new ReaderError('protocol', (error as Error).message);
}
