// The GT-521 protocol joined to a ByteTransport. The parser is told, per command, whether a data
// packet follows an ACK and how long it is (the protocol carries no length).

import type { CommandContext } from './command-queue';
import { LineActivity, PacketInbox } from './packet-inbox';
import { ReaderError } from './reader';
import { wireMs } from './reader-base';
import { hex } from '../protocols/hex';
import { GT521_ACK, GT521_DATA_OVERHEAD, GT521_DEVICE_ID, GT521_NACK, Gt521Parser, type Gt521Packet } from '../protocols/gt521';
import type { ByteTransport } from '../transports/transport';

type Frame = { readonly kind: 'packet'; readonly packet: Gt521Packet } | { readonly kind: 'data'; readonly data: Uint8Array };

export interface Gt521Reply {
  readonly ack: boolean;
  /** ACK: the command's result; NACK: the error code. */
  readonly parameter: number;
  /** The data packet that followed the ACK, when one was expected. */
  readonly data?: Uint8Array;
}

export class Gt521Link {
  private readonly parser = new Gt521Parser();
  private readonly inbox = new PacketInbox<Frame>();
  private readonly activity = new LineActivity();
  private readonly stopListening: () => void;
  readonly stats = { skippedBytes: 0, checksumErrors: 0 };

  constructor(private readonly transport: ByteTransport) {
    this.stopListening = transport.onData((chunk) => this.receive(chunk));
  }

  dispose(): void {
    this.stopListening();
  }

  /**
   * Sends a 12-byte command packet; with `dataBytes`, also reads the data packet an ACK brings,
   * allowing it twice its wire time plus `dataSlackMs`.
   */
  async command(context: CommandContext, packet: Uint8Array, dataBytes?: number, dataSlackMs = 1000): Promise<Gt521Reply> {
    this.inbox.clear();
    if (dataBytes !== undefined) this.parser.expectDataAfterAck(dataBytes);
    await this.write(packet);
    const reply = await this.inbox.next(context.signal);
    if (reply.kind !== 'packet') throw new ReaderError('protocol', 'a data packet arrived where a response was expected');
    const { code, parameter, deviceId } = reply.packet;
    if (deviceId !== GT521_DEVICE_ID) {
      throw new ReaderError('protocol', `a response came from device 0x${hex(deviceId, 4)}, expected 0x${hex(GT521_DEVICE_ID, 4)}`);
    }
    if (code !== GT521_ACK && code !== GT521_NACK) {
      throw new ReaderError('protocol', `expected ACK (0x30) or NACK (0x31), got 0x${hex(code, 4)}`);
    }
    const ack = code === GT521_ACK;
    if (!ack || dataBytes === undefined) return { ack, parameter };
    context.extend(2 * wireMs(dataBytes + GT521_DATA_OVERHEAD, this.transport.baudRate) + dataSlackMs);
    const data = await this.inbox.next(context.signal);
    if (data.kind !== 'data') throw new ReaderError('protocol', 'a response arrived where a data packet was expected');
    return { ack, parameter, data: data.data };
  }

  async resync(): Promise<void> {
    const byteMs = wireMs(1, this.transport.baudRate);
    await this.activity.quiet(Math.max(25, 24 * byteMs), 500);
    await this.transport.flush().catch(() => undefined);
    this.parser.reset();
    this.inbox.clear();
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
        this.inbox.deliver(
          new ReaderError(
            'checksum',
            `a ${event.frame} packet from the module failed its checksum (computed 0x${hex(event.expected, 4)}, received 0x${hex(event.received, 4)})`,
          ),
        );
      } else if (event.kind === 'packet') {
        this.inbox.deliver({ kind: 'packet', packet: event.packet });
      } else {
        this.inbox.deliver({ kind: 'data', data: event.data });
      }
    }
  }
}
