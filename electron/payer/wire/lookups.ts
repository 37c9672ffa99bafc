// Registry look-ups (facilities, professionals, terminology, bed occupancy) and the shared health
// record. Their responses are barely documented: what is known is typed, the rest is kept as JSON.
import { z } from 'zod';
import { isRecord, jsonValue, list, nonEmpty, oneOrMany, optionalNumber, optionalText, record, type JsonValue } from './common';

export const facilitySearchQuery = z
  .strictObject({ identifier: nonEmpty.optional(), identifier_type: nonEmpty.optional(), name: nonEmpty.optional() })
  .superRefine((v, ctx) => {
    if (v.identifier === undefined && v.name === undefined) ctx.addIssue({ code: 'custom', path: ['name'], message: 'give name or identifier' });
    if (v.identifier_type !== undefined && v.identifier === undefined) {
      ctx.addIssue({ code: 'custom', path: ['identifier'], message: 'identifier_type needs an identifier' });
    }
  });

export interface Facility {
  readonly code: string | undefined;
  readonly name: string | undefined;
  readonly level: string | undefined;
  readonly raw: Record<string, JsonValue>;
}

const facility = record.transform((f): Facility => {
  const pick = (...keys: string[]) => {
    for (const k of keys) {
      const v = f[k];
      if (typeof v === 'string' || typeof v === 'number') return String(v);
    }
    return undefined;
  };
  return {
    code: pick('fr_code', 'facility_code', 'code', 'identifier', 'id'),
    name: pick('name', 'facility_name', 'official_name'),
    level: pick('level', 'keph_level', 'kephLevel'),
    raw: f,
  };
});

export const facilitySearchResponse = oneOrMany(facility);

export const professionalsQuery = z.strictObject({
  identification_number: nonEmpty,
  identification_type: nonEmpty,
  /** Upper-case on the wire (KMPDC, COC, NCK); upper-cased before sending. */
  regulator: nonEmpty,
});

/** `{message: …}` [doc]: the professional's record or a sentence; kept as sent. */
export const professionalsResponse = jsonValue.transform((body) => ({
  message: isRecord(body) && body.message !== undefined ? body.message : body,
}));

export const conceptsQuery = z.strictObject({
  search: nonEmpty,
  owner: nonEmpty.optional(),
  source: nonEmpty.optional(),
  limit: z.number().int().min(1).max(100).optional(),
  offset: z.number().int().min(0).optional(),
});

/** Response [?]: any JSON, unchanged. */
export const conceptsResponse = jsonValue;

export const bedOccupancyQuery = z.strictObject({ facility_code: nonEmpty });

export interface BedOccupancy {
  readonly name: string | undefined;
  readonly level: string | undefined;
  readonly occupancyRate: Record<string, JsonValue>;
  readonly raw: JsonValue;
}

const occupancyFields = z.looseObject({ name: optionalText, bp_level: optionalText, bed_occupancy_rate: record.nullish() });

const occupancy = record.transform((raw, ctx): BedOccupancy => {
  const fields = occupancyFields.safeParse(raw);
  if (fields.success) {
    const o = fields.data;
    return { name: o.name, level: o.bp_level, occupancyRate: o.bed_occupancy_rate ?? {}, raw };
  }
  for (const issue of fields.error.issues) ctx.addIssue({ code: 'custom', path: [...issue.path], message: issue.message, input: raw });
  return z.NEVER;
});

/** One object per facility or per bed type/ward: always a list. */
export const bedOccupancyResponse = oneOrMany(occupancy);

// ---------------------------------------------------------------- shared health record

export const observationsQuery = z.strictObject({
  subject: nonEmpty,
  /** Sent as X-Consent-Token. */
  consent_token: nonEmpty,
  /** Sent as X-PUID. */
  puid: nonEmpty.optional(),
});

export const serviceRequestsQuery = z
  .strictObject({
    performer_organization: nonEmpty.optional(),
    requester_organization: nonEmpty.optional(),
    status: nonEmpty.optional(),
    count: z.number().int().min(1).max(100).optional(),
    page_token: nonEmpty.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.performer_organization === undefined && v.requester_organization === undefined) {
      ctx.addIssue({ code: 'custom', path: ['performer_organization'], message: 'give performer_organization or requester_organization' });
    }
  });

export interface FhirBundle {
  readonly total: number | undefined;
  readonly resources: Record<string, JsonValue>[];
  /** The `next` link's page token, when there is a next page. */
  readonly next: string | undefined;
}

export const bundleResponse = z
  .looseObject({
    resourceType: z.literal('Bundle'),
    total: optionalNumber,
    entry: list(z.looseObject({ resource: record })),
    link: list(z.looseObject({ relation: optionalText, url: optionalText })),
  })
  .transform(
    (b): FhirBundle => ({
      total: b.total,
      resources: b.entry.map((e) => e.resource),
      next: b.link.find((l) => l.relation === 'next')?.url,
    }),
  );

export const securityLabelsQuery = z.strictObject({});

export interface SecurityLabel {
  readonly system: string | undefined;
  readonly code: string;
  readonly display: string | undefined;
}

const label = z.union([
  z.string().transform((code): SecurityLabel => ({ system: undefined, code, display: undefined })),
  z
    .looseObject({ system: optionalText, code: z.union([z.string(), z.number()]).transform(String), display: optionalText })
    .transform((l): SecurityLabel => ({ system: l.system, code: l.code, display: l.display })),
]);

/** A list of codings, `{results}`, or a FHIR ValueSet/CodeSystem-ish `{concept: [...]}`. */
export const securityLabelsResponse = z.unknown().transform((body, ctx): SecurityLabel[] => {
  const key = isRecord(body) ? ['concept', 'results', 'labels', 'codes'].find((k) => body[k] !== undefined) : undefined;
  const candidates = isRecord(body) ? (key === undefined ? undefined : body[key]) : body;
  const parsed = z.array(label).safeParse(candidates);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) {
    ctx.addIssue({ code: 'custom', path: [...(key === undefined ? [] : [key]), ...issue.path], message: issue.message, input: body });
  }
  return z.NEVER;
});
