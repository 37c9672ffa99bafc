// Eligibility and benefits (docs/exchange-wire.md, "Eligibility and benefits"). Eligibility arrives
// nested (live: the portal docs, A's types, R's fixture) or flat (the contract); both become one
// Eligibility. Interventions are classified into the contract's scenarios here, once, so the
// station never re-derives them from spellings.
import { z } from 'zod';
import {
  boolean,
  byShape,
  canonicalWord,
  confirmation,
  identificationType,
  oneOrMany,
  interventionRef,
  isRecord,
  jsonValue,
  list,
  nonEmpty,
  number,
  optional,
  optionalBoolean,
  optionalNumber,
  optionalRecord,
  optionalText,
  pageOf,
  pageQuery,
  record,
  text,
  type Confirmation,
  type JsonValue,
} from './common';

// ---------------------------------------------------------------- eligibility

export const eligibilityQuery = z.strictObject({
  identification_number: nonEmpty,
  identification_type: identificationType,
});

export interface Coverage {
  readonly start: string | undefined;
  readonly end: string | undefined;
}

export interface EligibilityScheme {
  /** `schemeId`: a number on the wire (A, R's fixture, the docs), read as text. */
  readonly id: string | undefined;
  readonly name: string | undefined;
  readonly memberType: string | undefined;
  readonly covered: boolean;
  readonly coverage: Coverage;
  /** `policy.number`: with the principal's CR number, what POST /authorizations/covers names. */
  readonly policyNumber: string | undefined;
  /** `principalContributor.crNumber`: the principal whose cover a dependant draws on. */
  readonly principalCrNumber: string | undefined;
  readonly message: string | undefined;
  readonly reason: string | undefined;
  readonly possibleSolution: string | undefined;
}

export interface Eligibility {
  /** The registry knows the person (statusCode "10"). */
  readonly found: boolean;
  /** At least one scheme covers them today (coverage status 1). */
  readonly covered: boolean;
  readonly fullName: string | undefined;
  readonly crNumber: string | undefined;
  readonly memberType: string | undefined;
  /** Coverage of the covering scheme (or of the first scheme when none covers). */
  readonly coverage: Coverage;
  readonly message: string | undefined;
  readonly reason: string | undefined;
  readonly possibleSolution: string | undefined;
  readonly whitelistedForOTP: boolean;
  /** Undefined when the exchange did not say (the contract's flat shape). */
  readonly facilityBiometricsEnforced: boolean | undefined;
  readonly schemes: EligibilityScheme[];
  readonly dateOfBirth: string | undefined;
  readonly gender: string | undefined;
  readonly requestIdNumber: string | undefined;
  readonly requestIdType: string | undefined;
  readonly facilityContracts: JsonValue[];
}

/** Coverage status: 1 covered, 0 not; some services send "1", true or "ACTIVE". */
const coverageStatus = z.union([
  boolean,
  number.transform((n) => n === 1),
  z.string().transform((s) => ['ACTIVE', 'COVERED'].includes(canonicalWord(s))),
]);

// A scheme without its coverage status cannot say whether it covers: that is unreadable, not "no".
const scheme = z
  .looseObject({
    schemeName: optionalText,
    schemeId: optionalText,
    memberType: optionalText,
    policy: optional(z.looseObject({ startDate: optionalText, endDate: optionalText, number: optionalText })),
    coverage: z.looseObject({
      startDate: optionalText,
      endDate: optionalText,
      message: optionalText,
      reason: optionalText,
      possibleSolution: optionalText,
      status: coverageStatus,
    }),
    principalContributor: optional(z.looseObject({ crNumber: optionalText })),
  })
  .transform(
    (s): EligibilityScheme => ({
      id: s.schemeId,
      name: s.schemeName,
      memberType: s.memberType,
      covered: s.coverage.status,
      coverage: { start: s.coverage.startDate ?? s.policy?.startDate, end: s.coverage.endDate ?? s.policy?.endDate },
      policyNumber: s.policy?.number,
      principalCrNumber: s.principalContributor?.crNumber,
      message: s.coverage.message,
      reason: s.coverage.reason,
      possibleSolution: s.coverage.possibleSolution,
    }),
  );

const common = {
  requestIdType: optionalText,
  requestIdNumber: optionalText,
  memberCrNumber: optionalText,
  fullName: optionalText,
  memberType: optionalText,
  message: optionalText,
  reason: optionalText,
  possibleSolution: optionalText,
  whitelistedForOTP: optionalBoolean,
  facilityBiometricsEnforced: optionalBoolean,
  facilityContracts: list(jsonValue),
  dateOfBirth: optionalText,
  gender: optionalText,
};

// `statusCode` is what says whether the registry knows the person ("10" found, "00" not found):
// an answer without it is unreadable rather than "not found".
const nested = z
  .looseObject({
    ...common,
    statusCode: text,
    statusDesc: optionalText,
    schemes: list(scheme),
  })
  .transform((e): Eligibility => {
    const covering = e.schemes.find((s) => s.covered);
    const shown = covering ?? e.schemes[0];
    const found = e.statusCode.trim() === '10';
    return {
      found,
      covered: covering !== undefined,
      fullName: e.fullName,
      crNumber: e.memberCrNumber,
      memberType: shown?.memberType ?? e.memberType,
      coverage: shown?.coverage ?? { start: undefined, end: undefined },
      message: shown?.message ?? e.message ?? e.statusDesc,
      reason: shown?.reason ?? e.reason,
      possibleSolution: shown?.possibleSolution ?? e.possibleSolution,
      whitelistedForOTP: e.whitelistedForOTP ?? false,
      facilityBiometricsEnforced: e.facilityBiometricsEnforced,
      schemes: e.schemes,
      dateOfBirth: e.dateOfBirth,
      gender: e.gender,
      requestIdNumber: e.requestIdNumber,
      requestIdType: e.requestIdType,
      facilityContracts: e.facilityContracts,
    };
  });

const flat = z
  .looseObject({
    ...common,
    status: coverageStatus,
    coverageStartDate: optionalText,
    coverageEndDate: optionalText,
    coverageType: list(z.unknown()),
  })
  .transform(
    (e): Eligibility => ({
      found: e.memberCrNumber !== undefined || e.fullName !== undefined || e.status,
      covered: e.status,
      fullName: e.fullName,
      crNumber: e.memberCrNumber,
      memberType: e.memberType,
      coverage: { start: e.coverageStartDate, end: e.coverageEndDate },
      message: e.message,
      reason: e.reason,
      possibleSolution: e.possibleSolution,
      whitelistedForOTP: e.whitelistedForOTP ?? false,
      facilityBiometricsEnforced: e.facilityBiometricsEnforced,
      schemes: [],
      dateOfBirth: e.dateOfBirth,
      gender: e.gender,
      requestIdNumber: e.requestIdNumber,
      requestIdType: e.requestIdType,
      facilityContracts: e.facilityContracts,
    }),
  );

/** Nested when it carries `schemes` or `statusCode`; flat (the contract's `status`) otherwise. */
export const eligibilityResponse = byShape<Eligibility>((value) =>
  isRecord(value) && (value.schemes !== undefined || value.statusCode !== undefined) ? nested : flat,
);

// ---------------------------------------------------------------- sub-benefits

export const subBenefitsQuery = z.strictObject({ patient_id: nonEmpty, ...pageQuery });

export type AccessPoint = 'OP' | 'IP' | 'OP_AND_IP' | (string & {});

/** "OP and IP", "IP/OP", "INPATIENT" … → OP, IP or OP_AND_IP. */
export function normaliseAccessPoint(value: string): AccessPoint {
  const word = canonicalWord(value);
  const op = /(^|_)(OP|OUTPATIENT)(_|$)/.test(word);
  const ip = /(^|_)(IP|INPATIENT)(_|$)/.test(word);
  if (op && ip) return 'OP_AND_IP';
  if (op) return 'OP';
  if (ip) return 'IP';
  return word;
}

export interface SubBenefit {
  /** The code the interventions call takes as `sub_benefit_code`. */
  readonly code: string;
  readonly name: string | undefined;
  readonly accessPoint: AccessPoint | undefined;
  readonly fund: string | undefined;
  readonly parentBenefitCode: string | undefined;
  readonly cover: Record<string, JsonValue> | undefined;
  readonly allowedInterventions: string[];
}

// camelCase on the exchange (the portal docs, R's fixture and schema); K's types spell
// access_point and parent_benefit_code; the contract calls the code sub_benefit_code.
const subBenefit = z
  .looseObject({
    code: optionalText,
    sub_benefit_code: optionalText,
    name: optionalText,
    accessPoint: optionalText,
    access_point: optionalText,
    fund: optionalText,
    parentBenefitCode: optionalText,
    parent_benefit_code: optionalText,
    cover: optionalRecord,
    allowedInterventions: list(interventionRef),
  })
  .refine((s) => (s.code ?? s.sub_benefit_code) !== undefined, { message: 'sub-benefit without code', path: ['code'] })
  .transform((s): SubBenefit => {
    const accessPoint = s.accessPoint ?? s.access_point;
    return {
      code: String(s.code ?? s.sub_benefit_code),
      name: s.name,
      accessPoint: accessPoint === undefined ? undefined : normaliseAccessPoint(accessPoint),
      fund: s.fund,
      parentBenefitCode: s.parentBenefitCode ?? s.parent_benefit_code,
      cover: s.cover,
      allowedInterventions: s.allowedInterventions,
    };
  });

export const subBenefitsResponse = pageOf(subBenefit);

// ---------------------------------------------------------------- interventions

/**
 * One sub-benefit's interventions: `sub_benefit_code` is required (R docs, K, R `interventions()`);
 * A also looks one intervention up by `code` alone, so one of the two must be given. `page` goes
 * out only for pages the exchange said exist (it serves a sub-benefit's list as one page).
 */
export const interventionsQuery = z
  .strictObject({
    patient_id: nonEmpty,
    sub_benefit_code: nonEmpty.optional(),
    code: nonEmpty.optional(),
    ...pageQuery,
  })
  .superRefine((v, ctx) => {
    if (v.sub_benefit_code === undefined && v.code === undefined) {
      ctx.addIssue({ code: 'custom', path: ['sub_benefit_code'], message: 'give the sub-benefit whose interventions are wanted (or one intervention code)' });
    }
  });

export type PaymentMechanism =
  | 'FEE_FOR_SERVICE'
  | 'FIXED_FEE_FOR_SERVICE'
  | 'CAPITATION'
  | 'CASE_BASED'
  | 'PER_DIEM'
  | (string & {});

/** FEE FOR SERVICE, Fee_for_service, "per diem", PERDIEM … → the canonical spelling. */
export function normalisePaymentMechanism(value: string): PaymentMechanism {
  const word = canonicalWord(value);
  if (word === 'PERDIEM') return 'PER_DIEM';
  if (word === 'CASEBASED') return 'CASE_BASED';
  if (word === 'FEEFORSERVICE') return 'FEE_FOR_SERVICE';
  return word;
}

/** The contract's scenarios, recognised from the coverage flags (service-interface.md, "Scenarios"). */
export type InterventionScenario =
  | 'emergency'
  | 'elective-preauth'
  | 'capitation'
  | 'per-diem'
  | 'preauth-required'
  | 'case-based'
  | 'fee-for-service'
  | 'unrecognised';

export interface InterventionFlags {
  readonly code: string;
  readonly paymentMechanism: PaymentMechanism | undefined;
  readonly needsPreauth: boolean;
  readonly needsManualPreauthApproval: boolean;
}

/**
 * Emergency first (the SHA-01 prefix overrides everything: doctor consent, no preauth), then an
 * elective preauth (both preauth flags), then by payment mechanism.
 */
export function recogniseScenario(i: InterventionFlags): InterventionScenario {
  if (/^SHA-01(\b|-|$)/i.test(i.code.trim())) return 'emergency';
  if (i.needsPreauth && i.needsManualPreauthApproval) return 'elective-preauth';
  if (i.paymentMechanism === 'CAPITATION') return 'capitation';
  if (i.paymentMechanism === 'PER_DIEM') return 'per-diem';
  if (i.needsPreauth) return 'preauth-required';
  if (i.paymentMechanism === 'CASE_BASED') return 'case-based';
  if (i.paymentMechanism === 'FEE_FOR_SERVICE' || i.paymentMechanism === 'FIXED_FEE_FOR_SERVICE') return 'fee-for-service';
  return 'unrecognised';
}

export interface Intervention extends InterventionFlags {
  readonly name: string | undefined;
  readonly scenario: InterventionScenario;
  readonly accessPoint: AccessPoint | undefined;
  readonly needsDoctorAuthorization: boolean;
  readonly applicableDocumentTypes: string[];
  readonly requiredPreauthDocumentTypes: string[];
  readonly protocolCode: string | undefined;
  readonly applicableTariff: number | undefined;
  /** `kephLevelTarriff` on the wire (sic). */
  readonly kephLevelTariff: number | undefined;
  /** `overallTariff` on the wire. */
  readonly tariff: number | undefined;
  readonly fund: string | undefined;
}

/** A document type: a bare code, or an object carrying one. */
export const documentType = z.union([
  z.string(),
  z
    .looseObject({ code: optionalText, name: optionalText, document_type: optionalText })
    .transform((d) => d.code ?? d.document_type ?? d.name ?? ''),
]);

const intervention = z
  .looseObject({
    code: optionalText,
    intervention_code: optionalText,
    name: optionalText,
    paymentMechanism: optionalText,
    needsPreauth: optionalBoolean,
    needsManualPreauthApproval: optionalBoolean,
    needsDoctorAuthorization: optionalBoolean,
    accessPoint: optionalText,
    applicableDocumentTypes: list(documentType),
    requiredPreauthDocumentTypes: list(documentType),
    protocolCode: optionalText,
    applicableTariff: optionalNumber,
    kephLevelTarriff: optionalNumber,
    overallTariff: optionalNumber,
    fund: optionalText,
  })
  .refine((i) => (i.code ?? i.intervention_code) !== undefined, { message: 'intervention without code', path: ['code'] })
  .transform((i): Intervention => {
    const flags: InterventionFlags = {
      code: String(i.code ?? i.intervention_code),
      paymentMechanism: i.paymentMechanism === undefined ? undefined : normalisePaymentMechanism(i.paymentMechanism),
      needsPreauth: i.needsPreauth ?? false,
      needsManualPreauthApproval: i.needsManualPreauthApproval ?? false,
    };
    return {
      ...flags,
      name: i.name,
      scenario: recogniseScenario(flags),
      accessPoint: i.accessPoint === undefined ? undefined : normaliseAccessPoint(i.accessPoint),
      needsDoctorAuthorization: i.needsDoctorAuthorization ?? false,
      applicableDocumentTypes: i.applicableDocumentTypes.filter((d) => d !== ''),
      requiredPreauthDocumentTypes: i.requiredPreauthDocumentTypes.filter((d) => d !== ''),
      protocolCode: i.protocolCode,
      applicableTariff: i.applicableTariff,
      kephLevelTariff: i.kephLevelTarriff,
      tariff: i.overallTariff,
      fund: i.fund,
    };
  });

/** A page [doc], or a bare list (UAT answers `[]` for an unknown sub-benefit). */
export const interventionsResponse = pageOf(intervention);

// ---------------------------------------------------------------- utilization, covers, POMSF

export const utilizationQuery = z.strictObject({ patient_id: nonEmpty, intervention_code: nonEmpty });

export interface FundLimit {
  readonly fundType: string | undefined;
  readonly maxAmount: number | undefined;
  readonly utilisedAmount: number | undefined;
  readonly availableAmount: number | undefined;
}

/** One utilization record: the portal documents one object, UAT answered one per `limitScope`. */
export interface Utilization {
  readonly code: string | undefined;
  readonly crId: string | undefined;
  readonly limitScope: string | undefined;
  readonly householdMaxLimit: number | undefined;
  readonly householdUtilisedLimit: number | undefined;
  readonly individualMaxLimit: number | undefined;
  readonly individualUtilisedLimit: number | undefined;
  readonly nextAvailability: string | undefined;
  readonly utilizationDays: number | undefined;
  /** `computationalDetail.eligibility`: undefined when the exchange did not say. */
  readonly eligible: boolean | undefined;
  readonly limitAvailableAmount: number | undefined;
  readonly nextAvailableDate: string | undefined;
  readonly funds: FundLimit[];
}

const fundLimit = z
  .looseObject({ fundType: optionalText, maxAmount: optionalNumber, utilisedAmount: optionalNumber, availableAmount: optionalNumber })
  .transform((f): FundLimit => ({ fundType: f.fundType, maxAmount: f.maxAmount, utilisedAmount: f.utilisedAmount, availableAmount: f.availableAmount }));

const utilization = z
  .looseObject({
    code: optionalText,
    crId: optionalText,
    limitScope: optionalText,
    householdMaxLimit: optionalNumber,
    householdUtilisedLimit: optionalNumber,
    individualMaxLimit: optionalNumber,
    individualUtilisedLimit: optionalNumber,
    nextAvailability: optionalText,
    utilizationDays: optionalNumber,
    computationalDetail: optional(z.looseObject({ eligibility: optionalBoolean, limitAvailableAmount: optionalNumber, nextAvailableDate: optionalText })),
    fundUtilizationLimit: list(fundLimit),
  })
  .transform(
    (u): Utilization => ({
      code: u.code,
      crId: u.crId,
      limitScope: u.limitScope,
      householdMaxLimit: u.householdMaxLimit,
      householdUtilisedLimit: u.householdUtilisedLimit,
      individualMaxLimit: u.individualMaxLimit,
      individualUtilisedLimit: u.individualUtilisedLimit,
      nextAvailability: u.nextAvailability,
      utilizationDays: u.utilizationDays,
      eligible: u.computationalDetail?.eligibility,
      limitAvailableAmount: u.computationalDetail?.limitAvailableAmount,
      nextAvailableDate: u.computationalDetail?.nextAvailableDate,
      funds: u.fundUtilizationLimit,
    }),
  );

/** One object (the portal docs), a bare list of them (R, observed on UAT) or `{results: […]}`. */
export const utilizationResponse = oneOrMany(utilization);

/**
 * POST /authorizations/covers (R `set_coverage()`, K `lockCover`): which of a member's schemes
 * pays for the care under a consent token, named by the principal's CR number and the policy.
 */
export const setCoverRequest = z.strictObject({
  consent_token: nonEmpty,
  principal_cr_id: nonEmpty,
  policy_number: nonEmpty,
});

/** No source reads the answer (R checks the status only): any 2xx is the cover set. */
export const setCoverResponse: z.ZodType<Confirmation> = confirmation;

export const pomsfBalanceQuery = z.strictObject({
  patient_id: nonEmpty,
  /** Required by the portal docs and always sent by R: the year the policy year starts in (they turn on 1 July). */
  policy_year: z.string().trim().regex(/^\d{4}$/, 'the year the policy year starts in, such as 2025 (policy years turn on 1 July)'),
  /** A dependant draws on the principal's pot: the principal's member (CR) number. */
  principal_member_number: nonEmpty.optional(),
});

export interface PomsfBalanceEntry {
  /** The member drawing on the pot (an opaque id on UAT). */
  readonly member: string | undefined;
  /** Undefined when not stated: never read as zero. */
  readonly balance: number | undefined;
}

export interface PomsfBenefit {
  readonly code: string | undefined;
  readonly name: string | undefined;
  /** OUTPATIENT / INPATIENT. */
  readonly type: string | undefined;
  /** `FAMILY SHARED`: the entries of `balances` are one pot seen from several members. */
  readonly shared: string | undefined;
  readonly limit: number | undefined;
  readonly balances: PomsfBalanceEntry[];
  readonly subBenefits: PomsfBenefit[];
}

export interface PomsfPolicy {
  readonly policyCode: string | undefined;
  readonly name: string | undefined;
  readonly schemeName: string | undefined;
  readonly status: string | undefined;
  readonly policyYear: string | undefined;
  readonly benefits: PomsfBenefit[];
}

export interface PomsfBalance {
  readonly memberNumber: string | undefined;
  readonly parentMemberNumber: string | undefined;
  readonly relationshipType: string | undefined;
  readonly policies: PomsfPolicy[];
  /** The whole answer, for what is not modelled (family members, demographics). */
  readonly raw: Record<string, JsonValue>;
}

const pomsfBalanceEntry = z
  .looseObject({ member: optionalText, balance: optionalNumber })
  .transform((b): PomsfBalanceEntry => ({ member: b.member, balance: b.balance }));

// `balance` is a list on UAT (R `domain/pomsf.py`); the docs show it as `[]`. A benefit's
// `subBenefit` entries have the same shape with `subBenefitCode`.
const pomsfBenefit: z.ZodType<PomsfBenefit> = z.lazy(() =>
  z
    .looseObject({
      benefitCode: optionalText,
      subBenefitCode: optionalText,
      name: optionalText,
      type: optionalText,
      benefitShared: optionalText,
      subBenefitShared: optionalText,
      limit: optionalNumber,
      balance: list(pomsfBalanceEntry),
      subBenefit: list(pomsfBenefit),
    })
    .transform(
      (b): PomsfBenefit => ({
        code: b.benefitCode ?? b.subBenefitCode,
        name: b.name,
        type: b.type,
        shared: b.benefitShared ?? b.subBenefitShared,
        limit: b.limit,
        balances: b.balance,
        subBenefits: b.subBenefit,
      }),
    ),
);

const pomsfPolicy = z
  .looseObject({
    policy: optional(z.looseObject({ policyCode: optionalText, name: optionalText, schemeName: optionalText, status: optionalText, PolicyYear: optionalText })),
    benefit: list(pomsfBenefit),
  })
  .transform(
    (p): PomsfPolicy => ({
      policyCode: p.policy?.policyCode,
      name: p.policy?.name,
      schemeName: p.policy?.schemeName,
      status: p.policy?.status,
      policyYear: p.policy?.PolicyYear,
      benefits: p.benefit,
    }),
  );

const pomsfMember = z.looseObject({
  memberNumber: optionalText,
  shaNumber: optionalText,
  parentNumber: optionalText,
  relationshipType: optionalText,
  memberPolicies: z.array(pomsfPolicy),
});

/** The member with their policies (`memberPolicies` required: without it the answer says nothing). */
export const pomsfBalanceResponse = record.transform((raw, ctx): PomsfBalance => {
  const parsed = pomsfMember.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: [...issue.path], message: issue.message, input: raw });
    return z.NEVER;
  }
  const m = parsed.data;
  return {
    memberNumber: m.memberNumber ?? m.shaNumber,
    parentMemberNumber: m.parentNumber,
    relationshipType: m.relationshipType,
    policies: m.memberPolicies,
    raw,
  };
});

export const pmfTariffsRequest = z.strictObject({
  fr_code: nonEmpty,
  intervention_codes: z.array(nonEmpty).min(1, 'give at least one intervention code'),
  hcw_identifier_type: nonEmpty,
  hcw_identifier: nonEmpty,
  hcw_regulator: nonEmpty,
});

/** Response [?] in the field notes: any JSON value, unchanged. */
export const pmfTariffsResponse = jsonValue;
