// An emulated ZFM-family module (reference §1.9 checklist): image buffer with ImgBufStat, char
// buffers, a flash library, password, address, baud N, packet-size code, security level and the
// status register. Two profiles: 'zfm20' (2 char buffers, 162 pages, PortControl handshake) and
// 'r503' (6 buffers, 200 pages, HandShake/GetEcho, Aura LED, 0x55 at power-on and after SoftRst).

import { fingerTemplate } from './faults';
import {
  FingerSlot,
  FingerTemplates,
  decodeTemplate,
  optionalNumber,
  requireNumber,
  sameBytes,
  type ControlRequest,
  type EmulatedModule,
  type FingerScript,
  type ModuleInput,
  type ModuleReply,
  type StoredTemplate,
} from './module';
import {
  ZFM_DEFAULT_ADDRESS,
  ZFM_ECHO_OK,
  ZfmDataAssembler,
  ZfmInstruction,
  ZfmPacketParser,
  ZfmPid,
  ZfmSystemParameter,
  encodeDataPackets,
  encodeSystemParameters,
  encodeZfmPacket,
  packetSizeCode,
  packetSizeFromCode,
  zfmInstructionName,
  type ZfmPacket,
} from '../protocols/zfm';

export interface ZfmDelays {
  /** GenImg with a finger on the sensor (R503 < 0.2 s, ZFM-20 < 1 s). */
  readonly genImgMs: number;
  /** GenImg with no finger. */
  readonly genImgNoFingerMs: number;
  readonly img2TzMs: number;
  readonly searchMs: number;
  readonly matchMs: number;
  /** Every other command. */
  readonly commandMs: number;
}

export interface ZfmModuleConfig {
  readonly model?: 'zfm20' | 'r503';
  readonly address?: number;
  readonly password?: number;
  readonly baudN?: number;
  readonly packetSize?: 32 | 64 | 128 | 256;
  readonly securityLevel?: number;
  readonly capacity?: number;
  /** Bytes in a char buffer / template upload. Default 512. */
  readonly templateBytes?: number;
  readonly delays?: Partial<ZfmDelays>;
}

const defaultDelays: ZfmDelays = {
  genImgMs: 150,
  genImgNoFingerMs: 10,
  img2TzMs: 120,
  searchMs: 60,
  matchMs: 30,
  commandMs: 2,
};

interface AuraState {
  mode: number;
  speed: number;
  colour: number;
  count: number;
}

type Handler = (params: Uint8Array, packet: ZfmPacket) => Outcome;
interface Outcome {
  readonly code: number;
  readonly params?: Uint8Array;
  readonly data?: Uint8Array;
  readonly delayMs?: number;
  /** Bytes sent raw after the acknowledge (R503 SoftRst: 0x55). */
  readonly raw?: Uint8Array;
  readonly after?: () => void;
  /** The acknowledge comes from this address (SetAdder). */
  readonly fromAddress?: number;
}

const I = ZfmInstruction;

/** Img2Tz's answer for an image of each quality (04/05 are AS608 codes; others fall back to 06). */
const qualityFailures: Readonly<Record<string, number | undefined>> = {
  dry: 0x04,
  wet: 0x05,
  messy: 0x06,
  'few-features': 0x07,
  bad: 0x06,
};

export class ZfmModule implements EmulatedModule {
  readonly protocol = 'zfm' as const;
  readonly model: 'zfm20' | 'r503';
  private readonly parser = new ZfmPacketParser();
  private readonly finger = new FingerSlot();
  private readonly templates: FingerTemplates;
  private delays: ZfmDelays;
  private address: number;
  private password: number;
  private passwordVerified = false;
  private baudN: number;
  private packetCode: number;
  private securityLevel: number;
  private readonly capacity: number;
  private pending: { baudN?: number; packetCode?: number } = {};
  private image: FingerScript | undefined;
  private readonly charBuffers = new Map<number, StoredTemplate>();
  private readonly library = new Map<number, StoredTemplate>();
  private passBit = false;
  private download: { buffer: number; assembler: ZfmDataAssembler } | undefined;
  private ledOn = false;
  private aura: AuraState | undefined;
  private readonly handlers: ReadonlyMap<number, Handler>;

  constructor(config: ZfmModuleConfig = {}) {
    this.model = config.model ?? 'r503';
    this.address = config.address ?? ZFM_DEFAULT_ADDRESS;
    this.password = config.password ?? 0;
    this.baudN = config.baudN ?? 6;
    this.packetCode = packetSizeCode(config.packetSize ?? 128);
    this.securityLevel = config.securityLevel ?? 3;
    this.capacity = config.capacity ?? (this.model === 'r503' ? 200 : 162);
    this.templates = new FingerTemplates(config.templateBytes ?? 512);
    this.delays = { ...defaultDelays, ...config.delays };
    this.handlers = this.buildHandlers();
  }

  get baudRate(): number {
    return 9600 * this.baudN;
  }

  private get charBufferCount(): number {
    return this.model === 'r503' ? 6 : 2;
  }

  private get packetSize(): number {
    return packetSizeFromCode(this.packetCode);
  }

  powerOn(): Uint8Array | undefined {
    if (this.pending.baudN !== undefined) this.baudN = this.pending.baudN;
    if (this.pending.packetCode !== undefined) this.packetCode = this.pending.packetCode;
    this.pending = {};
    this.passwordVerified = false;
    this.image = undefined;
    this.charBuffers.clear();
    this.download = undefined;
    this.passBit = false;
    this.parser.reset();
    return this.model === 'r503' ? Uint8Array.of(0x55) : undefined;
  }

  readdress(frame: Uint8Array, address: number): Uint8Array {
    const copy = frame.slice();
    new DataView(copy.buffer).setUint32(2, address); // the address is not in the checksum
    return copy;
  }

  receive(chunk: Uint8Array): ModuleInput[] {
    return this.parser.push(chunk).flatMap((event): ModuleInput[] => {
      if (event.kind === 'skipped') return [];
      if (event.kind === 'checksum') {
        // The manual: a packet received with a bad checksum is answered with 01.
        const bytes = 11;
        return [{ bytes, handle: () => this.reply('corrupted packet', { code: 0x01 }) }];
      }
      const { packet } = event;
      const bytes = packet.content.length + 11;
      return [{ bytes, handle: () => this.handle(packet) }];
    });
  }

  private handle(packet: ZfmPacket): ModuleReply | undefined {
    if (packet.address !== this.address) return undefined; // "only reacts to ... its own address"
    if (packet.pid === ZfmPid.data || packet.pid === ZfmPid.endOfData) return this.receiveData(packet);
    if (packet.pid !== ZfmPid.command) return undefined;
    this.download = undefined;
    const instruction = packet.content[0] ?? 0;
    const name = zfmInstructionName(instruction);
    if (this.password !== 0 && !this.passwordVerified && instruction !== I.VfyPwd) {
      return this.reply(name, { code: 0x21 });
    }
    const handler = this.handlers.get(instruction);
    if (!handler) return this.reply(name, { code: this.model === 'r503' ? 0xfc : 0x01 });
    return this.reply(name, handler(packet.content.subarray(1), packet));
  }

  private reply(command: string, outcome: Outcome): ModuleReply {
    const from = outcome.fromAddress ?? this.address;
    const frames = [
      encodeZfmPacket({ address: from, pid: ZfmPid.ack, content: Uint8Array.from([outcome.code, ...(outcome.params ?? [])]) }),
    ];
    if (outcome.data) frames.push(...encodeDataPackets(from, outcome.data, this.packetSize));
    if (outcome.raw) frames.push(outcome.raw);
    return {
      command,
      delayMs: outcome.delayMs ?? this.delays.commandMs,
      frames,
      ...(outcome.after ? { after: outcome.after } : {}),
    };
  }

  private receiveData(packet: ZfmPacket): ModuleReply | undefined {
    const download = this.download;
    if (!download) return undefined; // data "cannot enter the execution flow alone"
    try {
      if (!download.assembler.push(packet)) return undefined;
      this.charBuffers.set(download.buffer, this.templates.identify(download.assembler.bytes()));
    } catch {
      // an oversized packet: the module drops the transfer; data packets are never acknowledged
    }
    this.download = undefined;
    return undefined;
  }

  private bufferArg(params: Uint8Array): number | undefined {
    const id = params[0];
    return id !== undefined && id >= 1 && id <= this.charBufferCount ? id : undefined;
  }

  private buildHandlers(): ReadonlyMap<number, Handler> {
    const u16 = (p: Uint8Array, at: number): number => ((p[at] ?? 0) << 8) | (p[at + 1] ?? 0);
    const u32 = (p: Uint8Array, at: number): number => ((u16(p, at) << 16) | u16(p, at + 2)) >>> 0;
    const word = (value: number): number[] => [(value >> 8) & 0xff, value & 0xff];
    const sameFinger = (a: StoredTemplate | undefined, b: StoredTemplate | undefined): boolean =>
      !!a && !!b && (a.fingerId !== undefined && b.fingerId !== undefined ? a.fingerId === b.fingerId : sameBytes(a.bytes, b.bytes));

    const genImg: Handler = () => {
      const finger = this.finger.poll();
      if (!finger) return { code: 0x02, delayMs: this.delays.genImgNoFingerMs };
      this.image = finger;
      return { code: 0x00, delayMs: this.delays.genImgMs };
    };

    const entries: Array<[number, Handler]> = [
      [I.GenImg, genImg],
      [
        I.Img2Tz,
        (p) => {
          const buffer = this.bufferArg(p);
          if (buffer === undefined) return { code: 0x01 };
          if (!this.image) return { code: 0x15 };
          const failure = qualityFailures[this.image.quality ?? 'good'];
          if (failure !== undefined) return { code: failure, delayMs: this.delays.img2TzMs };
          this.charBuffers.set(buffer, { bytes: this.templates.templateFor(this.image), fingerId: this.image.id });
          return { code: 0x00, delayMs: this.delays.img2TzMs };
        },
      ],
      [
        I.Match,
        () => {
          const matched = sameFinger(this.charBuffers.get(1), this.charBuffers.get(2));
          this.passBit = matched;
          return { code: matched ? 0x00 : 0x08, params: Uint8Array.from(word(matched ? 120 : 0)), delayMs: this.delays.matchMs };
        },
      ],
      [I.Search, (p) => this.search(p, sameFinger, u16)],
      [I.HighSpeedSearch, (p) => this.search(p, sameFinger, u16)],
      [
        I.RegModel,
        () => {
          const [a, b] = [this.charBuffers.get(1), this.charBuffers.get(2)];
          if (!a || !b || !sameFinger(a, b)) return { code: 0x0a, delayMs: this.delays.matchMs };
          this.charBuffers.set(2, a);
          return { code: 0x00, delayMs: this.delays.matchMs };
        },
      ],
      [
        I.Store,
        (p) => {
          const buffer = this.bufferArg(p);
          const page = u16(p, 1);
          if (buffer === undefined) return { code: 0x01 };
          if (page >= this.capacity) return { code: 0x0b };
          const stored = this.charBuffers.get(buffer);
          if (!stored) return { code: 0x18 };
          this.library.set(page, stored);
          return { code: 0x00, delayMs: this.delays.matchMs };
        },
      ],
      [
        I.LoadChar,
        (p) => {
          const buffer = this.bufferArg(p);
          const page = u16(p, 1);
          if (buffer === undefined) return { code: 0x01 };
          if (page >= this.capacity) return { code: 0x0b };
          const stored = this.library.get(page);
          if (!stored) return { code: 0x0c };
          this.charBuffers.set(buffer, stored);
          return { code: 0x00 };
        },
      ],
      [
        I.UpChar,
        (p) => {
          const buffer = this.bufferArg(p);
          if (buffer === undefined) return { code: 0x01 };
          const stored = this.charBuffers.get(buffer);
          return stored ? { code: 0x00, data: stored.bytes } : { code: 0x0d };
        },
      ],
      [
        I.DownChar,
        (p) => {
          const buffer = this.bufferArg(p);
          if (buffer === undefined) return { code: 0x0e };
          const assembler = new ZfmDataAssembler(this.packetSize, 4096);
          return { code: 0x00, after: () => (this.download = { buffer, assembler }) };
        },
      ],
      [
        I.UpImage,
        () => {
          if (!this.image) return { code: 0x0f };
          const [width, height] = this.model === 'r503' ? [192, 192] : [256, 288];
          return { code: 0x00, data: fingerTemplate(this.image.id + 0x10000, (width * height) / 2) };
        },
      ],
      [
        I.DeleteChar,
        (p) => {
          const [page, count] = [u16(p, 0), u16(p, 2)];
          if (page + count > this.capacity) return { code: 0x10 };
          for (let i = page; i < page + count; i += 1) this.library.delete(i);
          return { code: 0x00 };
        },
      ],
      [
        I.Empty,
        () => {
          this.library.clear();
          return { code: 0x00 };
        },
      ],
      [
        I.SetSysPara,
        (p) => {
          const [parameter, value] = [p[0], p[1] ?? 0];
          const P = ZfmSystemParameter;
          // Baud and packet size take effect at the next power-on (ZFM-20 §4.3, R503 §III).
          if (parameter === P.baudN && value >= 1 && value <= 12) this.pending.baudN = value;
          else if (parameter === P.packetSizeCode && value <= 3) this.pending.packetCode = value;
          else if (parameter === P.securityLevel && value >= 1 && value <= 5) this.securityLevel = value;
          else return { code: parameter === P.baudN || parameter === P.securityLevel || parameter === P.packetSizeCode ? 0x1b : 0x1a };
          return { code: 0x00 };
        },
      ],
      [
        I.ReadSysPara,
        () => ({
          code: 0x00,
          params: encodeSystemParameters({
            status: this.statusRegister(),
            systemId: 0,
            capacity: this.capacity,
            securityLevel: this.securityLevel,
            address: this.address,
            packetSizeCode: this.packetCode,
            baudN: this.baudN,
          }),
        }),
      ],
      [
        I.SetPwd,
        (p) => {
          this.password = u32(p, 0);
          return { code: 0x00 };
        },
      ],
      [
        I.VfyPwd,
        (p) => {
          this.passwordVerified = u32(p, 0) === this.password;
          return { code: this.passwordVerified ? 0x00 : 0x13 };
        },
      ],
      [I.GetRandomCode, () => ({ code: 0x00, params: Uint8Array.of(0x12, 0x34, 0x56, 0x78) })],
      [
        I.SetAddress,
        (p) => {
          this.address = u32(p, 0);
          return { code: 0x00, fromAddress: this.address };
        },
      ],
      [I.TemplateCount, () => ({ code: 0x00, params: Uint8Array.from(word(this.library.size)) })],
      [
        I.ReadIndexTable,
        (p) => {
          const page = p[0] ?? 0;
          const bitmap = new Uint8Array(32);
          for (const id of this.library.keys()) {
            const at = id - 256 * page;
            if (at >= 0 && at < 256) bitmap[at >> 3] = (bitmap[at >> 3] ?? 0) | (1 << (at & 7));
          }
          return { code: 0x00, params: bitmap };
        },
      ],
      [I.Cancel, () => ({ code: 0x00 })],
    ];

    if (this.model === 'r503') {
      entries.push(
        [I.GetImageEx, genImg],
        [I.HandShake, () => ({ code: 0x00 })],
        [I.GetEcho, () => ({ code: ZFM_ECHO_OK })],
        [I.CheckSensor, () => ({ code: 0x00 })],
        [
          I.AuraLedConfig,
          (p) => {
            const [mode, speed, colour, count] = [p[0] ?? 0, p[1] ?? 0, p[2] ?? 0, p[3] ?? 0];
            if (mode < 1 || mode > 6 || colour < 1 || colour > 7) return { code: 0x01 };
            this.aura = { mode, speed, colour, count };
            return { code: 0x00 };
          },
        ],
        [
          I.SoftReset,
          () => ({ code: 0x00, raw: Uint8Array.of(0x55), after: () => this.powerOn() }),
        ],
      );
    } else {
      entries.push(
        [I.PortControl, () => ({ code: 0x00 })],
        [
          I.LedOn,
          () => {
            this.ledOn = true;
            return { code: 0x00 };
          },
        ],
        [
          I.LedOff,
          () => {
            this.ledOn = false;
            return { code: 0x00 };
          },
        ],
      );
    }
    return new Map(entries);
  }

  private search(
    p: Uint8Array,
    sameFinger: (a: StoredTemplate | undefined, b: StoredTemplate | undefined) => boolean,
    u16: (p: Uint8Array, at: number) => number,
  ): Outcome {
    const buffer = this.bufferArg(p);
    if (buffer === undefined) return { code: 0x01 };
    const [start, count] = [u16(p, 1), u16(p, 3)];
    const probe = this.charBuffers.get(buffer);
    for (let page = start; page < Math.min(start + count, this.capacity); page += 1) {
      if (sameFinger(probe, this.library.get(page))) {
        this.passBit = true;
        return { code: 0x00, params: Uint8Array.of(page >> 8, page & 0xff, 0, 150), delayMs: this.delays.searchMs };
      }
    }
    this.passBit = false;
    return { code: 0x09, params: new Uint8Array(4), delayMs: this.delays.searchMs };
  }

  private statusRegister(): number {
    return (this.passBit ? 2 : 0) | (this.passwordVerified ? 4 : 0) | (this.image ? 8 : 0);
  }

  control(request: ControlRequest): unknown {
    const answered = this.finger.control(request);
    if (answered) return answered;
    switch (request.op) {
      case 'enroll': {
        const page = requireNumber(request, 'page', 0, this.capacity - 1);
        const fingerId = requireNumber(request, 'id', 0, 0xffff);
        const template = decodeTemplate(request.template, 'enroll: template') ?? this.templates.templateFor({ id: fingerId });
        this.templates.remember(fingerId, template);
        this.library.set(page, { bytes: template, fingerId });
        return {};
      }
      case 'configure': {
        // Settings a test wants in place at the next power-on, as if written with SetSysPara.
        const packetSize = optionalNumber(request, 'packetSize', 32, 256);
        if (packetSize !== undefined) this.pending.packetCode = packetSizeCode(packetSize);
        const baudN = optionalNumber(request, 'baudN', 1, 12);
        if (baudN !== undefined) this.pending.baudN = baudN;
        const address = optionalNumber(request, 'address', 0, 0xffffffff);
        if (address !== undefined) this.address = address;
        const password = optionalNumber(request, 'password', 0, 0xffffffff);
        if (password !== undefined) this.password = password;
        if (request.delays !== undefined) this.delays = { ...this.delays, ...(request.delays as Partial<ZfmDelays>) };
        return {};
      }
      default:
        throw new Error(`unknown control op '${request.op}' for the ZFM emulator`);
    }
  }

  snapshot(): Record<string, unknown> {
    return {
      model: this.model,
      address: this.address,
      baudN: this.baudN,
      baudRate: this.baudRate,
      packetSize: this.packetSize,
      securityLevel: this.securityLevel,
      statusRegister: this.statusRegister(),
      polls: this.finger.polls,
      library: [...this.library.keys()].sort((a, b) => a - b),
      led: this.model === 'r503' ? (this.aura ?? null) : { on: this.ledOn },
      delays: this.delays,
    };
  }
}
