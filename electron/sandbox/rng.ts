// Identifiers, OTPs and fault decisions come from one source: cryptographically random by
// default, or a reproducible stream when the sandbox is started with a seed (tests, demos).
import { createHmac, randomBytes } from 'node:crypto';

export interface Rng {
  bytes(n: number): Buffer;
  /** Uniform in [0, 1). */
  float(): number;
  /** Uniform integer in [0, max). */
  int(max: number): number;
  digits(n: number): string;
  /** Upper-case letters and digits, unambiguous (no 0/O, 1/I). */
  code(n: number): string;
  uuid(): string;
}

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export function createRng(seed?: string | number): Rng {
  let counter = 0;
  const seeded = seed === undefined ? undefined : String(seed);
  const bytes = (n: number): Buffer => {
    if (seeded === undefined) return randomBytes(n);
    const chunks: Buffer[] = [];
    let have = 0;
    while (have < n) {
      const chunk = createHmac('sha256', seeded).update(String(counter++)).digest();
      chunks.push(chunk);
      have += chunk.length;
    }
    return Buffer.concat(chunks).subarray(0, n);
  };
  const float = (): number => bytes(6).readUIntBE(0, 6) / 2 ** 48;
  const int = (max: number): number => Math.floor(float() * max);
  return {
    bytes,
    float,
    int,
    digits: (n) => Array.from({ length: n }, () => String(int(10))).join(''),
    code: (n) => Array.from({ length: n }, () => CODE_ALPHABET[int(CODE_ALPHABET.length)]).join(''),
    uuid: () => {
      const b = bytes(16);
      b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
      b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
      const h = b.toString('hex');
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    },
  };
}
