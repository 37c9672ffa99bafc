// Building blocks shared by every area of the station contract. Everything here is plain JSON:
// strings, finite numbers, booleans, null, arrays and closed objects, so a value survives Electron
// IPC (structured clone) and the browser host's JSON unchanged.
import { z } from 'zod';
import { identificationTypes } from '../vocabulary';

/**
 * An opaque handle minted by the station core. The prefix says what it stands for; the rest means
 * nothing to the renderer. Exchange tokens and guids are never used as handles.
 */
const opaque = (prefix: string) =>
  z.string().regex(new RegExp(`^${prefix}_[A-Za-z0-9_-]{6,64}$`), `must be a station ${prefix}_ handle`);

export const workflowId = opaque('wf');
/**
 * One patient (identification and facility) for as long as the station keeps its data: every
 * look-up of the same patient answers the same ref, so `workflow.list({patientRef})` after a fresh
 * look-up finds the patient's unfinished work (an elective waiting for its visit day).
 */
export const patientRef = opaque('pt');
/** Names one authorization link shown to the patient, so the renderer can reserve its area. */
export const linkHandle = opaque('lk');

export const timestamp = z.iso.datetime({ offset: true });
export const calendarDate = z.iso.date();

/** Kenyan shillings, in shillings (not cents). */
export const kes = z.number().min(0).max(1_000_000_000);

const text = (max: number) => z.string().max(max).regex(/\S/, 'must not be blank');
export const shortText = text(200);
export const longText = text(2000);

/** A value the station core has masked before it crossed the contract (names, phone numbers, ID numbers). */
export const masked = z.string().max(200).regex(/\*/, 'must be masked');

/** http(s) URL; the link shown to the patient and the exchange base URL. */
export const httpUrl = z.url({ protocol: /^https?$/ }).max(2000);

/**
 * A host name or IP literal. The URL parser also lets `*`, `;`, `,` and quotes through in a host
 * (`https://*` is an origin to it), and each of those means something else where the origins end
 * up: a wildcard or a new directive in a Content-Security-Policy.
 */
const PLAIN_HOST = /^(?:\[[0-9a-f:.]+\]|[a-z0-9-]+(?:\.[a-z0-9-]+)*)$/;

/** A bare origin (scheme://host[:port]) with a plain host; https, or http on the loopback for the sandbox. */
export const origin = z
  .string()
  .max(300)
  .refine((value) => {
    if (!URL.canParse(value)) return false;
    const url = new URL(value);
    if (url.origin !== value || !PLAIN_HOST.test(url.hostname)) return false;
    const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
    return url.protocol === 'https:' || (url.protocol === 'http:' && loopback);
  }, 'must be an origin such as https://payer.example.com (http only on the loopback)');

export const idType = z.enum(identificationTypes);
export const idNumber = z.string().regex(/^[A-Za-z0-9/-]{3,30}$/, 'must be 3 to 30 letters, digits, / or -');

/** The facility's invoice number for a claim. */
export const invoiceNumber = z.string().regex(/^[A-Za-z0-9/_-]{1,60}$/, 'must be 1 to 60 letters, digits, / _ or -');

export const serviceType = z.enum(['OUTPATIENT', 'INPATIENT']);
export const interventionCode = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be an intervention code such as SHA-01-001');

/** How an intervention is handled, recognised from its coverage flags (service-interface.md, "Scenarios"). */
export const scenario = z.enum(['capitation', 'elective-preauth', 'per-diem', 'emergency', 'other']);

/** A diagnosis by its ICD-11 code. */
export const diagnosis = z.strictObject({ code: z.string().regex(/^[A-Za-z0-9.&/-]{2,20}$/, 'must be an ICD-11 code'), name: shortText.optional() });

/**
 * The attending doctor: the exchange wants the three practitioner fields together or not at all,
 * so they travel as one object that is either present and complete, or absent.
 */
export const attendingDoctor = z.strictObject({
  identificationType: text(40),
  identificationNumber: z.string().regex(/^[A-Za-z0-9/-]{2,30}$/, 'must be 2 to 30 letters, digits, / or -'),
  regulationBody: z.string().regex(/^[A-Za-z]{2,20}$/, 'must be a regulator such as KMPDC, COC or NCK'),
});

export const patientBrief = z.strictObject({ patientRef, maskedName: masked });

export const interventionBrief = z.strictObject({ code: interventionCode, name: shortText, scenario });

/** Paging for the long lists (interventions, audit): `page` is 1-based. */
export const pageRequest = {
  page: z.number().int().min(1).optional(),
  pageSize: z.number().int().min(1).max(1000).optional(),
  search: z.string().max(100).optional(),
};

export const page = <T extends z.ZodType>(item: T) =>
  z.strictObject({
    items: z.array(item),
    page: z.number().int().min(1),
    pageSize: z.number().int().min(1),
    total: z.number().int().min(0),
    totalPages: z.number().int().min(0),
  });

export const noInput = z.strictObject({});

/** One row of a command table: what the renderer sends and what it gets back. */
export interface CommandSpec {
  input: z.ZodType;
  output: z.ZodType;
}
