import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  GT521_ACK,
  GT521_ERRORS,
  GT521_NACK,
  Gt521Parser,
  decodeOpenInfo,
  describeGt521Error,
  encodeGt521Data,
  encodeGt521Packet,
  encodeOpenInfo,
  gt521Command,
  type Gt521ParseEvent,
} from '../../../native-bridge/protocols/gt521';

const bytes = (spaced: string): Uint8Array => Uint8Array.from(Buffer.from(spaced.replace(/\s+/g, ''), 'hex'));
const hexOf = (b: Uint8Array): string => Buffer.from(b).toString('hex');

// Every row of the reference's §2.3 table.
const vectors: Array<[string, Uint8Array, string]> = [
  ['Open(0)', gt521Command.open(false), '55 aa 01 00 00 00 00 00 01 00 01 01'],
  ['Open(1)', gt521Command.open(true), '55 aa 01 00 01 00 00 00 01 00 02 01'],
  ['EnrollStart(23)', gt521Command.enrollStart(23), '55 aa 01 00 17 00 00 00 22 00 39 01'],
  ['ACK', encodeGt521Packet(GT521_ACK, 0), '55 aa 01 00 00 00 00 00 30 00 30 01'],
  ['CmosLed(on)', gt521Command.cmosLed(true), '55 aa 01 00 01 00 00 00 12 00 13 01'],
  ['IsPressFinger', gt521Command.isPressFinger(), '55 aa 01 00 00 00 00 00 26 00 26 01'],
  ['ChangeBaudrate(115200)', gt521Command.changeBaudrate(115200), '55 aa 01 00 00 c2 01 00 04 00 c7 01'],
];

describe('GT-521 framing: the published test vectors', () => {
  it.each(vectors)('%s encodes to the reference bytes', (_name, encoded, expected) => {
    expect(hexOf(encoded)).toBe(hexOf(bytes(expected)));
  });

  it.each(vectors)('%s parses back with little-endian fields', (_name, _encoded, expected) => {
    const wire = bytes(expected);
    const events = new Gt521Parser().push(wire);
    expect(events).toEqual([
      {
        kind: 'packet',
        packet: { deviceId: 1, parameter: new DataView(wire.buffer).getUint32(4, true), code: wire[8] },
      },
    ]);
  });

  it.each(vectors)('%s is refused with a checksum error when any byte after the start code is corrupted', (_n, _e, expected) => {
    const wire = bytes(expected);
    for (let at = 2; at < wire.length; at += 1) {
      const corrupted = wire.slice();
      corrupted[at] = (corrupted[at] ?? 0) ^ 0x10;
      const events = new Gt521Parser().push(corrupted);
      expect(events.some((e) => e.kind === 'packet'), `byte ${at}`).toBe(false);
      expect(events[0]?.kind, `byte ${at}`).toBe('checksum');
    }
  });

  it('sends -1 (EnrollStart without storing) as FFFFFFFF', () => {
    expect(hexOf(gt521Command.enrollStart(-1).subarray(4, 8))).toBe('ffffffff');
  });

  it('refuses rates and IDs the module does not accept', () => {
    expect(() => gt521Command.changeBaudrate(230400)).toThrow(/not one of 9600/);
    expect(() => gt521Command.verify(3000)).toThrow(RangeError);
  });
});

describe('GT-521 data packets and the stateful parser', () => {
  const template = Uint8Array.from({ length: 498 }, (_, i) => (i * 13) & 0xff);
  const ack = encodeGt521Packet(GT521_ACK, 0);
  const nack = encodeGt521Packet(GT521_NACK, 0x1012);

  it('frames data with 5A A5, the device id and a checksum over everything before it', () => {
    const wire = encodeGt521Data(Uint8Array.of(1, 2, 3));
    // 5A+A5+01+00+01+02+03 = 0x0106, little-endian
    expect(hexOf(wire)).toBe('5aa50100010203' + '0601');
  });

  it('reads the data packet after an ACK when told its size, across any chunking', () => {
    const stream = Uint8Array.from([...ack, ...encodeGt521Data(template)]);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: stream.length - 1 }), { maxLength: 10 }), (cuts) => {
        const parser = new Gt521Parser();
        parser.expectDataAfterAck(498);
        const events: Gt521ParseEvent[] = [];
        let from = 0;
        for (const to of [...new Set(cuts)].sort((a, b) => a - b).concat(stream.length)) {
          events.push(...parser.push(stream.subarray(from, to)));
          from = to;
        }
        expect(events.map((e) => e.kind)).toEqual(['packet', 'data']);
        const data = events[1];
        expect(data?.kind === 'data' && hexOf(data.data)).toBe(hexOf(template));
      }),
    );
  });

  it('expects no data after a NACK', () => {
    const parser = new Gt521Parser();
    parser.expectDataAfterAck(498);
    expect(parser.push(Uint8Array.from([...nack, ...ack])).map((e) => e.kind)).toEqual(['packet', 'packet']);
  });

  it('refuses a corrupted data packet with a checksum error', () => {
    const data = encodeGt521Data(template);
    data[100] = (data[100] ?? 0) ^ 0x01;
    const parser = new Gt521Parser();
    parser.expectData(498);
    const events = parser.push(data);
    expect(events[0]).toMatchObject({ kind: 'checksum', frame: 'data' });
    expect(events.some((e) => e.kind === 'data')).toBe(false);
  });

  it('skips noise before a packet, including a false start code', () => {
    const noise = Uint8Array.of(0x00, 0x55, 0x13, 0xff);
    const events = new Gt521Parser().push(Uint8Array.from([...noise, ...ack]));
    expect(events.map((e) => e.kind)).toEqual(['skipped', 'packet']);
    const falseStart = bytes('55 aa 01');
    const after = new Gt521Parser().push(Uint8Array.from([...falseStart, ...ack]));
    expect(after.filter((e) => e.kind === 'packet')).toHaveLength(1);
  });

  it('decodes the 24-byte Open info', () => {
    const serial = Uint8Array.from({ length: 16 }, (_, i) => i);
    const info = decodeOpenInfo(encodeOpenInfo({ firmwareVersion: 0x20120521, isoAreaMaxSize: 0x8000, serialNumber: serial }));
    expect(info).toEqual({ firmwareVersion: '20120521', isoAreaMaxSize: 0x8000, serialNumber: '000102030405060708090A0B0C0D0E0F' });
    expect(() => decodeOpenInfo(new Uint8Array(23))).toThrow(/expected 24/);
  });

  it('has a message for every NACK error code and names duplicates', () => {
    for (let code = 0x1001; code <= 0x1012; code += 1) expect(GT521_ERRORS.has(code)).toBe(true);
    expect(describeGt521Error(0x1012).message).toBe('finger is not pressed');
    expect(describeGt521Error(7).message).toBe('the fingerprint duplicates enrolled ID 7');
    expect(describeGt521Error(0x2000).name).toBe('unknown');
  });
});
