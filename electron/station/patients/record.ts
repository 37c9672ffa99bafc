// The patient as the station keeps them between a look-up and the workflows that follow: read from
// the eligibility answer, sealed on disk for a day, and shown to the screens as the contract's
// summary (with the consent route the facts allow).
import type { z } from 'zod';
import type { PatientIdentity, patientSummary, scheme as schemeSchema } from '../../contract';
import type { Eligibility } from '../../payer';
import { maskIdNumber, maskName } from '../masking';
import { decideRoute } from '../route';
import type { InterventionBrief, PatientInHandRecord, ServiceType, SmsContact } from '../workflows/types';
import { text } from './text';

export type PatientSummary = z.infer<typeof patientSummary>;
type Scheme = z.infer<typeof schemeSchema>;
export type IdType = PatientSummary['idType'];

export interface StoredPatient {
  ref: string;
  lookedUpAt: string;
  idType: IdType;
  /** secret */
  idNumber: string;
  /** secret: the client registry id. */
  patientId: string;
  /** secret: kept only to teach the scrubber after a restart. */
  fullName: string | null;
  maskedName: string;
  ageYears: number | null;
  /** secret: the sex and date of birth eligibility gave, for the nurse's check of the patient in hand; absent in patients stored before. */
  sex?: PatientIdentity['sex'];
  dateOfBirth?: string | null;
  covered: boolean;
  message: string | null;
  reason: string | null;
  possibleSolution: string | null;
  schemes: Scheme[];
  /**
   * secret: what POST /authorizations/covers names for each scheme (the principal's CR number and
   * the policy). Absent in patients stored before the covers call took a consent token.
   */
  coverKeys?: CoverKey[];
  chosenSchemeId: string | null;
  memberType: string | null;
  coverageStart: string | null;
  coverageEnd: string | null;
  whitelisted: boolean;
  /** Unknown (undefined) is not kept: a record read back has no such key. */
  biometricsEnforced?: boolean | undefined;
  contractedFunds: string[] | null;
  contacts: SmsContact[];
  serviceType: ServiceType;
  suggested: InterventionBrief | null;
  /** End of the SMS window after BIOMETRICS_NOT_FOUND_OTP_ALLOWED (ms), shared by this patient's workflows. */
  unusableUntil: number | null;
  /** The contacts and the suggestion are in (covered patients); absent in patients stored before it was kept: true. */
  detailsLoaded?: boolean;
}

/** The cover a member under two schemes chose, as the covers call names it. */
interface CoverKey {
  readonly schemeId: string;
  readonly principalCrId: string | null;
  readonly policyNumber: string | null;
}

/** A freshly looked-up patient: what eligibility said, nothing of consent known yet. */
export function recordOf(
  e: Eligibility,
  found: { readonly ref: string; readonly idType: IdType; readonly idNumber: string; readonly patientId: string; readonly serviceType: ServiceType; readonly now: number },
): StoredPatient {
  const schemeIdOf = (s: Eligibility['schemes'][number], index: number) => (s.id ?? s.name ?? `scheme-${index + 1}`).slice(0, 100);
  const schemes: Scheme[] = e.schemes.slice(0, 10).map((s, index) => ({
    schemeId: schemeIdOf(s, index),
    name: text(s.name, 200) ?? text(s.id, 200) ?? `Scheme ${index + 1}`,
    memberType: text(s.memberType, 100),
    covered: s.covered,
    coverageStart: dateOf(s.coverage.start),
    coverageEnd: dateOf(s.coverage.end),
    reason: text(s.reason, 500),
    possibleSolution: text(s.possibleSolution, 500),
  }));
  const covering = schemes.filter((s) => s.covered);
  const chosen = covering.length === 1 ? covering[0]! : null;
  return {
    ref: found.ref,
    lookedUpAt: new Date(found.now).toISOString(),
    idType: found.idType,
    idNumber: found.idNumber,
    patientId: found.patientId,
    fullName: e.fullName ?? null,
    maskedName: maskName(e.fullName),
    ageYears: ageOf(e.dateOfBirth, found.now),
    sex: sexOf(e.gender),
    dateOfBirth: dateOf(e.dateOfBirth),
    covered: e.covered,
    message: text(e.message, 500),
    reason: e.covered ? null : text(e.reason, 500),
    possibleSolution: e.covered ? null : text(e.possibleSolution, 500),
    schemes,
    coverKeys: e.schemes.slice(0, 10).map((s, index) => ({ schemeId: schemeIdOf(s, index), principalCrId: s.principalCrNumber ?? null, policyNumber: s.policyNumber ?? null })),
    chosenSchemeId: chosen?.schemeId ?? null,
    memberType: text(e.memberType, 100),
    coverageStart: dateOf(e.coverage.start),
    coverageEnd: dateOf(e.coverage.end),
    whitelisted: e.whitelistedForOTP,
    biometricsEnforced: e.facilityBiometricsEnforced,
    contractedFunds: fundsOf(e.facilityContracts),
    contacts: [],
    serviceType: found.serviceType,
    suggested: null,
    unusableUntil: null,
    detailsLoaded: !e.covered,
  };
}

export function twoCover(e: StoredPatient): boolean {
  return e.schemes.filter((s) => s.covered).length > 1;
}

export function schemeChoiceNeeded(e: StoredPatient): boolean {
  return e.chosenSchemeId === null && twoCover(e);
}

/** The patient as the screens see it, with the consent route the facts allow at `now`. */
export function summaryOf(e: StoredPatient, now: number): PatientSummary {
  const route = decideRoute({
    purpose: 'visit',
    biometricsEnforced: e.biometricsEnforced,
    whitelisted: e.whitelisted,
    hasPhone: e.contacts.length > 0,
    fingerprintsUnusableUntil: e.unusableUntil ?? undefined,
    now,
  });
  return {
    patientRef: e.ref,
    identity: identityOf(e),
    maskedName: e.maskedName,
    idType: e.idType,
    maskedIdNumber: maskIdNumber(e.idNumber),
    ageYears: e.ageYears,
    covered: e.covered,
    message: e.message,
    reason: e.reason,
    possibleSolution: e.possibleSolution,
    schemes: e.schemes,
    chosenSchemeId: e.chosenSchemeId,
    schemeChoiceNeeded: schemeChoiceNeeded(e),
    memberType: e.memberType,
    coverageStart: e.coverageStart,
    coverageEnd: e.coverageEnd,
    badges: { smsCodeAllowed: e.covered && route.smsAllowed, fingerprintRequired: e.covered && !route.smsAllowed },
    hasPhone: e.contacts.length > 0,
    suggestedIntervention: e.suggested,
    detailsLoading: e.covered && e.detailsLoaded === false,
    lookedUpAt: e.lookedUpAt,
  };
}

/** What a workflow keeps of the patient in full for its banner: the look-up's check, the scheme in use. */
export function inHandOf(e: StoredPatient): PatientInHandRecord {
  const scheme = e.schemes.find((s) => s.schemeId === e.chosenSchemeId) ?? null;
  const identity = identityOf(e);
  return { fullName: identity.fullName, sex: identity.sex, dateOfBirth: identity.dateOfBirth, idType: e.idType, idNumberEnd: identity.idNumberEnd, scheme: scheme?.name ?? null };
}

function dateOf(value: string | undefined): string | null {
  const match = /^(\d{4}-\d{2}-\d{2})/.exec(value ?? '');
  return match?.[1] ?? null;
}

/** The patient in hand in full, for the nurse's check (contract: patientIdentity). */
function identityOf(e: StoredPatient): PatientIdentity {
  return { fullName: text(e.fullName ?? undefined, 200), sex: e.sex ?? null, dateOfBirth: e.dateOfBirth ?? null, idNumberEnd: idNumberEndOf(e.idNumber) };
}

/** `gender` as the exchange spells it (Female, MALE, F, …); anything else is not guessed at. */
function sexOf(gender: string | undefined): PatientIdentity['sex'] {
  const value = gender?.trim().toUpperCase() ?? '';
  if (value === 'F' || value === 'FEMALE') return 'female';
  if (value === 'M' || value === 'MALE') return 'male';
  return null;
}

/** The ID number's last characters for the nurse's check: four at most, never more than half of it. */
function idNumberEndOf(idNumber: string): string {
  const value = idNumber.trim();
  return value.slice(-Math.max(1, Math.min(4, Math.floor(value.length / 2))));
}

export function ageOf(dateOfBirth: string | undefined, now: number): number | null {
  const dob = dateOf(dateOfBirth);
  if (dob === null) return null;
  const birth = new Date(`${dob}T00:00:00Z`);
  const today = new Date(now);
  let age = today.getUTCFullYear() - birth.getUTCFullYear();
  if (today.getUTCMonth() < birth.getUTCMonth() || (today.getUTCMonth() === birth.getUTCMonth() && today.getUTCDate() < birth.getUTCDate())) age -= 1;
  return age >= 0 && age <= 150 ? age : null;
}

/** The funds the facility is contracted for, from `facilityContracts` ([{fund, status}] or ["SHIF"]); null when not said. */
function fundsOf(contracts: readonly unknown[]): string[] | null {
  const funds = contracts.flatMap((c) => {
    if (typeof c === 'string') return [c.toUpperCase()];
    if (typeof c === 'object' && c !== null && typeof (c as { fund?: unknown }).fund === 'string') {
      const status = (c as { status?: unknown }).status;
      return status === undefined || status === null || String(status).toUpperCase() === 'ACTIVE' ? [String((c as { fund: string }).fund).toUpperCase()] : [];
    }
    return [];
  });
  return funds.length === 0 ? null : funds;
}
