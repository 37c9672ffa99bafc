// An emulated GT-521F32/F52: 9600 baud at power-on, ChangeBaudrate switching its side after the
// ACK has left, the CMOS backlight (no capture while it is off), finger presence, capture, a
// template database, and the data packets of Open(1), MakeTemplate, GetTemplate and SetTemplate.

import {
  FingerSlot,
  FingerTemplates,
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
  GT521_ACK,
  GT521_BAUD_RATES,
  GT521_NACK,
  GT521_POWER_ON_BAUD,
  GT521_TEMPLATE_BYTES,
  Gt521Command,
  Gt521Error,
  Gt521Parser,
  encodeGt521Data,
  encodeGt521Packet,
  encodeOpenInfo,
  gt521CommandName,
  type Gt521Packet,
} from '../protocols/gt521';

export interface Gt521Delays {
  readonly captureMs: number;
  readonly makeTemplateMs: number;
  readonly identifyMs: number;
  /** Every other command. */
  readonly commandMs: number;
}

export interface Gt521ModuleConfig {
  /** 200 for the F32, 3000 for the F52. */
  readonly capacity?: number;
  readonly firmwareVersion?: number;
  /** 32 hex digits. */
  readonly serialNumber?: string;
  readonly delays?: Partial<Gt521Delays>;
}

const defaultDelays: Gt521Delays = { captureMs: 120, makeTemplateMs: 60, identifyMs: 80, commandMs: 2 };

const E = Gt521Error;

interface Outcome {
  readonly ack: boolean;
  readonly parameter: number;
  readonly data?: Uint8Array;
  readonly delayMs?: number;
  readonly after?: () => void;
}

const C = Gt521Command;

export class Gt521Module implements EmulatedModule {
  readonly protocol = 'gt521' as const;
  private readonly parser = new Gt521Parser();
  private readonly finger = new FingerSlot();
  private readonly templates = new FingerTemplates(GT521_TEMPLATE_BYTES, (template) => {
    if (template.length !== GT521_TEMPLATE_BYTES) throw new Error(`a GT-521 template is ${GT521_TEMPLATE_BYTES} bytes`);
  });
  private readonly database = new Map<number, StoredTemplate>();
  private readonly capacity: number;
  private readonly firmwareVersion: number;
  private readonly serialNumber: Uint8Array;
  private delays: Gt521Delays;
  private baud = GT521_POWER_ON_BAUD;
  private backlight = false;
  private image: FingerScript | undefined;
  private setTemplateId: number | undefined;
  private readonly handlers: ReadonlyMap<number, (parameter: number) => Outcome>;

  constructor(config: Gt521ModuleConfig = {}) {
    this.capacity = config.capacity ?? 200;
    this.firmwareVersion = config.firmwareVersion ?? 0x20120521;
    this.serialNumber = Uint8Array.from(Buffer.from(config.serialNumber ?? '0123456789ABCDEF0123456789ABCDEF', 'hex'));
    if (this.serialNumber.length !== 16) throw new Error('serialNumber must be 32 hex digits');
    this.delays = { ...defaultDelays, ...config.delays };
    this.handlers = this.buildHandlers();
  }

  get baudRate(): number {
    return this.baud;
  }

  powerOn(): undefined {
    this.baud = GT521_POWER_ON_BAUD;
    this.backlight = false;
    this.image = undefined;
    this.setTemplateId = undefined;
    this.parser.reset();
    return undefined;
  }

  receive(chunk: Uint8Array): ModuleInput[] {
    return this.parser.push(chunk).flatMap((event): ModuleInput[] => {
      switch (event.kind) {
        case 'skipped':
          return [];
        case 'checksum':
          return [{ bytes: 12, handle: () => this.reply('corrupted packet', { ack: false, parameter: E.communication }) }];
        case 'data':
          return [{ bytes: event.data.length + 6, handle: () => this.receiveTemplate(event.data) }];
        case 'packet':
          return [{ bytes: 12, handle: () => this.handle(event.packet) }];
      }
    });
  }

  private handle(packet: Gt521Packet): ModuleReply {
    const name = gt521CommandName(packet.code);
    const handler = this.handlers.get(packet.code);
    return this.reply(name, handler ? handler(packet.parameter) : { ack: false, parameter: E.notSupported });
  }

  private reply(command: string, outcome: Outcome): ModuleReply {
    const frames = [encodeGt521Packet(outcome.ack ? GT521_ACK : GT521_NACK, outcome.parameter)];
    if (outcome.data) frames.push(encodeGt521Data(outcome.data));
    return {
      command,
      delayMs: outcome.delayMs ?? this.delays.commandMs,
      frames,
      ...(outcome.after ? { after: outcome.after } : {}),
    };
  }

  /** The data packet of SetTemplate, then the final ACK/NACK. */
  private receiveTemplate(data: Uint8Array): ModuleReply {
    const id = this.setTemplateId;
    this.setTemplateId = undefined;
    if (id === undefined || data.length !== GT521_TEMPLATE_BYTES) {
      return this.reply('SetTemplate data', { ack: false, parameter: E.communication });
    }
    this.database.set(id, this.templates.identify(data));
    return this.reply('SetTemplate data', { ack: true, parameter: 0 });
  }

  private buildHandlers(): ReadonlyMap<number, (parameter: number) => Outcome> {
    const ok = (parameter = 0, extra: Partial<Outcome> = {}): Outcome => ({ ack: true, parameter, ...extra });
    const nack = (parameter: number, extra: Partial<Outcome> = {}): Outcome => ({ ack: false, parameter, ...extra });
    const inRange = (id: number): boolean => id < this.capacity;
    const matches = (stored: StoredTemplate | undefined): boolean =>
      !!stored && !!this.image && (stored.fingerId === undefined ? sameBytes(stored.bytes, this.templates.templateFor(this.image)) : stored.fingerId === this.image.id);

    return new Map<number, (parameter: number) => Outcome>([
      [
        C.Open,
        (parameter) =>
          parameter === 0
            ? ok()
            : ok(0, {
                data: encodeOpenInfo({
                  firmwareVersion: this.firmwareVersion,
                  isoAreaMaxSize: 0x10000,
                  serialNumber: this.serialNumber,
                }),
              }),
      ],
      [C.Close, () => ok()],
      [C.UsbInternalCheck, () => ok(0x55)],
      [
        C.ChangeBaudrate,
        (baud) =>
          (GT521_BAUD_RATES as readonly number[]).includes(baud)
            ? ok(0, { after: () => (this.baud = baud) }) // the ACK still goes out at the old rate
            : nack(E.invalidBaud),
      ],
      [
        C.CmosLed,
        (on) => {
          this.backlight = on !== 0;
          return ok();
        },
      ],
      [C.GetEnrollCount, () => ok(this.database.size)],
      [C.CheckEnrolled, (id) => (!inRange(id) ? nack(E.invalidPosition) : this.database.has(id) ? ok() : nack(E.notUsed))],
      [
        C.IsPressFinger,
        () => {
          const finger = this.backlight ? this.finger.poll() : undefined;
          return ok(finger ? 0 : E.fingerNotPressed);
        },
      ],
      [
        C.CaptureFinger,
        () => {
          const finger = this.backlight ? this.finger.present : undefined;
          if (!finger) return nack(E.fingerNotPressed, { delayMs: this.delays.captureMs });
          this.image = finger;
          return ok(0, { delayMs: this.delays.captureMs });
        },
      ],
      [
        C.MakeTemplate,
        () => {
          if (!this.image) return nack(E.fingerNotPressed);
          if ((this.image.quality ?? 'good') !== 'good') return nack(E.badFinger, { delayMs: this.delays.makeTemplateMs });
          return ok(0, { data: this.templates.templateFor(this.image), delayMs: this.delays.makeTemplateMs });
        },
      ],
      [
        C.Identify1_N,
        () => {
          if (!this.image) return nack(E.fingerNotPressed);
          if (this.database.size === 0) return nack(E.databaseEmpty, { delayMs: this.delays.identifyMs });
          for (const [id, stored] of this.database) if (matches(stored)) return ok(id, { delayMs: this.delays.identifyMs });
          return nack(E.identifyFailed, { delayMs: this.delays.identifyMs });
        },
      ],
      [
        C.Verify1_1,
        (id) => {
          if (!inRange(id)) return nack(E.invalidPosition);
          if (!this.database.has(id)) return nack(E.notUsed);
          if (!this.image) return nack(E.fingerNotPressed);
          return matches(this.database.get(id))
            ? ok(0, { delayMs: this.delays.identifyMs })
            : nack(E.verifyFailed, { delayMs: this.delays.identifyMs });
        },
      ],
      [
        C.GetTemplate,
        (id) => {
          if (!inRange(id)) return nack(E.invalidPosition);
          const stored = this.database.get(id);
          return stored ? ok(0, { data: stored.bytes }) : nack(E.notUsed);
        },
      ],
      [
        C.SetTemplate,
        (parameter) => {
          const id = parameter & 0xffff;
          if (!inRange(id)) return nack(E.invalidPosition);
          this.setTemplateId = id;
          this.parser.expectData(GT521_TEMPLATE_BYTES);
          return ok();
        },
      ],
      [
        C.DeleteId,
        (id) => {
          if (!inRange(id)) return nack(E.invalidPosition);
          return this.database.delete(id) ? ok() : nack(E.notUsed);
        },
      ],
      [
        C.DeleteAll,
        () => {
          if (this.database.size === 0) return nack(E.databaseEmpty);
          this.database.clear();
          return ok();
        },
      ],
      [C.EnrollStart, (id) => (id === 0xffffffff || inRange(id) ? nack(E.notSupported) : nack(E.invalidParameter))],
    ]);
  }

  control(request: ControlRequest): unknown {
    const answered = this.finger.control(request);
    if (answered) return answered;
    switch (request.op) {
      case 'enroll': {
        const slot = requireNumber(request, 'slot', 0, this.capacity - 1);
        const fingerId = requireNumber(request, 'id', 0, 0xffff);
        const template = this.templates.templateFor({
          id: fingerId,
          ...(typeof request.template === 'string' ? { template: request.template } : {}),
        });
        this.database.set(slot, { bytes: template, fingerId });
        return {};
      }
      case 'configure':
        if (request.delays !== undefined) this.delays = { ...this.delays, ...(request.delays as Partial<Gt521Delays>) };
        return {};
      default:
        throw new Error(`unknown control op '${request.op}' for the GT-521 emulator`);
    }
  }

  snapshot(): Record<string, unknown> {
    return {
      baudRate: this.baud,
      backlight: this.backlight,
      polls: this.finger.polls,
      database: [...this.database.keys()].sort((a, b) => a - b),
      delays: this.delays,
    };
  }
}
