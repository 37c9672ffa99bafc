// Consent rules shared by the OTP, authorize, visit, discharge and emergency routes: who may
// consent how, the SMS outbox, OTP checks, biometric authorizations and fingerprint matching (one
// function for the authorization page and the control API).
import { MINUTE, iso } from '../clock';
import type { SandboxContext } from '../context';
import { fail } from '../errors';
import { CATALOGUE, allowsInpatient, allowsOutpatient, isEmergencyIntervention, normalisedMechanism, type Intervention } from '../world/catalogue';
import type { Facility } from '../world/facilities';
import { matchFinger } from '../world/fingerprints';
import { maskPhone, patientByCrId, type DemoPatient, type Scheme } from '../world/patients';
import type { Professional } from '../world/professionals';
import type { AuthorizationPhase, AuthorizationRecord, OtpPurpose, OtpRecord } from './store';

export const OTP_TTL_MS = 5 * MINUTE;
export const AUTHORIZATION_TTL_MS = 10 * MINUTE;
export const FALLBACK_WINDOW_MS = 15 * MINUTE;
export const MAX_MISMATCHES = 3;

export function requirePatient(crId: string): DemoPatient {
  const patient = patientByCrId(crId);
  if (patient === undefined) throw fail.notFound(`No patient with client registry id ${crId}`);
  return patient;
}

/**
 * A scheme that covers the patient, or NOT_COVERED. Which of several pays is chosen after consent,
 * under its consent token (POST /authorizations/covers, R and K): consent itself does not wait
 * for it; submitting the claim does (`requireCoverSet`).
 */
export function effectiveScheme(_ctx: SandboxContext, patient: DemoPatient): Scheme {
  const first = patient.schemes.find((s) => s.covered);
  if (first === undefined) {
    const scheme = patient.schemes[0];
    throw fail.rule('NOT_COVERED', `Patient ${patient.crId} is not covered: ${scheme?.reason ?? 'no active scheme'}`, [
      { reason: scheme?.reason ?? '', possibleSolution: scheme?.possibleSolution ?? '' },
    ]);
  }
  return first;
}

/**
 * A claim of a member covered under several schemes is submitted (or discharged) only once the
 * cover is set for its consent token: COVER_NOT_SET otherwise (ours: no source shows what the live
 * service does without it).
 */
export function requireCoverSet(ctx: SandboxContext, claim: { consent_token: string; patient_id: string | null }): void {
  const patient = claim.patient_id === null ? undefined : patientByCrId(claim.patient_id);
  const covering = patient?.schemes.filter((s) => s.covered) ?? [];
  if (covering.length < 2 || ctx.state.covers.has(claim.consent_token)) return;
  throw fail.rule('COVER_NOT_SET', `Patient ${claim.patient_id ?? ''} is covered under ${covering.length} schemes: set the cover for this claim with POST /api/v1/authorizations/covers first`, [
    { policies: covering.map((s) => s.policyNumber) },
  ]);
}

export function requireInterventions(codes: readonly string[]): Intervention[] {
  return [...new Set(codes)].map((code) => {
    const intervention = CATALOGUE.interventionByCode.get(code);
    if (intervention === undefined) throw fail.rule('INTERVENTION_NOT_ALLOWED', `Intervention ${code} is not among the member's benefits`);
    return intervention;
  });
}

/** Outpatient visits take OP interventions, inpatient IP ones, emergency SHA-01 ones. */
export function requireFitsServiceType(interventions: readonly Intervention[], serviceType: string): void {
  for (const i of interventions) {
    const fits =
      serviceType === 'INPATIENT'
        ? allowsInpatient(i)
        : serviceType === 'EMERGENCY'
          ? isEmergencyIntervention(i)
          : allowsOutpatient(i) && !isEmergencyIntervention(i);
    if (!fits) {
      throw fail.rule('INTERVENTION_NOT_ALLOWED', `Intervention ${i.intervention_code} (access point ${i.accessPoint}) does not fit a ${serviceType} visit`);
    }
  }
}

/**
 * A capitation intervention is refused under OUTPATIENT: it needs service_type CAPITATION, on the
 * authorize and the visit alike (R WORKFLOWS, UAT's words). Answered 400 naming service_type.
 */
export function requireCapitationServiceType(interventions: readonly Intervention[], serviceType: string): void {
  if (serviceType !== 'OUTPATIENT') return;
  const capitation = interventions.find((i) => normalisedMechanism(i) === 'CAPITATION');
  if (capitation !== undefined) {
    throw fail.field(
      'service_type',
      `Kindly note the intervention ${capitation.name}(${capitation.intervention_code}) is not supported for service type OUTPATIENT: use CAPITATION`,
    );
  }
}

export function isWhitelisted(ctx: SandboxContext, patient: DemoPatient): boolean {
  return patient.whitelistedForOTP || ctx.state.whitelisted.has(patient.crId);
}

export function openFallbackUntil(ctx: SandboxContext, facility: Facility, crId: string): number | null {
  const until = ctx.state.fallbackUntil.get(`${facility.code}|${crId}`);
  return until !== undefined && until > ctx.now() ? until : null;
}

/** OTP consent where biometrics are enforced needs a whitelist or an open fallback window. */
export function requireOtpConsentAllowed(ctx: SandboxContext, facility: Facility, patient: DemoPatient): void {
  if (!facility.biometricsEnforced || isWhitelisted(ctx, patient) || openFallbackUntil(ctx, facility, patient.crId) !== null) return;
  throw fail.rule(
    'BIOMETRICS_REQUIRED',
    `${facility.name} enforces biometric consent and patient ${patient.crId} is not whitelisted for OTP: verify by fingerprint`,
  );
}

/**
 * A PENDING biometric authorization blocks the OTP path until it is rejected or expires ("Kindly
 * ensure the biometrics visit has been successfully verified", R WORKFLOWS §9). One waiting for the
 * SMS code its own authorize texted does not: the code is that path.
 */
export function requireNoPendingAuthorization(ctx: SandboxContext, facility: Facility, crId: string): void {
  ctx.sweep();
  for (const a of ctx.state.authorizations.values()) {
    if (a.facility === facility.code && a.patient_id === crId && a.status === 'PENDING' && a.method === 'biometric') {
      throw fail.conflict(
        'PENDING_AUTHORIZATION_EXISTS',
        `A biometric authorization for patient ${crId} is still PENDING: complete it or reject it first`,
        [{ guid: a.guid, token: a.token, expiry: a.expires_at === null ? null : iso(a.expires_at) }],
      );
    }
  }
}

function chooseContact(patient: DemoPatient, contactId: string | undefined): { id: number; phone: string } {
  if (patient.contacts.length === 0) throw fail.rule('NO_CONTACT', `Patient ${patient.crId} has no phone contact to send an OTP to`);
  if (contactId === undefined) return patient.contacts.find((c) => c.isMainContact) ?? patient.contacts[0] ?? { id: 0, phone: '' };
  const contact = patient.contacts.find((c) => String(c.id) === contactId);
  if (contact === undefined) throw fail.notFound(`Patient ${patient.crId} has no contact ${contactId}`);
  return contact;
}

function supersede(ctx: SandboxContext, same: (o: OtpRecord) => boolean): void {
  for (const o of ctx.state.otps) if (o.used_at === null && same(o)) o.superseded = true;
}

export interface SentOtp {
  readonly record: OtpRecord;
  readonly contact: string;
}

export function sendPatientOtp(
  ctx: SandboxContext,
  input: {
    facility: Facility;
    purpose: 'consent' | 'discharge';
    patient: DemoPatient;
    contactId?: string | undefined;
    interventions: readonly string[];
    claimToken: string | null;
    authorizationGuid?: string;
  },
): SentOtp {
  const contact = chooseContact(input.patient, input.contactId);
  supersede(
    ctx,
    (o) =>
      o.facility === input.facility.code &&
      o.purpose === input.purpose &&
      o.patient_id === input.patient.crId &&
      o.claim_consent_token === input.claimToken,
  );
  const now = ctx.now();
  const record: OtpRecord = {
    id: ctx.state.nextSerial(),
    facility: input.facility.code,
    purpose: input.purpose,
    patient_id: input.patient.crId,
    code: ctx.rng.digits(6),
    interventions: input.interventions,
    claim_consent_token: input.claimToken,
    authorization_guid: input.authorizationGuid ?? null,
    sent_at: now,
    expires_at: now + OTP_TTL_MS,
    used_at: null,
    superseded: false,
  };
  ctx.state.otps.push(record);
  const what = input.purpose === 'discharge' ? `to confirm discharge from ${input.facility.name}` : `for your visit at ${input.facility.name}`;
  ctx.state.sms.push({
    to: contact.phone,
    text: `Your SHA verification code ${what} is ${record.code}. It expires in 5 minutes. Do not share it with anyone.`,
    otp: record.code,
    purpose: input.purpose,
    sent_at: iso(now),
    patient_id: input.patient.crId,
    doctor_id: null,
    doctor_national_id: null,
    facility_fr_code: input.facility.code,
  });
  return { record, contact: maskPhone(contact.phone) };
}

/** A notification without a code (doctor's preauth consent request). */
export function notifyDoctor(ctx: SandboxContext, facility: Facility, doctor: Professional, purpose: string, text: string): void {
  ctx.state.sms.push({
    to: doctor.phone,
    text,
    otp: null,
    purpose,
    sent_at: iso(ctx.now()),
    patient_id: null,
    doctor_id: doctor.registrationNumber,
    doctor_national_id: doctor.nationalId,
    facility_fr_code: facility.code,
  });
}

/** The unused, unexpired OTP matching `code` for this key; the caller marks it used on success. */
export function checkOtp(
  ctx: SandboxContext,
  key: {
    facility: Facility;
    purpose: OtpPurpose;
    code: string;
    patientId?: string;
    claimToken?: string;
  },
): OtpRecord {
  const candidates = ctx.state.otps.filter(
    (o) =>
      o.facility === key.facility.code &&
      o.purpose === key.purpose &&
      (key.patientId === undefined || o.patient_id === key.patientId) &&
      (key.claimToken === undefined || o.claim_consent_token === key.claimToken) &&
      o.code === key.code,
  );
  const live = candidates.find((o) => !o.superseded && o.used_at === null);
  if (live === undefined) {
    const why = candidates.some((o) => o.used_at !== null)
      ? 'it was already used'
      : candidates.length > 0
        ? 'a newer code was sent since'
        : 'it does not match the code sent';
    throw fail.rule('INVALID_OTP', `The OTP is not valid: ${why}`);
  }
  if (live.expires_at <= ctx.now()) throw fail.rule('OTP_EXPIRED', 'The OTP has expired: send a new one');
  return live;
}

/**
 * The PENDING authorization whose authorize texted this code, verified by it for a visit
 * (AUTHORIZED) or before one (AUTHORIZED_PENDING_VISIT, an elective waiting for its preauth).
 * Undefined for a code from POST /claims/otp, or one whose authorization is no longer PENDING.
 */
export function verifyTextedAuthorization(ctx: SandboxContext, otp: OtpRecord, phase: AuthorizationPhase): AuthorizationRecord | undefined {
  const a = otp.authorization_guid === null ? undefined : ctx.state.authorizations.get(otp.authorization_guid);
  if (a === undefined || a.status !== 'PENDING') return undefined;
  ctx.state.fireAuthorization(a, phase === 'pre_visit' ? 'code_pre_visit' : 'code_visit', 'AUTHORIZATION_NOT_PENDING', 'the SMS code it sent was given');
  return a;
}

export function phaseFor(ctx: SandboxContext, facility: Facility, crId: string, interventions: readonly Intervention[]): AuthorizationPhase {
  const needsPreauth = interventions.filter((i) => i.needsPreauth);
  if (needsPreauth.length === 0) return 'visit';
  // On the day of the visit a finalised, unused preauth makes a new consent a visit consent.
  const finalised = needsPreauth.every((i) => finalisedPreauthFor(ctx, facility, crId, i.intervention_code) !== undefined);
  return finalised ? 'visit' : 'pre_visit';
}

export function finalisedPreauthFor(ctx: SandboxContext, facility: Facility, crId: string, interventionCode: string) {
  for (const p of ctx.state.preauths.values()) {
    if (
      p.facility === facility.code &&
      p.patient_id === crId &&
      p.intervention_code === interventionCode &&
      p.status === 'FINALISED' &&
      p.claim_consent_token === null
    ) {
      return p;
    }
  }
  return undefined;
}

export const LABELS: Record<AuthorizationPhase, string> = {
  pre_visit: 'Pre-visit consent (elective preauthorization)',
  visit: 'Visit consent',
  discharge: 'Visit-end (discharge) consent',
  emergency: 'Emergency consent by the attending doctor',
};

export interface NewAuthorization {
  facility: Facility;
  patient: DemoPatient | null;
  interventions: readonly string[];
  serviceType: string | null;
  phase: AuthorizationPhase;
  method: 'biometric' | 'otp';
  status: AuthorizationRecord['status'];
  reason?: string;
  claimToken?: string | null;
  token?: string;
  doctor?: AuthorizationRecord['doctor'];
  workStationId?: string | null;
  request?: Readonly<Record<string, unknown>>;
}

export function createAuthorization(ctx: SandboxContext, input: NewAuthorization): AuthorizationRecord {
  const now = ctx.now();
  const pending = input.status === 'PENDING';
  const record: AuthorizationRecord = {
    guid: ctx.rng.uuid(),
    token: input.token ?? `CT${ctx.rng.code(18)}`,
    facility: input.facility.code,
    patient_id: input.patient?.crId ?? null,
    interventions: [...input.interventions],
    service_type: input.serviceType,
    phase: input.phase,
    method: input.method,
    status: input.status,
    reason: input.reason ?? null,
    label: LABELS[input.phase],
    created_at: now,
    expires_at: pending ? now + AUTHORIZATION_TTL_MS : null,
    mismatches: 0,
    matched_finger: null,
    ekyc:
      input.method === 'biometric'
        ? { requestId: ctx.rng.uuid(), embedToken: ctx.rng.code(32), ekycToken: ctx.rng.code(24), workStationId: input.workStationId ?? null }
        : null,
    claim_consent_token: input.claimToken ?? null,
    consumed_at: null,
    doctor: input.doctor ?? null,
    request: input.request ?? {},
  };
  ctx.state.authorizations.set(record.guid, record);
  ctx.state.created('authorization', record.facility, record.guid, record.token, record.status, input.reason);
  return record;
}

/**
 * Biometric authorize for a patient. Unusable fingerprints reject at once with
 * BIOMETRICS_NOT_FOUND_OTP_ALLOWED and open the 15-minute OTP fallback window.
 */
export function startBiometricAuthorization(ctx: SandboxContext, input: Omit<NewAuthorization, 'method' | 'status'> & { patient: DemoPatient }): AuthorizationRecord {
  if (input.patient.fingerprintsUnusable) {
    const until = ctx.now() + FALLBACK_WINDOW_MS;
    ctx.state.fallbackUntil.set(`${input.facility.code}|${input.patient.crId}`, until);
    const rejected = createAuthorization(ctx, { ...input, method: 'biometric', status: 'REJECTED', reason: 'BIOMETRICS_NOT_FOUND_OTP_ALLOWED' });
    throw fail.rule(
      'BIOMETRICS_NOT_FOUND_OTP_ALLOWED',
      `Patient ${input.patient.crId} has no usable fingerprints: OTP consent is allowed until ${iso(until)}`,
      [{ otp_allowed_until: iso(until), guid: rejected.guid }],
    );
  }
  return createAuthorization(ctx, { ...input, method: 'biometric', status: 'PENDING' });
}

export interface FingerprintOutcome {
  readonly matched: boolean;
  readonly finger: string | null;
  readonly status: string;
  readonly attempts_left: number;
}

/** Presents one captured template to a PENDING biometric authorization. */
export function presentFingerprint(ctx: SandboxContext, a: AuthorizationRecord, template: Buffer): FingerprintOutcome {
  ctx.sweep();
  if (a.status !== 'PENDING' || a.method !== 'biometric' || a.patient_id === null) {
    throw fail.conflict('AUTHORIZATION_NOT_PENDING', `The authorization is ${a.status}, not PENDING`, [{ guid: a.guid, status: a.status }]);
  }
  const patient = requirePatient(a.patient_id);
  const finger = matchFinger(patient, template);
  if (finger !== null) {
    a.matched_finger = finger;
    ctx.state.fireAuthorization(a, a.phase === 'pre_visit' ? 'match_pre_visit' : 'match_visit', 'AUTHORIZATION_NOT_PENDING', `matched ${finger}`);
  } else {
    a.mismatches += 1;
    if (a.mismatches >= MAX_MISMATCHES) {
      a.reason = 'FINGERPRINT_NOT_MATCHED';
      ctx.state.fireAuthorization(a, 'third_mismatch', 'AUTHORIZATION_NOT_PENDING', 'three fingerprints did not match');
    }
  }
  return { matched: finger !== null, finger, status: a.status, attempts_left: Math.max(0, MAX_MISMATCHES - a.mismatches) };
}
