// Building blocks of the wire schemas. Responses are read leniently (numbers for strings, "true"
// for true, null for absent, extra fields ignored) because the live exchange is inconsistent;
// requests are written strictly (unknown fields refused, enumerations enforced) because the
// contract is what we promise to send.
import { z } from 'zod';
import { identificationTypes, practitionerIdentificationTypes, regulationBodies, serviceTypes } from '../../vocabulary';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** JSON as JSON.parse makes it: finite numbers, strings, booleans, null, arrays and plain objects of them. */
function isJson(value: unknown): value is JsonValue {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object':
      if (value === null) return true;
      if (Array.isArray(value)) return value.every(isJson);
      return isJsonObject(value);
    default:
      return false;
  }
}

function isJsonObject(value: unknown): value is Record<string, JsonValue> {
  if (!isPlainObject(value)) return false;
  for (const key of Object.keys(value)) if (!isJson(value[key])) return false;
  return true;
}

/**
 * Any JSON value, passed through unchanged. A hand-written check rather than a recursive zod
 * union: pass-through JSON (facility contracts, FHIR bundles, free-form records) sits inside hot
 * answers such as eligibility, and a lazy union re-parsed every nested value through six options.
 */
export const jsonValue: z.ZodType<JsonValue> = z.custom<JsonValue>(isJson, 'expected a JSON value');

// ---------------------------------------------------------------- lenient reading of responses

/** Absent and null are the same thing on the way in. */
export function optional<T extends z.ZodType>(schema: T) {
  return schema.nullish().transform((value): z.output<T> | undefined => value ?? undefined);
}

const unreadable: unique symbol = Symbol('unreadable');

/**
 * A leaf of an answer (text, number, flag, status) read in one step: checked and converted by one
 * function. An answer such as eligibility has dozens of leaves; zod's union → transform → nullish
 * → transform chain per leaf was most of the client's cost per call (bench: client_overhead_ratio).
 */
function leaf<T>(expected: string, read: (value: unknown) => T | typeof unreadable) {
  return z.transform((value: unknown, ctx): T => {
    const out = read(value);
    if (out !== unreadable) return out;
    ctx.addIssue({ code: 'custom', message: `expected ${expected}`, input: value });
    return z.NEVER;
  });
}

/** The same leaf where absent and null both mean "not sent". */
function optionalLeaf<T>(expected: string, read: (value: unknown) => T | typeof unreadable) {
  return leaf<T | undefined>(expected, (value) => (value === undefined || value === null ? undefined : read(value)));
}

const readText = (value: unknown): string | typeof unreadable =>
  typeof value === 'string' ? value : typeof value === 'number' && Number.isFinite(value) ? String(value) : unreadable;

/** Identifiers and codes: some services send numbers where strings are documented. */
export const text = leaf('text', readText);
export const optionalText = optionalLeaf('text', readText);

const numeric = /^\s*-?\d+(\.\d+)?\s*$/;
const readNumber = (value: unknown): number | typeof unreadable =>
  typeof value === 'number' ? (Number.isFinite(value) ? value : unreadable) : typeof value === 'string' && numeric.test(value) ? Number(value) : unreadable;

/** Amounts and counts: a number, or a string holding one. */
export const number = leaf('a number', readNumber);
export const optionalNumber = optionalLeaf('a number', readNumber);

// A Map, not an object literal: looking up "constructor" or "__proto__" must find nothing.
const booleanWords = new Map<string, boolean>([
  ['true', true],
  ['false', false],
  ['1', true],
  ['0', false],
  ['yes', true],
  ['no', false],
  ['y', true],
  ['n', false],
]);
const readBoolean = (value: unknown): boolean | typeof unreadable => {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value === 'string') return booleanWords.get(value.trim().toLowerCase()) ?? unreadable;
  return unreadable;
};

/** Flags: true/false, 1/0, "true"/"false", "Y"/"N". */
export const boolean = leaf('a yes/no flag', readBoolean);
export const optionalBoolean = optionalLeaf('a yes/no flag', readBoolean);

/** A list that may be absent (read as empty). */
export function list<T extends z.ZodType>(item: T) {
  return z
    .array(item)
    .nullish()
    .transform((value): z.output<T>[] => value ?? []);
}

/** A free-form object we pass through without interpreting it. */
export const record: z.ZodType<Record<string, JsonValue>> = z.custom<Record<string, JsonValue>>(isJsonObject, 'expected a JSON object');
export const optionalRecord = optional(record);

/** Upper-case with single underscores: "Fee for Service" → FEE_FOR_SERVICE, "per-diem" → PER_DIEM. */
export function canonicalWord(value: string): string {
  return value
    .trim()
    .toUpperCase()
    .replace(/[\s\-/]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_|_$/g, '');
}

/** A status or enumeration value, canonicalised; unknown values pass through so the caller sees them. */
const readStatus = (value: unknown): string | typeof unreadable => (typeof value === 'string' ? canonicalWord(value) : unreadable);
export const status = leaf('a status word', readStatus);
export const optionalStatus = optionalLeaf('a status word', readStatus);

/** An intervention reference that may be a bare code or an object carrying one. */
export const interventionRef = z.union([
  z.string(),
  z
    .looseObject({ intervention_code: optionalText, code: optionalText, interventionCode: optionalText })
    .refine((o) => (o.intervention_code ?? o.interventionCode ?? o.code) !== undefined, 'expected an intervention code')
    .transform((o) => String(o.intervention_code ?? o.interventionCode ?? o.code)),
]);

/** A diagnosis reference that may be a bare ICD code or an object carrying one. */
export const diagnosisRef = z.union([
  z.string(),
  z
    .looseObject({ code: optionalText, icd_code: optionalText })
    .refine((d) => (d.code ?? d.icd_code) !== undefined, 'diagnosis without code')
    .transform((d) => String(d.code ?? d.icd_code)),
]);

/**
 * Chooses a schema by the shape of the value, so a failure reports the path inside the chosen
 * shape (a plain union would report only "no variant matched" at the root).
 */
export function byShape<T>(choose: (value: unknown) => z.ZodType<T>): z.ZodType<T> {
  return z.unknown().transform((value, ctx): T => {
    const result = choose(value).safeParse(value);
    if (result.success) return result.data;
    for (const issue of result.error.issues) {
      ctx.addIssue({ code: 'custom', message: issue.message, path: [...issue.path], input: value });
    }
    return z.NEVER;
  });
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export interface Page<T> {
  readonly items: T[];
  /** Total number of entries across pages, when the exchange says. */
  readonly count: number;
  readonly page: number;
  readonly pageSize: number;
  readonly totalPages: number;
  readonly hasNext: boolean;
}

/**
 * A page `{count, currentPage, pageSize, totalPages, next, previous, results[]}`, or a bare array
 * (one page of the docs shows lists that way): both become a Page.
 */
export function pageOf<T extends z.ZodType>(item: T): z.ZodType<Page<z.output<T>>> {
  const bare = z.array(item).transform(
    (items): Page<z.output<T>> => ({ items, count: items.length, page: 1, pageSize: items.length, totalPages: 1, hasNext: false }),
  );
  const paged = z
    .looseObject({
      count: optionalNumber,
      currentPage: optionalNumber,
      pageSize: optionalNumber,
      totalPages: optionalNumber,
      next: z.unknown().optional(),
      results: z.array(item),
    })
    .transform((p): Page<z.output<T>> => {
      const page = p.currentPage ?? 1;
      const totalPages = p.totalPages ?? 1;
      return {
        items: p.results,
        count: p.count ?? p.results.length,
        page,
        pageSize: p.pageSize ?? p.results.length,
        totalPages,
        hasNext: (p.next !== undefined && p.next !== null && p.next !== '') || page < totalPages,
      };
    });
  return byShape((value) => (Array.isArray(value) ? bare : paged));
}

/** `[x]`, `{results: [x]}` or one `x` become a list. */
export function oneOrMany<T extends z.ZodType>(item: T): z.ZodType<z.output<T>[]> {
  const many = z.array(item);
  const results = z.looseObject({ results: z.array(item) }).transform((r) => r.results);
  const one = item.transform((x) => [x]);
  return byShape((value) => (Array.isArray(value) ? many : isRecord(value) && Array.isArray(value.results) ? results : one));
}

/**
 * Answers that only confirm (empty, a string, `{message}`, `{message, data}`): any 2xx body is a
 * success; its message, when there is one, is kept for the nurse.
 */
export const confirmation = z.unknown().transform((body): Confirmation => {
  if (typeof body === 'string') return { message: body.trim() === '' ? undefined : body };
  if (isRecord(body) && typeof body.message === 'string') return { message: body.message };
  return { message: undefined };
});

export interface Confirmation {
  readonly message: string | undefined;
}

// ---------------------------------------------------------------- strict writing of requests

export const nonEmpty = z.string().trim().min(1, 'must not be empty');

const isoDatePattern = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** A real calendar day (no 2025-02-30), with an optional time of day that exists (no 24:00). */
function isIsoDate(value: string): boolean {
  const m = isoDatePattern.exec(value);
  if (m === null) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map((part) => (part === undefined ? 0 : Number(part))) as [number, number, number, number, number, number];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth && hour < 24 && minute < 60 && second < 60;
}

/**
 * Dates on the wire are ISO 8601: a day (2025-07-01) or a day and time (2025-07-01T08:30:00Z).
 * The exchange reads nothing else ("01/07/2025" is refused there), so the client refuses it first.
 */
export const isoDate = z.string().trim().refine(isIsoDate, 'an ISO 8601 date such as 2025-07-01 (or 2025-07-01T08:30:00+03:00)');
export const amount = z.number().finite().nonnegative();

/** A one-time PIN as the patient or doctor reads it from the SMS. */
export const otpDigits = z.string().regex(/^\d{4,8}$/, 'an OTP is 4 to 8 digits');

export const identificationType = z.enum(identificationTypes);

/** Pages are 1-based; pageSize 1..100 (docs/exchange-wire.md). */
export const pageQuery = {
  page: z.number().int().min(1).optional(),
  pageSize: z.number().int().min(1).max(100).optional(),
};

export const serviceType = z.enum(serviceTypes);

export const diagnosis = z.strictObject({ code: nonEmpty, name: z.string().optional() });

/** A file to upload: its bytes, its name and its media type. */
export const fileInput = z.strictObject({
  file_name: nonEmpty,
  content_type: nonEmpty,
  data: z.instanceof(Uint8Array),
});
export type FileInput = z.input<typeof fileInput>;

type Issues = { addIssue: (issue: { code: 'custom'; message: string; path: (string | number)[]; input?: unknown }) => void };

/**
 * The attending doctor is identified by three fields that travel together: all three or none.
 * Names the first missing field so the refusal points at it.
 */
export function requireAllOrNone(value: Record<string, unknown>, fields: readonly string[], ctx: Issues, what: string): void {
  const given = fields.filter((f) => value[f] !== undefined);
  if (given.length === 0 || given.length === fields.length) return;
  const missing = fields.filter((f) => value[f] === undefined);
  for (const field of missing) {
    ctx.addIssue({ code: 'custom', path: [field], message: `${what}: give ${fields.join(', ')} together (missing ${field})` });
  }
}

/** Exactly one of the fields: names the second when both are given, the first when none is. */
export function requireExactlyOne(value: Record<string, unknown>, fields: readonly string[], ctx: Issues, what: string): void {
  const given = fields.filter((f) => value[f] !== undefined);
  if (given.length === 1) return;
  const field = given.length === 0 ? fields[0] : given[1];
  ctx.addIssue({
    code: 'custom',
    path: [field ?? fields.join('|')],
    message: `${what}: give exactly one of ${fields.join(', ')} (${given.length === 0 ? 'none' : given.join(' and ')} given)`,
  });
}

export const practitionerFields = [
  'practitioner_identification_type',
  'practitioner_identification_number',
  'practitioner_regulation_body',
] as const;

/** The attending practitioner on visits, lines and preauths: three fields, all or none. */
export const practitioner = {
  practitioner_identification_type: nonEmpty.optional(),
  practitioner_identification_number: nonEmpty.optional(),
  practitioner_regulation_body: nonEmpty.optional(),
};

export const doctorFields = ['identification_number', 'identification_type', 'regulation_body'] as const;

// ---------------------------------------------------------------- practitioners (preauth, emergency, doctor consent, prescriptions)

export const practitionerIdentificationType = z.enum(practitionerIdentificationTypes);

export const regulationBody = z.enum(regulationBodies);

/** A practitioner by the three fields every doctor-carrying request of the exchange uses. */
export const practitionerRef = {
  identification_number: nonEmpty,
  identification_type: practitionerIdentificationType,
  regulation_body: regulationBody,
};

/** Money written as the multipart forms carry it: "85000.00" (A pre-auth types, R `as_wire()`). */
export function decimalText(value: number): string {
  return value.toFixed(2);
}

const offsetPattern = /T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** An RFC 3339 date-time with its offset, e.g. 2026-03-05T15:30:00+03:00: a day alone is refused. */
export const rfc3339DateTime = z
  .string()
  .trim()
  .refine((value) => isIsoDate(value) && offsetPattern.test(value), 'an RFC 3339 date-time with its offset, such as 2026-03-05T08:00:00+03:00');

/**
 * Top-level snake_case keys of an answer rewritten in camelCase (`intervention_code` →
 * `interventionCode`), for answers the portal documents in camelCase and a peer reads in both
 * spellings (R's WireModel: `alias_generator=to_camel, populate_by_name`). A camelCase key wins.
 */
export function camelCaseKeys(value: unknown): unknown {
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const camel = key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
    if (camel === key || !(camel in value)) out[camel] = v;
  }
  return out;
}
