// Data-packet streams (ZFM-20 §6.2, R503 §6.1.2): after an acknowledge with code 00, UpChar/UpImage
// data follow as PID 02 packets and exactly one final PID 08 packet, each carrying at most the
// module's configured packet size (ReadSysPara word 6). DownChar/DownImage go the other way.
// Data packets are never acknowledged.

import { ZfmDecodeError, packetSizeCode } from './commands';
import { hex } from '../hex';
import { ZfmPid, encodeZfmPacket, type ZfmPacket } from './packet';

/** Splits `data` into packets of `packetSize` bytes (the last one at its actual length). */
export function encodeDataPackets(address: number, data: Uint8Array, packetSize: number): Uint8Array[] {
  packetSizeCode(packetSize); // refuses anything but 32, 64, 128, 256
  if (data.length === 0) throw new RangeError('a ZFM data stream needs at least one byte');
  const packets: Uint8Array[] = [];
  for (let at = 0; at < data.length; at += packetSize) {
    const last = at + packetSize >= data.length;
    packets.push(
      encodeZfmPacket({ address, pid: last ? ZfmPid.endOfData : ZfmPid.data, content: data.subarray(at, at + packetSize) }),
    );
  }
  return packets;
}

/** Wire bytes of a data stream of `dataBytes` at `packetSize` (11 bytes of framing per packet). */
export function dataStreamWireBytes(dataBytes: number, packetSize: number): number {
  return dataBytes + Math.ceil(dataBytes / packetSize) * 11;
}

/**
 * Collects one incoming data stream. Refuses packets larger than the negotiated packet size (the
 * host and module disagree about it), packets that are not data, and streams beyond `maxBytes`.
 */
export class ZfmDataAssembler {
  private readonly chunks: Uint8Array[] = [];
  private received = 0;
  private finished = false;

  constructor(
    private readonly packetSize: number,
    private readonly maxBytes: number,
  ) {
    packetSizeCode(packetSize);
  }

  get bytesReceived(): number {
    return this.received;
  }

  get done(): boolean {
    return this.finished;
  }

  /** Adds one packet; returns true when it was the last. */
  push(packet: ZfmPacket): boolean {
    if (this.finished) throw new ZfmDecodeError('data packet after the end of the stream');
    if (packet.pid !== ZfmPid.data && packet.pid !== ZfmPid.endOfData) {
      throw new ZfmDecodeError(`expected a data packet (02 or 08) in the stream, got PID 0x${hex(packet.pid, 2)}`);
    }
    if (packet.content.length > this.packetSize) {
      throw new ZfmDecodeError(
        `data packet of ${packet.content.length} bytes exceeds the module's packet size of ${this.packetSize}`,
      );
    }
    if (this.received + packet.content.length > this.maxBytes) {
      throw new ZfmDecodeError(`data stream exceeds ${this.maxBytes} bytes`);
    }
    this.chunks.push(packet.content);
    this.received += packet.content.length;
    this.finished = packet.pid === ZfmPid.endOfData;
    return this.finished;
  }

  bytes(): Uint8Array {
    const out = new Uint8Array(this.received);
    let at = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, at);
      at += chunk.length;
    }
    return out;
  }
}

/** UpImage: 4-bit pixels, two per byte, high nibble = left pixel. Expands to 8-bit grey (n·17). */
export function expandImageNibbles(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(data.length * 2);
  data.forEach((byte, i) => {
    out[2 * i] = (byte >> 4) * 17;
    out[2 * i + 1] = (byte & 0x0f) * 17;
  });
  return out;
}
