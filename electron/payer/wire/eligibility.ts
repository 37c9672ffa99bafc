// Eligibility and benefits. Eligibility arrives nested (live, [doc]) or flat (the contract); both
// become one Eligibility. Interventions are classified into the contract's scenarios here, once,
// so the station never re-derives them from spellings.
import { z } from 'zod';
import {
  boolean,
  byShape,
  canonicalWord,
  identificationType,
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
  readonly id: string | undefined;
  readonly name: string | undefined;
  readonly memberType: string | undefined;
  readonly covered: boolean;
  readonly coverage: Coverage;
  readonly policyNumber: string | undefined;
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

const scheme = z
  .looseObject({
    schemeName: optionalText,
    schemeId: optionalText,
    memberType: optionalText,
    policy: optional(z.looseObject({ startDate: optionalText, endDate: optionalText, number: optionalText })),
    coverage: optional(
      z.looseObject({
        startDate: optionalText,
        endDate: optionalText,
        message: optionalText,
        reason: optionalText,
        possibleSolution: optionalText,
        status: optional(coverageStatus),
      }),
    ),
  })
  .transform(
    (s): EligibilityScheme => ({
      id: s.schemeId,
      name: s.schemeName,
      memberType: s.memberType,
      covered: s.coverage?.status ?? false,
      coverage: { start: s.coverage?.startDate ?? s.policy?.startDate, end: s.coverage?.endDate ?? s.policy?.endDate },
      policyNumber: s.policy?.number,
      message: s.coverage?.message,
      reason: s.coverage?.reason,
      possibleSolution: s.coverage?.possibleSolution,
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

const nested = z
  .looseObject({
    ...common,
    statusCode: optionalText,
    statusDesc: optionalText,
    schemes: list(scheme),
  })
  .transform((e): Eligibility => {
    const covering = e.schemes.find((s) => s.covered);
    const shown = covering ?? e.schemes[0];
    // "10" found, "00" not found; without a code, a member number means the registry knows them.
    const found = e.statusCode !== undefined ? e.statusCode.trim() === '10' : e.memberCrNumber !== undefined;
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
  readonly code: string;
  readonly name: string | undefined;
  readonly accessPoint: AccessPoint | undefined;
  readonly fund: string | undefined;
  readonly parentBenefitCode: string | undefined;
  readonly cover: Record<string, JsonValue> | undefined;
  readonly allowedInterventions: string[];
}

const subBenefit = z
  .looseObject({
    code: optionalText,
    sub_benefit_code: optionalText,
    name: optionalText,
    accessPoint: optionalText,
    fund: optionalText,
    parentBenefitCode: optionalText,
    cover: optionalRecord,
    allowedInterventions: list(interventionRef),
  })
  .refine((s) => (s.code ?? s.sub_benefit_code) !== undefined, { message: 'sub-benefit without code', path: ['code'] })
  .transform(
    (s): SubBenefit => ({
      code: String(s.code ?? s.sub_benefit_code),
      name: s.name,
      accessPoint: s.accessPoint === undefined ? undefined : normaliseAccessPoint(s.accessPoint),
      fund: s.fund,
      parentBenefitCode: s.parentBenefitCode,
      cover: s.cover,
      allowedInterventions: s.allowedInterventions,
    }),
  );

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

const documentType = z.union([
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

export interface Utilization {
  readonly code: string | undefined;
  readonly crId: string | undefined;
  readonly householdMaxLimit: number | undefined;
  readonly householdUtilisedLimit: number | undefined;
  readonly individualMaxLimit: number | undefined;
  readonly individualUtilisedLimit: number | undefined;
  readonly limitScope: string | undefined;
  readonly nextAvailability: string | undefined;
  readonly utilizationDays: number | undefined;
}

export const utilizationResponse = z
  .looseObject({
    code: optionalText,
    crId: optionalText,
    householdMaxLimit: optionalNumber,
    householdUtilisedLimit: optionalNumber,
    individualMaxLimit: optionalNumber,
    individualUtilisedLimit: optionalNumber,
    limitScope: optionalText,
    nextAvailability: optionalText,
    utilizationDays: optionalNumber,
  })
  .transform(
    (u): Utilization => ({
      code: u.code,
      crId: u.crId,
      householdMaxLimit: u.householdMaxLimit,
      householdUtilisedLimit: u.householdUtilisedLimit,
      individualMaxLimit: u.individualMaxLimit,
      individualUtilisedLimit: u.individualUtilisedLimit,
      limitScope: u.limitScope,
      nextAvailability: u.nextAvailability,
      utilizationDays: u.utilizationDays,
    }),
  );

export const setCoverRequest = z.strictObject({ patient_id: nonEmpty, scheme_id: nonEmpty });

export interface CoverSet {
  readonly message: string | undefined;
  readonly patientId: string | undefined;
  readonly schemeId: string | undefined;
}

export const setCoverResponse = z
  .looseObject({ message: optionalText, patient_id: optionalText, scheme_id: optionalText })
  .transform((c): CoverSet => ({ message: c.message, patientId: c.patient_id, schemeId: c.scheme_id }));

export const pomsfBalanceQuery = z.strictObject({
  patient_id: nonEmpty,
  /** Policy years turn on 1 July: "2025/2026", or "2025" for the year starting 1 July 2025. */
  policy_year: z
    .string()
    .trim()
    .regex(/^\d{4}(\/\d{4})?$/, 'a policy year such as 2025 or 2025/2026')
    .optional(),
  principal_member_number: nonEmpty.optional(),
});

/** The POMSF balance: shape not documented beyond its existence, so it is passed through as JSON. */
export const pomsfBalanceResponse = record;

export const pmfTariffsRequest = z.strictObject({
  fr_code: nonEmpty,
  intervention_codes: z.array(nonEmpty).min(1, 'give at least one intervention code'),
  hcw_identifier_type: nonEmpty,
  hcw_identifier: nonEmpty,
  hcw_regulator: nonEmpty,
});

/** Response [?] in the field notes: any JSON value, unchanged. */
export const pmfTariffsResponse = jsonValue;

