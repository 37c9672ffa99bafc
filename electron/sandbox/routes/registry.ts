// Registry look-ups and the rest of the field notes' table: facilities, professionals, terminology,
// POMSF tariffs, bed occupancy and the shared health record (/shr/*).
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { facilityIdentifierTypes, serviceRequestStatuses } from '../../vocabulary';
import { iso } from '../clock';
import type { SandboxContext } from '../context';
import { fail } from '../errors';
import { requireInterventions, requirePatient } from '../state/consent';
import { header, tenantOf } from '../tenancy';
import { parse, practitionerIdType, regulator, text } from '../validation';
import { ICD11_CONCEPTS, MEDICINE_CONCEPTS, TERMINOLOGY } from '../world/concepts';
import { FACILITIES, facilityByCode, type Facility } from '../world/facilities';
import { professionalName } from '../world/professionals';
import { requestUrl, requireProfessional } from './shared';

/** A facility as the registry answers it: camelCase, the name as officialName (V docs; R's live rows). */
function facilityView(f: Facility) {
  const normalBeds = f.beds.general.total + f.beds.maternity.total + f.beds.paediatric.total;
  const suspended = f.suspension;
  const operational =
    suspended === undefined
      ? { operationalStatus: 'ACTIVE', operationalStatusReason: '', suspensionReason: '', reinstatementRecommendations: '', earliestReinstatementDate: '' }
      : { operationalStatus: 'SUSPENDED', operationalStatusReason: suspended.reason, suspensionReason: suspended.reason, reinstatementRecommendations: suspended.reinstatementRecommendations, earliestReinstatementDate: suspended.earliestReinstatementDate };
  return {
    registrationNumber: registrationNumberOf(f),
    frCode: f.code,
    fidCode: fidCodeOf(f),
    licenseNumber: licenseNumberOf(f),
    facilityLicenseStatus: 'LICENSED',
    regulatoryBody: 'kmpdc',
    shaContractStatus: 'Contracted',
    officialName: f.name,
    kephLevel: `LEVEL ${f.level}`,
    facilityOwnership: f.ownership,
    facilityType: f.facilityType,
    isHub: f.level >= 5,
    address: { country: 'Kenya', county: f.county, subCounty: f.subCounty },
    bedOccupancy: { totalBeds: normalBeds + f.beds.icu.total, normalBeds, icuBeds: f.beds.icu.total, hduBeds: 0, dialysisBeds: 0, numberOfCots: 0 },
    shaContractedServices: [...f.contracts],
    regulatoryOperationalStatus: { operationalStatus: operational.operationalStatus },
    SHAOperationStatus: operational,
  };
}

// Identifiers of the demo facilities other than the FR code: ours, derived from it.
const fidCodeOf = (f: Facility): string => f.code.split('-')[2] ?? f.code;
const registrationNumberOf = (f: Facility): string => `REG-${f.kmhflCode}`;
const licenseNumberOf = (f: Facility): string => `LIC-${f.kmhflCode}`;

/** Finds a facility by identifier under its `identifier-type` (R's five types and A's sha-license-number). */
function byIdentifier(type: string, identifier: string): Facility | undefined {
  const keyOf: Readonly<Record<string, (f: Facility) => string | undefined>> = {
    'fr-code': (f) => f.code,
    mfl: (f) => f.kmhflCode,
    fid: fidCodeOf,
    'registration-number': registrationNumberOf,
    'license-number': licenseNumberOf,
    'sha-license-number': () => undefined,
  };
  const key = keyOf[type];
  return key === undefined ? undefined : FACILITIES.find((f) => key(f) === identifier);
}

/** The confidentiality and sensitivity codes R's copy of the SHR docs lists. */
const SECURITY_LABELS = [
  ...(
    [
      ['N', 'normal'],
      ['R', 'restricted'],
    ] as const
  ).map(([code, display]) => ({ system: 'http://terminology.hl7.org/CodeSystem/v3-Confidentiality', code, display, category: 'confidentiality' })),
  ...(
    [
      ['HIV', 'HIV/AIDS information sensitivity'],
      ['PSY', 'psychiatry information sensitivity'],
      ['SUD', 'substance use disorder information sensitivity'],
      ['STD', 'sexually transmitted disease information sensitivity'],
      ['SEX', 'sexuality and reproductive health information sensitivity'],
      ['PRG', 'pregnancy information sensitivity'],
      ['GDIS', 'genetic disease information sensitivity'],
      ['CRITINN', 'critical information'],
      ['FININF', 'financial information sensitivity'],
    ] as const
  ).map(([code, display]) => ({ system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code, display, category: 'sensitivity' })),
];

const CONFIDENTIALITY = 'http://terminology.hl7.org/CodeSystem/v3-Confidentiality';
const ACT_CODE = 'http://terminology.hl7.org/CodeSystem/v3-ActCode';

/**
 * Deterministic observations per patient, so the record reads the same on every run: five vital
 * signs labelled normal (N), then two a reader must honour — a result labelled restricted (R) with
 * its HIV sensitivity, and a screening score labelled normal but psychiatric (PSY): "a resource can
 * be N and still carry HIV" (R's copy of the SHR docs). Labels sit in `meta.security` (FHIR R4).
 */
function observations(crId: string, nowMs: number) {
  const h = createHash('sha256').update(`vitals|${crId}`).digest();
  const at = iso(nowMs - 3 * 24 * 60 * 60 * 1000);
  const b = (i: number) => h[i] ?? 0;
  const normal = [{ system: CONFIDENTIALITY, code: 'N', display: 'normal' }];
  return [
    { code: '8480-6', display: 'Systolic blood pressure', value: 110 + (b(0) % 40), unit: 'mm[Hg]', security: normal },
    { code: '8462-4', display: 'Diastolic blood pressure', value: 65 + (b(1) % 25), unit: 'mm[Hg]', security: normal },
    { code: '8867-4', display: 'Heart rate', value: 60 + (b(2) % 40), unit: '/min', security: normal },
    { code: '8310-5', display: 'Body temperature', value: 36 + (b(3) % 15) / 10, unit: 'Cel', security: normal },
    { code: '29463-7', display: 'Body weight', value: 50 + (b(4) % 40), unit: 'kg', security: normal },
    {
      code: '20447-9',
      display: 'HIV 1 RNA viral load',
      value: 20 + (b(5) % 200),
      unit: 'copies/mL',
      security: [
        { system: CONFIDENTIALITY, code: 'R', display: 'restricted' },
        { system: ACT_CODE, code: 'HIV', display: 'HIV/AIDS information sensitivity' },
      ],
    },
    { code: '44261-6', display: 'PHQ-9 total score', value: b(6) % 27, unit: '{score}', security: [...normal, { system: ACT_CODE, code: 'PSY', display: 'psychiatry information sensitivity' }] },
  ].map((v, i) => ({
    resource: {
      resourceType: 'Observation',
      id: `obs-${crId}-${i}`,
      meta: { security: v.security },
      status: 'final',
      category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: i < 5 ? 'vital-signs' : 'laboratory' }] }],
      code: { coding: [{ system: 'http://loinc.org', code: v.code, display: v.display }] },
      subject: { reference: `Patient/${crId}` },
      effectiveDateTime: at,
      valueQuantity: { value: v.value, unit: v.unit, system: 'http://unitsofmeasure.org', code: v.unit },
    },
  }));
}

const facilitySearch = z.object({
  identifier: z.string().trim().min(1).optional(),
  'identifier-type': z.string().trim().optional(),
  name: z.string().trim().min(1).optional(),
});
const professionalQuery = z.object({
  identification_number: text,
  identification_type: practitionerIdType.default('registration_number'),
  // UAT refused kmpdc and accepted KMPDC (R): the regulator is upper case.
  regulator: z.string().trim().regex(/^[A-Z]+$/, 'the regulator is upper case: KMPDC, COC, NCK or PPB').pipe(regulator),
});
const conceptsQuery = z.object({
  owner: z.string().trim().optional(),
  source: z.string().trim().optional(),
  search: z.string().trim().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).default(0),
});
// Only the field notes show this call [1x]; which fields the live service requires is not known:
// the sandbox needs the facility and the interventions, and checks the health worker when named.
const pomsfTariffsRequest = z.object({
  fr_code: text,
  intervention_codes: z.array(text).min(1),
  hcw_identifier_type: practitionerIdType.optional(),
  hcw_identifier: text.optional(),
  hcw_regulator: regulator.optional(),
});
const pageToken = z.string().regex(/^\d+$/, 'a page token from a previous bundle').optional();
const observationQuery = z.object({ subject: text, page_token: pageToken });
const serviceRequestQuery = z.object({
  'performer:Organization': z.string().trim().optional(),
  'requester:Organization': z.string().trim().optional(),
  status: z.enum(serviceRequestStatuses).optional(),
  count: z.coerce.number().int().min(1).max(100).default(20),
  page_token: pageToken,
});
const OBSERVATIONS_PER_PAGE = 20;

/** The bundle's links: itself and, when more entries follow, the next page's `page_token`. */
function bundleLinks(ctx: SandboxContext, request: FastifyRequest, offset: number, shown: number, total: number) {
  const link = [{ relation: 'self', url: requestUrl(ctx, request).toString() }];
  if (offset + shown < total) {
    const next = requestUrl(ctx, request);
    next.searchParams.set('page_token', String(offset + shown));
    link.push({ relation: 'next', url: next.toString() });
  }
  return link;
}

export function registryRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  // A name search answers a bare array (R, live); an identifier look-up one bare facility (V docs, R).
  app.get('/facilities/search', async (request) => {
    const query = parse(facilitySearch, request.query, 'query');
    if (query.identifier === undefined && query.name === undefined) throw fail.field('identifier', 'at least one facility search parameter is expected (identifier or name)');
    if (query.identifier !== undefined) {
      const type = (query['identifier-type'] ?? 'fr-code').toLowerCase();
      if (!(facilityIdentifierTypes as readonly string[]).includes(type)) throw fail.field('identifier-type', `one of ${facilityIdentifierTypes.join(', ')}`);
      const found = byIdentifier(type, query.identifier);
      if (found === undefined || (query.name !== undefined && !found.name.toLowerCase().includes(query.name.toLowerCase()))) {
        throw fail.notFound(`No facility with ${type} ${query.identifier}`);
      }
      return facilityView(found);
    }
    const name = (query.name ?? '').toLowerCase();
    return FACILITIES.filter((f) => f.name.toLowerCase().includes(name)).map(facilityView);
  });

  // {message: {membership, licenses, professional_details, contacts, identifiers}} (V docs; A's types).
  app.get('/professionals', async (request) => {
    const query = parse(professionalQuery, request.query, 'query');
    const p = requireProfessional(query.identification_type, query.identification_number, query.regulator);
    return {
      message: {
        membership: {
          id: `HWR-${p.nationalId}`,
          status: p.licenceStatus,
          full_name: professionalName(p),
          first_name: p.firstName,
          last_name: p.lastName,
          registration_id: p.registrationNumber,
          licensing_body: p.regulator,
          specialty: p.specialty,
          is_active: 1,
        },
        licenses: [{ id: `LIC-${p.registrationNumber}`, license_type: 'PRACTICE', license_start: `${Number(p.licenceExpiry.slice(0, 4)) - 1}${p.licenceExpiry.slice(4)}`, license_end: p.licenceExpiry }],
        professional_details: { professional_cadre: p.cadre, specialty: p.specialty },
        contacts: { phone: p.phone },
        identifiers: { identification_type: 'National ID', identification_number: p.nationalId },
      },
    };
  });

  // Each list under its owner and source; an owner or source given narrows to the lists that carry
  // it (ours: no source shows the live answer), neither given searches both, as a terminology would.
  app.get('/clinical/concepts', async (request) => {
    const query = parse(conceptsQuery, request.query, 'query');
    const same = (given: string | undefined, known: string) => given === undefined || given.toUpperCase() === known.toUpperCase();
    const lists = [
      { ...TERMINOLOGY.diagnoses, concepts: ICD11_CONCEPTS },
      { ...TERMINOLOGY.medicines, concepts: MEDICINE_CONCEPTS },
    ].filter((list) => same(query.owner, list.owner) && same(query.source, list.source));
    const needle = (query.search ?? '').toLowerCase();
    const matches = lists.flatMap(({ owner, source, concepts }) =>
      concepts.filter((c) => needle === '' || c.code.toLowerCase().includes(needle) || c.display.toLowerCase().includes(needle)).map((c) => ({ ...c, source, owner })),
    );
    return { count: matches.length, results: matches.slice(query.offset, query.offset + query.limit) };
  });

  app.post('/benefits/pmf-tariffs/resolve', async (request) => {
    const body = parse(pomsfTariffsRequest, request.body);
    const facility = facilityByCode(body.fr_code);
    if (facility === undefined) throw fail.notFound(`No facility ${body.fr_code}`);
    const hcw = [body.hcw_identifier_type, body.hcw_identifier, body.hcw_regulator];
    if (hcw.some((v) => v !== undefined)) {
      if (hcw.some((v) => v === undefined)) throw fail.field('hcw_identifier', 'hcw_identifier_type, hcw_identifier and hcw_regulator come together');
      requireProfessional(body.hcw_identifier_type ?? '', body.hcw_identifier ?? '', body.hcw_regulator ?? '');
    }
    const interventions = requireInterventions(body.intervention_codes);
    // The answer is ours: no source shows it.
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

  // {name, bp_level, bed_occupancy_rate{…}} (R docs; A's types); a bearer token is needed (R, UAT).
  app.get<{ Params: { code: string } }>('/facilities/:code/beds/occupancy', async (request) => {
    const facility = facilityByCode(request.params.code);
    if (facility === undefined) throw fail.notFound(`No facility ${request.params.code}`);
    const admitted = [...ctx.state.claims.values()].filter(
      (c) => c.facility === facility.code && c.service_type === 'INPATIENT' && c.workflow_state === 'DRAFT',
    ).length;
    const b = facility.beds;
    const normalBeds = b.general.total + b.maternity.total + b.paediatric.total;
    const normalVisits = Math.min(b.general.total, b.general.occupied + admitted) + b.maternity.occupied + b.paediatric.occupied;
    return {
      name: facility.name,
      bp_level: `LEVEL ${facility.level}`,
      bed_occupancy_rate: {
        total_number_of_bed: normalBeds + b.icu.total,
        number_of_normal_bed: normalBeds,
        number_of_icu_bed: b.icu.total,
        number_of_hdu_bed: 0,
        number_of_dialysis_bed: 0,
        number_of_baby_cot: 0,
        total_ip_visits: normalVisits + b.icu.occupied,
        normal_ip_visits: normalVisits,
        icu_visits: b.icu.occupied,
        hdu_visits: 0,
        dialysis_visits: 0,
        newborn_visits: 0,
      },
    };
  });

  // Two headers, both required on this endpoint (R's copy of the SHR docs): X-Consent-Token and X-PUID.
  app.get('/shr/Observation', async (request) => {
    const facility = tenantOf(request);
    const query = parse(observationQuery, request.query, 'query');
    const consentToken = header(request, 'x-consent-token');
    if (consentToken === undefined || consentToken.trim() === '') throw fail.field('X-Consent-Token', 'the patient consent token is required to read the record');
    const puid = header(request, 'x-puid');
    if (puid === undefined || puid.trim() === '') throw fail.field('X-PUID', "the reading practitioner's unique identifier is required");
    const subject = query.subject.replace(/^Patient\//, '');
    requirePatient(subject);
    const consent = ctx.state.claimByToken(facility.code, consentToken) ?? ctx.state.authorizationByToken(facility.code, consentToken);
    if (consent === undefined) throw fail.notFound('No consent with that X-Consent-Token at this facility');
    if (consent.patient_id !== subject) throw fail.rule('AUTHORIZATION_MISMATCH', 'The consent token belongs to another patient');
    const all = observations(subject, ctx.now());
    const offset = Number(query.page_token ?? '0');
    const entry = all.slice(offset, offset + OBSERVATIONS_PER_PAGE);
    return { resourceType: 'Bundle', type: 'searchset', total: all.length, link: bundleLinks(ctx, request, offset, entry.length, all.length), entry };
  });

  // Not scoped by a consent token: the referrals addressed to (performer) or raised by (requester)
  // an organisation; with neither, this facility's referrals either way.
  app.get('/shr/ServiceRequest', async (request) => {
    const facility = tenantOf(request);
    const query = parse(serviceRequestQuery, request.query, 'query');
    const organization = (query['performer:Organization'] ?? query['requester:Organization'])?.replace(/^Organization\//, '');
    const statusOf = (s: string) => (s === 'FINALISED' ? 'completed' : s === 'CANCELLED' || s === 'REJECTED' ? 'revoked' : 'active');
    const all = [...ctx.state.preauths.values()]
      .filter((p) => p.facility === facility.code && (organization === undefined || organization === facility.code))
      .map((p) => ({
        resource: {
          resourceType: 'ServiceRequest',
          id: p.guid,
          status: statusOf(p.status),
          intent: 'order',
          subject: { reference: `Patient/${p.patient_id}` },
          requester: { reference: `Organization/${p.facility}` },
          performer: [{ reference: `Organization/${p.facility}`, display: facility.name }],
          authoredOn: iso(p.created_at),
        },
      }))
      .filter((e) => query.status === undefined || e.resource.status === query.status);
    const offset = Number(query.page_token ?? '0');
    const entry = all.slice(offset, offset + query.count);
    return { resourceType: 'Bundle', type: 'searchset', total: all.length, link: bundleLinks(ctx, request, offset, entry.length, all.length), entry };
  });

  // A bare list (one of the three envelopes R has seen).
  app.get('/shr/security-labels', async () => SECURITY_LABELS);
}
