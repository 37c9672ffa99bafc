// Sandbox time: real time plus an offset that only moves forward. Every expiry and window of the
// sandbox (tokens, OTPs, authorizations, the fallback and emergency windows) reads this clock, so
// tests and trainers can jump ahead without waiting.

export class SandboxClock {
  private offset = 0;

  constructor(private readonly realNow: () => number = Date.now) {}

  now(): number {
    return this.realNow() + this.offset;
  }

  get offsetMs(): number {
    return this.offset;
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('the sandbox clock only moves forward');
    this.offset += ms;
  }

  reset(): void {
    this.offset = 0;
  }
}

export const iso = (ms: number): string => new Date(ms).toISOString();

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
