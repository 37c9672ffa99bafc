// A ByteTransport wired to an emulated module's state machine in the test's own process: what the
// driver writes goes to the module, the module's replies come back on the next turn of the event
// loop, unpaced. A test can slip bytes in front of the reply to a given command — a late reply
// to an earlier command, as a module sends after a host timed out or crashed mid-poll — and
// silence the module's own reply.
import type { EmulatedModule } from '../../../native-bridge/emulators/module';
import type { ByteTransport } from '../../../native-bridge/transports/transport';

interface Planned {
  readonly command: (written: Uint8Array) => boolean;
  /** Sent first: the stale frames. */
  readonly before: readonly Uint8Array[];
  /** Also withhold the module's own reply to that command. */
  readonly silence: boolean;
}

export class InProcessModule implements ByteTransport {
  readonly kind = 'serial' as const;
  readonly path = '/dev/in-process-module';
  readonly written: Uint8Array[] = [];
  private readonly dataListeners = new Set<(chunk: Uint8Array) => void>();
  private readonly plans: Planned[] = [];
  private rate: number;
  private closed = false;

  /** @param coalesce deliver stale frames and the reply in one chunk (as a busy host reads them), else one chunk each */
  constructor(
    private readonly module: EmulatedModule,
    private readonly options: { readonly coalesce?: boolean } = {},
  ) {
    this.rate = module.baudRate;
  }

  get baudRate(): number {
    return this.rate;
  }

  /** The next time `command` is written, `frames` go out before the module's reply (and instead of it with `silence`). */
  before(command: (written: Uint8Array) => boolean, frames: readonly Uint8Array[], silence = false): void {
    this.plans.push({ command, before: frames, silence });
  }

  async write(bytes: Uint8Array): Promise<void> {
    if (this.closed) throw new Error('closed');
    this.written.push(bytes);
    const at = this.plans.findIndex((plan) => plan.command(bytes));
    const plan = at >= 0 ? this.plans.splice(at, 1)[0] : undefined;
    const frames: Uint8Array[] = [...(plan?.before ?? [])];
    for (const input of this.module.receive(bytes)) {
      const reply = input.handle();
      if (!reply || plan?.silence) continue;
      frames.push(...reply.frames);
      reply.after?.();
    }
    const chunks = this.options.coalesce ? [concat(frames)] : frames;
    setImmediate(() => {
      for (const chunk of chunks) if (chunk.length > 0) for (const listener of this.dataListeners) listener(chunk);
    });
  }

  onData(listener: (chunk: Uint8Array) => void): () => void {
    this.dataListeners.add(listener);
    return () => this.dataListeners.delete(listener);
  }

  onDisconnect(): () => void {
    return () => undefined;
  }

  async flush(): Promise<void> {}

  async setBaudRate(baudRate: number): Promise<void> {
    this.rate = baudRate;
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

function concat(frames: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(frames.reduce((n, f) => n + f.length, 0));
  let at = 0;
  for (const frame of frames) {
    out.set(frame, at);
    at += frame.length;
  }
  return out;
}
