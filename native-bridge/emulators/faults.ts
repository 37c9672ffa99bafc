// Faults a test can inject into an emulated module's replies, each for the next `count` replies
// (default 1), optionally only for one command (`on`, e.g. 'UpChar', 'MakeTemplate').

export type FaultSpec =
  /** Corrupts the checksum of frame `frame` (default 0: the acknowledge) of the reply. */
  | { readonly type: 'bad-checksum'; readonly frame?: number }
  /** Sends these bytes before the reply (default 55 00 EF 13: a power-on 0x55 and a false header byte). */
  | { readonly type: 'garbage'; readonly bytes?: readonly number[] }
  /** No reply at all. */
  | { readonly type: 'silence' }
  /** Sends only the first `bytes` bytes of the reply. */
  | { readonly type: 'truncate'; readonly bytes: number }
  /** Sends the first `afterBytes` bytes of the reply, then the process dies (an unplug mid-stream). */
  | { readonly type: 'exit'; readonly afterBytes: number }
  /** Adds `ms` of processing before the reply. */
  | { readonly type: 'delay'; readonly ms: number }
  /** ZFM: the reply claims to come from another address. */
  | { readonly type: 'reply-address'; readonly address: number };

export type Fault = FaultSpec & { readonly on?: string; readonly count?: number };

interface Armed {
  readonly fault: Fault;
  remaining: number;
}

export class FaultPlan {
  private armed: Armed[] = [];

  add(fault: Fault): void {
    const count = fault.count ?? 1;
    if (!Number.isInteger(count) || count < 1) throw new Error(`fault count ${count} must be a positive integer`);
    this.armed.push({ fault, remaining: count });
  }

  clear(): void {
    this.armed = [];
  }

  get pending(): Fault[] {
    return this.armed.map((a) => a.fault);
  }

  /** The faults that apply to the reply to `command`, each used up once. */
  take(command: string): Fault[] {
    const hits: Fault[] = [];
    for (const armed of this.armed) {
      if (armed.fault.on !== undefined && armed.fault.on !== command) continue;
      hits.push(armed.fault);
      armed.remaining -= 1;
    }
    this.armed = this.armed.filter((a) => a.remaining > 0);
    return hits;
  }
}

export function corruptLastByte(frame: Uint8Array): Uint8Array {
  const copy = frame.slice();
  const at = copy.length - 1;
  copy[at] = (copy[at] ?? 0) ^ 0x5a;
  return copy;
}

/** A stable pseudo-random template for a finger, so tests know what a capture must return. */
export function fingerTemplate(fingerId: number, bytes: number): Uint8Array {
  const out = new Uint8Array(bytes);
  let state = (fingerId * 2654435761 + 0x9e3779b9) >>> 0;
  for (let i = 0; i < bytes; i += 1) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    out[i] = state >>> 24;
  }
  return out;
}
