// Registry look-ups and the rest of the field notes' table: facilities, professionals, terminology,
// POMSF tariffs, bed occupancy and the shared health record (/shr/*).
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { iso } from '../clock';
import type { SandboxContext } from '../context';
import { fail } from '../errors';
import { requireInterventions, requirePatient } from '../state/consent';
import { header, tenantOf } from '../tenancy';
import { parse, practitionerIdType, regulator, text } from '../validation';
import { ICD11_CONCEPTS } from '../world/concepts';
import { FACILITIES, facilityByCode, type Facility } from '../world/facilities';
import { professionalName } from '../world/professionals';
import { requestUrl, requireProfessional } from './shared';

function facilityView(f: Facility) {
  return {
    id: f.code,
    facility_name: f.name,
    registration_number: f.code,
    fr_code: f.code,
    kmhfl_code: f.kmhflCode,
    level: f.level,
    keph_level: `Level ${f.level}`,
    facility_type: f.facilityType,
    ownership: f.ownership,
    county: f.county,
    sub_county: f.subCounty,
    operational_status: 'OPERATIONAL',
    biometrics_enforced: f.biometricsEnforced,
  };
}

const SECURITY_LABELS = [
  { system: 'http://terminology.hl7.org/CodeSystem/v3-Confidentiality', code: 'U', display: 'unrestricted' },
  { system: 'http://terminology.hl7.org/CodeSystem/v3-Confidentiality', code: 'L', display: 'low' },
  { system: 'http://terminology.hl7.org/CodeSystem/v3-Confidentiality', code: 'M', display: 'moderate' },
  { system: 'http://terminology.hl7.org/CodeSystem/v3-Confidentiality', code: 'N', display: 'normal' },
  { system: 'http://terminology.hl7.org/CodeSystem/v3-Confidentiality', code: 'R', display: 'restricted' },
  { system: 'http://terminology.hl7.org/CodeSystem/v3-Confidentiality', code: 'V', display: 'very restricted' },
  { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'HIV', display: 'HIV/AIDS information sensitivity' },
  { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'PSY', display: 'psychiatry information sensitivity' },
  { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'SDV', display: 'sexual assault, abuse, or domestic violence information sensitivity' },
  { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'ETH', display: 'substance abuse information sensitivity' },
];

/** Deterministic vital signs per patient, so the record reads the same on every run. */
function vitals(crId: string, nowMs: number) {
  const h = createHash('sha256').update(`vitals|${crId}`).digest();
  const at = iso(nowMs - 3 * 24 * 60 * 60 * 1000);
  const b = (i: number) => h[i] ?? 0;
  return [
    { code: '8480-6', display: 'Systolic blood pressure', value: 110 + (b(0) % 40), unit: 'mm[Hg]' },
    { code: '8462-4', display: 'Diastolic blood pressure', value: 65 + (b(1) % 25), unit: 'mm[Hg]' },
    { code: '8867-4', display: 'Heart rate', value: 60 + (b(2) % 40), unit: '/min' },
    { code: '8310-5', display: 'Body temperature', value: 36 + (b(3) % 15) / 10, unit: 'Cel' },
    { code: '29463-7', display: 'Body weight', value: 50 + (b(4) % 40), unit: 'kg' },
  ].map((v, i) => ({
    fullUrl: `urn:uuid:obs-${crId}-${i}`,
    resource: {
      resourceType: 'Observation',
      id: `obs-${crId}-${i}`,
      status: 'final',
      category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'vital-signs' }] }],
      code: { coding: [{ system: 'http://loinc.org', code: v.code, display: v.display }] },
      subject: { reference: `Patient/${crId}` },
      effectiveDateTime: at,
      valueQuantity: { value: v.value, unit: v.unit, system: 'http://unitsofmeasure.org', code: v.unit },
    },
  }));
}

const facilitySearch = z.object({
  identifier: z.string().trim().optional(),
  'identifier-type': z.string().trim().optional(),
  name: z.string().trim().optional(),
});
const professionalQuery = z.object({
  identification_number: text,
  identification_type: practitionerIdType.default('registration_number'),
  regulator: z.string().trim().regex(/^[A-Z]+$/, 'the regulator is upper case: KMPDC, COC or NCK').pipe(regulator),
});
const conceptsQuery = z.object({
  owner: z.string().trim().optional(),
  source: z.string().trim().optional(),
  search: z.string().trim().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).default(0),
});
const pomsfTariffsRequest = z.object({
  fr_code: text,
  intervention_codes: z.array(text).min(1),
  hcw_identifier_type: practitionerIdType,
  hcw_identifier: text,
  hcw_regulator: regulator,
});
const observationQuery = z.object({ subject: text });
const serviceRequestQuery = z.object({
  'performer:Organization': z.string().trim().optional(),
  'requester:Organization': z.string().trim().optional(),
  status: z.enum(['draft', 'active', 'on-hold', 'revoked', 'completed', 'entered-in-error']).optional(),
  count: z.coerce.number().int().min(1).max(100).default(20),
  page_token: z.string().regex(/^\d+$/, 'a page token from a previous bundle').optional(),
});

export function registryRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.get('/facilities/search', async (request) => {
    const query = parse(facilitySearch, request.query, 'query');
    const type = (query['identifier-type'] ?? 'fr-code').toLowerCase();
    if (query.identifier !== undefined && !['fr-code', 'kmhfl-code', 'registration_number'].includes(type)) {
      throw fail.field('identifier-type', "one of 'fr-code', 'kmhfl-code', 'registration_number'");
    }
    const name = (query.name ?? '').toLowerCase();
    return FACILITIES.filter(
      (f) =>
        (query.identifier === undefined || (type === 'kmhfl-code' ? f.kmhflCode === query.identifier : f.code === query.identifier)) &&
        (name === '' || f.name.toLowerCase().includes(name)),
    ).map(facilityView);
  });

  app.get('/professionals', async (request) => {
    const query = parse(professionalQuery, request.query, 'query');
    const p = requireProfessional(query.identification_type, query.identification_number, query.regulator);
    return {
      message: {
        registration_number: p.registrationNumber,
        name: professionalName(p),
        first_name: p.firstName,
        last_name: p.lastName,
        regulator: p.regulator,
        cadre: p.cadre,
        specialty: p.specialty,
        licence_status: p.licenceStatus,
        licence_expiry: p.licenceExpiry,
      },
    };
  });

  app.get('/clinical/concepts', async (request) => {
    const query = parse(conceptsQuery, request.query, 'query');
    if (query.source !== undefined && !/^icd-?11/i.test(query.source)) return { count: 0, results: [] };
    if (query.owner !== undefined && query.owner.toUpperCase() !== 'WHO') return { count: 0, results: [] };
    const needle = (query.search ?? '').toLowerCase();
    const matches = ICD11_CONCEPTS.filter((c) => needle === '' || c.code.toLowerCase().includes(needle) || c.display.toLowerCase().includes(needle));
    return {
      count: matches.length,
      results: matches.slice(query.offset, query.offset + query.limit).map((c) => ({ ...c, source: 'ICD-11-MMS', owner: 'WHO' })),
    };
  });

  app.post('/benefits/pmf-tariffs/resolve', async (request) => {
    const body = parse(pomsfTariffsRequest, request.body);
    const facility = facilityByCode(body.fr_code);
    if (facility === undefined) throw fail.notFound(`No facility ${body.fr_code}`);
    requireProfessional(body.hcw_identifier_type, body.hcw_identifier, body.hcw_regulator);
    const interventions = requireInterventions(body.intervention_codes);
    return {
      fr_code: facility.code,
      scheme: 'POMSF',
      tariffs: interventions.map((i) => ({
        intervention_code: i.intervention_code,
        name: i.name,
        tariff: Math.round(i.tariff * (1 + facility.level / 20)),
        currency: 'KES',
      })),
    };
  });

  app.get<{ Params: { code: string } }>('/facilities/:code/beds/occupancy', async (request) => {
    const facility = facilityByCode(request.params.code);
    if (facility === undefined) throw fail.notFound(`No facility ${request.params.code}`);
    const admitted = [...ctx.state.claims.values()].filter(
      (c) => c.facility === facility.code && c.service_type === 'INPATIENT' && c.workflow_state === 'DRAFT',
    ).length;
    const rate = (total: number, occupied: number) => ({
      total,
      occupied,
      available: Math.max(0, total - occupied),
      rate: total === 0 ? 0 : Math.round((occupied / total) * 1000) / 10,
    });
    const general = facility.beds.general;
    return {
      name: facility.name,
      bp_level: facility.level,
      bed_occupancy_rate: {
        general: rate(general.total, Math.min(general.total, general.occupied + admitted)),
        maternity: rate(facility.beds.maternity.total, facility.beds.maternity.occupied),
        paediatric: rate(facility.beds.paediatric.total, facility.beds.paediatric.occupied),
        icu: rate(facility.beds.icu.total, facility.beds.icu.occupied),
      },
      as_of: iso(ctx.now()),
    };
  });

  app.get('/shr/Observation', async (request) => {
    const facility = tenantOf(request);
    const query = parse(observationQuery, request.query, 'query');
    const consentToken = header(request, 'x-consent-token');
    if (consentToken === undefined || consentToken.trim() === '') throw fail.field('X-Consent-Token', 'the patient consent token is required to read the record');
    const subject = query.subject.replace(/^Patient\//, '');
    requirePatient(subject);
    const consent = ctx.state.claimByToken(facility.code, consentToken) ?? ctx.state.authorizationByToken(facility.code, consentToken);
    if (consent === undefined) throw fail.notFound('No consent with that X-Consent-Token at this facility');
    if (consent.patient_id !== subject) throw fail.rule('AUTHORIZATION_MISMATCH', 'The consent token belongs to another patient');
    const entry = vitals(subject, ctx.now());
    return { resourceType: 'Bundle', type: 'searchset', total: entry.length, link: [{ relation: 'self', url: requestUrl(ctx, request).toString() }], entry };
  });

  app.get('/shr/ServiceRequest', async (request) => {
    const facility = tenantOf(request);
    const query = parse(serviceRequestQuery, request.query, 'query');
    const organization = query['performer:Organization'] ?? query['requester:Organization'];
    if (organization === undefined) throw fail.field('performer:Organization', 'performer:Organization or requester:Organization is required');
    const org = organization.replace(/^Organization\//, '');
    const statusOf = (s: string) => (s === 'FINALISED' ? 'completed' : s === 'CANCELLED' || s === 'REJECTED' ? 'revoked' : 'active');
    const all = [...ctx.state.preauths.values()]
      .filter((p) => p.facility === facility.code && org === facility.code)
      .map((p) => ({
        fullUrl: `urn:uuid:${p.guid}`,
        resource: {
          resourceType: 'ServiceRequest',
          id: p.guid,
          status: statusOf(p.status),
          intent: 'order',
          code: { coding: [{ system: 'https://sha.go.ke/interventions', code: p.intervention_code }] },
          subject: { reference: `Patient/${p.patient_id}` },
          requester: { reference: `Organization/${p.facility}` },
          performer: [{ reference: `Organization/${p.facility}` }],
          authoredOn: iso(p.created_at),
        },
      }))
      .filter((e) => query.status === undefined || e.resource.status === query.status);
    const offset = Number(query.page_token ?? '0');
    const entry = all.slice(offset, offset + query.count);
    const link = [{ relation: 'self', url: requestUrl(ctx, request).toString() }];
    if (offset + query.count < all.length) {
      const next = requestUrl(ctx, request);
      next.searchParams.set('page_token', String(offset + query.count));
      link.push({ relation: 'next', url: next.toString() });
    }
    return { resourceType: 'Bundle', type: 'searchset', total: all.length, link, entry };
  });

  app.get('/shr/security-labels', async () => ({ count: SECURITY_LABELS.length, results: SECURITY_LABELS }));

}
