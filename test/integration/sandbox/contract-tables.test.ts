// One test per row of the contract's Errors and Limits tables (../shared/spec/service-interface.md),
// so each row's proof is found by its own words.
import { describe, expect, it } from 'vitest';
import {
  BIOMETRIC,
  Client,
  HOSPITAL,
  NID,
  authorizeByFingerprint,
  createEmergency,
  createPreauth,
  crId,
  dischargeByFingerprint,
  emergencyBody,
  expectError,
  lastOtp,
  openVisit,
  tokenFor,
  useHarness,
} from './harness';

const h = useHarness();

const EMERGENCY = 'SHA-01-001';

/** An unidentified emergency claim, created as the live exchange creates it (no prior consent). */
async function emergencyClaim() {
  const token = (await createEmergency(h.hospital, EMERGENCY)).authorization_code as string;
  return { token, body: emergencyBody(EMERGENCY) };
}

describe('contract: Errors', () => {
  it('request without a valid tenant context → 403 Forbidden', async () => {
    const r = await new Client(h.url).get('/api/v1/patients/eligibility', { identification_number: NID.covered, identification_type: 'National ID' });
    expect(r.status).toBe(403);
  });

  it('POST /claims/submit with no doctor attached to the claim → rejected', async () => {
    const id = await crId(h.hospital, NID.covered);
    const visit = await openVisit(h, h.hospital, id, 'SHA-02-001', 'CAPITATION', false);
    const guid = await dischargeByFingerprint(h, h.hospital, visit.consent_token, id);
    const r = await h.hospital.post('/api/v1/claims/submit', { consent_token: visit.consent_token, invoice_number: visit.invoice_number, discharge_reason: 'RECOVERED', discharge_auth_guid: guid });
    expectError(r, 422, 'NO_DOCTOR_ATTACHED');
  });

  it('DECEASED given as discharge_reason on submit → not valid', async () => {
    const id = await crId(h.hospital, NID.covered);
    const visit = await openVisit(h, h.hospital, id, 'SHA-02-001', 'CAPITATION');
    const guid = await dischargeByFingerprint(h, h.hospital, visit.consent_token, id);
    const r = await h.hospital.post('/api/v1/claims/submit', { consent_token: visit.consent_token, invoice_number: visit.invoice_number, discharge_reason: 'DECEASED', discharge_auth_guid: guid });
    expectError(r, 400, 'VALIDATION_ERROR');
    expect(r.body.details).toContainEqual(expect.objectContaining({ field: 'discharge_reason' }));
  });

  it("authorization rejected because an adult's fingerprints are unusable → BIOMETRICS_NOT_FOUND_OTP_ALLOWED; OTP consent works", async () => {
    const id = await crId(h.hospital, NID.unusableFingers);
    expectError(await h.hospital.post('/api/v1/claims/authorize', { patient_id: id, interventions: ['SHA-02-001'], service_type: 'CAPITATION', ...BIOMETRIC }), 422, 'BIOMETRICS_NOT_FOUND_OTP_ALLOWED');
    expect((await h.hospital.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: ['SHA-02-001'] })).status).toBe(200);
    const otp = await lastOtp(h.control, { patient_id: id });
    expect((await h.hospital.post('/api/v1/claims/visit', { patient_id: id, intervention_codes: ['SHA-02-001'], service_type: 'CAPITATION', otp })).body.workflow_state).toBe('DRAFT');
  });

  it('claim creation without matching patient, intervention, AUTHORIZED authorization and approved preauth (elective) → cannot be created', async () => {
    const id = await crId(h.hospital, NID.covered);
    const other = await crId(h.hospital, NID.whitelisted);
    const a = await authorizeByFingerprint(h, h.hospital, id, ['SHA-08-001'], 'INPATIENT');
    const visit = (extra: Record<string, unknown>) =>
      h.hospital.post('/api/v1/claims/visit', { patient_id: id, intervention_codes: ['SHA-08-001'], service_type: 'INPATIENT', auth_guid: a.guid, ...extra });
    expectError(await visit({}), 422, 'PREAUTH_REQUIRED');
    const p = { body: await createPreauth(h.hospital, a.token, 'SHA-08-001') };
    await h.control.post(`/sandbox/preauths/${p.body.id}/doctor-approval`);
    expectError(await visit({}), 422, 'PREAUTH_REQUIRED');
    await h.control.post(`/sandbox/preauths/${p.body.id}/payer-approval`);
    expectError(await visit({ patient_id: other }), 422, 'AUTHORIZATION_MISMATCH');
    expectError(await visit({ intervention_codes: ['SHA-08-002'] }), 422, 'AUTHORIZATION_MISMATCH');
    expect((await visit({})).status).toBe(200);
  });

  it('creating a prescription with an empty items list → invalid', async () => {
    const r = await h.hospital.post('/api/v1/prescriptions', { consent_token: 'CT', intervention_code: 'SHA-02-001', items: [], identification_number: 'A12345', identification_type: 'registration_number', regulation_body: 'KMPDC' });
    expectError(r, 400, 'VALIDATION_ERROR');
    expect((r.body.details as { field: string }[]).map((d) => d.field)).toEqual(['items']);
  });
});

describe('contract: Limits', () => {
  it('emergency claim submission within 24 hours of the emergency, identified or not', async () => {
    const { token } = await emergencyClaim();
    const invoice = (await h.hospital.post('/api/v1/claims/preview', { consent_token: token })).body.invoice_number;
    const submit = { consent_token: token, invoice_number: invoice, discharge_reason: 'REFERRED', reason_for_unknown_patient: 'SHA_UNREGISTERED' };
    await h.control.post('/sandbox/clock', { advance_ms: 23 * 3600 * 1000 });
    h.hospital.token = await tokenFor(h.url, HOSPITAL);
    expect((await h.hospital.post('/api/v1/claims/preview', { consent_token: token })).body.workflow_state).toBe('DRAFT');
    await h.control.post('/sandbox/clock', { advance_ms: 3600 * 1000 + 1 });
    h.hospital.token = await tokenFor(h.url, HOSPITAL);
    expectError(await h.hospital.post('/api/v1/claims/submit', submit), 422, 'EMERGENCY_WINDOW_EXPIRED');
  });

  it('interventions per emergency claim: exactly one', async () => {
    const { body } = await emergencyClaim();
    const { interventions: _one, ...rest } = body;
    expectError(await h.hospital.post('/api/v1/claims/emergency', { ...rest, interventions: [EMERGENCY, 'SHA-01-002'] }), 400, 'VALIDATION_ERROR');
    expectError(await h.hospital.post('/api/v1/claims/emergency', rest), 400, 'VALIDATION_ERROR');
    expect((await h.hospital.post('/api/v1/claims/emergency', { ...rest, interventions: [EMERGENCY] })).status).toBe(200);
  });

  it('prescription items: at least 1', async () => {
    const doctor = { identification_number: 'A12345', identification_type: 'registration_number', regulation_body: 'KMPDC' };
    const visit = await openVisit(h, h.hospital, await crId(h.hospital, NID.covered), 'SHA-02-001', 'CAPITATION');
    const base = { consent_token: visit.consent_token, intervention_code: 'SHA-02-001', ...doctor };
    expectError(await h.hospital.post('/api/v1/prescriptions', base), 400, 'VALIDATION_ERROR');
    expect((await h.hospital.post('/api/v1/prescriptions', { ...base, items: [{ generic_concept_code: 'RXN-1' }] })).status).toBe(200);
  });

  it('OTP fallback when fingerprints are unusable: available for a short time (15 minutes of sandbox time)', async () => {
    const id = await crId(h.hospital, NID.unusableFingers);
    await h.hospital.post('/api/v1/claims/authorize', { patient_id: id, interventions: ['SHA-02-001'] });
    await h.control.post('/sandbox/clock', { advance_ms: 15 * 60 * 1000 });
    expectError(await h.hospital.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: ['SHA-02-001'] }), 422, 'BIOMETRICS_REQUIRED');
  });
});
