// FingerprintReader for ZFM-family modules (ZFM-20, R30x, R503, AS608, FPM10A) over any
// ByteTransport: serial, or the CP2110 HID-UART bridge.

import { CommandTimeout, type CommandContext } from './command-queue';
import { ReaderError, type Capture, type LedSignal, type MatchResult, type ReaderInfo, type WaitOptions } from './reader';
import { TransportReader, wireMs } from './reader-base';
import { ZfmLink } from './zfm-link';
import { hex } from '../protocols/hex';
import {
  ZFM_DEFAULT_ADDRESS,
  ZFM_ECHO_OK,
  ZfmDecodeError,
  ackMessage,
  decodeMatchScore,
  decodeSearchResult,
  decodeSystemParameters,
  zfmCommand,
  type AuraLedSetting,
  type ZfmAck,
  type ZfmInstructionName,
  type ZfmSystemParameters,
} from '../protocols/zfm';
import type { ByteTransport } from '../transports/transport';

export interface ZfmReaderOptions {
  readonly id?: string;
  /** Module address (SetAdder); modules ignore packets for another address. Default FFFFFFFF. */
  readonly address?: number;
  /** Default 0, the factory password. */
  readonly password?: number;
  /** Reply budget for quick commands (VfyPwd, ReadSysPara, LED...) and for each packet of a data stream, on top of wire time. Default 1000 ms. */
  readonly commandTimeoutMs?: number;
  /** Reply budget for commands the module works on (GenImg, Img2Tz, Search, Match...). Default 2000 ms. */
  readonly processingTimeoutMs?: number;
  /** Budget for optional probes a module may ignore (the handshake variants, LED). Default 300 ms. */
  readonly optionalTimeoutMs?: number;
  /** Pause between GenImg polls; 0 polls back to back (the module's capture time paces the loop). */
  readonly pollIntervalMs?: number;
  /** Refuse template streams longer than this. Default 4096 (R503 templates are 1536). */
  readonly maxTemplateBytes?: number;
}

/** Instructions that make the module work (capture, extract, search), not just answer. */
const processing: ReadonlySet<ZfmInstructionName> = new Set([
  'GenImg',
  'Img2Tz',
  'Match',
  'Search',
  'HighSpeedSearch',
  'RegModel',
  'Store',
  'LoadChar',
  'UpChar',
  'DownChar',
]);

/** The handshakes of the family, most specific first (reference §1.6). */
const handshakes: ReadonlyArray<{ name: string; content: () => Uint8Array; ok: number }> = [
  { name: 'HandShake', content: zfmCommand.handShake, ok: 0x00 },
  { name: 'GetEcho', content: zfmCommand.getEcho, ok: ZFM_ECHO_OK },
  { name: 'PortControl', content: () => zfmCommand.portControl(0), ok: 0x00 },
];

const auraSignals: Readonly<Record<LedSignal, AuraLedSetting>> = {
  ready: { mode: 'breathing', colour: 'blue', speed: 0x50, count: 0 },
  busy: { mode: 'flashing', colour: 'purple', speed: 0x20, count: 0 },
  ok: { mode: 'on', colour: 'green', speed: 0, count: 0 },
  fail: { mode: 'flashing', colour: 'red', speed: 0x10, count: 3 },
  off: { mode: 'off', colour: 'blue', speed: 0, count: 0 },
};

type LedKind = 'aura' | 'on-off' | 'none';

export class ZfmReader extends TransportReader {
  private readonly link: ZfmLink;
  private readonly options: Required<Omit<ZfmReaderOptions, 'id'>>;
  private system: ZfmSystemParameters | undefined;
  private ledKind: LedKind = 'none';

  constructor(transport: ByteTransport, options: ZfmReaderOptions = {}) {
    super(transport, options.id ?? `zfm:${transport.path}`);
    this.options = {
      address: options.address ?? ZFM_DEFAULT_ADDRESS,
      password: options.password ?? 0,
      commandTimeoutMs: options.commandTimeoutMs ?? 1000,
      processingTimeoutMs: options.processingTimeoutMs ?? 2000,
      optionalTimeoutMs: options.optionalTimeoutMs ?? 300,
      pollIntervalMs: options.pollIntervalMs ?? 0,
      maxTemplateBytes: options.maxTemplateBytes ?? 4096,
    };
    this.link = new ZfmLink(transport, this.options.address);
  }

  /** Parameters read by the last probe (packet size, capacity, status register...). */
  get systemParameters(): ZfmSystemParameters | undefined {
    return this.system;
  }

  get linkStats(): Readonly<ZfmLink['stats']> {
    return this.link.stats;
  }

  capture(options: WaitOptions): Promise<Capture> {
    return this.operate(async () => {
      const started = performance.now();
      await this.fingerIntoCharBuffer1(options);
      const template = await this.uploadCharBuffer(1, options.signal);
      return {
        protocol: 'zfm',
        template,
        templateBytes: template.length,
        capturedAt: new Date().toISOString(),
        durationMs: Math.round(performance.now() - started),
      };
    });
  }

  /** 1:N: the finger against the module's own library (Search over its whole capacity). */
  override identify(options: WaitOptions): Promise<MatchResult> {
    return this.operate(async () => {
      await this.fingerIntoCharBuffer1(options);
      const capacity = this.system?.capacity ?? 0;
      const ack = await this.exec('Search', zfmCommand.search(1, 0, capacity), options.signal);
      if (ack.code === 0x09) return { matched: false };
      this.check('Search', ack);
      const found = this.decode(() => decodeSearchResult(ack.params));
      return { matched: true, id: found.pageId, score: found.score };
    });
  }

  /** 1:1: the finger against the template stored at library page `id`. */
  override verify(id: number, options: WaitOptions): Promise<MatchResult> {
    return this.operate(async () => {
      await this.fingerIntoCharBuffer1(options);
      await this.expectOk('LoadChar', zfmCommand.loadChar(2, id), options.signal);
      return this.matchBuffers(options.signal);
    });
  }

  /** 1:1 against a template held by the host (downloaded into CharBuffer 2 with DownChar). */
  verifyTemplate(template: Uint8Array, options: WaitOptions): Promise<MatchResult> {
    return this.operate(async () => {
      await this.fingerIntoCharBuffer1(options);
      await this.downloadCharBuffer(2, template, options.signal);
      return this.matchBuffers(options.signal);
    });
  }

  async led(signal: LedSignal): Promise<void> {
    await this.ensureProbed();
    if (this.ledKind === 'aura') {
      await this.expectOk('AuraLedConfig', zfmCommand.auraLedConfig(auraSignals[signal]));
    } else if (this.ledKind === 'on-off') {
      const on = signal === 'ready' || signal === 'busy' || signal === 'ok';
      await this.expectOk(on ? 'LedOn' : 'LedOff', on ? zfmCommand.ledOn() : zfmCommand.ledOff());
    } else {
      throw new ReaderError('not-supported', 'this module has no LED control');
    }
  }

  protected override async pollForFinger(options: WaitOptions): Promise<void> {
    const deadline = Date.now() + options.timeoutMs;
    this.setState({ kind: 'waiting-for-finger', deadline });
    await this.pollUntilFinger(options, deadline, this.options.pollIntervalMs, async () => {
      const ack = await this.exec('GenImg', zfmCommand.genImg(), options.signal);
      if (ack.code === 0x00) return true;
      // 02: no finger yet; 03: the capture failed (finger moving) — both mean "try again".
      if (ack.code !== 0x02 && ack.code !== 0x03) this.check('GenImg', ack);
      return false;
    });
  }

  protected override resync(): Promise<void> {
    return this.link.resync();
  }

  protected override async beforeClose(): Promise<void> {
    this.link.dispose();
  }

  protected override async probeModule(signal?: AbortSignal): Promise<ReaderInfo> {
    // A new session starts from a quiet line: the tail of a reply to an earlier session (a stream
    // cut short by a crash) would otherwise answer our first command.
    await this.link.resync();
    const address = hex(this.options.address, 8);
    const verified = await this.exec('VfyPwd', zfmCommand.vfyPwd(this.options.password), signal).catch((error: unknown) => {
      if (error instanceof ReaderError && error.code === 'timeout') {
        throw new ReaderError(
          'timeout',
          `no reply to VfyPwd from address ${address} on ${this.transport.path} at ${this.transport.baudRate} baud: ` +
            'no module there, a different baud rate, or a module with another address' +
            (error instanceof CommandTimeout ? CommandTimeout.detail(error.ignored) : ''),
        );
      }
      throw error;
    });
    this.check('VfyPwd', verified);
    const sysAck = await this.exec('ReadSysPara', zfmCommand.readSysPara(), signal);
    this.check('ReadSysPara', sysAck);
    const system = this.decode(() => decodeSystemParameters(sysAck.params));
    const handshake = await this.findHandshake(signal);
    this.ledKind = handshake === 'HandShake' ? 'aura' : await this.findOnOffLed(signal);
    this.system = system;
    this.info = {
      id: this.id,
      protocol: 'zfm',
      transport: this.transport.kind,
      path: this.transport.path,
      model: this.ledKind === 'aura' ? 'R503 family' : 'ZFM/AS608 family',
      baudRate: this.transport.baudRate,
      packetSize: system.packetSize,
      capacity: system.capacity,
      handshake: handshake ?? 'VfyPwd',
      deviceAddress: hex(system.address, 8),
      securityLevel: system.securityLevel,
      capabilities: { identify: system.capacity > 0, verify: true, led: this.ledKind !== 'none' },
    };
    this.setState({ kind: 'idle' });
    return this.info;
  }

  /** Probe unless done, wait for a finger, and extract its features into CharBuffer 1. */
  private async fingerIntoCharBuffer1(options: WaitOptions): Promise<void> {
    await this.ensureProbed(options.signal);
    await this.pollForFinger(options);
    this.setState({ kind: 'capturing' });
    await this.expectOk('Img2Tz', zfmCommand.img2Tz(1), options.signal);
  }

  /** The first handshake variant the module answers; unsupported ones are answered with an error or not at all. */
  private async findHandshake(signal?: AbortSignal): Promise<string | undefined> {
    for (const variant of handshakes) {
      const ack = await this.optional(variant.name as ZfmInstructionName, variant.content(), signal);
      if (ack?.code === variant.ok) return variant.name;
    }
    return undefined;
  }

  /** Some modules switch their LED with 0x50/0x51; probing with LedOff leaves it dark. */
  private async findOnOffLed(signal?: AbortSignal): Promise<LedKind> {
    const ack = await this.optional('LedOff', zfmCommand.ledOff(), signal);
    return ack?.code === 0 ? 'on-off' : 'none';
  }

  /** A command the module may not know: no reply within the short budget is an answer too. */
  private async optional(name: ZfmInstructionName, content: Uint8Array, signal?: AbortSignal): Promise<ZfmAck | undefined> {
    try {
      return await this.command(name, this.optionalTimeoutMs(content), (context) => this.link.command(context, content), signal);
    } catch (error) {
      if (error instanceof ReaderError && (error.code === 'timeout' || error.code === 'protocol')) return undefined;
      throw error;
    }
  }

  private async matchBuffers(signal?: AbortSignal): Promise<MatchResult> {
    const ack = await this.exec('Match', zfmCommand.match(), signal);
    if (ack.code === 0x08) return { matched: false };
    this.check('Match', ack);
    return { matched: true, score: this.decode(() => decodeMatchScore(ack.params)) };
  }

  private uploadCharBuffer(buffer: number, signal?: AbortSignal): Promise<Uint8Array> {
    return this.streamCommand('UpChar', zfmCommand.upChar(buffer), signal, (context, packetSize) =>
      this.link.receiveData(context, packetSize, this.options.maxTemplateBytes, this.options.commandTimeoutMs),
    );
  }

  private downloadCharBuffer(buffer: number, data: Uint8Array, signal?: AbortSignal): Promise<void> {
    return this.streamCommand('DownChar', zfmCommand.downChar(buffer), signal, (context, packetSize) =>
      this.link.sendData(context, data, packetSize, this.options.commandTimeoutMs),
    );
  }

  /** A command whose acknowledge opens a data stream: both in one queue job, so no other command comes between. */
  private streamCommand<T>(
    name: ZfmInstructionName,
    content: Uint8Array,
    signal: AbortSignal | undefined,
    stream: (context: CommandContext, packetSize: number) => Promise<T>,
  ): Promise<T> {
    const packetSize = this.packetSize();
    return this.command(
      name,
      this.timeoutFor(name, content),
      async (context) => {
        this.check(name, await this.link.command(context, content));
        return stream(context, packetSize);
      },
      signal,
    );
  }

  private packetSize(): number {
    if (!this.system) throw new ReaderError('protocol', 'the packet size is unknown until the module is probed');
    return this.system.packetSize;
  }

  private exec(name: ZfmInstructionName, content: Uint8Array, signal?: AbortSignal): Promise<ZfmAck> {
    return this.command(name, this.timeoutFor(name, content), (context) => this.link.command(context, content), signal);
  }

  private async expectOk(name: ZfmInstructionName, content: Uint8Array, signal?: AbortSignal): Promise<void> {
    this.check(name, await this.exec(name, content, signal));
  }

  private check(name: string, ack: ZfmAck): void {
    if (ack.code !== 0x00) throw new ReaderError('device', `${name} failed: ${ackMessage(ack.code)}`, ack.code);
  }

  private decode<T>(decode: () => T): T {
    try {
      return decode();
    } catch (error) {
      if (error instanceof ZfmDecodeError) throw new ReaderError('protocol', error.message);
      throw error;
    }
  }

  /** Budget + twice the wire time of the command and a short acknowledge. */
  private timeoutFor(name: ZfmInstructionName, content: Uint8Array): number {
    const budget = processing.has(name) ? this.options.processingTimeoutMs : this.options.commandTimeoutMs;
    return budget + 2 * wireMs(content.length + 11 + 16 + 12, this.transport.baudRate);
  }

  private optionalTimeoutMs(content: Uint8Array): number {
    return this.options.optionalTimeoutMs + 2 * wireMs(content.length + 11 + 12, this.transport.baudRate);
  }
}
