// The virtual reader of training mode: a FingerprintReader with no hardware behind it. It presents
// the enrolled fingers of the sandbox's demo patients, fetched from the sandbox's control API
// (GET /sandbox/patients/{cr_id}/fingerprints → [{finger, template}], base64), so a nurse can
// practise a whole biometric consent. A training control makes it present a finger that matches
// nobody, so that a REJECTED authorization (three non-matching fingers) can be practised too.
// Its ReaderInfo says 'virtual' everywhere it can, so it is never mistaken for a real reader.
import { randomBytes } from 'node:crypto';
import {
  ReaderError,
  type Capture,
  type FingerprintReader,
  type LedSignal,
  type ReaderInfo,
  type ReaderState,
  type WaitOptions,
} from './reader';
import { pause, stateAfterFailure } from './reader-base';

/** Which patient the capture is for; a real reader ignores it, the virtual one needs it. */
export interface CaptureHint {
  /** The patient's CR id, as in the exchange's authorize call. */
  readonly patientId: string;
}

export interface HintedWaitOptions extends WaitOptions {
  readonly hint?: CaptureHint;
  /** A finger name as the sandbox lists it (e.g. 'right-thumb'); the first enrolled one otherwise. */
  readonly finger?: string;
}

/** What the next captures present. */
export type VirtualFingerMode = 'enrolled' | 'non-matching';

export interface VirtualReaderOptions {
  /** The sandbox's base URL, e.g. http://127.0.0.1:4010 */
  readonly sandboxUrl: string;
  readonly id?: string;
  /** How long the imaginary finger takes to land on the imaginary sensor. Default 400 ms. */
  readonly fingerDelayMs?: number;
  readonly fetch?: typeof fetch;
}

interface EnrolledFinger {
  readonly finger: string;
  readonly template: Uint8Array;
}

export const VIRTUAL_READER_MODEL = 'Idhini virtual reader (training mode, no hardware)';

/** The size of the sandbox's demo templates: a random template of this size matches no one. */
export const NON_MATCHING_TEMPLATE_BYTES = 512;

/**
 * States as for the hardware drivers, except that there is nothing to probe: idle from the start;
 * waiting-for-finger → capturing → idle; a failure leaves `error` with its code, except no-finger
 * and cancelled (the caller's outcome, not the reader's fault), which return to idle; closed is
 * absent for good.
 */
export class VirtualReader implements FingerprintReader {
  readonly id: string;
  private current: ReaderState = { kind: 'idle' };
  private readonly listeners = new Set<(state: ReaderState) => void>();
  private readonly sandboxUrl: URL;
  private readonly fingerDelayMs: number;
  private readonly fetch: typeof fetch;
  private fingerMode: VirtualFingerMode = 'enrolled';
  private presentedPatient: string | undefined;
  private operating = false;
  private closed = false;
  private led_: LedSignal = 'off';

  constructor(options: VirtualReaderOptions) {
    this.id = options.id ?? 'virtual';
    this.sandboxUrl = new URL(options.sandboxUrl.endsWith('/') ? options.sandboxUrl : `${options.sandboxUrl}/`);
    this.fingerDelayMs = options.fingerDelayMs ?? 400;
    this.fetch = options.fetch ?? fetch;
  }

  get state(): ReaderState {
    return this.current;
  }

  /** The training control: present enrolled fingers, or a finger that matches no one. */
  get mode(): VirtualFingerMode {
    return this.fingerMode;
  }

  setMode(mode: VirtualFingerMode): void {
    this.fingerMode = mode;
  }

  /** The patient whose finger is presented when a capture comes without a hint. */
  presentPatient(patientId: string | undefined): void {
    this.presentedPatient = patientId;
  }

  /** The last LED signal asked for: the reader has no LED, a training screen may show it instead. */
  get ledSignal(): LedSignal {
    return this.led_;
  }

  onStateChange(listener: (state: ReaderState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async probe(): Promise<ReaderInfo> {
    this.assertOpen();
    return {
      id: this.id,
      protocol: 'virtual',
      transport: 'virtual',
      path: 'virtual',
      model: VIRTUAL_READER_MODEL,
      capabilities: { identify: false, verify: false, led: false },
    };
  }

  waitForFinger(options: WaitOptions): Promise<void> {
    return this.operate(() => this.fingerArrives(options));
  }

  capture(options: HintedWaitOptions): Promise<Capture> {
    return this.operate(async () => {
      const started = Date.now();
      const patientId = options.hint?.patientId ?? this.presentedPatient;
      if (!patientId) {
        throw new ReaderError(
          'not-supported',
          'The virtual reader needs to know which demo patient is at the reader: send a capture hint or choose one with presentPatient().',
        );
      }
      const enrolled = this.fingerMode === 'enrolled' ? await this.enrolledFingers(patientId, options.signal) : [];
      await this.fingerArrives(options);
      this.setState({ kind: 'capturing' });
      const chosen = enrolled.find((f) => f.finger === options.finger) ?? enrolled[0];
      // Nobody's finger: what a stranger, a wrong finger or an unenrolled patient presents.
      const template = chosen ? chosen.template.slice() : new Uint8Array(randomBytes(NON_MATCHING_TEMPLATE_BYTES));
      return {
        protocol: 'virtual',
        template,
        templateBytes: template.length,
        capturedAt: new Date().toISOString(),
        durationMs: Date.now() - started,
      };
    });
  }

  async led(signal: LedSignal): Promise<void> {
    this.assertOpen();
    this.led_ = signal;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.setState({ kind: 'absent' });
  }

  private async enrolledFingers(patientId: string, signal: AbortSignal | undefined): Promise<EnrolledFinger[]> {
    const url = new URL(`sandbox/patients/${encodeURIComponent(patientId)}/fingerprints`, this.sandboxUrl);
    let response: Response;
    try {
      response = await this.fetch(url, { signal: signal ?? null, headers: { accept: 'application/json' } });
    } catch (error) {
      if (signal?.aborted) throw cancelled();
      throw new ReaderError('disconnected', `The training sandbox at ${this.sandboxUrl.origin} did not answer: ${describe(error)}`);
    }
    // An unknown patient has no enrolled fingers: whatever finger they present matches nothing.
    if (response.status === 404) return [];
    if (!response.ok) {
      throw new ReaderError('device', `The training sandbox answered HTTP ${response.status} for patient ${patientId}'s fingerprints.`);
    }
    const body: unknown = await response.json().catch(() => undefined);
    if (!Array.isArray(body)) {
      throw new ReaderError('protocol', `The training sandbox's fingerprints for patient ${patientId} are not a list.`);
    }
    return body.flatMap((entry): EnrolledFinger[] => {
      if (typeof entry !== 'object' || entry === null) return [];
      const { finger, template } = entry as { finger?: unknown; template?: unknown };
      if (typeof template !== 'string' || template.length === 0) return [];
      return [{ finger: typeof finger === 'string' ? finger : 'unknown', template: new Uint8Array(Buffer.from(template, 'base64')) }];
    });
  }

  private async fingerArrives(options: WaitOptions): Promise<void> {
    this.setState({ kind: 'waiting-for-finger', deadline: Date.now() + options.timeoutMs });
    if (options.timeoutMs < this.fingerDelayMs) {
      await pause(options.timeoutMs, options.signal, cancelled);
      throw new ReaderError('no-finger', `No finger within ${options.timeoutMs} ms.`);
    }
    await pause(this.fingerDelayMs, options.signal, cancelled);
  }

  private async operate<T>(body: () => Promise<T>): Promise<T> {
    this.assertOpen();
    if (this.operating) throw new ReaderError('busy', 'The virtual reader is busy with another capture.');
    this.operating = true;
    try {
      const result = await body();
      if (!this.closed) this.setState({ kind: 'idle' });
      return result;
    } catch (error) {
      const failure = error instanceof ReaderError ? error : new ReaderError('device', describe(error));
      if (!this.closed) {
        this.setState(stateAfterFailure(failure));
      }
      throw failure;
    } finally {
      this.operating = false;
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new ReaderError('closed', 'The virtual reader is closed.');
  }

  private setState(state: ReaderState): void {
    if (this.current.kind === state.kind && state.kind !== 'waiting-for-finger' && state.kind !== 'error') return;
    this.current = state;
    for (const listener of [...this.listeners]) listener(state);
  }
}

function cancelled(): ReaderError {
  return new ReaderError('cancelled', 'The capture was cancelled.');
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
