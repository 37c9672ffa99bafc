// Registry look-ups (facilities, professionals, terminology, bed occupancy) and the shared health
// record (docs/exchange-wire.md, "Registry look-ups" and "Shared health record"). What the sources
// show is typed; FHIR bundles and the rest of a record are kept as JSON.
import { z } from 'zod';
import { facilityIdentifierTypes, registryRegulators as regulators, serviceRequestStatuses } from '../../vocabulary';
import {
  isRecord,
  jsonValue,
  list,
  nonEmpty,
  optional,
  optionalBoolean,
  optionalNumber,
  optionalText,
  record,
  type JsonValue,
} from './common';

/** Reads `schema` out of a JSON object and keeps the object whole beside what was read. */
function withRaw<T, O>(schema: z.ZodType<T>, build: (value: T, raw: Record<string, JsonValue>) => O): z.ZodType<O> {
  return record.transform((raw, ctx): O => {
    const parsed = schema.safeParse(raw);
    if (parsed.success) return build(parsed.data, raw);
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: [...issue.path], message: issue.message, input: raw });
    return z.NEVER;
  });
}

// ---------------------------------------------------------------- facilities


export const facilitySearchQuery = z
  .strictObject({ identifier: nonEmpty.optional(), identifier_type: z.enum(facilityIdentifierTypes).optional(), name: nonEmpty.optional() })
  .superRefine((v, ctx) => {
    // The exchange answers 400 "at least one facility search parameter is expected" (R).
    if (v.identifier === undefined && v.name === undefined) ctx.addIssue({ code: 'custom', path: ['name'], message: 'give name or identifier' });
    if (v.identifier_type !== undefined && v.identifier === undefined) {
      ctx.addIssue({ code: 'custom', path: ['identifier'], message: 'identifier_type needs an identifier' });
    }
  });

export interface Facility {
  /** The facility registry code (`frCode`). */
  readonly code: string;
  readonly name: string | undefined;
  /** `kephLevel`, e.g. "LEVEL 4" or "Level 6B". */
  readonly level: string | undefined;
  /** `SHAOperationStatus.operationalStatus`: SHA's view, which decides whether a referral is paid. */
  readonly shaOperationalStatus: string | undefined;
  /** `shaContractStatus`: empty on live rows, which means unknown, not "not contracted". */
  readonly shaContractStatus: string | undefined;
  readonly raw: Record<string, JsonValue>;
}

const operationalStatus = optional(z.looseObject({ operationalStatus: optionalText }));

// The code and the name under every spelling R has seen them (live rows: frCode, officialName).
const facility = withRaw(
  z
    .looseObject({
      frCode: optionalText,
      fr_code: optionalText,
      facilityCode: optionalText,
      facility_code: optionalText,
      code: optionalText,
      officialName: optionalText,
      official_name: optionalText,
      name: optionalText,
      facilityName: optionalText,
      facility_name: optionalText,
      kephLevel: optionalText,
      keph_level: optionalText,
      SHAOperationStatus: operationalStatus,
      shaContractStatus: optionalText,
    })
    .refine((f) => (f.frCode ?? f.fr_code ?? f.facilityCode ?? f.facility_code ?? f.code) !== undefined, {
      message: 'facility without its registry code (frCode)',
      path: ['frCode'],
    }),
  (f, raw): Facility => ({
    code: String(f.frCode ?? f.fr_code ?? f.facilityCode ?? f.facility_code ?? f.code),
    name: f.officialName ?? f.official_name ?? f.name ?? f.facilityName ?? f.facility_name,
    level: f.kephLevel ?? f.keph_level,
    shaOperationalStatus: f.SHAOperationStatus?.operationalStatus,
    shaContractStatus: f.shaContractStatus === '' ? undefined : f.shaContractStatus,
    raw,
  }),
);

const facilities = z.array(facility);

/**
 * A bare array (the live name search, R; A), one bare facility (the portal docs; an identifier
 * look-up, R), or a `results` / `data` wrapper (R: portal examples).
 */
export const facilitySearchResponse = z.unknown().transform((body, ctx): Facility[] => {
  const wrapped = isRecord(body) ? (['results', 'data'] as const).find((k) => Array.isArray(body[k]) || isRecord(body[k])) : undefined;
  let candidates: unknown = body;
  let path: (string | number)[] = [];
  if (wrapped !== undefined && isRecord(body)) {
    const inner = body[wrapped];
    candidates = isRecord(inner) && Array.isArray(inner.results) ? inner.results : inner;
    path = isRecord(inner) && Array.isArray(inner.results) ? [wrapped, 'results'] : [wrapped];
  }
  const parsed = facilities.safeParse(Array.isArray(candidates) ? candidates : [candidates]);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) {
    const inner = Array.isArray(candidates) ? issue.path : issue.path.slice(1);
    ctx.addIssue({ code: 'custom', path: [...path, ...inner], message: issue.message, input: body });
  }
  return z.NEVER;
});

// ---------------------------------------------------------------- professionals


export const professionalsQuery = z.strictObject({
  identification_number: nonEmpty,
  /** `registration_number` for a regulator's number (R); identity documents also exist. */
  identification_type: nonEmpty,
  /** Upper-case on the wire: UAT refused kmpdc and accepted KMPDC (R). Upper-cased before sending. */
  regulator: z
    .string()
    .trim()
    .transform((v) => v.toUpperCase())
    .pipe(z.enum(regulators, { error: `one of ${regulators.join(', ')}` })),
});

export interface ProfessionalLicence {
  readonly type: string | undefined;
  readonly start: string | undefined;
  readonly end: string | undefined;
}

export interface Professional {
  /** `membership.registration_id`: the regulator's number. */
  readonly registrationId: string | undefined;
  readonly fullName: string | undefined;
  readonly licensingBody: string | undefined;
  readonly specialty: string | undefined;
  /** `professional_details.professional_cadre` (A `ProfessionalDetails`): Medical Officer, Clinical Officer, … */
  readonly cadre: string | undefined;
  /** `membership.is_active` (0/1): undefined when not said. */
  readonly active: boolean | undefined;
  readonly status: string | undefined;
  readonly licences: ProfessionalLicence[];
  /** The registry's whole record (`message`), for what is not modelled. */
  readonly message: Record<string, JsonValue>;
}

const professional = withRaw(
  z.looseObject({
    membership: z.looseObject({
      registration_id: optionalText,
      full_name: optionalText,
      licensing_body: optionalText,
      specialty: optionalText,
      is_active: optionalBoolean,
      status: optionalText,
    }),
    licenses: list(z.looseObject({ license_type: optionalText, license_start: optionalText, license_end: optionalText })),
    professional_details: optional(z.looseObject({ professional_cadre: optionalText })),
  }),
  (p, raw): Professional => ({
    registrationId: p.membership.registration_id,
    fullName: p.membership.full_name,
    licensingBody: p.membership.licensing_body,
    specialty: p.membership.specialty,
    cadre: p.professional_details?.professional_cadre,
    active: p.membership.is_active,
    status: p.membership.status,
    licences: p.licenses.map((l) => ({ type: l.license_type, start: l.license_start, end: l.license_end })),
    message: raw,
  }),
);

/** `{message: {membership, licenses, professional_details, contacts, identifiers}}` (V docs; A's types). */
export const professionalsResponse = z.looseObject({ message: professional }).transform((b): Professional => b.message);

// ---------------------------------------------------------------- terminology

export const conceptsQuery = z.strictObject({
  search: nonEmpty,
  owner: nonEmpty.optional(),
  source: nonEmpty.optional(),
  limit: z.number().int().min(1).max(100).optional(),
  offset: z.number().int().min(0).optional(),
});

/** Response [?]: any JSON, unchanged. */
export const conceptsResponse = jsonValue;

export interface Concept {
  readonly code: string;
  readonly display: string | undefined;
}

const conceptEntry = z.looseObject({ code: optionalText, display: optionalText, name: optionalText, title: optionalText });

/**
 * The concepts an answer of the concept search holds, read as far as any source shows a list of
 * codes: a bare array (V's other `/clinical/*` searches: `[{code, display, system}]`) or one under
 * `results` / `data` (the sandbox's `{count, results}`, ours). An entry without a code is skipped;
 * an answer with no such list reads as none, since no source shows this answer.
 */
export function readConcepts(body: JsonValue): Concept[] {
  const list = Array.isArray(body) ? body : isRecord(body) ? ([body.results, body.data].find(Array.isArray) ?? []) : [];
  return list.flatMap((entry) => {
    const parsed = conceptEntry.safeParse(entry);
    if (!parsed.success || parsed.data.code === undefined) return [];
    return [{ code: parsed.data.code, display: parsed.data.display ?? parsed.data.title ?? parsed.data.name }];
  });
}

// ---------------------------------------------------------------- bed occupancy

export const bedOccupancyQuery = z.strictObject({ facility_code: nonEmpty });

export interface BedOccupancy {
  readonly name: string | undefined;
  /** `bp_level`. */
  readonly level: string | undefined;
  /** Bed counts; `total` can be 0 while the per-type counts are filled (R, UAT). */
  readonly beds: {
    readonly total: number | undefined;
    readonly normal: number | undefined;
    readonly icu: number | undefined;
    readonly hdu: number | undefined;
    readonly dialysis: number | undefined;
    readonly babyCots: number | undefined;
  };
  /** Current inpatient visits, by bed type. */
  readonly visits: {
    readonly inpatient: number | undefined;
    readonly normal: number | undefined;
    readonly icu: number | undefined;
    readonly hdu: number | undefined;
    readonly dialysis: number | undefined;
    readonly newborn: number | undefined;
  };
}

/** `{name, bp_level, bed_occupancy_rate{…}}` (R docs; A's types; R's schema); the counts are the answer. */
export const bedOccupancyResponse = z
  .looseObject({
    name: optionalText,
    bp_level: optionalText,
    bed_occupancy_rate: z.looseObject({
      total_number_of_bed: optionalNumber,
      number_of_normal_bed: optionalNumber,
      number_of_icu_bed: optionalNumber,
      number_of_hdu_bed: optionalNumber,
      number_of_dialysis_bed: optionalNumber,
      number_of_baby_cot: optionalNumber,
      total_ip_visits: optionalNumber,
      normal_ip_visits: optionalNumber,
      icu_visits: optionalNumber,
      hdu_visits: optionalNumber,
      dialysis_visits: optionalNumber,
      newborn_visits: optionalNumber,
    }),
  })
  .transform(({ name, bp_level, bed_occupancy_rate: r }): BedOccupancy => ({
    name,
    level: bp_level,
    beds: {
      total: r.total_number_of_bed,
      normal: r.number_of_normal_bed,
      icu: r.number_of_icu_bed,
      hdu: r.number_of_hdu_bed,
      dialysis: r.number_of_dialysis_bed,
      babyCots: r.number_of_baby_cot,
    },
    visits: {
      inpatient: r.total_ip_visits,
      normal: r.normal_ip_visits,
      icu: r.icu_visits,
      hdu: r.hdu_visits,
      dialysis: r.dialysis_visits,
      newborn: r.newborn_visits,
    },
  }));

// ---------------------------------------------------------------- shared health record

export const observationsQuery = z.strictObject({
  /** The patient's client registry id. */
  subject: nonEmpty,
  /** Sent as X-Consent-Token (required). */
  consent_token: nonEmpty,
  /** Sent as X-PUID, the practitioner's unique identifier (required on this endpoint only). */
  puid: nonEmpty,
  /** From the previous bundle's `next` link. */
  page_token: nonEmpty.optional(),
});


export const serviceRequestsQuery = z
  .strictObject({
    performer_organization: nonEmpty.optional(),
    requester_organization: nonEmpty.optional(),
    status: z.enum(serviceRequestStatuses).optional(),
    count: z.number().int().min(1).max(100).optional(),
    page_token: nonEmpty.optional(),
  })
  .superRefine((v, ctx) => {
    // The exchange takes neither (every referral it holds); no caller of the station means that.
    if (v.performer_organization === undefined && v.requester_organization === undefined) {
      ctx.addIssue({ code: 'custom', path: ['performer_organization'], message: 'give performer_organization or requester_organization' });
    }
  });

export interface FhirBundle {
  readonly total: number | undefined;
  readonly resources: Record<string, JsonValue>[];
  /** The `next` link, when there is a next page. */
  readonly next: string | undefined;
  /** The `page_token` of the `next` link: what the next call takes as `page_token`. */
  readonly nextPageToken: string | undefined;
}

function pageTokenOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    return new URL(url).searchParams.get('page_token') ?? undefined;
  } catch {
    return undefined;
  }
}

/** A FHIR `searchset` bundle, passed through (R docs; A and R keep it whole). */
export const bundleResponse = z
  .looseObject({
    resourceType: z.literal('Bundle'),
    total: optionalNumber,
    entry: list(z.looseObject({ resource: record })),
    link: list(z.looseObject({ relation: optionalText, url: optionalText })),
  })
  .transform((b): FhirBundle => {
    const next = b.link.find((l) => l.relation === 'next')?.url;
    return { total: b.total, resources: b.entry.map((e) => e.resource), next, nextPageToken: pageTokenOf(next) };
  });

export const securityLabelsQuery = z.strictObject({});

export interface SecurityLabel {
  readonly system: string | undefined;
  readonly code: string;
  readonly display: string | undefined;
  /** Confidentiality (v3-Confidentiality) or sensitivity (v3-ActCode), as the exchange words it. */
  readonly category: string | undefined;
}

// R has seen `code` also as `label` and `display` as `name`.
const label = z
  .looseObject({ code: optionalText, label: optionalText, display: optionalText, name: optionalText, system: optionalText, category: optionalText })
  .refine((l) => (l.code ?? l.label) !== undefined, { message: 'security label without code', path: ['code'] })
  .transform((l): SecurityLabel => ({ system: l.system, code: String(l.code ?? l.label), display: l.display ?? l.name, category: l.category }));

const labels = z.array(label);

/** A bare list, `{labels: […]}`, `{data: […]}` or `{data: {labels: […]}}` (all three seen, R). */
export const securityLabelsResponse = z.unknown().transform((body, ctx): SecurityLabel[] => {
  let path: string[] = [];
  let candidates: unknown = body;
  if (isRecord(body)) {
    if (body.labels !== undefined) path = ['labels'];
    else if (Array.isArray(body.data)) path = ['data'];
    else if (isRecord(body.data) && body.data.labels !== undefined) path = ['data', 'labels'];
    else path = ['labels'];
    candidates = path.reduce<unknown>((v, key) => (isRecord(v) ? v[key] : undefined), body);
  }
  const parsed = labels.safeParse(candidates);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: [...path, ...issue.path], message: issue.message, input: body });
  return z.NEVER;
});
