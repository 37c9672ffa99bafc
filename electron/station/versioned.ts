// Sealed records that survive an upgrade. What the station seals (workflows, journal calls,
// looked-up patients) cannot be migrated by SQL, so each record carries the version of its shape
// and is read through the schema of that version, then upgraded one step at a time to the current
// one; nothing read back is cast. A record that fails is not the station's to guess at: the reader
// answers why, and the caller sets it aside (quarantine.ts).
//
// Records sealed before versions existed (up to 2026-11-28) carry none: they are version 1.
import { z } from 'zod';

/** The reasons a stored record is not read: a newer station wrote it, or it is not what its version says. */
export type Unread = { readonly reason: 'newer'; readonly detail: string } | { readonly reason: 'invalid'; readonly detail: string };

export type ReadOutcome<T> = { readonly ok: true; readonly value: T; readonly version: number } | ({ readonly ok: false } & Unread);

/** A record's shapes, oldest first, with the step from each to the next. */
export interface RecordHistory<T> {
  /** The version records are written in now. */
  readonly current: number;
  /** Reads a record of `version`, upgraded to the current shape. */
  read(version: number, value: unknown): ReadOutcome<T>;
  /** The record as it is about to be written: the current schema's answer (a value it refuses is a bug here, not data). */
  check(value: unknown): T;
  /** The next version: its schema and the step from the current one's records to it. */
  then<S extends z.ZodType>(schema: S, upgrade: (previous: T) => z.input<S>): RecordHistory<z.output<S>>;
}

interface Step {
  readonly schema: z.ZodType;
  /** From the previous version's parsed record; absent for version 1. */
  readonly upgrade: ((previous: unknown) => unknown) | undefined;
}

/** A record's history, starting with version 1. */
export function versioned<S extends z.ZodType>(first: S): RecordHistory<z.output<S>> {
  return historyOf<z.output<S>>([{ schema: first, upgrade: undefined }]);
}

function historyOf<T>(steps: readonly Step[]): RecordHistory<T> {
  const current = steps.length;
  const parse = (index: number, value: unknown): z.ZodSafeParseResult<unknown> => steps[index]!.schema.safeParse(value);
  return {
    current,
    read(version, value) {
      if (!Number.isInteger(version) || version < 1) return { ok: false, reason: 'invalid', detail: `version ${String(version)} is not a version` };
      if (version > current) return { ok: false, reason: 'newer', detail: `version ${version}; this station reads up to ${current}` };
      let parsed = parse(version - 1, value);
      if (!parsed.success) return { ok: false, reason: 'invalid', detail: `not version ${version}: ${issuesOf(parsed.error)}` };
      for (let next = version; next < current; next += 1) {
        const upgraded = steps[next]!.upgrade!(parsed.data);
        parsed = parse(next, upgraded);
        if (!parsed.success) return { ok: false, reason: 'invalid', detail: `upgraded to version ${next + 1}, not that version: ${issuesOf(parsed.error)}` };
      }
      return { ok: true, value: parsed.data as T, version };
    },
    check(value) {
      const parsed = parse(current - 1, value);
      if (!parsed.success) throw new Error(`A record about to be written is not version ${current} of its shape: ${issuesOf(parsed.error)}`);
      return parsed.data as T;
    },
    then(schema, upgrade) {
      return historyOf([...steps, { schema, upgrade: upgrade as (previous: unknown) => unknown }]);
    },
  };
}

/** Where a record failed and how, never what it held: a record's values may be secrets. */
export function issuesOf(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length === 0 ? '(record)' : issue.path.join('.')}: ${issue.code}${issue.code === 'unrecognized_keys' ? ` ${issue.keys.join(', ')}` : ''}`)
    .join('; ')
    .slice(0, 500);
}

/** How a record is kept: its shape's version beside it, both sealed together. */
const envelope = z.strictObject({ version: z.number(), record: z.unknown() });

/** The record and the version it is in, to seal. */
export function envelopeOf(version: number, record: unknown): { version: number; record: unknown } {
  return { version, record };
}

/** What a sealed payload holds: an envelope, or a record sealed before versions (version 1). */
export function unwrap(payload: unknown): { version: number; record: unknown } {
  const wrapped = envelope.safeParse(payload);
  return wrapped.success ? { version: wrapped.data.version, record: wrapped.data.record } : { version: 1, record: payload };
}
