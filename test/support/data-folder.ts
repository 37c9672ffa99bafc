// A station's data folder kept from one release as a fixture of the next (test/fixtures/data-folders/):
// the folder as the station left it (database, browser mode's key store, papers waiting), and what
// the exchange held at that moment, as the exchange calls that made it. The sandbox is in memory, so
// a test brings a fresh one, started with the same seed, to the same state by sending it those calls
// again in their order, each at the sandbox time it was first made: its tokens, guids, codes and
// serial numbers come out the same, and every answer is checked against the one recorded (a sandbox
// that answers differently says where, instead of leaving the station to fail later for no reason
// it can see). The format of both files is versioned like any stored data here.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { forward } from './wire-recorder';

/** The fixture's own description: who made it, who may sign in, which workflows it holds. */
export const fixtureManifest = z.strictObject({
  format: z.literal(1),
  name: z.string().min(1),
  madeFrom: z.strictObject({ commit: z.string().regex(/^[0-9a-f]{7,40}$/), date: z.string() }),
  facility: z.strictObject({ clientId: z.string(), clientSecret: z.string(), code: z.string(), name: z.string() }),
  staff: z.array(z.strictObject({ name: z.string(), role: z.enum(['nurse', 'administrator']), pin: z.string() })).min(1),
  /** The data folder's files, relative to the fixture. */
  station: z.strictObject({ folder: z.string(), database: z.string(), secrets: z.string() }),
  /** Sandbox and station time when the station was stopped. */
  stoppedAt: z.iso.datetime(),
  workflows: z
    .array(
      z.strictObject({
        story: z.enum(['visit-open', 'consent-awaiting-sms-code', 'elective-awaiting-doctor']),
        workflowId: z.string(),
        kind: z.string(),
        state: z.string(),
        patient: z.strictObject({ idType: z.string(), idNumber: z.string() }),
      }),
    )
    .min(1),
});
export type FixtureManifest = z.infer<typeof fixtureManifest>;

const recordedCall = z.strictObject({
  seq: z.number().int().positive(),
  /** Sandbox time (ms) when the call reached it. */
  at: z.number(),
  method: z.string(),
  /** Path and query. */
  url: z.string(),
  headers: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
  /** The body's bytes, base64; null when it had none. */
  body: z.string().nullable(),
  status: z.number().int(),
  /** The answer of a call that may change something (JSON, or text); null for reads. */
  answer: z.unknown(),
});
export type RecordedCall = z.infer<typeof recordedCall>;

/** What the exchange (the sandbox) was told, in the order it applied it. */
export const exchangeLog = z.strictObject({
  format: z.literal(1),
  sandbox: z.strictObject({
    seed: z.string(),
    /** The sandbox's own origin when the fixture was made: its answers name it (authorization page links). */
    origin: z.string(),
  }),
  calls: z.array(recordedCall),
});
export type ExchangeLog = z.infer<typeof exchangeLog>;

export const MANIFEST_FILE = 'fixture.json';
export const EXCHANGE_FILE = 'exchange.json';

/** Reads one fixture folder's two descriptions, refusing any that does not have the format. */
export function readFixture(folder: string): { manifest: FixtureManifest; exchange: ExchangeLog } {
  const read = <T>(file: string, schema: z.ZodType<T>): T => {
    const parsed = schema.safeParse(JSON.parse(readFileSync(path.join(folder, file), 'utf8')));
    if (!parsed.success) throw new Error(`${path.join(folder, file)} is not a data-folder fixture: ${z.prettifyError(parsed.error)}`);
    return parsed.data;
  };
  return { manifest: read(MANIFEST_FILE, fixtureManifest), exchange: read(EXCHANGE_FILE, exchangeLog) };
}

/** The clock a fixture's sandbox and station share: held at a moment while calls are replayed, then running from one. */
export class FixtureTime {
  private base = 0;
  private runningSince: number | null = null;

  readonly now = (): number => (this.runningSince === null ? this.base : this.base + (Date.now() - this.runningSince));

  holdAt(ms: number): void {
    this.base = ms;
    this.runningSince = null;
  }

  runFrom(ms: number): void {
    this.base = ms;
    this.runningSince = Date.now();
  }
}

/**
 * Sends a fresh sandbox (started with the log's seed, on `time`) the recorded calls again, each at
 * its own sandbox time, and checks every answer against the recorded one. Throws naming each call
 * the sandbox answered otherwise.
 */
export async function replayExchange(log: ExchangeLog, sandboxUrl: string, time: FixtureTime): Promise<void> {
  const problems: string[] = [];
  for (const call of log.calls) {
    time.holdAt(call.at);
    const body = call.body === null ? Buffer.alloc(0) : Buffer.from(call.body, 'base64');
    const answered = await forward(sandboxUrl, call.method, call.url, call.headers, body);
    const what = `call ${call.seq} (${call.method} ${call.url.split('?')[0]})`;
    if (Math.floor(answered.status / 100) !== Math.floor(call.status / 100)) {
      problems.push(`${what}: answered ${answered.status}, recorded ${call.status}: ${answered.body.toString('utf8').slice(0, 300)}`);
      continue;
    }
    if (call.answer === null) continue;
    const recorded = JSON.parse(JSON.stringify(call.answer).split(log.sandbox.origin).join(sandboxUrl)) as unknown;
    const text = answered.body.toString('utf8');
    let now: unknown = text;
    try {
      now = JSON.parse(text);
    } catch {
      // A text answer is compared as text.
    }
    for (const difference of differences(recorded, now, '$')) problems.push(`${what}: ${difference}`);
  }
  if (problems.length > 0) throw new Error(`The sandbox no longer answers this fixture's calls as it did:\n${problems.slice(0, 20).join('\n')}`);
}

/** Every value of `recorded` that `now` does not have the same, times left out (they differ by the milliseconds a call took). */
function differences(recorded: unknown, now: unknown, at: string): string[] {
  if (isTime(recorded) || at.endsWith('.trace_id')) return [];
  if (Array.isArray(recorded)) {
    if (!Array.isArray(now)) return [`${at} is no longer a list`];
    return recorded.flatMap((item, i) => differences(item, now[i], `${at}[${i}]`));
  }
  if (recorded !== null && typeof recorded === 'object') {
    if (now === null || typeof now !== 'object' || Array.isArray(now)) return [`${at} is no longer an object`];
    return Object.entries(recorded).flatMap(([key, value]) => differences(value, (now as Record<string, unknown>)[key], `${at}.${key}`));
  }
  return Object.is(recorded, now) ? [] : [`${at} was ${JSON.stringify(recorded)}, now ${JSON.stringify(now)}`];
}

/** A date-time, or a moment in epoch milliseconds. */
function isTime(value: unknown): boolean {
  if (typeof value === 'number') return value > 1e12;
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value) && !Number.isNaN(Date.parse(value));
}
