// The GT-521 protocol joined to a ByteTransport. The parser is told, per command, whether a data
// packet follows an ACK and how long it is (the protocol carries no length).

import type { CommandContext } from './command-queue';
import { ProtocolLink } from './protocol-link';
import { ReaderError } from './reader';
import { wireMs } from './reader-base';
import { hex } from '../protocols/hex';
import {
  GT521_ACK,
  GT521_DATA_OVERHEAD,
  GT521_DEVICE_ID,
  GT521_NACK,
  Gt521Parser,
  gt521CommandOf,
  implausibleGt521Reply,
  type Gt521Packet,
  type Gt521ParseEvent,
} from '../protocols/gt521';

type FrameEvent = Extract<Gt521ParseEvent, { kind: 'packet' | 'data' }>;
type Frame = { readonly kind: 'packet'; readonly packet: Gt521Packet } | { readonly kind: 'data'; readonly data: Uint8Array };

export interface Gt521Reply {
  readonly ack: boolean;
  /** ACK: the command's result; NACK: the error code. */
  readonly parameter: number;
  /** The data packet that followed the ACK, when one was expected. */
  readonly data?: Uint8Array;
}

export class Gt521Link extends ProtocolLink<FrameEvent, Frame> {
  protected readonly parser = new Gt521Parser();
  protected override readonly frameNames = { packet: 'response packet', data: 'data packet' };

  /**
   * Sends a 12-byte command packet; with `dataBytes`, also reads the data packet an ACK brings,
   * allowing it twice its wire time plus `dataSlackMs`.
   */
  async command(context: CommandContext, packet: Uint8Array, dataBytes?: number, dataSlackMs = 1000): Promise<Gt521Reply> {
    this.inbox.clear();
    const command = gt521CommandOf(packet);
    const answers = (response: Gt521Packet): boolean => isResponse(response) && implausibleGt521Reply(command, response) === undefined;
    // The parser must know a stale ACK from the real one: only the real one brings the data packet.
    if (dataBytes !== undefined) this.parser.expectDataAfterAck(dataBytes, answers);
    await this.write(packet);
    const response = await this.response(context, command);
    const ack = response.code === GT521_ACK;
    const { parameter } = response;
    if (!ack || dataBytes === undefined) return { ack, parameter };
    context.extend(2 * wireMs(dataBytes + GT521_DATA_OVERHEAD, this.transport.baudRate) + dataSlackMs);
    const data = await this.inbox.next(context.signal);
    if (data.kind !== 'data') throw new ReaderError('protocol', 'a response arrived where a data packet was expected');
    return { ack, parameter, data: data.data };
  }

  /** The response to `command`: stale responses (late answers to earlier commands) are set aside. */
  private async response(context: CommandContext, command: number): Promise<Gt521Packet> {
    for (;;) {
      const reply = await this.inbox.next(context.signal);
      if (reply.kind !== 'packet') throw new ReaderError('protocol', 'a data packet arrived where a response was expected');
      const { code, deviceId } = reply.packet;
      if (deviceId !== GT521_DEVICE_ID) {
        throw new ReaderError('protocol', `a response came from device 0x${hex(deviceId, 4)}, expected 0x${hex(GT521_DEVICE_ID, 4)}`);
      }
      if (!isResponse(reply.packet)) throw new ReaderError('protocol', `expected ACK (0x30) or NACK (0x31), got 0x${hex(code, 4)}`);
      const stale = implausibleGt521Reply(command, reply.packet);
      if (stale === undefined) return reply.packet;
      this.setAside(context, stale);
    }
  }

  protected override received(event: FrameEvent): Frame {
    return event.kind === 'packet' ? { kind: 'packet', packet: event.packet } : { kind: 'data', data: event.data };
  }
}

function isResponse(packet: Gt521Packet): boolean {
  return packet.code === GT521_ACK || packet.code === GT521_NACK;
}
