// Registry, eligibility, benefits, contacts, covers, OTP whitelist and POMSF balances.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { otpWhitelistReasons } from '../../vocabulary';
import { iso } from '../clock';
import type { SandboxContext } from '../context';
import { fail } from '../errors';
import { isWhitelisted, requirePatient } from '../state/consent';
import type { WhitelistRequest } from '../state/store';
import { tenantOf } from '../tenancy';
import { checkAttachment, readMultipart } from '../uploads';
import { identificationType, jsonField, pageQuery, paginate, parse, text } from '../validation';
import { totalAmount } from '../views';
import { CATALOGUE, isPerDiem, type Intervention, type SubBenefit } from '../world/catalogue';
import type { Facility } from '../world/facilities';
import { ageOn, findPatient, isCovered, maskPhone, patientByCrId, type DemoPatient } from '../world/patients';
import { requestUrl } from './shared';

const identification = z.object({ identification_number: text, identification_type: identificationType });
const byPatient = z.object({ patient_id: text });
const subBenefitsQuery = byPatient.extend(pageQuery.shape);
/**
 * `sub_benefit_code` is required on the live service (R docs; no code, no list); A also looks one
 * intervention up by `code`, so the sandbox accepts either and refuses neither.
 */
const interventionsQuery = byPatient
  .extend({ sub_benefit_code: text.optional(), code: text.optional(), ...pageQuery.shape })
  .refine((v) => v.sub_benefit_code !== undefined || v.code !== undefined, {
    path: ['sub_benefit_code'],
    message: 'required: the sub-benefit whose interventions are wanted (or one intervention code)',
  });
const utilizationQuery = byPatient.extend({ intervention_code: text });

/**
 * Benefit lists come whole, one page, unless the caller asks for a page size: UAT served a member's
 * sub-benefits and each sub-benefit's interventions so (pageSize 10000 in R's fixture, WE
 * "Sub-benefits"), and A reads the first answer's `results` only.
 */
function wholeUnlessPaged(request: FastifyRequest, query: { page: number; pageSize: number }, count: number): { page: number; pageSize: number } {
  const paged = typeof request.query === 'object' && request.query !== null && 'pageSize' in request.query;
  return paged ? query : { page: query.page, pageSize: Math.max(1, count) };
}
// R `set_coverage()`, K `lockCover`: the cover is chosen under a consent token.
const coverRequest = z.object({ consent_token: text, principal_cr_id: text, policy_number: text });
/** V documents beneficiary_cr_id and guid; A sends beneficiary_cr_id and facility_fr_code: both are accepted. */
const whitelistStatusQuery = z.object({ beneficiary_cr_id: text, guid: text.optional(), facility_fr_code: text.optional(), ...pageQuery.shape });
// The docs mark policy_year required, A sends it only when it has one: the sandbox does not require it.
const pomsfBalanceQuery = byPatient.extend({
  policy_year: z.string().trim().regex(/^\d{4}$/, 'the year the policy year starts in, such as 2025').optional(),
  principal_member_number: z.string().trim().max(100).optional(),
});

/** Policy years turn on 1 July [doc]. */
export function policyYear(nowMs: number): { start: string; end: string; label: string } {
  const now = new Date(nowMs);
  const startYear = now.getUTCMonth() >= 6 ? now.getUTCFullYear() : now.getUTCFullYear() - 1;
  return { start: `${startYear}-07-01`, end: `${startYear + 1}-06-30`, label: `${startYear}/${startYear + 1}` };
}

/**
 * `requestIdType` echoes the identification type as a number: National ID is 2 (R, observed on
 * UAT), a client registry id 3 (A's map); the other numbers are ours (no source shows them).
 */
const REQUEST_ID_TYPES: Readonly<Record<string, number>> = {
  'National ID': 2,
  'ClientRegistry ID': 3,
  'Birth Certificate': 4,
  'Birth Notification': 5,
  'Alien ID': 6,
  'Refugee ID': 7,
  'Mandate Number': 8,
};

/** The nested live shape (the portal docs, A's types, R's fixture); absent fields are left out, not null. */
function eligibilityView(ctx: SandboxContext, facility: Facility, query: z.output<typeof identification>, patient: DemoPatient | undefined) {
  const echo = { requestIdType: REQUEST_ID_TYPES[query.identification_type] ?? 0, requestIdNumber: query.identification_number };
  const facilityPart = {
    facilityBiometricsEnforced: facility.biometricsEnforced,
    // "The schemes the acting facility may bill" (R, UAT); the shape of an entry is not shown: the funds' names.
    facilityContracts: [...facility.contracts],
  };
  if (patient === undefined) {
    return { ...echo, statusCode: '00', statusDesc: 'Member not found', whitelistedForOTP: false, schemes: [], ...facilityPart };
  }
  const year = policyYear(ctx.now());
  return {
    ...echo,
    memberCrNumber: patient.crId,
    fullName: patient.fullName,
    statusCode: '10',
    statusDesc: 'Member found. Check Schemes for coverages',
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
        message: s.covered ? `The individual is covered under ${s.schemeName}.` : `The individual is not covered under ${s.schemeName}.`,
        reason: s.reason,
        possibleSolution: s.possibleSolution,
        // A string on the wire ("1" covered), as R's fixture and A's types have it.
        status: s.covered ? '1' : '0',
      },
      principalContributor: { idNumber: patient.nationalId, idType: 'NATIONAL_ID', crNumber: patient.crId, name: patient.fullName, relationship: '' },
    })),
    ...facilityPart,
  };
}

/** A sub-benefit as the portal docs show it; its cover is the member's policy of the scheme that pays. */
function subBenefitView(s: SubBenefit, index: number, policy: { number: string; start: string; end: string }) {
  return {
    id: index + 1,
    code: s.code,
    name: s.name,
    accessPoint: s.accessPoint,
    fund: s.fund,
    parentBenefit: s.parentBenefitName,
    parentBenefitCode: s.parentBenefitCode,
    active: true,
    status: 'ACTIVE',
    cover: { policyNumber: policy.number, effectivePolicyNumber: policy.number, validFrom: policy.start, validTo: policy.end },
    allowedInterventions: s.allowedInterventions,
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

/** A supporting document's metadata; its file is the part its file_field_name names (V). */
const whitelistAttachment = z.object({
  document_title: z.string().trim().max(200).optional(),
  document_type: z.string().trim().max(100).optional(),
  file_field_name: text,
  file_name: z.string().trim().max(200).optional(),
});

/** Multipart, as A, K and V send it; numbers arrive as text. */
const whitelistRequest = z.object({
  beneficiary_cr_id: text,
  reason_type: z.enum(otpWhitelistReasons),
  reason: z.string().trim().min(1, 'say why the patient needs SMS codes').max(2000),
  biometric_attempts: z.coerce.number().int('must be a whole number').min(0).max(1000).optional(),
  facility_fr_code: z.string().trim().max(100).optional(),
  facility_fr_type: z.string().trim().max(50).optional(),
  attachments: jsonField(z.array(whitelistAttachment).max(10)).optional(),
});

/** A whitelist request as the exchange answers it: camelCase (A types, V). */
function whitelistView(record: WhitelistRequest, facility: Facility) {
  const patient = patientByCrId(record.beneficiary_cr_id);
  return {
    guid: record.guid,
    status: record.status,
    reasonType: record.reason_type,
    reason: record.reason,
    beneficiaryCrId: record.beneficiary_cr_id,
    ...(patient === undefined ? {} : { beneficiaryName: patient.fullName }),
    facilityFrCode: facility.code,
    facilityName: facility.name,
    reviewerResponseNotes: [],
    attachments: record.attachments.map((a) => ({ guid: a.guid, uploadedFile: a.file_name, description: a.title, contentType: a.content_type })),
  };
}

/** An intervention coverage entry [doc], with the contract's `intervention_code` beside the live `code`. */
function interventionView(i: Intervention) {
  return {
    code: i.intervention_code,
    intervention_code: i.intervention_code,
    name: i.name,
    accessPoint: i.accessPoint,
    paymentMechanism: i.paymentMechanism,
    needsPreauth: i.needsPreauth,
    needsManualPreauthApproval: i.needsManualPreauthApproval,
    needsDoctorAuthorization: i.needsDoctorAuthorization,
    applicableDocumentTypes: i.applicableDocumentTypes,
    requiredPreauthDocumentTypes: i.requiredPreauthDocumentTypes,
    fund: i.fund,
    overallTariff: i.tariff,
    kephLevelTarriff: i.kephLevelTarriff,
    active: i.isActive,
    applicableGender: i.genderRestriction,
    lowerAgeLimit: i.minAgeYears,
    upperAgeLimit: i.maxAgeYears,
    ...(i.protocolCode === null ? {} : { protocolCode: i.protocolCode }),
    ...(i.applicableTariff === null ? {} : { applicableTariff: i.applicableTariff }),
  };
}

export function patientRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  // The member record, flat snake_case (V registries docs; R `PatientRecordWire`); 404 when unknown (R).
  app.get('/patients', async (request) => {
    const query = parse(identification, request.query, 'query');
    const patient = findPatient(query.identification_type, query.identification_number);
    if (patient === undefined) throw fail.notFound(`No patient with ${query.identification_type} ${query.identification_number}`);
    const [first = '', ...rest] = patient.fullName.split(/\s+/);
    return {
      id: patient.crId,
      identification_type: 'National ID',
      identification_number: patient.nationalId,
      first_name: first,
      middle_name: rest.slice(0, -1).join(' '),
      last_name: rest.at(-1) ?? '',
      gender: patient.gender,
      date_of_birth: patient.dateOfBirth,
    };
  });

  app.get('/patients/eligibility', async (request) => {
    const query = parse(identification, request.query, 'query');
    const patient = findPatient(query.identification_type, query.identification_number);
    return eligibilityView(ctx, tenantOf(request), query, patient);
  });

  app.get('/patients/sub-benefits', async (request) => {
    const query = parse(subBenefitsQuery, request.query, 'query');
    const patient = requirePatient(query.patient_id);
    const paying = patient.schemes.find((s) => s.covered);
    const year = policyYear(ctx.now());
    const items = paying === undefined ? [] : CATALOGUE.subBenefits.map((s, i) => subBenefitView(s, i, { number: paying.policyNumber, ...year }));
    return paginate(items, wholeUnlessPaged(request, query, items.length), requestUrl(ctx, request));
  });

  app.get('/patients/benefits/interventions', async (request) => {
    const query = parse(interventionsQuery, request.query, 'query');
    const patient = requirePatient(query.patient_id);
    // An unknown sub-benefit lists nothing (UAT answers [] rather than 400).
    const items = isCovered(patient)
      ? CATALOGUE.interventions.filter(
          (i) => (query.sub_benefit_code === undefined || i.sub_benefit_code === query.sub_benefit_code) && (query.code === undefined || i.intervention_code === query.code),
        )
      : [];
    return paginate(items.map(interventionView), wholeUnlessPaged(request, query, items.length), requestUrl(ctx, request));
  });

  // UAT answered a bare list, one record per limit scope (R); the portal documents one object.
  app.get('/patients/benefits/utilization', async (request) => {
    const query = parse(utilizationQuery, request.query, 'query');
    const patient = requirePatient(query.patient_id);
    const intervention = CATALOGUE.interventionByCode.get(query.intervention_code);
    if (intervention === undefined) throw fail.notFound(`No intervention ${query.intervention_code}`);
    const subBenefit = CATALOGUE.subBenefits.find((s) => s.code === intervention.sub_benefit_code);
    const limit = subBenefit?.cover.limitAmount ?? 0;
    const used = utilised(ctx, patient.crId, intervention.sub_benefit_code);
    const available = Math.max(0, limit - used.amount);
    const next = used.amount < limit ? iso(ctx.now()) : `${policyYear(ctx.now()).end}T23:59:59Z`;
    return [
      {
        code: '200',
        crId: patient.crId,
        limitScope: subBenefit?.cover.limitScope ?? 'INDIVIDUAL',
        householdMaxLimit: limit * 4,
        householdUtilisedLimit: used.amount,
        individualMaxLimit: limit,
        individualUtilisedLimit: used.amount,
        nextAvailability: next,
        utilizationDays: used.days,
        computationalDetail: { eligibility: available > 0, limitAvailableAmount: available, nextAvailableDate: next },
        fundUtilizationLimit: [{ fundType: intervention.fund, maxAmount: limit, utilisedAmount: used.amount, availableAmount: available }],
      },
    ];
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

  // The cover under a consent token (a claim's, or an authorization's before the visit): the
  // principal's CR number and the policy number of one of the member's covering schemes.
  app.post('/authorizations/covers', async (request) => {
    const facility = tenantOf(request);
    const body = parse(coverRequest, request.body);
    const consent = ctx.state.claimByToken(facility.code, body.consent_token) ?? ctx.state.authorizationByToken(facility.code, body.consent_token);
    if (consent?.patient_id == null) throw fail.notFound('No consent with that consent_token at this facility');
    const patient = requirePatient(consent.patient_id);
    const scheme = patient.schemes.find((s) => s.policyNumber === body.policy_number);
    if (scheme === undefined || !scheme.covered || body.principal_cr_id !== patient.crId) {
      throw fail.rule('NOT_COVERED', `Policy ${body.policy_number} of principal ${body.principal_cr_id} does not cover patient ${patient.crId}`);
    }
    ctx.state.covers.set(body.consent_token, scheme.schemeId);
    return { message: `Cover set to ${scheme.schemeName}` };
  });

  app.post('/patients/otp-whitelists', async (request) => {
    const facility = tenantOf(request);
    const { fields, files } = await readMultipart(request);
    const body = parse(whitelistRequest, fields);
    const patient = requirePatient(body.beneficiary_cr_id);
    const described = body.attachments ?? [];
    // A file no attachment names is dropped without complaint, as the exchange does (R).
    const named = files.filter((file) => described.some((a) => a.file_field_name === file.fieldname));
    for (const file of named) checkAttachment(file);
    const record: WhitelistRequest = {
      guid: ctx.rng.uuid(),
      facility: facility.code,
      beneficiary_cr_id: patient.crId,
      reason_type: body.reason_type,
      reason: body.reason,
      biometric_attempts: body.biometric_attempts ?? null,
      attachments: named.map((file) => {
        const meta = described.find((a) => a.file_field_name === file.fieldname);
        return { guid: ctx.rng.uuid(), title: meta?.document_title ?? file.filename, file_name: file.filename, content_type: file.mimetype, size: file.data.length };
      }),
      status: 'PENDING',
      created_at: ctx.now(),
      decided_at: null,
    };
    ctx.state.whitelistRequests.set(record.guid, record);
    return whitelistView(record, facility);
  });

  app.get('/patients/otp-whitelists/callback', async (request) => {
    const facility = tenantOf(request);
    const query = parse(whitelistStatusQuery, request.query, 'query');
    const found = [...ctx.state.whitelistRequests.values()].filter(
      (r) => r.facility === facility.code && r.beneficiary_cr_id === query.beneficiary_cr_id && (query.guid === undefined || r.guid === query.guid),
    );
    const items = found.map((r) => {
      const { reviewerResponseNotes: _notes, attachments: _files, ...entry } = whitelistView(r, facility);
      return {
        ...entry,
        biometricsAttempt: r.biometric_attempts ?? 0,
        created: iso(r.created_at),
        ...(r.decided_at === null ? {} : { reviewedByUser: 'SHA reviewer (sandbox)' }),
        reviewerResponseNotes: r.decided_at === null ? [] : [{ responseNotes: r.status === 'APPROVED' ? 'Approved for OTP consent' : 'Not approved' }],
      };
    });
    return paginate(items, query, requestUrl(ctx, request));
  });

  // The member and the policies' benefits as the portal docs nest them; `balance` is the list of
  // `{member, balance}` R saw on UAT. A non-member is "Not Found" (R).
  app.get('/patients/pomsf-balances', async (request) => {
    const query = parse(pomsfBalanceQuery, request.query, 'query');
    const patient = requirePatient(query.patient_id);
    const scheme = patient.schemes.find((s) => s.code === 'POMSF');
    if (scheme === undefined) throw fail.notFound(`Patient ${patient.crId} is not a POMSF member`);
    if (query.principal_member_number !== undefined && query.principal_member_number !== patient.crId) {
      throw fail.notFound(`No POMSF principal member ${query.principal_member_number} for patient ${patient.crId}`);
    }
    const startYear = query.policy_year === undefined ? Number(policyYear(ctx.now()).start.slice(0, 4)) : Number(query.policy_year);
    const current = startYear === Number(policyYear(ctx.now()).start.slice(0, 4));
    const benefit = (code: string, name: string, type: string, limit: number, used: number) => ({
      benefitCode: code,
      name,
      type,
      benefitShared: 'FAMILY SHARED',
      limit,
      balance: [{ member: patient.crId, balance: limit - used }],
      subBenefit: [],
    });
    const [firstName = '', ...rest] = patient.fullName.split(/\s+/);
    return {
      id: patient.crId,
      memberNumber: patient.crId,
      shaNumber: patient.crId,
      parentNumber: patient.crId,
      relationshipType: 'SELF',
      firstName,
      lastName: rest.at(-1) ?? '',
      memberPolicies: [
        {
          policy: {
            PolicyYear: String(startYear),
            policyCode: scheme.policyNumber,
            name: `${scheme.schemeName} ${startYear}/${startYear + 1}`,
            schemeName: scheme.schemeName,
            status: 'ACTIVE',
            activeDate: `${startYear}-07-01`,
            endDate: `${startYear + 1}-06-30`,
          },
          benefit: [
            benefit('SHA-12', 'Outpatient', 'OUTPATIENT', 100_000, current ? 7_450 : 0),
            benefit('SHA-07', 'Inpatient', 'INPATIENT', 400_000, current ? 30_000 : 0),
          ],
          status: 'ACTIVE',
        },
      ],
      familyMembers: [],
    };
  });
}
