// Registry, eligibility, benefits, contacts, covers, OTP whitelist and POMSF balances.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { iso } from '../clock';
import type { SandboxContext } from '../context';
import { fail } from '../errors';
import { isWhitelisted, requirePatient } from '../state/consent';
import type { WhitelistRequest } from '../state/store';
import { tenantOf } from '../tenancy';
import { checkAttachment, readMultipart } from '../uploads';
import { identificationType, pageQuery, paginate, parse, text } from '../validation';
import { totalAmount } from '../views';
import { CATALOGUE, isPerDiem } from '../world/catalogue';
import type { Facility } from '../world/facilities';
import { ageOn, findPatient, isCovered, maskPhone, type DemoPatient } from '../world/patients';
import { requestUrl } from './shared';

const identification = z.object({ identification_number: text, identification_type: identificationType });
const byPatient = z.object({ patient_id: text });
const subBenefitsQuery = byPatient.extend(pageQuery.shape);
const interventionsQuery = byPatient.extend({ sub_benefit_code: text.optional(), search: z.string().trim().max(200).optional(), ...pageQuery.shape });
const utilizationQuery = byPatient.extend({ intervention_code: text });
const coverRequest = z.object({ patient_id: text, scheme_id: text });
const whitelistStatusQuery = z.object({ beneficiary_cr_id: text, guid: text });
const pomsfBalanceQuery = byPatient.extend({
  policy_year: z.string().trim().regex(/^\d{4}(\/\d{4})?$/, 'a year such as 2025 or 2025/2026').optional(),
  principal_member_number: z.string().trim().max(100).optional(),
});

/** Policy years turn on 1 July [doc]. */
export function policyYear(nowMs: number): { start: string; end: string; label: string } {
  const now = new Date(nowMs);
  const startYear = now.getUTCMonth() >= 6 ? now.getUTCFullYear() : now.getUTCFullYear() - 1;
  return { start: `${startYear}-07-01`, end: `${startYear + 1}-06-30`, label: `${startYear}/${startYear + 1}` };
}

function eligibilityView(ctx: SandboxContext, facility: Facility, query: z.output<typeof identification>, patient: DemoPatient | undefined) {
  const facilityPart = {
    facilityBiometricsEnforced: facility.biometricsEnforced,
    facilityContracts: facility.contracts.map((fund) => ({ fund, status: 'ACTIVE', facility_fr_code: facility.code, level: facility.level })),
  };
  if (patient === undefined) {
    return {
      requestIdType: query.identification_type,
      requestIdNumber: query.identification_number,
      memberCrNumber: null,
      fullName: null,
      statusCode: '00',
      statusDesc: 'Member not found',
      dateOfBirth: null,
      gender: null,
      age: null,
      whitelistedForOTP: false,
      schemes: [],
      ...facilityPart,
    };
  }
  const year = policyYear(ctx.now());
  return {
    requestIdType: query.identification_type,
    requestIdNumber: query.identification_number,
    memberCrNumber: patient.crId,
    fullName: patient.fullName,
    statusCode: '10',
    statusDesc: 'Member found',
    dateOfBirth: patient.dateOfBirth,
    gender: patient.gender,
    age: ageOn(patient.dateOfBirth, ctx.now()),
    whitelistedForOTP: isWhitelisted(ctx, patient),
    schemes: patient.schemes.map((s) => ({
      schemeName: s.schemeName,
      schemeId: s.schemeId,
      memberType: s.memberType,
      policy: { startDate: year.start, endDate: year.end, number: s.policyNumber },
      coverage: {
        startDate: year.start,
        endDate: year.end,
        message: s.covered ? `Member is covered under ${s.schemeName}` : `Member is not covered under ${s.schemeName}`,
        reason: s.reason,
        possibleSolution: s.possibleSolution,
        status: s.covered ? 1 : 0,
      },
      principalContributor: { name: patient.fullName, crNumber: patient.crId, relationship: 'SELF' },
      beneficiaryOf: null,
    })),
    ...facilityPart,
  };
}

/** What a patient has used of a sub-benefit: submitted claims of every facility. */
function utilised(ctx: SandboxContext, crId: string, subBenefitCode: string): { amount: number; days: number } {
  let amount = 0;
  let days = 0;
  for (const claim of ctx.state.claims.values()) {
    if (claim.patient_id !== crId || claim.submitted_at === null) continue;
    const lines = claim.lines.filter((l) => CATALOGUE.interventionByCode.get(l.intervention_code)?.sub_benefit_code === subBenefitCode);
    amount += totalAmount(lines);
    days += lines
      .filter((l) => {
        const i = CATALOGUE.interventionByCode.get(l.intervention_code);
        return i !== undefined && isPerDiem(i);
      })
      .reduce((n, l) => n + l.quantity, 0);
  }
  return { amount, days };
}

const WHITELIST_REASONS = [
  'OLD',
  'AMPUTEE',
  'MEDICAL_CONDITION',
  'MENTALLY_UNSTABLE',
  'ONCOLOGY_TREATMENT',
  'DIALYSIS_TREATMENT',
  'CONSTRUCTION_WORKER',
  'OTHER',
  'EXPIRED',
  'BIOMETRIC_FAILURE',
  'CHILD_BELOW_7_YEARS',
  'PRIVACY_CONCERNS',
  'TECHNICAL_ISSUES',
] as const;

const whitelistRequest = z
  .object({
    beneficiary_cr_id: text,
    reason_type: z.enum(WHITELIST_REASONS),
    reason_text: z.string().trim().max(2000).optional(),
  })
  .refine((v) => v.reason_type !== 'OTHER' || (v.reason_text ?? '') !== '', {
    path: ['reason_text'],
    message: 'reason_text is required when reason_type is OTHER',
  });

export function patientRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.get('/patients', async (request) => {
    const query = parse(identification, request.query, 'query');
    const patient = findPatient(query.identification_type, query.identification_number);
    if (patient === undefined) throw fail.notFound(`No patient with ${query.identification_type} ${query.identification_number}`);
    return { id: patient.crId, identification_number: query.identification_number, identification_type: query.identification_type };
  });

  app.get('/patients/eligibility', async (request) => {
    const query = parse(identification, request.query, 'query');
    const patient = findPatient(query.identification_type, query.identification_number);
    return eligibilityView(ctx, tenantOf(request), query, patient);
  });

  app.get('/patients/sub-benefits', async (request) => {
    const query = parse(subBenefitsQuery, request.query, 'query');
    const patient = requirePatient(query.patient_id);
    const items = isCovered(patient)
      ? CATALOGUE.subBenefits.map((s) => {
          const used = utilised(ctx, patient.crId, s.code);
          return {
            ...s,
            cover: { ...s.cover, utilised: used.amount, balance: Math.max(0, s.cover.limitAmount - used.amount) },
          };
        })
      : [];
    return paginate(items, query, requestUrl(ctx, request));
  });

  app.get('/patients/benefits/interventions', async (request) => {
    const query = parse(interventionsQuery, request.query, 'query');
    const patient = requirePatient(query.patient_id);
    if (query.sub_benefit_code !== undefined && !CATALOGUE.subBenefits.some((s) => s.code === query.sub_benefit_code)) {
      throw fail.notFound(`No sub-benefit ${query.sub_benefit_code}`);
    }
    const needle = (query.search ?? '').toLowerCase();
    const items = isCovered(patient)
      ? CATALOGUE.interventions.filter(
          (i) =>
            (query.sub_benefit_code === undefined || i.sub_benefit_code === query.sub_benefit_code) &&
            (needle === '' || i.intervention_code.toLowerCase().includes(needle) || i.name.toLowerCase().includes(needle)),
        )
      : [];
    return paginate(items, query, requestUrl(ctx, request));
  });

  app.get('/patients/benefits/utilization', async (request) => {
    const query = parse(utilizationQuery, request.query, 'query');
    const patient = requirePatient(query.patient_id);
    const intervention = CATALOGUE.interventionByCode.get(query.intervention_code);
    if (intervention === undefined) throw fail.notFound(`No intervention ${query.intervention_code}`);
    const subBenefit = CATALOGUE.subBenefits.find((s) => s.code === intervention.sub_benefit_code);
    const limit = subBenefit?.cover.limitAmount ?? 0;
    const used = utilised(ctx, patient.crId, intervention.sub_benefit_code);
    return {
      code: '200',
      crId: patient.crId,
      householdMaxLimit: limit * 4,
      householdUtilisedLimit: used.amount,
      individualMaxLimit: limit,
      individualUtilisedLimit: used.amount,
      limitScope: subBenefit?.cover.limitScope ?? 'INDIVIDUAL',
      nextAvailability: used.amount < limit ? iso(ctx.now()) : policyYear(ctx.now()).end,
      utilizationDays: used.days,
    };
  });

  app.get('/patients/contacts', async (request) => {
    const query = parse(byPatient, request.query, 'query');
    const patient = requirePatient(query.patient_id);
    const results = patient.contacts.map((c) => ({
      id: c.id,
      contactValue: maskPhone(c.phone),
      contactType: 'PHO',
      isConfirmed: true,
      active: true,
      isMainContact: c.isMainContact,
    }));
    return { count: results.length, results };
  });

  app.post('/authorizations/covers', async (request) => {
    const body = parse(coverRequest, request.body);
    const patient = requirePatient(body.patient_id);
    const scheme = patient.schemes.find((s) => s.schemeId === body.scheme_id && s.covered);
    if (scheme === undefined) throw fail.rule('NOT_COVERED', `Scheme ${body.scheme_id} does not cover patient ${patient.crId}`);
    ctx.state.covers.set(patient.crId, scheme.schemeId);
    return { message: `Cover set to ${scheme.schemeName}`, patient_id: patient.crId, scheme_id: scheme.schemeId };
  });

  app.post('/patients/otp-whitelists', async (request) => {
    const facility = tenantOf(request);
    const { fields, files } = await readMultipart(request);
    const body = parse(whitelistRequest, fields);
    const patient = requirePatient(body.beneficiary_cr_id);
    if (files.length > 1) throw fail.field('attachment', 'at most one attachment');
    const file = files[0];
    if (file !== undefined) checkAttachment(file);
    const record: WhitelistRequest = {
      guid: ctx.rng.uuid(),
      facility: facility.code,
      beneficiary_cr_id: patient.crId,
      reason_type: body.reason_type,
      reason_text: body.reason_text ?? null,
      attachment: file === undefined ? null : { file_name: file.filename, content_type: file.mimetype, size: file.data.length },
      status: 'PENDING',
      created_at: ctx.now(),
      decided_at: null,
    };
    ctx.state.whitelistRequests.set(record.guid, record);
    return { guid: record.guid, status: record.status };
  });

  app.get('/patients/otp-whitelists/callback', async (request) => {
    const query = parse(whitelistStatusQuery, request.query, 'query');
    const record = ctx.state.whitelistRequests.get(query.guid);
    if (record === undefined || record.beneficiary_cr_id !== query.beneficiary_cr_id || record.facility !== tenantOf(request).code) {
      throw fail.notFound(`No OTP whitelist request ${query.guid} for ${query.beneficiary_cr_id}`);
    }
    return { guid: record.guid, status: record.status, beneficiary_cr_id: record.beneficiary_cr_id, reason_type: record.reason_type };
  });

  app.get('/patients/pomsf-balances', async (request) => {
    const query = parse(pomsfBalanceQuery, request.query, 'query');
    const patient = requirePatient(query.patient_id);
    const scheme = patient.schemes.find((s) => s.schemeId === 'POMSF');
    if (scheme === undefined) throw fail.notFound(`Patient ${patient.crId} is not a POMSF member`);
    if (query.principal_member_number !== undefined && query.principal_member_number !== scheme.policyNumber) {
      throw fail.notFound(`No POMSF principal member ${query.principal_member_number} for patient ${patient.crId}`);
    }
    const current = policyYear(ctx.now());
    const startYear = query.policy_year === undefined ? Number(current.label.slice(0, 4)) : Number(query.policy_year.slice(0, 4));
    const limit = 500_000;
    const used = startYear === Number(current.label.slice(0, 4)) ? 37_450 : 0;
    return {
      patient_id: patient.crId,
      principal_member_number: scheme.policyNumber,
      policy_year: `${startYear}/${startYear + 1}`,
      policy_start: `${startYear}-07-01`,
      policy_end: `${startYear + 1}-06-30`,
      limit,
      utilised: used,
      balance: limit - used,
      currency: 'KES',
    };
  });
}
