/* eslint-disable @typescript-eslint/no-explicit-any -- wire bodies are untyped JSON; the tests assert their shape */
// Consent: OTP through the SMS outbox, biometric authorizations and their lifecycle, the stale
// PENDING, the 30000004 fallback window, whitelisting.
import { describe, expect, it } from 'vitest';
import { NID, STRANGER_TEMPLATE, authorizeByFingerprint, crId, expectError, fingerprints, lastOtp, useHarness } from './harness';

const h = useHarness();

const CAPITATION = 'SHA-02-001';
const MINUTE = 60_000;
const advance = (ms: number) => h.control.post('/sandbox/clock', { advance_ms: ms });
const biometric = (client: typeof h.hospital, patientId: string, interventions = [CAPITATION]) =>
  client.post('/api/v1/claims/authorize', { patient_id: patientId, interventions, service_type: 'OUTPATIENT', factors: ['SHA'], is_integration: true });

describe('OTP consent', () => {
  it('sends the OTP only to the SMS outbox, and the OTP authorizes', async () => {
    const id = await crId(h.hospital, NID.whitelisted);
    const sent = await h.hospital.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: [CAPITATION] });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ expires_in: 300 });
    expect(sent.body.contact).toMatch(/\*\*\*/);
    const sms = (await h.control.get('/sandbox/sms', { patient_id: id })).body as any[];
    expect(sms).toHaveLength(1);
    expect(sms[0]).toMatchObject({ purpose: 'consent', to: '+254722100202' });
    expect(sms[0].otp).toMatch(/^\d{6}$/);
    expect(sms[0].text).toContain(sms[0].otp);
    expect(JSON.stringify(sent.body)).not.toContain(sms[0].otp);
    const a = await h.hospital.post('/api/v1/claims/authorize', { patient_id: id, otp: sms[0].otp });
    expect(a.body).toMatchObject({ status: 'AUTHORIZED' });
    expect(typeof a.body.token).toBe('string');
    const again = await h.hospital.post('/api/v1/claims/authorize', { patient_id: id, otp: sms[0].otp });
    expectError(again, 422, 'INVALID_OTP');
  });

  it('sends to the chosen contact, by contact_id or beneficiary_contact_id', async () => {
    const id = await crId(h.hospital, NID.whitelisted);
    const contacts = (await h.hospital.get('/api/v1/patients/contacts', { patient_id: id })).body.results as any[];
    const second = contacts.find((c) => !c.isMainContact);
    await h.hospital.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: [CAPITATION], contact_id: second.id });
    await h.hospital.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: [CAPITATION], beneficiary_contact_id: String(second.id) });
    const sms = (await h.control.get('/sandbox/sms', { patient_id: id })).body as any[];
    expect(sms.map((m) => m.to)).toEqual(['+254733100203', '+254733100203']);
    expectError(await h.hospital.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: [CAPITATION], contact_id: 1 }), 404, 'NOT_FOUND');
  });

  it('refuses OTP where biometrics are enforced for a patient who is not whitelisted, but not at a level 2 facility', async () => {
    const id = await crId(h.hospital, NID.covered);
    expectError(await h.hospital.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: [CAPITATION] }), 422, 'BIOMETRICS_REQUIRED');
    expect((await h.dispensary.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: [CAPITATION] })).status).toBe(200);
  });

  it('refuses a patient with no phone with NO_CONTACT', async () => {
    const id = await crId(h.dispensary, NID.noPhone);
    expectError(await h.dispensary.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: [CAPITATION] }), 422, 'NO_CONTACT');
  });

  it('expires an OTP after 5 minutes of sandbox time, and a newer OTP supersedes an older one', async () => {
    const id = await crId(h.dispensary, NID.covered);
    await h.dispensary.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: [CAPITATION] });
    const first = await lastOtp(h.control, { patient_id: id });
    await advance(5 * MINUTE);
    expectError(await h.dispensary.post('/api/v1/claims/authorize', { patient_id: id, otp: first }), 422, 'OTP_EXPIRED');
    await h.dispensary.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: [CAPITATION] });
    const second = await lastOtp(h.control, { patient_id: id });
    await h.dispensary.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: [CAPITATION] });
    const third = await lastOtp(h.control, { patient_id: id });
    if (second !== third) expectError(await h.dispensary.post('/api/v1/claims/authorize', { patient_id: id, otp: second }), 422, 'INVALID_OTP');
    expect((await h.dispensary.post('/api/v1/claims/authorize', { patient_id: id, otp: third })).body.status).toBe('AUTHORIZED');
  });

  it("keeps OTPs to the facility that sent them", async () => {
    const id = await crId(h.dispensary, NID.whitelisted);
    await h.dispensary.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: [CAPITATION] });
    const otp = await lastOtp(h.control, { patient_id: id });
    expectError(await h.hospital.post('/api/v1/claims/authorize', { patient_id: id, otp }), 422, 'INVALID_OTP');
  });

  it('approves an OTP whitelist request through the control API, after which OTP is allowed', async () => {
    const id = await crId(h.hospital, NID.covered);
    const form = new FormData();
    form.set('beneficiary_cr_id', id);
    form.set('reason_type', 'AMPUTEE');
    form.set('attachment', new Blob([Buffer.from('%PDF-1.4\n%%EOF')], { type: 'application/pdf' }), 'note.pdf');
    const request = await h.hospital.call('POST', '/api/v1/patients/otp-whitelists', { multipart: form });
    expect(request.body).toMatchObject({ status: 'PENDING' });
    const status = () => h.hospital.get('/api/v1/patients/otp-whitelists/callback', { beneficiary_cr_id: id, guid: request.body.guid });
    expect((await status()).body).toMatchObject({ guid: request.body.guid, status: 'PENDING' });
    expect((await h.control.post(`/sandbox/otp-whitelists/${request.body.guid}/approval`)).status).toBe(200);
    expect((await status()).body.status).toBe('APPROVED');
    const e = await h.hospital.get('/api/v1/patients/eligibility', { identification_number: NID.covered, identification_type: 'National ID' });
    expect(e.body.whitelistedForOTP).toBe(true);
    expect((await h.hospital.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: [CAPITATION] })).status).toBe(200);
  });

  it('rejects an OTP whitelist request through the control API: the patient stays not whitelisted, and a decided request stays decided', async () => {
    const id = await crId(h.hospital, NID.covered);
    const form = new FormData();
    form.set('beneficiary_cr_id', id);
    form.set('reason_type', 'AMPUTEE');
    const request = await h.hospital.call('POST', '/api/v1/patients/otp-whitelists', { multipart: form });
    const rejected = await h.control.post(`/sandbox/otp-whitelists/${request.body.guid}/rejection`);
    expect(rejected.body).toMatchObject({ guid: request.body.guid, status: 'REJECTED', beneficiary_cr_id: id });
    const status = await h.hospital.get('/api/v1/patients/otp-whitelists/callback', { beneficiary_cr_id: id, guid: request.body.guid });
    expect(status.body.status).toBe('REJECTED');
    expectError(await h.control.post(`/sandbox/otp-whitelists/${request.body.guid}/approval`), 409, 'INVALID_TRANSITION');
    expectError(await h.control.post('/sandbox/otp-whitelists/nope/rejection'), 404, 'NOT_FOUND');
    const e = await h.hospital.get('/api/v1/patients/eligibility', { identification_number: NID.covered, identification_type: 'National ID' });
    expect(e.body.whitelistedForOTP).toBe(false);
    expectError(await h.hospital.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: [CAPITATION] }), 422, 'BIOMETRICS_REQUIRED');
  });

  it('checks a whitelist request: reason enumeration, reason_text for OTHER, multipart only', async () => {
    const id = await crId(h.hospital, NID.covered);
    const form = (fields: Record<string, string>) => {
      const f = new FormData();
      for (const [k, v] of Object.entries(fields)) f.set(k, v);
      return f;
    };
    expectError(await h.hospital.call('POST', '/api/v1/patients/otp-whitelists', { multipart: form({ beneficiary_cr_id: id, reason_type: 'TIRED' }) }), 400, 'VALIDATION_ERROR');
    expectError(await h.hospital.call('POST', '/api/v1/patients/otp-whitelists', { multipart: form({ beneficiary_cr_id: id, reason_type: 'OTHER' }) }), 400, 'VALIDATION_ERROR');
    expectError(await h.hospital.post('/api/v1/patients/otp-whitelists', { beneficiary_cr_id: id, reason_type: 'OLD' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
  });
});

describe('biometric authorization', () => {
  it('answers PENDING with guid, token and the link to the sandbox authorization page', async () => {
    const id = await crId(h.hospital, NID.covered);
    const r = await biometric(h.hospital, id);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'PENDING' });
    for (const field of ['guid', 'token', 'label', 'expiry', 'ekycToken']) expect(r.body[field], field).toBeTruthy();
    const link = new URL(r.body.shaVerificationRequest.requestUrl);
    expect(link.origin).toBe(h.url);
    expect(link.pathname).toContain(r.body.shaVerificationRequest.requestId);
    expect(r.body.shaVerificationRequest.embededToken).toBeTruthy();
    expect(Date.parse(r.body.expiry) - Date.now()).toBeGreaterThan(9 * MINUTE);
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
  });

  it('authorizes on a matching finger, and the look-up shows it by token or guid', async () => {
    const id = await crId(h.hospital, NID.covered);
    const a = await authorizeByFingerprint(h, h.hospital, id, [CAPITATION], 'OUTPATIENT');
    expect(a.status).toBe('AUTHORIZED');
    const byToken = await h.hospital.get('/api/v1/claims/authorizations', { token: a.token });
    const byGuid = await h.hospital.get('/api/v1/claims/authorizations', { guid: a.guid });
    expect(byToken.body).toEqual(byGuid.body);
    expect(byToken.body).toMatchObject({ token: a.token, guid: a.guid, status: 'AUTHORIZED', patient_id: id, interventions: [CAPITATION] });
    expect(typeof byToken.body.created_at).toBe('string');
    expectError(await h.dispensary.get('/api/v1/claims/authorizations', { guid: a.guid }), 404, 'NOT_FOUND');
    expectError(await h.hospital.get('/api/v1/claims/authorizations', {}), 400, 'VALIDATION_ERROR');
  });

  it('rejects after three non-matching fingers', async () => {
    const id = await crId(h.hospital, NID.covered);
    const r = await biometric(h.hospital, id);
    const present = () => h.control.post(`/sandbox/authorizations/${r.body.guid}/fingerprint`, { template: STRANGER_TEMPLATE });
    expect((await present()).body).toMatchObject({ matched: false, status: 'PENDING', attempts_left: 2 });
    expect((await present()).body).toMatchObject({ matched: false, status: 'PENDING', attempts_left: 1 });
    expect((await present()).body).toMatchObject({ matched: false, status: 'REJECTED', attempts_left: 0 });
    expectError(await present(), 409, 'AUTHORIZATION_NOT_PENDING');
    const [finger] = await fingerprints(h.control, id);
    expectError(await h.control.post(`/sandbox/authorizations/${r.body.guid}/fingerprint`, { template: finger?.template }), 409, 'AUTHORIZATION_NOT_PENDING');
  });

  it("does not match another patient's finger", async () => {
    const id = await crId(h.hospital, NID.covered);
    const [other] = await fingerprints(h.control, await crId(h.hospital, NID.whitelisted));
    const r = await biometric(h.hospital, id);
    expect((await h.control.post(`/sandbox/authorizations/${r.body.guid}/fingerprint`, { template: other?.template })).body.matched).toBe(false);
  });

  it('expires after ten minutes of sandbox time', async () => {
    const id = await crId(h.hospital, NID.covered);
    const r = await biometric(h.hospital, id);
    await advance(9 * MINUTE);
    expect((await h.hospital.get('/api/v1/claims/authorizations', { guid: r.body.guid })).body.status).toBe('PENDING');
    const moved = await advance(MINUTE);
    expect(moved.body.expired).toBe(1);
    expect((await h.hospital.get('/api/v1/claims/authorizations', { guid: r.body.guid })).body).toMatchObject({ status: 'EXPIRED', reason: 'EXPIRED' });
  });

  it('rejects on request, once (409 AUTHORIZATION_NOT_PENDING afterwards)', async () => {
    const id = await crId(h.hospital, NID.covered);
    const r = await biometric(h.hospital, id);
    const rejected = await h.hospital.post(`/api/v1/claims/authorizations/${r.body.token}/reject`);
    expect(rejected.status).toBe(200);
    expect(rejected.body.authorization).toMatchObject({ guid: r.body.guid, status: 'REJECTED' });
    expect(typeof rejected.body.message).toBe('string');
    expectError(await h.hospital.post(`/api/v1/claims/authorizations/${r.body.token}/reject`), 409, 'AUTHORIZATION_NOT_PENDING');
    expectError(await h.hospital.post('/api/v1/claims/authorizations/NOPE/reject'), 404, 'NOT_FOUND');
  });

  it('needs interventions and validates the biometric fields', async () => {
    const id = await crId(h.hospital, NID.covered);
    expectError(await h.hospital.post('/api/v1/claims/authorize', { patient_id: id }), 400, 'VALIDATION_ERROR');
    expectError(await h.hospital.post('/api/v1/claims/authorize', { patient_id: id, interventions: [CAPITATION], service_type: 'DAYCARE' }), 400, 'VALIDATION_ERROR');
    expectError(await h.hospital.post('/api/v1/claims/authorize', { patient_id: id, interventions: ['SHA-99-999'] }), 422, 'INTERVENTION_NOT_ALLOWED');
    // The contract's name for the field is accepted too.
    expect((await h.hospital.post('/api/v1/claims/authorize', { patient_id: id, intervention_codes: [CAPITATION] })).status).toBe(200);
  });
});

describe('a stale PENDING authorization', () => {
  it('blocks OTP send, OTP authorize and OTP visit until it is rejected', async () => {
    const id = await crId(h.hospital, NID.whitelisted);
    await h.hospital.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: [CAPITATION] });
    const otp = await lastOtp(h.control, { patient_id: id });
    const pending = await biometric(h.hospital, id);
    const blocked = await h.hospital.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: [CAPITATION] });
    expectError(blocked, 409, 'PENDING_AUTHORIZATION_EXISTS');
    expect(blocked.body.details[0]).toMatchObject({ guid: pending.body.guid, token: pending.body.token, expiry: pending.body.expiry });
    expectError(await h.hospital.post('/api/v1/claims/authorize', { patient_id: id, otp }), 409, 'PENDING_AUTHORIZATION_EXISTS');
    expectError(
      await h.hospital.post('/api/v1/claims/visit', { patient_id: id, intervention_code: CAPITATION, service_type: 'OUTPATIENT', otp }),
      409,
      'PENDING_AUTHORIZATION_EXISTS',
    );
    await h.hospital.post(`/api/v1/claims/authorizations/${pending.body.token}/reject`);
    const visit = await h.hospital.post('/api/v1/claims/visit', { patient_id: id, intervention_code: CAPITATION, service_type: 'OUTPATIENT', otp });
    expect(visit.status).toBe(200);
    expect(visit.body.workflow_state).toBe('DRAFT');
  });

  it('stops blocking once it expires', async () => {
    const id = await crId(h.hospital, NID.whitelisted);
    await biometric(h.hospital, id);
    expectError(await h.hospital.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: [CAPITATION] }), 409, 'PENDING_AUTHORIZATION_EXISTS');
    await advance(10 * MINUTE);
    expect((await h.hospital.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: [CAPITATION] })).status).toBe(200);
  });
});

describe('30000004: unusable fingerprints', () => {
  it('rejects biometric authorize with BIOMETRICS_NOT_FOUND_OTP_ALLOWED, then accepts OTP for 15 minutes of sandbox time', async () => {
    const id = await crId(h.hospital, NID.unusableFingers);
    expectError(await h.hospital.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: [CAPITATION] }), 422, 'BIOMETRICS_REQUIRED');
    const refused = await biometric(h.hospital, id);
    expectError(refused, 422, 'BIOMETRICS_NOT_FOUND_OTP_ALLOWED');
    const until = Date.parse(refused.body.details[0].otp_allowed_until);
    const clock = (await h.control.get('/sandbox/clock')).body;
    expect(until - Date.parse(clock.now)).toBeGreaterThan(14 * MINUTE);
    expect(until - Date.parse(clock.now)).toBeLessThanOrEqual(15 * MINUTE);
    const rejected = await h.hospital.get('/api/v1/claims/authorizations', { guid: refused.body.details[0].guid });
    expect(rejected.body).toMatchObject({ status: 'REJECTED', reason: 'BIOMETRICS_NOT_FOUND_OTP_ALLOWED' });

    await advance(14 * MINUTE);
    expect((await h.hospital.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: [CAPITATION] })).status).toBe(200);
    const otp = await lastOtp(h.control, { patient_id: id });
    const visit = await h.hospital.post('/api/v1/claims/visit', { patient_id: id, intervention_code: CAPITATION, service_type: 'OUTPATIENT', otp });
    expect(visit.status).toBe(200);

    await advance(MINUTE);
    expectError(await h.hospital.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: ['SHA-03-001'] }), 422, 'BIOMETRICS_REQUIRED');
  });

  it('refuses the visit-end fingerprint too, and OTP discharge then works', async () => {
    const id = await crId(h.hospital, NID.unusableFingers);
    await biometric(h.hospital, id);
    await h.hospital.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: [CAPITATION] });
    const otp = await lastOtp(h.control, { patient_id: id });
    const visit = await h.hospital.post('/api/v1/claims/visit', { patient_id: id, intervention_code: CAPITATION, service_type: 'OUTPATIENT', otp });
    const token = visit.body.consent_token;
    expectError(await h.hospital.post('/api/v1/claims/authorize', { consent_token: token, is_biometrics_discharge_authorization: true }), 422, 'BIOMETRICS_NOT_FOUND_OTP_ALLOWED');
    const sent = await h.hospital.post('/api/v1/claims/otp/discharge', { consent_token: token, patient_id: id });
    expect(sent.status).toBe(200);
    const sms = (await h.control.get('/sandbox/sms', { patient_id: id })).body as any[];
    expect(sms[sms.length - 1].purpose).toBe('discharge');
  });
});
