// What the device process needs from an emulated module. The module is a state machine with no
// I/O: the device process feeds it bytes, paces its replies and applies injected faults. Also what
// both modules keep alike: the finger on the sensor and the templates of scripted fingers.

import { fingerTemplate } from './faults';

export interface ModuleReply {
  /** The command answered, for faults scoped with `on`. */
  readonly command: string;
  /** Scripted processing time before the reply, ms. */
  readonly delayMs: number;
  /** Encoded frames, sent back to back. */
  readonly frames: Uint8Array[];
  /** Runs once the reply has left the module. */
  readonly after?: () => void;
}

/** One complete thing the host sent: a command packet, a data packet, or a corrupted frame. */
export interface ModuleInput {
  readonly bytes: number;
  readonly handle: () => ModuleReply | undefined;
}

export interface FingerScript {
  /** Which finger: equal ids match each other. */
  readonly id: number;
  /** Polls (GenImg / IsPressFinger) answered "no finger" before it lands. Default 0. */
  readonly afterPolls?: number;
  /** Image quality: anything but 'good' makes feature extraction fail with the matching code. */
  readonly quality?: 'good' | 'dry' | 'wet' | 'messy' | 'few-features' | 'bad';
  /** Base64 template the module returns for this finger; default a stable pattern from `id`. */
  readonly template?: string;
}

export interface ControlRequest {
  readonly op: string;
  readonly [key: string]: unknown;
}

export interface EmulatedModule {
  readonly protocol: 'zfm' | 'gt521';
  /** The rate the module talks at now. */
  readonly baudRate: number;
  /** Splits incoming bytes into inputs; their handlers run in order, after pacing and checks. */
  receive(chunk: Uint8Array): ModuleInput[];
  /** Power-on (also a power cycle): applies pending settings, clears volatile state; returns bytes it sends unasked. */
  powerOn(): Uint8Array | undefined;
  /** ZFM: re-addresses a frame (the 'reply-address' fault). */
  readdress?(frame: Uint8Array, address: number): Uint8Array;
  /** Module-specific control operations; throws on an unknown op. */
  control(request: ControlRequest): unknown;
  snapshot(): Record<string, unknown>;
}

export function requireNumber(request: ControlRequest, key: string, min: number, max: number): number {
  const value = request[key];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${request.op}: ${key} must be an integer ${min}..${max}`);
  }
  return value;
}

export function optionalNumber(request: ControlRequest, key: string, min: number, max: number): number | undefined {
  return request[key] === undefined ? undefined : requireNumber(request, key, min, max);
}

export function decodeTemplate(value: unknown, what: string): Uint8Array | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(value)) throw new Error(`${what} must be base64`);
  return Uint8Array.from(Buffer.from(value, 'base64'));
}

export function parseFinger(request: ControlRequest): FingerScript {
  const id = requireNumber(request, 'id', 0, 0xffff);
  const afterPolls = optionalNumber(request, 'afterPolls', 0, 1_000_000);
  const quality = request.quality;
  const qualities = ['good', 'dry', 'wet', 'messy', 'few-features', 'bad'];
  if (quality !== undefined && (typeof quality !== 'string' || !qualities.includes(quality))) {
    throw new Error(`finger: quality must be one of ${qualities.join(', ')}`);
  }
  decodeTemplate(request.template, 'finger: template');
  return {
    id,
    ...(afterPolls === undefined ? {} : { afterPolls }),
    ...(quality === undefined ? {} : { quality: quality as FingerScript['quality'] }),
    ...(request.template === undefined ? {} : { template: request.template as string }),
  };
}

/** A finger on (or coming to) the sensor. */
export class FingerSlot {
  private script: FingerScript | undefined;
  private pollsLeft = 0;
  polls = 0;

  place(script: FingerScript): void {
    this.script = script;
    this.pollsLeft = script.afterPolls ?? 0;
  }

  lift(): void {
    this.script = undefined;
  }

  /** One presence poll: the finger counts as present once its scripted polls have passed. */
  poll(): FingerScript | undefined {
    this.polls += 1;
    if (!this.script) return undefined;
    if (this.pollsLeft > 0) {
      this.pollsLeft -= 1;
      return undefined;
    }
    return this.script;
  }

  /** Presence without counting a poll (capture after a positive poll). */
  get present(): FingerScript | undefined {
    return this.script && this.pollsLeft === 0 ? this.script : undefined;
  }

  /** The control ops every module answers alike, `finger` and `lift`; undefined for any other op. */
  control(request: ControlRequest): Record<string, unknown> | undefined {
    switch (request.op) {
      case 'finger':
        this.place(parseFinger(request));
        return { polls: this.polls };
      case 'lift':
        this.lift();
        return {};
      default:
        return undefined;
    }
  }
}

/** A template the module holds, and the scripted finger it came from when known. */
export interface StoredTemplate {
  readonly bytes: Uint8Array;
  readonly fingerId: number | undefined;
}

/**
 * The template of each scripted finger, once made or given, so the same finger always yields the
 * same bytes and a template the host downloads later is recognised as that finger's.
 */
export class FingerTemplates {
  private readonly byFinger = new Map<number, Uint8Array>();

  /**
   * @param templateBytes the size of a template the module makes
   * @param accept throws for a template the module cannot hold (checked before it is kept)
   */
  constructor(
    private readonly templateBytes: number,
    private readonly accept: (template: Uint8Array) => void = () => undefined,
  ) {}

  /** The finger's template: its scripted one, else the one it already has, else a stable pattern from its id. */
  templateFor(finger: FingerScript): Uint8Array {
    const template =
      decodeTemplate(finger.template, 'finger template') ?? this.byFinger.get(finger.id) ?? fingerTemplate(finger.id, this.templateBytes);
    this.accept(template);
    this.byFinger.set(finger.id, template);
    return template;
  }

  /** Gives a finger this template (an enrolment with the template written out). */
  remember(fingerId: number, template: Uint8Array): void {
    this.byFinger.set(fingerId, template);
  }

  /** Which scripted finger a template belongs to, if any. */
  identify(bytes: Uint8Array): StoredTemplate {
    for (const [fingerId, template] of this.byFinger) {
      if (sameBytes(template, bytes)) return { bytes, fingerId };
    }
    return { bytes, fingerId: undefined };
  }
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
