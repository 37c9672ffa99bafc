// What the station hands the document maker: the visit as the station and SHA's preview know it,
// checked whole before a page is drawn. A document SHA receives is a record of money owed, so bad
// input is refused with the field that is wrong, never drawn half right.
import { z } from 'zod';
import { dischargeReasons, serviceTypes } from '../../vocabulary';

export const documentLanguages = ['en', 'sw'] as const;
export type DocumentLanguage = (typeof documentLanguages)[number];

/** The visit's service types as the exchange names them (`service_type`). */
export const documentServiceTypes = serviceTypes;
/** A discharge records why the patient left; DECEASED included (an inpatient discharge may record a death). */
export const documentDischargeReasons = dischargeReasons;

const instantPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
/** A moment with its offset, as the station and SHA write them: 2026-03-05T14:30:00+03:00. */
const instant = z
  .string()
  .regex(instantPattern, 'a date and time with its offset, such as 2026-03-05T14:30:00+03:00')
  .refine((v) => !Number.isNaN(Date.parse(v)), 'not a real date and time');
/** A day (a charge date, 2026-03-05) or a moment. */
const dayOrInstant = z.union([
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), 'not a real day'),
  instant,
]);

const label = (max: number) => z.string().trim().min(1, 'must not be empty').max(max, `at most ${max} characters`);

/** Shillings with at most two decimals: an amount the invoice can print to the cent. */
const shillings = z
  .number()
  .finite()
  .nonnegative('must not be negative')
  .max(100_000_000, 'larger than any claim line')
  .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, 'at most two decimals (cents)');

const service = z.strictObject({ code: label(40), name: label(300).nullable() });

const base = {
  language: z.enum(documentLanguages),
  /** The document's date, printed on it and stamped as its PDF creation date: the same input makes the same bytes. */
  issuedAt: instant,
  facility: z.strictObject({ name: label(200), code: label(40) }),
  invoiceNumber: label(60),
  patient: z.strictObject({ name: label(200), shaNumber: label(40).nullable() }),
  visit: z.strictObject({
    visitNumber: label(60).nullable(),
    serviceType: z.enum(documentServiceTypes),
    start: dayOrInstant,
    end: dayOrInstant.nullable(),
    /** The services of the claim that stand (retired ones left out: SHA deleted their lines). */
    services: z.array(service).min(1, 'a visit has at least one service').max(50),
  }),
  doctor: z.strictObject({ name: label(200).nullable(), registrationNumber: label(40), regulator: label(20) }).nullable(),
};

const line = z.strictObject({
  interventionCode: label(40),
  description: label(300),
  chargeDate: dayOrInstant.nullable(),
  quantity: z.number().finite().positive('must be more than 0').max(100_000),
  unitPriceKes: shillings,
  /** The line's total as SHA holds it (`line_total_amount`); unit price × quantity when SHA gave none. */
  amountKes: shillings.nullable(),
});

function startsBeforeEnd(v: { visit: { start: string; end: string | null } }, ctx: z.RefinementCtx): void {
  const start = Date.parse(v.visit.start.length === 10 ? `${v.visit.start}T00:00:00Z` : v.visit.start);
  const end = v.visit.end === null ? null : Date.parse(v.visit.end.length === 10 ? `${v.visit.end}T23:59:59Z` : v.visit.end);
  if (end !== null && end < start) ctx.addIssue({ code: 'custom', path: ['visit', 'end'], message: 'is before the visit started' });
}

function servicesKnown(v: { visit: { services: readonly { code: string }[] } }, codes: readonly { code: string; path: (string | number)[] }[], ctx: z.RefinementCtx): void {
  const known = new Set(v.visit.services.map((s) => s.code));
  for (const { code, path } of codes) {
    if (!known.has(code)) ctx.addIssue({ code: 'custom', path, message: `${code} is not a service of this visit (${[...known].join(', ')})` });
  }
}

export const invoiceInput = z
  .strictObject({ ...base, lines: z.array(line).min(1, 'an invoice needs at least one billing line').max(2000) })
  .superRefine((v, ctx) => {
    startsBeforeEnd(v, ctx);
    servicesKnown(v, v.lines.map((l, i) => ({ code: l.interventionCode, path: ['lines', i, 'interventionCode'] })), ctx);
  });

export const dischargeSummaryInput = z
  .strictObject({
    ...base,
    diagnoses: z
      .array(z.strictObject({ code: label(20), title: label(300).nullable(), interventionCode: label(40).nullable() }))
      .min(1, 'a discharge summary names at least one diagnosis')
      .max(100),
    discharge: z.strictObject({
      at: instant,
      reason: z.enum(documentDischargeReasons),
      referredTo: z.strictObject({ code: label(40), name: label(200) }).nullable(),
      notes: z.string().trim().max(2000).nullable(),
    }),
  })
  .superRefine((v, ctx) => {
    if (v.visit.serviceType !== 'INPATIENT') {
      ctx.addIssue({ code: 'custom', path: ['visit', 'serviceType'], message: `a discharge summary is made for an inpatient stay, not ${v.visit.serviceType}` });
    }
    if ((v.discharge.reason === 'REFERRED') !== (v.discharge.referredTo !== null)) {
      ctx.addIssue({ code: 'custom', path: ['discharge', 'referredTo'], message: 'names the destination exactly when the reason is REFERRED' });
    }
    if (Date.parse(v.discharge.at) < Date.parse(v.visit.start.length === 10 ? `${v.visit.start}T00:00:00Z` : v.visit.start)) {
      ctx.addIssue({ code: 'custom', path: ['discharge', 'at'], message: 'is before the admission' });
    }
    servicesKnown(
      v,
      v.diagnoses.flatMap((d, i) => (d.interventionCode === null ? [] : [{ code: d.interventionCode, path: ['diagnoses', i, 'interventionCode'] }])),
      ctx,
    );
  });

export type InvoiceInput = z.input<typeof invoiceInput>;
export type DischargeSummaryInput = z.input<typeof dischargeSummaryInput>;
export type CheckedInvoice = z.output<typeof invoiceInput>;
export type CheckedDischargeSummary = z.output<typeof dischargeSummaryInput>;

/** Input the maker refuses: `field` is its path (`lines.2.quantity`), the message says what is wrong. */
export class DocumentInputError extends Error {
  readonly field: string;
  constructor(field: string, message: string) {
    super(field === '' ? message : `${field}: ${message}`);
    this.name = 'DocumentInputError';
    this.field = field;
  }
}

export function checked<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const [issue] = result.error.issues;
  if (issue === undefined) throw new DocumentInputError('', 'not a document input');
  // An unknown key is named as the field itself, so the caller sees what it sent too many of.
  const path = issue.code === 'unrecognized_keys' ? [...issue.path, ...issue.keys.slice(0, 1)] : issue.path;
  throw new DocumentInputError(path.join('.'), issue.message);
}
