import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ZFM_CONFIRMATION_CODES,
  ZFM_DEFAULT_ADDRESS,
  ZfmDataAssembler,
  ZfmDecodeError,
  ZfmPacketParser,
  ZfmPid,
  dataStreamWireBytes,
  decodeAck,
  decodeIndexTable,
  decodeSearchResult,
  decodeSystemParameters,
  decodeTemplateCount,
  describeZfmCode,
  expandImageNibbles,
  encodeDataPackets,
  encodeSystemParameters,
  encodeZfmPacket,
  zfmCommand,
  type ZfmPacket,
  type ZfmParseEvent,
} from '../../../native-bridge/protocols/zfm';

const bytes = (spaced: string): Uint8Array => Uint8Array.from(Buffer.from(spaced.replace(/\s+/g, ''), 'hex'));
const command = (content: Uint8Array): Uint8Array =>
  encodeZfmPacket({ address: ZFM_DEFAULT_ADDRESS, pid: ZfmPid.command, content });
const packets = (events: ZfmParseEvent[]): ZfmPacket[] =>
  events.flatMap((e) => (e.kind === 'packet' ? [e.packet] : []));

// Every row of the reference's §1.3 table.
const vectors: Array<[string, Uint8Array, string]> = [
  ['VfyPwd(0)', command(zfmCommand.vfyPwd(0)), 'EF01 FFFFFFFF 01 0007 13 00000000 001B'],
  ['GenImg', command(zfmCommand.genImg()), 'EF01 FFFFFFFF 01 0003 01 0005'],
  ['Img2Tz(1)', command(zfmCommand.img2Tz(1)), 'EF01 FFFFFFFF 01 0004 02 01 0008'],
  ['Search(1, 0, 200)', command(zfmCommand.search(1, 0, 200)), 'EF01 FFFFFFFF 01 0008 04 01 0000 00C8 00D6'],
  ['UpChar(1)', command(zfmCommand.upChar(1)), 'EF01 FFFFFFFF 01 0004 08 01 000E'],
  ['ReadSysPara', command(zfmCommand.readSysPara()), 'EF01 FFFFFFFF 01 0003 0F 0013'],
  ['HandShake (R503)', command(zfmCommand.handShake()), 'EF01 FFFFFFFF 01 0003 40 0044'],
  [
    'AuraLedConfig cyan breathing',
    command(zfmCommand.auraLedConfig({ mode: 'breathing', speed: 0x50, colour: 'cyan', count: 0 })),
    'EF01 FFFFFFFF 01 0007 35 01 50 06 00 0094',
  ],
  [
    'ACK code 0',
    encodeZfmPacket({ address: ZFM_DEFAULT_ADDRESS, pid: ZfmPid.ack, content: Uint8Array.of(0) }),
    'EF01 FFFFFFFF 07 0003 00 000A',
  ],
];

describe('ZFM framing: the published test vectors', () => {
  it.each(vectors)('%s encodes to the reference bytes', (_name, encoded, expected) => {
    expect(Buffer.from(encoded).toString('hex').toUpperCase()).toBe(Buffer.from(bytes(expected)).toString('hex').toUpperCase());
  });

  it.each(vectors)('%s parses back to one packet with its content', (_name, _encoded, expected) => {
    const wire = bytes(expected);
    const events = new ZfmPacketParser().push(wire);
    expect(events).toHaveLength(1);
    const [packet] = packets(events);
    expect(packet?.address).toBe(0xffffffff);
    expect(packet?.pid).toBe(wire[6]);
    expect(Array.from(packet?.content ?? [])).toEqual(Array.from(wire.subarray(9, wire.length - 2)));
  });

  it.each(vectors)('%s is refused with a checksum error when any content or checksum byte is corrupted', (_name, _e, expected) => {
    const wire = bytes(expected);
    for (let at = 9; at < wire.length; at += 1) {
      for (const flip of [0x01, 0x80, 0xff]) {
        const corrupted = wire.slice();
        corrupted[at] = (corrupted[at] ?? 0) ^ flip;
        const events = new ZfmPacketParser().push(corrupted);
        expect(packets(events), `byte ${at} ^ ${flip}`).toEqual([]);
        expect(events.some((e) => e.kind === 'checksum'), `byte ${at} ^ ${flip}`).toBe(true);
      }
    }
  });

  it('reports the expected and received checksum of a refused packet', () => {
    const wire = bytes('EF01 FFFFFFFF 07 0003 00 000B');
    expect(new ZfmPacketParser().push(wire)).toEqual([
      { kind: 'checksum', address: 0xffffffff, pid: 0x07, expected: 0x000a, received: 0x000b },
      { kind: 'skipped', bytes: wire.slice(1) },
    ]);
  });

  it('truncates the checksum to 16 bits', () => {
    const content = new Uint8Array(256).fill(0xff); // 256 × 255 overflows 16 bits
    const wire = encodeZfmPacket({ address: 1, pid: ZfmPid.endOfData, content });
    const sum = (0x08 + 0x01 + 0x02 + 256 * 0xff) & 0xffff;
    expect(wire.at(-2)).toBe(sum >> 8);
    expect(wire.at(-1)).toBe(sum & 0xff);
    expect(packets(new ZfmPacketParser().push(wire))).toHaveLength(1);
  });
});

describe('ZFM framing: resync, chunking and implausible lengths', () => {
  const ack = bytes('EF01 FFFFFFFF 07 0003 00 000A');

  it("skips the R503's power-on 0x55 and other noise before a packet", () => {
    const noise = Uint8Array.of(0x55, 0x00, 0xef, 0x13, 0xef, 0xef);
    const events = new ZfmPacketParser().push(Uint8Array.from([...noise, ...ack]));
    expect(events[0]).toEqual({ kind: 'skipped', bytes: noise });
    expect(packets(events)).toHaveLength(1);
  });

  it('keeps a trailing 0xEF that may start the next header', () => {
    const parser = new ZfmPacketParser();
    expect(parser.push(Uint8Array.of(0x55, 0xef))).toEqual([{ kind: 'skipped', bytes: Uint8Array.of(0x55) }]);
    expect(parser.pendingBytes).toBe(1);
    expect(packets(parser.push(ack.subarray(1)))).toHaveLength(1);
  });

  it('refuses an implausible length (over 256 content bytes, or none) and finds the real packet after it', () => {
    for (const fake of ['EF01 FFFFFFFF 07 0103', 'EF01 FFFFFFFF 07 FFFF', 'EF01 FFFFFFFF 07 0002', 'EF01 FFFFFFFF 03 0003']) {
      const parser = new ZfmPacketParser();
      const events = parser.push(Uint8Array.from([...bytes(fake), ...ack]));
      expect(packets(events), fake).toHaveLength(1);
      expect(events[0]?.kind, fake).toBe('skipped');
      expect(parser.pendingBytes).toBe(0);
    }
  });

  it('recovers the real packet after a corrupted one (drop one byte and rescan)', () => {
    const bad = bytes('EF01 FFFFFFFF 07 0003 00 00FF');
    const events = new ZfmPacketParser().push(Uint8Array.from([...bad, ...ack]));
    expect(events.map((e) => e.kind)).toEqual(['checksum', 'skipped', 'packet']);
  });

  it('assembles packets from any split of the stream and splits coalesced packets', () => {
    const stream = Uint8Array.from([
      0x55,
      ...ack,
      ...encodeDataPackets(0xffffffff, Uint8Array.from({ length: 300 }, (_, i) => i & 0xff), 128).flatMap((p) => [...p]),
    ]);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: stream.length }), { maxLength: 12 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const parser = new ZfmPacketParser();
        const found: ZfmPacket[] = [];
        let from = 0;
        for (const to of [...points, stream.length]) {
          found.push(...packets(parser.push(stream.subarray(from, to))));
          from = to;
        }
        expect(found.map((p) => p.pid)).toEqual([0x07, 0x02, 0x02, 0x08]);
        expect(found.slice(1).reduce((n, p) => n + p.content.length, 0)).toBe(300);
        expect(parser.pendingBytes).toBe(0);
      }),
    );
  });

  it('round-trips any packet through noise that holds no header', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 40 }).map((a) => a.filter((b) => b !== 0xef)),
        fc.constantFrom(0x01, 0x02, 0x07, 0x08),
        fc.integer({ min: 0, max: 0xffffffff }),
        fc.uint8Array({ minLength: 1, maxLength: 256 }),
        (noise, pid, address, content) => {
          const wire = encodeZfmPacket({ address, pid: pid as ZfmPid, content });
          const found = packets(new ZfmPacketParser().push(Uint8Array.from([...noise, ...wire])));
          expect(found).toHaveLength(1);
          expect(found[0]?.address).toBe(address);
          expect(Array.from(found[0]?.content ?? [])).toEqual(Array.from(content));
        },
      ),
    );
  });

  it('refuses to encode what no module can receive', () => {
    expect(() => encodeZfmPacket({ address: 0, pid: ZfmPid.data, content: new Uint8Array(257) })).toThrow(RangeError);
    expect(() => encodeZfmPacket({ address: 0, pid: 0x03 as ZfmPid, content: Uint8Array.of(1) })).toThrow(RangeError);
    expect(() => zfmCommand.img2Tz(7)).toThrow(/CharBuffer id 7/);
    expect(() => zfmCommand.search(1, 0, 70000)).toThrow(/page count 70000/);
  });
});

describe('ZFM confirmation codes', () => {
  it('has a distinct message for every code of the reference table', () => {
    const codes = [
      ...Array.from({ length: 0x22 }, (_, i) => i),
      0x22, 0x24, 0x26, 0x27, 0x28, 0x29, 0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xfc, 0xfd, 0xfe,
    ];
    for (const code of codes) expect(ZFM_CONFIRMATION_CODES.has(code), `0x${code.toString(16)}`).toBe(true);
    const messages = [...ZFM_CONFIRMATION_CODES.values()].map((c) => c.message);
    expect(new Set(messages).size).toBe(messages.length);
    expect(describeZfmCode(0x02).message).toBe('no finger on the sensor');
    expect(describeZfmCode(0x99).message).toBe('unknown confirmation code 0x99');
  });
});

describe('ZFM replies and data streams', () => {
  it('decodes every ReadSysPara field', () => {
    const params = encodeSystemParameters({
      status: 0b1101,
      systemId: 0,
      capacity: 200,
      securityLevel: 3,
      address: 0x12345678,
      packetSizeCode: 2,
      baudN: 6,
    });
    expect(decodeSystemParameters(params)).toEqual({
      status: { busy: true, passed: false, passwordVerified: true, imageBufferValid: true, raw: 0b1101 },
      systemId: 0,
      capacity: 200,
      securityLevel: 3,
      address: 0x12345678,
      packetSizeCode: 2,
      packetSize: 128,
      baudN: 6,
      baudRate: 57600,
    });
    const badSize = params.slice();
    badSize[13] = 4;
    expect(() => decodeSystemParameters(badSize)).toThrow(ZfmDecodeError);
    expect(() => decodeSystemParameters(params.subarray(0, 15))).toThrow(/needs 16/);
  });

  it('decodes acknowledge payloads', () => {
    const packet = { address: 0xffffffff, pid: ZfmPid.ack, content: Uint8Array.of(0x00, 0x00, 0x05, 0x00, 0x64) };
    const ack = decodeAck(packet);
    expect(ack.code).toBe(0);
    expect(decodeSearchResult(ack.params)).toEqual({ pageId: 5, score: 100 });
    expect(() => decodeAck({ ...packet, pid: ZfmPid.data })).toThrow(ZfmDecodeError);
    expect(decodeIndexTable(1, Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? 0b101 : i === 2 ? 0x80 : 0)))).toEqual([
      256, 258, 256 + 23,
    ]);
  });

  it('decodes the template count and expands 4-bit image pixels (high nibble = left pixel)', () => {
    expect(decodeTemplateCount(Uint8Array.of(0x01, 0x02))).toBe(258);
    expect(Array.from(expandImageNibbles(Uint8Array.of(0xf0, 0x1e)))).toEqual([255, 0, 17, 238]);
  });

  it.each([32, 64, 128, 256])('splits and reassembles a 512-byte template at packet size %i', (size) => {
    const template = Uint8Array.from({ length: 512 }, (_, i) => (i * 7) & 0xff);
    const wire = encodeDataPackets(0xffffffff, template, size);
    expect(wire).toHaveLength(512 / size);
    expect(wire.reduce((n, p) => n + p.length, 0)).toBe(dataStreamWireBytes(512, size));
    const assembler = new ZfmDataAssembler(size, 4096);
    const parsed = packets(new ZfmPacketParser().push(Uint8Array.from(wire.flatMap((p) => [...p]))));
    expect(parsed.map((p) => assembler.push(p))).toEqual([...Array(512 / size - 1).fill(false), true]);
    expect(Array.from(assembler.bytes())).toEqual(Array.from(template));
  });

  it('sends the last data packet at its actual length', () => {
    const wire = encodeDataPackets(0xffffffff, new Uint8Array(300), 128);
    expect(wire.map((p) => [p[6], p.length - 11])).toEqual([
      [0x02, 128],
      [0x02, 128],
      [0x08, 44],
    ]);
  });

  it('refuses a data packet larger than the negotiated packet size, and non-data packets', () => {
    const [big] = packets(new ZfmPacketParser().push(encodeDataPackets(0xffffffff, new Uint8Array(256), 256)[0] ?? new Uint8Array()));
    expect(() => new ZfmDataAssembler(128, 4096).push(big as ZfmPacket)).toThrow(/exceeds the module's packet size of 128/);
    expect(() =>
      new ZfmDataAssembler(128, 4096).push({ address: 0, pid: ZfmPid.ack, content: Uint8Array.of(0) }),
    ).toThrow(/expected a data packet/);
    expect(() => new ZfmDataAssembler(100, 4096)).toThrow(RangeError);
    expect(() => encodeDataPackets(0, new Uint8Array(10), 100)).toThrow(RangeError);
  });
});
