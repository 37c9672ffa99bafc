// ZFM packet framing (ZFM-20 manual §4/§5, R503 manual "Serial communication protocol"):
//   | EF 01 | address u32 BE | PID | length u16 BE | content (length - 2) | checksum u16 BE |
// length counts the content and the checksum; the checksum is the 16-bit sum of PID, both length
// bytes and the content (header and address are not summed). Pure: bytes in, bytes out.

import { concatBytes } from '../bytes';
import { hex } from '../hex';

export const ZFM_HEADER_HIGH = 0xef;
export const ZFM_HEADER_LOW = 0x01;
export const ZFM_DEFAULT_ADDRESS = 0xffffffff;
/** The largest data-packet payload a module can be configured for (packet-size code 3). */
export const ZFM_MAX_CONTENT = 256;
/** Header(2) + address(4) + PID(1) + length(2). */
export const ZFM_PREFIX_BYTES = 9;
/** Prefix plus the checksum: what a packet costs on the wire besides its content. */
export const ZFM_OVERHEAD_BYTES = ZFM_PREFIX_BYTES + 2;

export const ZfmPid = {
  command: 0x01,
  /** A data packet with more to follow. */
  data: 0x02,
  ack: 0x07,
  /** The last data packet of a stream. */
  endOfData: 0x08,
} as const;
export type ZfmPid = (typeof ZfmPid)[keyof typeof ZfmPid];

const validPids: ReadonlySet<number> = new Set(Object.values(ZfmPid));

export function isZfmPid(value: number): value is ZfmPid {
  return validPids.has(value);
}

export interface ZfmPacket {
  readonly address: number;
  readonly pid: ZfmPid;
  readonly content: Uint8Array;
}

/** Sum of PID, length (both bytes) and content, truncated to 16 bits. */
export function zfmChecksum(pid: number, content: Uint8Array): number {
  const length = content.length + 2;
  let sum = pid + (length >> 8) + (length & 0xff);
  for (const byte of content) sum += byte;
  return sum & 0xffff;
}

export function encodeZfmPacket(packet: ZfmPacket): Uint8Array {
  const { address, pid, content } = packet;
  if (!isZfmPid(pid)) throw new RangeError(`ZFM packet identifier 0x${hex(pid, 2)} is not one of 01, 02, 07, 08`);
  if (!Number.isInteger(address) || address < 0 || address > 0xffffffff) {
    throw new RangeError(`ZFM address ${address} is not a 32-bit unsigned integer`);
  }
  if (content.length === 0 || content.length > ZFM_MAX_CONTENT) {
    throw new RangeError(`ZFM packet content must be 1..${ZFM_MAX_CONTENT} bytes, got ${content.length}`);
  }
  const bytes = new Uint8Array(ZFM_OVERHEAD_BYTES + content.length);
  const view = new DataView(bytes.buffer);
  bytes[0] = ZFM_HEADER_HIGH;
  bytes[1] = ZFM_HEADER_LOW;
  view.setUint32(2, address);
  bytes[6] = pid;
  view.setUint16(7, content.length + 2);
  bytes.set(content, ZFM_PREFIX_BYTES);
  view.setUint16(ZFM_PREFIX_BYTES + content.length, zfmChecksum(pid, content));
  return bytes;
}

/** What the parser found in the byte stream, in order. */
export type ZfmParseEvent =
  | { readonly kind: 'packet'; readonly packet: ZfmPacket }
  /** Bytes that were not part of any packet (R503 power-on 0x55, line noise), dropped while resyncing. */
  | { readonly kind: 'skipped'; readonly bytes: Uint8Array }
  /** A well-formed frame whose checksum did not add up; the parser dropped its first byte and rescanned. */
  | {
      readonly kind: 'checksum';
      readonly address: number;
      readonly pid: ZfmPid;
      readonly expected: number;
      readonly received: number;
    };

/**
 * Streaming ZFM deframer: feed it chunks as they arrive (split or coalesced anyhow), get packets.
 * Resyncs on `EF 01`; refuses frames with an unknown PID or an implausible length (content empty
 * or over 256 bytes) by dropping one byte and rescanning, and verifies every checksum.
 */
export class ZfmPacketParser {
  private buffer = new Uint8Array(0);

  /** Bytes held while waiting for the rest of a frame. */
  get pendingBytes(): number {
    return this.buffer.length;
  }

  reset(): void {
    this.buffer = new Uint8Array(0);
  }

  push(chunk: Uint8Array): ZfmParseEvent[] {
    const buf = concatBytes(this.buffer, chunk);
    const events: ZfmParseEvent[] = [];
    let pos = 0;
    let skipFrom = -1;
    const skip = (count: number): void => {
      if (skipFrom < 0) skipFrom = pos;
      pos += count;
    };
    const flushSkipped = (): void => {
      if (skipFrom >= 0) events.push({ kind: 'skipped', bytes: buf.slice(skipFrom, pos) });
      skipFrom = -1;
    };

    while (pos < buf.length) {
      if (buf[pos] !== ZFM_HEADER_HIGH) {
        skip(1);
        continue;
      }
      if (pos + 1 >= buf.length) break; // a lone EF at the end may start a header
      if (buf[pos + 1] !== ZFM_HEADER_LOW) {
        skip(1);
        continue;
      }
      if (buf.length - pos < ZFM_PREFIX_BYTES) break;
      const view = new DataView(buf.buffer, buf.byteOffset + pos);
      const pid = view.getUint8(6);
      const length = view.getUint16(7);
      if (!isZfmPid(pid) || length < 3 || length > ZFM_MAX_CONTENT + 2) {
        skip(1);
        continue;
      }
      const frameBytes = ZFM_PREFIX_BYTES + length;
      if (buf.length - pos < frameBytes) break;
      const content = buf.slice(pos + ZFM_PREFIX_BYTES, pos + ZFM_PREFIX_BYTES + length - 2);
      const received = view.getUint16(ZFM_PREFIX_BYTES + length - 2);
      const expected = zfmChecksum(pid, content);
      const address = view.getUint32(2);
      if (received !== expected) {
        flushSkipped();
        events.push({ kind: 'checksum', address, pid, expected, received });
        pos += 1; // the frame may have been a false header inside noise: rescan from the next byte
        continue;
      }
      flushSkipped();
      events.push({ kind: 'packet', packet: { address, pid, content } });
      pos += frameBytes;
    }
    flushSkipped();
    this.buffer = buf.slice(pos);
    return events;
  }
}
