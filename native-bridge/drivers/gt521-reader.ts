// FingerprintReader for ADH-Tech GT-521F32/F52 modules over a ByteTransport. The module always
// powers up at 9600 baud: the probe opens there, switches both sides to the working rate, and
// close() puts the module back to 9600 so the next session finds it where it expects.

import { CommandTimeout } from './command-queue';
import { Gt521Link, type Gt521Reply } from './gt521-link';
import { ReaderError, type Capture, type LedSignal, type MatchResult, type ReaderInfo, type WaitOptions } from './reader';
import { TransportReader, wireMs } from './reader-base';
import {
  GT521_BAUD_RATES,
  GT521_OPEN_INFO_BYTES,
  GT521_POWER_ON_BAUD,
  GT521_TEMPLATE_BYTES,
  Gt521Error,
  decodeOpenInfo,
  describeGt521Error,
  gt521Command,
} from '../protocols/gt521';
import type { ByteTransport } from '../transports/transport';

export interface Gt521ReaderOptions {
  readonly id?: string;
  /** The rate to work at after the probe (9600, 19200, 38400, 57600 or 115200). Default 115200. */
  readonly baudRate?: number;
  /** Reply budget for quick commands and for a data packet after its ACK, on top of wire time. Default 1000 ms. */
  readonly commandTimeoutMs?: number;
  /** Reply budget for CaptureFinger, Identify, Verify, MakeTemplate. Default 3000 ms. */
  readonly processingTimeoutMs?: number;
  /** Pause between IsPressFinger polls. Default 0 (back to back). */
  readonly pollIntervalMs?: number;
}

export class Gt521Reader extends TransportReader {
  private readonly link: Gt521Link;
  private readonly options: Required<Omit<Gt521ReaderOptions, 'id'>>;

  constructor(transport: ByteTransport, options: Gt521ReaderOptions = {}) {
    super(transport, options.id ?? `gt521:${transport.path}`);
    const baudRate = options.baudRate ?? 115200;
    if (!(GT521_BAUD_RATES as readonly number[]).includes(baudRate)) {
      throw new RangeError(`GT-521 working baud rate ${baudRate} is not one of ${GT521_BAUD_RATES.join(', ')}`);
    }
    this.options = {
      baudRate,
      commandTimeoutMs: options.commandTimeoutMs ?? 1000,
      processingTimeoutMs: options.processingTimeoutMs ?? 3000,
      pollIntervalMs: options.pollIntervalMs ?? 0,
    };
    this.link = new Gt521Link(transport);
  }

  get linkStats(): Readonly<Gt521Link['stats']> {
    return this.link.stats;
  }

  capture(options: WaitOptions): Promise<Capture> {
    return this.operate(async () => {
      const started = performance.now();
      await this.ensureProbed(options.signal);
      try {
        await this.captureFinger(options);
        const reply = await this.exec('MakeTemplate', gt521Command.makeTemplate(), options.signal, GT521_TEMPLATE_BYTES);
        const template = this.expectAck('MakeTemplate', reply).data ?? new Uint8Array(0);
        return {
          protocol: 'gt521',
          template,
          templateBytes: template.length,
          capturedAt: new Date().toISOString(),
          durationMs: Math.round(performance.now() - started),
        };
      } finally {
        await this.backlightOff();
      }
    });
  }

  /** 1:N against the module's database. */
  override identify(options: WaitOptions): Promise<MatchResult> {
    return this.operate(async () => {
      await this.ensureProbed(options.signal);
      try {
        await this.captureFinger(options);
        const reply = await this.exec('Identify1_N', gt521Command.identify(), options.signal);
        if (!reply.ack && (reply.parameter === Gt521Error.identifyFailed || reply.parameter === Gt521Error.databaseEmpty)) {
          return { matched: false };
        }
        return { matched: true, id: this.expectAck('Identify1_N', reply).parameter };
      } finally {
        await this.backlightOff();
      }
    });
  }

  /** 1:1 against the template enrolled under `id`. */
  override verify(id: number, options: WaitOptions): Promise<MatchResult> {
    return this.operate(async () => {
      await this.ensureProbed(options.signal);
      const packet = gt521Command.verify(id);
      try {
        await this.captureFinger(options);
        const reply = await this.exec('Verify1_1', packet, options.signal);
        if (!reply.ack && reply.parameter === Gt521Error.verifyFailed) return { matched: false, id };
        this.expectAck('Verify1_1', reply);
        return { matched: true, id };
      } finally {
        await this.backlightOff();
      }
    });
  }

  /** The GT-521's only light is the sensor backlight: on while a finger is awaited. */
  async led(signal: LedSignal): Promise<void> {
    await this.ensureProbed();
    const on = signal === 'ready' || signal === 'busy';
    this.expectAck('CmosLed', await this.exec('CmosLed', gt521Command.cmosLed(on)));
  }

  protected override async pollForFinger(options: WaitOptions): Promise<void> {
    const deadline = Date.now() + options.timeoutMs;
    this.setState({ kind: 'waiting-for-finger', deadline });
    // The sensor sees nothing with its backlight off.
    this.expectAck('CmosLed', await this.exec('CmosLed', gt521Command.cmosLed(true), options.signal));
    await this.pollUntilFinger(options, deadline, this.options.pollIntervalMs, async () => {
      const reply = this.expectAck('IsPressFinger', await this.exec('IsPressFinger', gt521Command.isPressFinger(), options.signal));
      return reply.parameter === 0;
    });
  }

  protected override resync(): Promise<void> {
    return this.link.resync();
  }

  /** Back to the power-on rate, so the next Open at 9600 finds the module. */
  protected override async beforeClose(): Promise<void> {
    try {
      if (this.info && !this.isEnded && this.transport.baudRate !== GT521_POWER_ON_BAUD) {
        await this.backlightOff();
        this.expectAck(
          'ChangeBaudrate',
          await this.exec('ChangeBaudrate', gt521Command.changeBaudrate(GT521_POWER_ON_BAUD)),
        );
        await this.transport.setBaudRate(GT521_POWER_ON_BAUD);
      }
    } finally {
      this.link.dispose();
    }
  }

  protected override async probeModule(signal?: AbortSignal): Promise<ReaderInfo> {
    await this.link.resync(); // start from a quiet line, whatever an earlier session left on it
    const opened = await this.open(signal);
    if (this.transport.baudRate !== this.options.baudRate) {
      this.expectAck(
        'ChangeBaudrate',
        await this.exec('ChangeBaudrate', gt521Command.changeBaudrate(this.options.baudRate), signal),
      );
      await this.transport.setBaudRate(this.options.baudRate);
    }
    // Confirms the module hears us at the new rate, and leaves the backlight off until needed.
    this.expectAck('CmosLed', await this.exec('CmosLed', gt521Command.cmosLed(false), signal));
    this.info = {
      id: this.id,
      protocol: 'gt521',
      transport: this.transport.kind,
      path: this.transport.path,
      model: 'GT-521F',
      firmware: opened.firmwareVersion,
      serialNumber: opened.serialNumber,
      baudRate: this.transport.baudRate,
      templateBytes: GT521_TEMPLATE_BYTES,
      handshake: 'Open',
      capabilities: { identify: true, verify: true, led: true },
    };
    this.setState({ kind: 'idle' });
    return this.info;
  }

  /** Open(1) at 9600; if silent there, at the working rate (a session that ended without close). */
  private async open(signal?: AbortSignal): Promise<ReturnType<typeof decodeOpenInfo>> {
    const rates = [...new Set([GT521_POWER_ON_BAUD, this.options.baudRate])];
    const ignored: string[] = [];
    for (const rate of rates) {
      await this.transport.setBaudRate(rate);
      try {
        const reply = await this.exec('Open', gt521Command.open(true), signal, GT521_OPEN_INFO_BYTES);
        const data = this.expectAck('Open', reply).data;
        if (!data) throw new ReaderError('protocol', 'Open(1) was acknowledged without its info packet');
        return decodeOpenInfo(data);
      } catch (error) {
        if (!(error instanceof ReaderError && error.code === 'timeout')) throw error;
        if (error instanceof CommandTimeout) ignored.push(...error.ignored);
      }
    }
    throw new ReaderError(
      'timeout',
      `no reply to Open on ${this.transport.path} at ${rates.join(' or ')} baud: no GT-521 module there, or it is not powered` +
        CommandTimeout.detail(ignored),
    );
  }

  private async captureFinger(options: WaitOptions): Promise<void> {
    await this.pollForFinger(options);
    this.setState({ kind: 'capturing' });
    this.expectAck('CaptureFinger', await this.exec('CaptureFinger', gt521Command.captureFinger(false), options.signal));
  }

  private async backlightOff(): Promise<void> {
    if (this.isEnded) return;
    await this.exec('CmosLed', gt521Command.cmosLed(false)).catch(() => undefined);
  }

  private exec(name: string, packet: Uint8Array, signal?: AbortSignal, dataBytes?: number): Promise<Gt521Reply> {
    const slow = name === 'CaptureFinger' || name === 'MakeTemplate' || name === 'Identify1_N' || name === 'Verify1_1';
    const budget = slow ? this.options.processingTimeoutMs : this.options.commandTimeoutMs;
    const timeout = budget + 2 * wireMs(24, this.transport.baudRate);
    return this.command(
      name,
      timeout,
      (context) => this.link.command(context, packet, dataBytes, this.options.commandTimeoutMs),
      signal,
    );
  }

  private expectAck(name: string, reply: Gt521Reply): Gt521Reply {
    if (!reply.ack) {
      throw new ReaderError('device', `${name} failed: ${describeGt521Error(reply.parameter).message}`, reply.parameter);
    }
    return reply;
  }
}
