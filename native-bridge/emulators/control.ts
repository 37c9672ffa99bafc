// The client side of an emulator's control channel: JSON lines over TCP on 127.0.0.1.
//
// Requests ({"seq": n, "op": ...}), answered with {"seq", "ok": true, "result"} or {"seq", "ok": false, "error"}:
//   finger        {id, afterPolls?, quality?, template? (base64)}  a finger arrives after N presence polls
//   lift          the finger leaves
//   enroll        ZFM {page, id, template?} / GT-521 {slot, id, template?}: a template in the library
//   fault         {fault: Fault}  (faults.ts), e.g. {"type":"bad-checksum","on":"GenImg"}
//   clear-faults
//   configure     ZFM {packetSize?, baudN?, address?, password?, delays?} (packet size and baud at the
//                 next power-on, as SetSysPara would) / GT-521 {delays?}
//   power-cycle   applies pending settings; an R503 then sends 0x55
//   state         module snapshot + stats {rxBytes, txBytes, processingMs, commands, baudMismatches}
//   reset-stats
//   exit          the process ends (socat is then ended by the harness: the port goes away)

import { createConnection, type Socket } from 'node:net';
import type { Fault } from './faults';

export interface EmulatorStats {
  readonly rxBytes: number;
  readonly txBytes: number;
  readonly processingMs: number;
  readonly commands: number;
  readonly baudMismatches: number;
}

export type EmulatorState = Record<string, unknown> & { readonly stats: EmulatorStats; readonly polls: number; readonly baudRate: number };

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export class EmulatorControl {
  private nextSeq = 1;
  private readonly pending = new Map<number, Pending>();
  private buffered = '';

  private constructor(private readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (text: string) => this.receive(text));
    const failAll = (error: Error): void => {
      for (const waiter of this.pending.values()) waiter.reject(error);
      this.pending.clear();
    };
    socket.on('error', failAll);
    socket.on('close', () => failAll(new Error('the emulator control channel closed')));
  }

  static connect(host: string, port: number): Promise<EmulatorControl> {
    return new Promise((resolve, reject) => {
      const socket = createConnection({ host, port }, () => {
        socket.off('error', reject);
        resolve(new EmulatorControl(socket));
      });
      socket.once('error', reject);
    });
  }

  request<T = unknown>(op: string, args: Record<string, unknown> = {}): Promise<T> {
    const seq = this.nextSeq++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(seq, { resolve: resolve as (value: unknown) => void, reject });
      this.socket.write(`${JSON.stringify({ ...args, op, seq })}\n`);
    });
  }

  finger(finger: { id: number; afterPolls?: number; quality?: string; template?: string }): Promise<unknown> {
    return this.request('finger', finger);
  }

  fault(fault: Fault): Promise<unknown> {
    return this.request('fault', { fault });
  }

  state(): Promise<EmulatorState> {
    return this.request<EmulatorState>('state');
  }

  close(): void {
    this.socket.destroy();
  }

  private receive(text: string): void {
    this.buffered += text;
    for (let newline = this.buffered.indexOf('\n'); newline >= 0; newline = this.buffered.indexOf('\n')) {
      const line = this.buffered.slice(0, newline);
      this.buffered = this.buffered.slice(newline + 1);
      const answer = JSON.parse(line) as { seq: number; ok: boolean; result?: unknown; error?: string };
      const waiter = this.pending.get(answer.seq);
      if (!waiter) continue;
      this.pending.delete(answer.seq);
      if (answer.ok) waiter.resolve(answer.result);
      else waiter.reject(new Error(answer.error ?? 'the emulator refused the request'));
    }
  }
}
