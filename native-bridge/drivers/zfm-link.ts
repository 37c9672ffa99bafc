// The ZFM protocol joined to a ByteTransport: writes command packets, deframes what comes back,
// and hands replies to the command that waits for them. Used only inside queue jobs.

import type { CommandContext } from './command-queue';
import { ProtocolLink } from './protocol-link';
import { ReaderError } from './reader';
import { toReaderError, wireMs } from './reader-base';
import { hex } from '../protocols/hex';
import {
  ZfmDataAssembler,
  ZfmPacketParser,
  ZfmPid,
  decodeAck,
  encodeDataPackets,
  encodeZfmPacket,
  implausibleZfmAck,
  zfmInstructionName,
  type ZfmAck,
  type ZfmPacket,
  type ZfmParseEvent,
} from '../protocols/zfm';
import type { ByteTransport } from '../transports/transport';

type FrameEvent = Extract<ZfmParseEvent, { kind: 'packet' }>;

export class ZfmLink extends ProtocolLink<FrameEvent, ZfmPacket> {
  protected readonly parser = new ZfmPacketParser();

  constructor(
    transport: ByteTransport,
    readonly address: number,
  ) {
    super(transport);
  }

  /**
   * Sends one command packet and returns its acknowledge. What the command cannot be answered
   * with — a data packet, an acknowledge outside its codes or too short for its reply — is a late
   * reply to an earlier command: set aside while the real acknowledge is awaited.
   */
  async command(context: CommandContext, content: Uint8Array): Promise<ZfmAck> {
    this.inbox.clear();
    await this.write(encodeZfmPacket({ address: this.address, pid: ZfmPid.command, content }));
    const instruction = content[0] ?? 0;
    for (;;) {
      const packet = await this.next(context);
      if (packet.pid !== ZfmPid.ack) {
        this.setAside(context, `a data packet (PID 0x${hex(packet.pid, 2)}) where ${zfmInstructionName(instruction)}'s acknowledge was due`);
        continue;
      }
      let ack: ZfmAck;
      try {
        ack = decodeAck(packet);
      } catch (error) {
        throw toReaderError(error);
      }
      const stale = implausibleZfmAck(instruction, ack);
      if (stale === undefined) return ack;
      this.setAside(context, stale);
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
        throw toReaderError(error);
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

  protected override received(event: FrameEvent): ZfmPacket {
    return event.packet;
  }
}
