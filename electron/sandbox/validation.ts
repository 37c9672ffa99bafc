// Request validation with zod: every route parses its input through `parse`, so a bad request is
// always a 400 VALIDATION_ERROR naming each offending field.
import { z } from 'zod';
import { identificationTypes, practitionerIdentificationTypes, regulationBodies, serviceTypes } from '../vocabulary';
import { fail, type FieldProblem } from './errors';

export function parse<T extends z.ZodType>(schema: T, input: unknown, where = 'body'): z.output<T> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const problems: FieldProblem[] = result.error.issues.map((issue) => ({
    field: issue.path.length > 0 ? issue.path.map(String).join('.') : where,
    message: issue.message,
  }));
  throw fail.validation(problems);
}

export const text = z.string().trim().min(1, 'must not be empty').max(500, 'at most 500 characters');
export const optionalText = z.string().trim().max(2000, 'at most 2000 characters').optional();

/** Identification types the live service accepts [1x]. */
export const identificationType = z.enum(identificationTypes);

/**
 * Doctor identification type and regulator: the contract gives examples (registration_number,
 * National ID, Alien ID, Refugee ID; KMPDC, COC, NCK), not an enumeration, so any value is taken and
 * the professionals registry decides (422 PROFESSIONAL_NOT_FOUND).
 */
export const practitionerIdType = z.string().trim().min(1, 'must not be empty').max(50);
export const regulator = z.string().trim().min(1, 'must not be empty').max(20);

/**
 * Where the portal lists the allowed values (emergency claims, doctor consent): only these; the
 * live service refuses others ("is not a valid choice", R WORKFLOWS and `create_dispense()`).
 */
export const listedPractitionerIdType = z.enum(practitionerIdentificationTypes);
export const listedRegulator = z.enum(regulationBodies);

export const serviceType = z.enum(serviceTypes);


export const money = z.coerce.number().finite().nonnegative('must not be negative').max(100_000_000);

/** `["SHA-02-001"]` or `[{intervention_code: "SHA-02-001"}]` / `[{code: …}]`, normalised to codes. */
export const interventionList = z
  .array(
    z.union([
      text,
      z.object({ intervention_code: text }).transform((o) => o.intervention_code),
      z.object({ code: text }).transform((o) => o.code),
    ]),
  )
  .min(1, 'at least one intervention');

/** Bodies and queries that name a consent only; and the removal of a doctor from a preauth or prescription. */
export const byConsentToken = z.object({ consent_token: text });
export const doctorRemoval = z.object({ consent_token: text, intervention_code: text, practitioner_registration_number: text });

export const diagnosis = z.object({
  code: text,
  name: z.string().trim().max(500).optional(),
});

/** Values that arrive as strings from multipart forms and as JSON values elsewhere. */
export const jsonField = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => {
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }, schema);

export interface Practitioner {
  readonly identification_type: string;
  readonly identification_number: string;
  readonly regulation_body: string;
}

/** The three practitioner_* fields: all three together or none. */
export function practitionerFrom(body: {
  practitioner_identification_type?: string | undefined;
  practitioner_identification_number?: string | undefined;
  practitioner_regulation_body?: string | undefined;
}): Practitioner | null {
  const fields = {
    practitioner_identification_type: body.practitioner_identification_type,
    practitioner_identification_number: body.practitioner_identification_number,
    practitioner_regulation_body: body.practitioner_regulation_body,
  };
  const present = Object.entries(fields).filter(([, v]) => v !== undefined);
  if (present.length === 0) return null;
  if (present.length < 3) {
    throw fail.validation(
      Object.entries(fields)
        .filter(([, v]) => v === undefined)
        .map(([field]) => ({ field, message: 'the three practitioner_* fields come together' })),
    );
  }
  return {
    identification_type: fields.practitioner_identification_type ?? '',
    identification_number: fields.practitioner_identification_number ?? '',
    regulation_body: fields.practitioner_regulation_body ?? '',
  };
}

export const practitionerFields = {
  practitioner_identification_type: practitionerIdType.optional(),
  practitioner_identification_number: text.optional(),
  practitioner_regulation_body: regulator.optional(),
};

export const pageQuery = z.object({
  page: z.coerce.number().int('must be an integer').min(1, 'pages start at 1').default(1),
  pageSize: z.coerce.number().int('must be an integer').min(1, 'at least 1').max(100, 'at most 100').default(20),
});

export interface Page<T> {
  count: number;
  currentPage: number;
  endIndex: number;
  next: string | null;
  pageSize: number;
  previous: string | null;
  results: T[];
  startIndex: number;
  totalPages: number;
}

/**
 * One page of `items`. `next`/`previous` are absolute URLs of the neighbouring pages (null at the
 * ends); `startIndex`/`endIndex` are 1-based positions of the first and last item shown (0 when
 * the page is empty).
 */
export function paginate<T>(items: readonly T[], query: { page: number; pageSize: number }, pageUrl: URL): Page<T> {
  const { page, pageSize } = query;
  const totalPages = Math.max(1, Math.ceil(items.length / pageSize));
  const start = (page - 1) * pageSize;
  const results = items.slice(start, start + pageSize);
  const link = (p: number): string => {
    const url = new URL(pageUrl);
    url.searchParams.set('page', String(p));
    url.searchParams.set('pageSize', String(pageSize));
    return url.toString();
  };
  return {
    count: items.length,
    currentPage: page,
    endIndex: results.length === 0 ? 0 : start + results.length,
    next: page < totalPages ? link(page + 1) : null,
    pageSize,
    previous: page > 1 ? link(Math.min(page - 1, totalPages)) : null,
    results,
    startIndex: results.length === 0 ? 0 : start + 1,
    totalPages,
  };
}

/** An OTP as typed by a nurse: digits, sent as a string or a number. */
export const otpField = z
  .union([z.string(), z.number().int().nonnegative()])
  .transform((v) => String(v).trim())
  .pipe(z.string().regex(/^\d{4,8}$/, 'an OTP is 4 to 8 digits'));
