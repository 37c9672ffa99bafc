// Every row of the contract's Errors and Limits tables (../shared/spec/service-interface.md), as the
// client surfaces it against the sandbox: the ExchangeError's kind, status and code. Where the
// client refuses before sending, the test proves nothing went out and that the sandbox refuses the
// very same request sent raw.
import { describe, expect, it } from 'vitest';
import type { ExchangeClient } from '../../../electron/payer';
import {
  BIOMETRIC,
  DIAGNOSIS,
  DISPENSARY,
  EMERGENCY_DOCTOR,
  HOSPITAL,
  INTEGRATOR,
  NID,
  PRACTITIONER,
  PREAUTH_DOCTOR,
  advanceClock,
  patientId,
  presentFinger,
  readOtp,
  refusal,
  useWorld,
} from './harness';

const { w, codes } = useWorld();

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;

/** The client never reached the network for this operation. */
function nothingSent(operation: string): void {
  expect(w.events.filter((e) => e.operation === operation)).toEqual([]);
}

/** The same body, sent raw with a valid token: the sandbox's own 400 naming the field. */
async function sandboxRefusesRaw(path: string, body: unknown, field: string): Promise<void> {
  const r = await w.raw.call<{ error: string; details: { field: string }[] }>('POST', path, { body, token: await w.raw.token(HOSPITAL) });
  expect(r.status).toBe(400);
  expect(r.body.error).toBe('VALIDATION_ERROR');
  expect(r.body.details.map((d) => d.field)).toContain(field);
}

async function openVisit(client: ExchangeClient, patient: string, withDoctor: boolean) {
  const a = await client.consent.authorizeBiometric({ patient_id: patient, service_type: 'CAPITATION', interventions: [codes.capitation.code], ...BIOMETRIC });
  await presentFinger(w.raw, a.guid ?? '', patient);
  const visit = await client.claims.createVisit({
    patient_id: patient,
    intervention_codes: [codes.capitation.code],
    service_type: 'CAPITATION',
    auth_guid: a.guid ?? '',
    ...(withDoctor ? PRACTITIONER : {}),
  });
  await client.claims.addBilling({ consent_token: visit.consentToken, intervention_code: codes.capitation.code, unit_price: 0, quantity: 1, diagnoses: [DIAGNOSIS[0].code] });
  const d = await client.consent.authorizeDischarge({ patient_id: patient, service_type: 'CAPITATION', interventions: [codes.capitation.code], ...BIOMETRIC });
  await presentFinger(w.raw, d.dischargeAuthGuid ?? '', patient);
  return { visit, dischargeAuthGuid: d.dischargeAuthGuid ?? '' };
}

/** An emergency claim for an unknown patient, created as the live exchange creates it. */
function emergencyPayload(reference: string) {
  return {
    interventions: [codes.emergency.code],
    mode_of_arrival: 'WALK-IN',
    brought_by: 'RELATIVE',
    reference_number: reference,
    notes: 'collapsed at the gate',
    ...EMERGENCY_DOCTOR,
  } as const;
}

describe('contract: Errors', () => {
  it('request without a valid tenant context → 403 Forbidden (raw, and a service account without facility scope)', async () => {
    const raw = await w.raw.call<{ error: string; message: string }>('GET', `/api/v1/patients/eligibility?identification_number=${NID.covered}&identification_type=National%20ID`);
    expect(raw).toMatchObject({ status: 403, body: { error: 'Forbidden - Tenant context required', message: 'token missing required tenant_id claim' } });

    const unscoped = w.client(INTEGRATOR);
    const error = await refusal(unscoped.eligibility.check({ identification_number: NID.covered, identification_type: 'National ID' }), { kind: 'forbidden', status: 403 });
    expect(error.message).toMatch(/Tenant context required/);
    expect(error.code).toBeUndefined();
    // Scoped to a facility with X-Facility-Id, the same service account is answered.
    const scoped = w.client(INTEGRATOR, { facility: { id: HOSPITAL.code } });
    expect((await scoped.eligibility.check({ identification_number: NID.covered, identification_type: 'National ID' })).covered).toBe(true);
    // A facility's token scoped to another facility is refused too.
    const crossed = w.client(DISPENSARY, { facility: { id: HOSPITAL.code } });
    await refusal(crossed.registry.findPatient({ identification_number: NID.covered, identification_type: 'National ID' }), { kind: 'forbidden', status: 403, code: 'FORBIDDEN' });
  });

  it('POST /claims/submit with no doctor attached → rejected: rule_violation NO_DOCTOR_ATTACHED', async () => {
    const patient = await patientId(w.hospital, NID.covered);
    const { visit, dischargeAuthGuid } = await openVisit(w.hospital, patient, false);
    const submit = { consent_token: visit.consentToken, invoice_number: visit.invoiceNumber ?? '', discharge_reason: 'RECOVERED', discharge_auth_guid: dischargeAuthGuid } as const;
    await refusal(w.hospital.claims.submit(submit), { kind: 'rule_violation', status: 422, code: 'NO_DOCTOR_ATTACHED' });
    // Rule 2: a doctor added later makes the same submit go through (the consent was not spent).
    await w.hospital.claims.addDoctor({ consent_token: visit.consentToken, identification_number: 'A12345', identification_type: 'registration_number', regulation_body: 'KMPDC' });
    expect((await w.hospital.claims.submit(submit)).workflowState).toBe('SUBMITTED');
  });

  it('DECEASED as discharge_reason on submit → refused by the client before sending, and by the sandbox raw', async () => {
    const patient = await patientId(w.hospital, NID.covered);
    const { visit, dischargeAuthGuid } = await openVisit(w.hospital, patient, true);
    const submit = { consent_token: visit.consentToken, invoice_number: visit.invoiceNumber ?? '', discharge_reason: 'DECEASED', discharge_auth_guid: dischargeAuthGuid };
    const error = await refusal(w.hospital.claims.submit(submit as never), { kind: 'validation', status: undefined, field: 'discharge_reason' });
    expect(error.message).toMatch(/DECEASED is not valid/);
    nothingSent('claims.submit');
    await sandboxRefusesRaw('/api/v1/claims/submit', submit, 'discharge_reason');
    expect((await w.hospital.claims.submit({ ...submit, discharge_reason: 'OTHER' })).workflowState).toBe('SUBMITTED');
  });

  it("authorization rejected because an adult's fingerprints are unusable → rule_violation BIOMETRICS_NOT_FOUND_OTP_ALLOWED", async () => {
    const patient = await patientId(w.hospital, NID.unusableFingers);
    const error = await refusal(w.hospital.consent.authorizeBiometric({ patient_id: patient, service_type: 'CAPITATION', interventions: [codes.capitation.code], ...BIOMETRIC }), {
      kind: 'rule_violation',
      status: 422,
      code: 'BIOMETRICS_NOT_FOUND_OTP_ALLOWED',
    });
    const [detail] = error.details ?? [];
    expect(Date.parse(String(detail?.otp_allowed_until))).toBeGreaterThan(Date.now() + 14 * MINUTE);
    // The rejection is an authorization of its own, REJECTED with that reason.
    expect(await w.hospital.consent.getAuthorization({ guid: String(detail?.guid) })).toMatchObject({ status: 'REJECTED', reason: 'BIOMETRICS_NOT_FOUND_OTP_ALLOWED' });
  });

  it('claim creation without matching patient, intervention, AUTHORIZED authorization and approved preauth → cannot be created', async () => {
    const patient = await patientId(w.hospital, NID.covered);
    const other = await patientId(w.hospital, NID.whitelisted);
    const a = await w.hospital.consent.authorizeBiometric({ patient_id: patient, service_type: 'INPATIENT', interventions: [codes.elective.code], ...BIOMETRIC });
    const visit = { patient_id: patient, intervention_codes: [codes.elective.code], service_type: 'INPATIENT', auth_guid: a.guid ?? '' } as const;
    // Not yet consented (PENDING), then consented but without an approved preauth.
    await refusal(w.hospital.claims.createVisit(visit), { kind: 'rule_violation', status: 422, code: 'AUTHORIZATION_NOT_AUTHORIZED' });
    await presentFinger(w.raw, a.guid ?? '', patient);
    await refusal(w.hospital.claims.createVisit(visit), { kind: 'rule_violation', status: 422, code: 'PREAUTH_REQUIRED' });
    const preauth = await w.hospital.preauth.create({
      consent_token: a.token ?? '',
      intervention_code: codes.elective.code,
      service_start: '2030-01-15T08:00:00+03:00',
      service_end: '2030-01-16T08:00:00+03:00',
      items: [{ unit_price: 80_000 }],
      doctors: [{ ...PREAUTH_DOCTOR, is_primary: true }],
      diagnoses: [{ icd_code: 'DD51' }],
      provider_notification_email: 'claims@hospital.example',
    });
    await w.raw.control('POST', `/sandbox/preauths/${preauth.id}/doctor-approval`);
    await refusal(w.hospital.claims.createVisit(visit), { kind: 'rule_violation', status: 422, code: 'PREAUTH_REQUIRED' });
    await w.raw.control('POST', `/sandbox/preauths/${preauth.id}/payer-approval`);
    await refusal(w.hospital.claims.createVisit({ ...visit, patient_id: other }), { kind: 'rule_violation', status: 422, code: 'AUTHORIZATION_MISMATCH' });
    await refusal(w.hospital.claims.createVisit({ ...visit, intervention_codes: [codes.perDiem.code] }), { kind: 'rule_violation', status: 422, code: 'AUTHORIZATION_MISMATCH' });
    expect((await w.hospital.claims.createVisit(visit)).consentToken).toBe(a.token);
  });

  it('a prescription with an empty items list → refused by the client before sending, and by the sandbox raw', async () => {
    const prescription = { consent_token: 'CT-1', intervention_code: codes.capitation.code, items: [], identification_number: 'A12345', identification_type: 'registration_number', regulation_body: 'KMPDC' } as const;
    await refusal(w.hospital.prescriptions.create(prescription), { kind: 'validation', status: undefined, field: 'items' });
    nothingSent('prescriptions.create');
    await sandboxRefusesRaw('/api/v1/prescriptions', prescription, 'items');
  });
});

describe('contract: Limits', () => {
  it('emergency claim submission within 24 hours of the emergency, identified or not', async () => {
    const early = await w.hospital.emergency.createClaim(emergencyPayload('AMB-EARLY'));
    const late = await w.hospital.emergency.createClaim(emergencyPayload('AMB-LATE'));
    const submit = (claim: typeof early) =>
      w.hospital.claims.submitEmergency({ consent_token: claim.consentToken, invoice_number: claim.invoiceNumber ?? '', discharge_reason: 'REFERRED', reason_for_unknown_patient: 'SHA_UNREGISTERED' });
    await advanceClock(w.raw, 24 * HOUR - MINUTE);
    expect((await submit(early)).workflowState).toBe('SUBMITTED');
    await advanceClock(w.raw, MINUTE + 1);
    await refusal(submit(late), { kind: 'rule_violation', status: 422, code: 'EMERGENCY_WINDOW_EXPIRED' });
  });

  it('interventions per emergency claim: exactly one (refused by the client before sending, and by the sandbox raw)', async () => {
    const two = { ...emergencyPayload('AMB-TWO'), interventions: [codes.emergency.code, 'SHA-01-002'] };
    await refusal(w.hospital.emergency.createClaim(two), { kind: 'validation', status: undefined, field: 'interventions' });
    const none = { ...emergencyPayload('AMB-NONE'), interventions: [] };
    await refusal(w.hospital.emergency.createClaim(none), { kind: 'validation', status: undefined, field: 'interventions' });
    nothingSent('emergency.createClaim');
    await sandboxRefusesRaw('/api/v1/claims/emergency', two, 'interventions');
    await sandboxRefusesRaw('/api/v1/claims/emergency', none, 'interventions');
    expect((await w.hospital.emergency.createClaim(emergencyPayload('AMB-ONE'))).workflowState).toBe('DRAFT');
  });

  it('prescription items: at least 1 (none refused before sending and raw; one accepted)', async () => {
    const patient = await patientId(w.hospital, NID.covered);
    const { visit } = await openVisit(w.hospital, patient, true);
    const prescription = { consent_token: visit.consentToken, intervention_code: codes.capitation.code, identification_number: 'A12345', identification_type: 'registration_number', regulation_body: 'KMPDC' } as const;
    await refusal(w.hospital.prescriptions.create({ ...prescription } as never), { kind: 'validation', status: undefined, field: 'items' });
    nothingSent('prescriptions.create');
    await sandboxRefusesRaw('/api/v1/prescriptions', prescription, 'items');
    expect((await w.hospital.prescriptions.create({ ...prescription, items: [{ generic_concept_code: 'RXN-723' }] })).status).toBe('ACTIVE');
  });

  it('OTP fallback when fingerprints are unusable: OTP accepted inside the 15-minute window, refused after it', async () => {
    const patient = await patientId(w.hospital, NID.unusableFingers);
    const eligibility = await w.hospital.eligibility.check({ identification_number: NID.unusableFingers, identification_type: 'National ID' });
    expect(eligibility).toMatchObject({ whitelistedForOTP: false, facilityBiometricsEnforced: true });
    // Before any fingerprint attempt the hospital insists on biometrics.
    await refusal(w.hospital.consent.sendOtp({ patient_id: patient, intervention_codes: [codes.capitation.code] }), { kind: 'rule_violation', status: 422, code: 'BIOMETRICS_REQUIRED' });
    await refusal(w.hospital.consent.authorizeBiometric({ patient_id: patient, service_type: 'CAPITATION', interventions: [codes.capitation.code], ...BIOMETRIC }), {
      kind: 'rule_violation',
      code: 'BIOMETRICS_NOT_FOUND_OTP_ALLOWED',
    });
    await advanceClock(w.raw, 14 * MINUTE);
    await w.hospital.consent.sendOtp({ patient_id: patient, intervention_codes: [codes.capitation.code] });
    const visit = await w.hospital.claims.createVisit({
      patient_id: patient,
      intervention_codes: [codes.capitation.code],
      service_type: 'CAPITATION',
      otp: await readOtp(w.raw, { patient_id: patient }),
    });
    expect(visit.workflowState).toBe('DRAFT');
    await advanceClock(w.raw, MINUTE);
    await refusal(w.hospital.consent.sendOtp({ patient_id: patient, intervention_codes: [codes.capitation.code] }), { kind: 'rule_violation', status: 422, code: 'BIOMETRICS_REQUIRED' });
  });
});
