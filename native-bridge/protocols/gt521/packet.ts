// GT-521F32/F52 framing (all little-endian):
//   command / response (12 B): 55 AA | device id u16 | parameter u32 | command or ACK/NACK u16 | checksum u16
//   data (N + 6 B):            5A A5 | device id u16 | N bytes                                    | checksum u16
// The checksum is the 16-bit sum of every preceding byte, start codes and device id included.
// Data packets carry no length: the receiver must be told how many bytes to expect, so the parser
// is stateful and driven by its owner. Pure: bytes in, bytes out.

import { concatBytes } from '../bytes';

export const GT521_DEVICE_ID = 0x0001;
export const GT521_PACKET_BYTES = 12;
export const GT521_DATA_OVERHEAD = 6;
const PACKET_START = [0x55, 0xaa] as const;
const DATA_START = [0x5a, 0xa5] as const;

/** The response codes that sit where a command code sits. */
export const GT521_ACK = 0x30;
export const GT521_NACK = 0x31;

export function gt521Checksum(bytes: Uint8Array): number {
  let sum = 0;
  for (const byte of bytes) sum += byte;
  return sum & 0xffff;
}

function u16(value: number, what: string): number {
  if (!Number.isInteger(value) || value < 0 || value > 0xffff) throw new RangeError(`GT-521 ${what} ${value} is outside 0..65535`);
  return value;
}

/** A 12-byte packet: a command from the host, or a response (code 0x30 ACK / 0x31 NACK). */
export function encodeGt521Packet(code: number, parameter: number, deviceId = GT521_DEVICE_ID): Uint8Array {
  if (!Number.isInteger(parameter) || parameter < -0x80000000 || parameter > 0xffffffff) {
    throw new RangeError(`GT-521 parameter ${parameter} does not fit 32 bits`);
  }
  const out = new Uint8Array(GT521_PACKET_BYTES);
  const view = new DataView(out.buffer);
  out.set(PACKET_START, 0);
  view.setUint16(2, u16(deviceId, 'device id'), true);
  view.setUint32(4, parameter >>> 0, true); // -1 (EnrollStart "do not store") travels as FFFFFFFF
  view.setUint16(8, u16(code, 'command code'), true);
  view.setUint16(10, gt521Checksum(out.subarray(0, 10)), true);
  return out;
}

export function encodeGt521Data(data: Uint8Array, deviceId = GT521_DEVICE_ID): Uint8Array {
  const out = new Uint8Array(data.length + GT521_DATA_OVERHEAD);
  const view = new DataView(out.buffer);
  out.set(DATA_START, 0);
  view.setUint16(2, u16(deviceId, 'device id'), true);
  out.set(data, 4);
  view.setUint16(4 + data.length, gt521Checksum(out.subarray(0, 4 + data.length)), true);
  return out;
}

/** The command code of an encoded 12-byte command packet. */
export function gt521CommandOf(packet: Uint8Array): number {
  if (packet.length !== GT521_PACKET_BYTES) throw new RangeError(`a GT-521 command packet is ${GT521_PACKET_BYTES} bytes, got ${packet.length}`);
  return new DataView(packet.buffer, packet.byteOffset, packet.byteLength).getUint16(8, true);
}

export interface Gt521Packet {
  readonly deviceId: number;
  readonly parameter: number;
  /** A command code (host → module) or GT521_ACK / GT521_NACK (module → host). */
  readonly code: number;
}

export type Gt521ParseEvent =
  | { readonly kind: 'packet'; readonly packet: Gt521Packet }
  | { readonly kind: 'data'; readonly deviceId: number; readonly data: Uint8Array }
  | { readonly kind: 'skipped'; readonly bytes: Uint8Array }
  | {
      readonly kind: 'checksum';
      readonly frame: 'packet' | 'data';
      readonly expected: number;
      readonly received: number;
    };

type Expectation = { readonly frame: 'packet' } | { readonly frame: 'data'; readonly bytes: number };

/**
 * Stateful GT-521 deframer. By default it reads 12-byte packets; its owner says when a data packet
 * of a given size comes next — unconditionally (`expectData`, e.g. the module side after it
 * acknowledged SetTemplate) or only if the next packet is an ACK (`expectDataAfterAck`, the host
 * after sending Open(1), MakeTemplate, GetTemplate). Bytes before a start code are skipped.
 */
export class Gt521Parser {
  private buffer = new Uint8Array(0);
  private readonly queue: Expectation[] = [];
  private dataAfterAck: { readonly bytes: number; readonly answers: (packet: Gt521Packet) => boolean } | undefined;

  get pendingBytes(): number {
    return this.buffer.length;
  }

  reset(): void {
    this.buffer = new Uint8Array(0);
    this.queue.length = 0;
    this.dataAfterAck = undefined;
  }

  expectData(bytes: number): void {
    this.queue.push({ frame: 'data', bytes: dataSize(bytes) });
  }

  /**
   * A data packet of `bytes` follows the ACK of the command just sent. `answers` tells that
   * command's response from a stale one (a late reply to an earlier command): only a response it
   * accepts settles the expectation, so a stale ACK never makes the real response read as data.
   */
  expectDataAfterAck(bytes: number, answers: (packet: Gt521Packet) => boolean = () => true): void {
    this.dataAfterAck = { bytes: dataSize(bytes), answers };
  }

  push(chunk: Uint8Array): Gt521ParseEvent[] {
    const buf = concatBytes(this.buffer, chunk);
    const events: Gt521ParseEvent[] = [];
    let pos = 0;
    let skipFrom = -1;
    const flushSkipped = (): void => {
      if (skipFrom >= 0) events.push({ kind: 'skipped', bytes: buf.slice(skipFrom, pos) });
      skipFrom = -1;
    };

    while (pos < buf.length) {
      const expectation = this.queue[0] ?? { frame: 'packet' };
      const start = expectation.frame === 'packet' ? PACKET_START : DATA_START;
      if (buf[pos] !== start[0] || (pos + 1 < buf.length && buf[pos + 1] !== start[1])) {
        if (skipFrom < 0) skipFrom = pos;
        pos += 1;
        continue;
      }
      const size = expectation.frame === 'packet' ? GT521_PACKET_BYTES : expectation.bytes + GT521_DATA_OVERHEAD;
      if (buf.length - pos < size) break;
      const frame = buf.subarray(pos, pos + size);
      const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
      const received = view.getUint16(size - 2, true);
      const expected = gt521Checksum(frame.subarray(0, size - 2));
      flushSkipped();
      if (received !== expected) {
        // The start code may have been noise in front of the real frame: rescan from the next byte.
        events.push({ kind: 'checksum', frame: expectation.frame, expected, received });
        pos += 1;
        continue;
      }
      if (expectation.frame === 'data') {
        this.queue.shift();
        events.push({ kind: 'data', deviceId: view.getUint16(2, true), data: frame.slice(4, size - 2) });
      } else {
        const packet: Gt521Packet = {
          deviceId: view.getUint16(2, true),
          parameter: view.getUint32(4, true),
          code: view.getUint16(8, true),
        };
        if (this.dataAfterAck?.answers(packet)) {
          if (packet.code === GT521_ACK) this.queue.push({ frame: 'data', bytes: this.dataAfterAck.bytes });
          this.dataAfterAck = undefined;
        }
        events.push({ kind: 'packet', packet });
      }
      pos += size;
    }
    flushSkipped();
    this.buffer = buf.slice(pos);
    return events;
  }
}

function dataSize(bytes: number): number {
  if (!Number.isInteger(bytes) || bytes < 1 || bytes > 0x10000) throw new RangeError(`GT-521 data size ${bytes} is not 1..65536`);
  return bytes;
}
