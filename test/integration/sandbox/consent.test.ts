/* eslint-disable @typescript-eslint/no-explicit-any -- wire bodies are untyped JSON; the tests assert their shape */
// Consent: OTP through the SMS outbox and spent by the visit, the elective's OTP authorize,
// biometric authorizations and their lifecycle, the visit-end body naming the patient, the stale
// PENDING, the 30000004 fallback window, whitelisting (multipart, status as a page).
import { describe, expect, it } from 'vitest';
import { BIOMETRIC, HOSPITAL, NID, STRANGER_TEMPLATE, authorizeByFingerprint, crId, expectError, fingerprints, lastOtp, useHarness } from './harness';

const h = useHarness();

const CAPITATION = 'SHA-02-001';
const MINUTE = 60_000;
const advance = (ms: number) => h.control.post('/sandbox/clock', { advance_ms: ms });
const biometric = (client: typeof h.hospital, patientId: string, interventions = [CAPITATION], serviceType = 'CAPITATION') =>
  client.post('/api/v1/claims/authorize', { patient_id: patientId, interventions, service_type: serviceType, ...BIOMETRIC, is_biometrics_discharge_authorization: false });
const otpVisit = (client: typeof h.hospital, patientId: string, otp: string) =>
  client.post('/api/v1/claims/visit', { patient_id: patientId, intervention_codes: [CAPITATION], service_type: 'CAPITATION', otp });
/** The elective intervention of the demo catalogue's first inpatient sub-benefit (SHA-08-001: needs a manually approved preauth). */
const ELECTIVE = 'SHA-08-001';
const electiveAuthorize = (client: typeof h.hospital, patientId: string, otp: string) =>
  client.post('/api/v1/claims/authorize', { patient_id: patientId, otp, interventions: [ELECTIVE], service_type: 'INPATIENT' });
const whitelistForm = (fields: Record<string, string>, file?: { part: string; name: string }) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  if (file !== undefined) f.set(file.part, new Blob([Buffer.from('%PDF-1.4\n%%EOF')], { type: 'application/pdf' }), file.name);
  return f;
};

describe('OTP consent', () => {
  it('sends the OTP only to the SMS outbox, and the visit with it is the consent (single use)', async () => {
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
    const visit = await otpVisit(h.hospital, id, sms[0].otp);
    expect(visit.status).toBe(200);
    expect(visit.body).toMatchObject({ workflow_state: 'DRAFT', claim_auth_status: 'AUTHORIZED', service_type: 'CAPITATION' });
    expect(typeof visit.body.authorization_code).toBe('string');
    // The code is spent: it opens no authorization now.
    expectError(await electiveAuthorize(h.hospital, id, sms[0].otp), 422, 'INVALID_OTP');
  });

  it('spends an elective\'s pre-visit code on the OTP authorize, which needs interventions and service_type', async () => {
    const id = await crId(h.hospital, NID.whitelisted);
    await h.hospital.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: [ELECTIVE] });
    const otp = await lastOtp(h.control, { patient_id: id });
    const missing = await h.hospital.post('/api/v1/claims/authorize', { patient_id: id, otp });
    expectError(missing, 400, 'VALIDATION_ERROR');
    expect(missing.body.details.map((d: { field: string }) => d.field)).toEqual(expect.arrayContaining(['interventions', 'service_type']));
    // The contract's old intervention_codes is no name of this shape.
    expectError(await h.hospital.post('/api/v1/claims/authorize', { patient_id: id, otp, intervention_codes: [ELECTIVE], service_type: 'INPATIENT' }), 400, 'VALIDATION_ERROR');
    const a = await electiveAuthorize(h.hospital, id, otp);
    expect(a.body).toMatchObject({ status: 'AUTHORIZED_PENDING_VISIT', beneficiaryCode: id });
    expect(typeof a.body.token).toBe('string');
    expectError(await electiveAuthorize(h.hospital, id, otp), 422, 'INVALID_OTP');
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
    expectError(await otpVisit(h.dispensary, id, first), 422, 'OTP_EXPIRED');
    await h.dispensary.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: [CAPITATION] });
    const second = await lastOtp(h.control, { patient_id: id });
    await h.dispensary.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: [CAPITATION] });
    const third = await lastOtp(h.control, { patient_id: id });
    if (second !== third) expectError(await otpVisit(h.dispensary, id, second), 422, 'INVALID_OTP');
    expect((await otpVisit(h.dispensary, id, third)).body.workflow_state).toBe('DRAFT');
  });

  it("keeps OTPs to the facility that sent them", async () => {
    const id = await crId(h.dispensary, NID.whitelisted);
    await h.dispensary.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: [CAPITATION] });
    const otp = await lastOtp(h.control, { patient_id: id });
    expectError(await otpVisit(h.hospital, id, otp), 422, 'INVALID_OTP');
  });

  it('approves an OTP whitelist request through the control API, after which OTP is allowed', async () => {
    const id = await crId(h.hospital, NID.covered);
    const form = whitelistForm(
      {
        beneficiary_cr_id: id,
        reason_type: 'AMPUTEE',
        reason: 'Both hands amputated',
        biometric_attempts: '0',
        facility_fr_code: HOSPITAL.code,
        attachments: JSON.stringify([{ document_title: 'Clinician note', document_type: 'SUPPORT_DOCUMENT', file_field_name: 'attachments_file_blob', file_name: 'note.pdf' }]),
      },
      { part: 'attachments_file_blob', name: 'note.pdf' },
    );
    const request = await h.hospital.call('POST', '/api/v1/patients/otp-whitelists', { multipart: form });
    expect(request.body).toMatchObject({ status: 'PENDING', reasonType: 'AMPUTEE', reason: 'Both hands amputated', beneficiaryCrId: id, facilityFrCode: HOSPITAL.code });
    expect(request.body.attachments).toMatchObject([{ uploadedFile: 'note.pdf', description: 'Clinician note', contentType: 'application/pdf' }]);
    const status = () => h.hospital.get('/api/v1/patients/otp-whitelists/callback', { beneficiary_cr_id: id, guid: request.body.guid });
    // A page of the patient's requests (V), found by guid, or by the facility as A asks.
    expect((await status()).body).toMatchObject({ count: 1, results: [{ guid: request.body.guid, status: 'PENDING', biometricsAttempt: 0, reviewerResponseNotes: [] }] });
    const byFacility = await h.hospital.get('/api/v1/patients/otp-whitelists/callback', { beneficiary_cr_id: id, facility_fr_code: HOSPITAL.code });
    expect(byFacility.body.results.map((r: { guid: string }) => r.guid)).toEqual([request.body.guid]);
    expect((await h.control.post(`/sandbox/otp-whitelists/${request.body.guid}/approval`)).status).toBe(200);
    expect((await status()).body.results[0]).toMatchObject({ status: 'APPROVED', reviewerResponseNotes: [{ responseNotes: expect.any(String) }] });
    const e = await h.hospital.get('/api/v1/patients/eligibility', { identification_number: NID.covered, identification_type: 'National ID' });
    expect(e.body.whitelistedForOTP).toBe(true);
    expect((await h.hospital.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: [CAPITATION] })).status).toBe(200);
  });

  it('rejects an OTP whitelist request through the control API: the patient stays not whitelisted, and a decided request stays decided', async () => {
    const id = await crId(h.hospital, NID.covered);
    const form = whitelistForm({ beneficiary_cr_id: id, reason_type: 'AMPUTEE', reason: 'Amputee', biometric_attempts: '2', attachments: '[]' });
    const request = await h.hospital.call('POST', '/api/v1/patients/otp-whitelists', { multipart: form });
    const rejected = await h.control.post(`/sandbox/otp-whitelists/${request.body.guid}/rejection`);
    expect(rejected.body).toMatchObject({ guid: request.body.guid, status: 'REJECTED', beneficiary_cr_id: id });
    const status = await h.hospital.get('/api/v1/patients/otp-whitelists/callback', { beneficiary_cr_id: id, guid: request.body.guid });
    expect(status.body.results[0]).toMatchObject({ status: 'REJECTED', biometricsAttempt: 2 });
    expectError(await h.control.post(`/sandbox/otp-whitelists/${request.body.guid}/approval`), 409, 'INVALID_TRANSITION');
    expectError(await h.control.post('/sandbox/otp-whitelists/nope/rejection'), 404, 'NOT_FOUND');
    const e = await h.hospital.get('/api/v1/patients/eligibility', { identification_number: NID.covered, identification_type: 'National ID' });
    expect(e.body.whitelistedForOTP).toBe(false);
    expectError(await h.hospital.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: [CAPITATION] }), 422, 'BIOMETRICS_REQUIRED');
  });

  it('checks a whitelist request: reason enumeration, a reason in words, multipart only; a file no attachment names is dropped', async () => {
    const id = await crId(h.hospital, NID.covered);
    const post = (form: FormData) => h.hospital.call('POST', '/api/v1/patients/otp-whitelists', { multipart: form });
    expectError(await post(whitelistForm({ beneficiary_cr_id: id, reason_type: 'TIRED', reason: 'Tired' })), 400, 'VALIDATION_ERROR');
    const unsaid = await post(whitelistForm({ beneficiary_cr_id: id, reason_type: 'OTHER' }));
    expectError(unsaid, 400, 'VALIDATION_ERROR');
    expect(unsaid.body.details[0].field).toBe('reason');
    expectError(await post(whitelistForm({ beneficiary_cr_id: id, reason_type: 'OLD', reason: 'Old', biometric_attempts: 'many' })), 400, 'VALIDATION_ERROR');
    expectError(await h.hospital.post('/api/v1/patients/otp-whitelists', { beneficiary_cr_id: id, reason_type: 'OLD', reason: 'Old' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    // K's part name without A's metadata: the exchange drops such a file without complaint (R).
    const unnamed = await post(whitelistForm({ beneficiary_cr_id: id, reason_type: 'OLD', reason: 'Old' }, { part: 'attachment', name: 'note.pdf' }));
    expect(unnamed.status).toBe(200);
    expect(unnamed.body.attachments).toEqual([]);
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
    // embedExpiry is a number of seconds, as on the live service; the page's limit is expiry.
    expect(r.body.shaVerificationRequest.embedExpiry).toBe(120);
    expect(Date.parse(r.body.expiry) - Date.now()).toBeGreaterThan(9 * MINUTE);
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
  });

  it('authorizes on a matching finger, and the look-up shows it by token or guid', async () => {
    const id = await crId(h.hospital, NID.covered);
    const a = await authorizeByFingerprint(h, h.hospital, id, [CAPITATION], 'CAPITATION');
    expect(a.status).toBe('AUTHORIZED');
    const byToken = await h.hospital.get('/api/v1/claims/authorizations', { token: a.token });
    const byGuid = await h.hospital.get('/api/v1/claims/authorizations', { guid: a.guid });
    expect(byToken.body).toEqual(byGuid.body);
    expect(byToken.body).toMatchObject({ token: a.token, guid: a.guid, status: 'AUTHORIZED', beneficiaryCode: id, interventions: [{ code: CAPITATION, paymentMechanism: 'CAPITATION' }] });
    expectError(await h.dispensary.get('/api/v1/claims/authorizations', { guid: a.guid }), 404, 'NOT_FOUND');
    // Neither token nor guid lists the facility's authorizations (R WORKFLOWS §9): tested below.
    expect((await h.hospital.get('/api/v1/claims/authorizations', {})).body).toEqual([expect.objectContaining({ guid: a.guid })]);
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
    expect((await h.hospital.get('/api/v1/claims/authorizations', { guid: r.body.guid })).body).toMatchObject({ status: 'EXPIRED', authorizationReason: 'EXPIRED' });
  });

  it('rejects on request, once (409 AUTHORIZATION_NOT_PENDING afterwards)', async () => {
    const id = await crId(h.hospital, NID.covered);
    const r = await biometric(h.hospital, id);
    const rejected = await h.hospital.post(`/api/v1/claims/authorizations/${r.body.token}/reject`);
    expect(rejected.status).toBe(200);
    expect(rejected.body).toEqual({ message: 'The authorization has been closed.' });
    expect((await h.hospital.get('/api/v1/claims/authorizations', { guid: r.body.guid })).body).toMatchObject({ status: 'REJECTED', authorizationReason: 'REJECTED_BY_FACILITY' });
    expectError(await h.hospital.post(`/api/v1/claims/authorizations/${r.body.token}/reject`), 409, 'AUTHORIZATION_NOT_PENDING');
    expectError(await h.hospital.post('/api/v1/claims/authorizations/NOPE/reject'), 404, 'NOT_FOUND');
  });

  it('needs interventions, the service type, the agent and the workstation, and a device OS of the two', async () => {
    const id = await crId(h.hospital, NID.covered);
    const body = { patient_id: id, interventions: [CAPITATION], service_type: 'CAPITATION', ...BIOMETRIC };
    const fieldOf = async (b: Record<string, unknown>) => {
      const r = await h.hospital.post('/api/v1/claims/authorize', b);
      expectError(r, 400, 'VALIDATION_ERROR');
      return (r.body.details as { field: string }[]).map((d) => d.field);
    };
    // A body with no biometric field at all is R's code-sending authorize (below), not a biometric one.
    expect(await fieldOf({ patient_id: id, work_station_id: BIOMETRIC.work_station_id })).toEqual(expect.arrayContaining(['interventions', 'service_type', 'agent_id']));
    expect(await fieldOf({ ...body, service_type: 'DAYCARE' })).toEqual(['service_type']);
    expect(await fieldOf({ ...body, authorizing_device_os: 'linux' })).toEqual(['authorizing_device_os']);
    const { work_station_id: _ws, ...noWorkstation } = body;
    expect(await fieldOf(noWorkstation)).toEqual(['work_station_id']);
    // The contract's intervention_codes is no name of the biometric body.
    const { interventions: _i, ...withoutInterventions } = body;
    expect(await fieldOf({ ...withoutInterventions, intervention_codes: [CAPITATION] })).toEqual(['interventions']);
    expectError(await h.hospital.post('/api/v1/claims/authorize', { ...body, interventions: ['SHA-99-999'] }), 422, 'INTERVENTION_NOT_ALLOWED');
    expect((await h.hospital.post('/api/v1/claims/authorize', body)).status).toBe(200);
  });

  it('refuses a capitation intervention under OUTPATIENT, naming service_type: it needs CAPITATION', async () => {
    const id = await crId(h.hospital, NID.covered);
    const r = await biometric(h.hospital, id, [CAPITATION], 'OUTPATIENT');
    expectError(r, 400, 'VALIDATION_ERROR');
    expect(r.body.details).toEqual([{ field: 'service_type', message: expect.stringMatching(/not supported for service type OUTPATIENT: use CAPITATION/) }]);
    expect((await biometric(h.hospital, id, [CAPITATION], 'CAPITATION')).status).toBe(200);
  });
});

describe("consent by authorize-then-code (R's two-step consent)", () => {
  // R requests.py authorize() with neither otp nor biometrics: {patient_id, service_type, interventions}.
  const authorizeThenCode = (client: typeof h.hospital, patientId: string, interventions = [CAPITATION], serviceType = 'CAPITATION') =>
    client.post('/api/v1/claims/authorize', { patient_id: patientId, service_type: serviceType, interventions });

  it('answers PENDING and texts the code, which opens the visit as a code from POST /claims/otp does', async () => {
    const id = await crId(h.hospital, NID.whitelisted);
    const pending = await authorizeThenCode(h.hospital, id);
    expect(pending.status).toBe(200);
    expect(pending.body).toMatchObject({ status: 'PENDING', isOpen: true, beneficiaryCode: id });
    expect(typeof pending.body.guid).toBe('string');
    const sms = (await h.control.get('/sandbox/sms', { patient_id: id })).body as any[];
    expect(sms).toHaveLength(1);
    expect(sms[0]).toMatchObject({ purpose: 'consent' });
    expect(JSON.stringify(pending.body)).not.toContain(sms[0].otp);
    const visit = await otpVisit(h.hospital, id, sms[0].otp);
    expect(visit.status).toBe(200);
    expect(visit.body).toMatchObject({ workflow_state: 'DRAFT', claim_auth_status: 'AUTHORIZED', authorization_code: pending.body.token });
    const looked = await h.hospital.get('/api/v1/claims/authorizations', { guid: pending.body.guid });
    expect(looked.body.status).toBe('AUTHORIZED');
    // The code is spent, as one from POST /claims/otp is.
    expectError(await otpVisit(h.dispensary, id, sms[0].otp), 422, 'INVALID_OTP');
  });

  it('does not open a visit with the PENDING guid and no code (a hole R saw on UAT, not a shape)', async () => {
    const id = await crId(h.hospital, NID.whitelisted);
    const pending = await authorizeThenCode(h.hospital, id);
    const visit = await h.hospital.post('/api/v1/claims/visit', { patient_id: id, intervention_codes: [CAPITATION], service_type: 'CAPITATION', auth_guid: pending.body.guid });
    expectError(visit, 422, 'AUTHORIZATION_NOT_AUTHORIZED');
  });

  it("verifies the elective's pre-visit authorization with the code given to the OTP authorize", async () => {
    const id = await crId(h.hospital, NID.whitelisted);
    const pending = await authorizeThenCode(h.hospital, id, [ELECTIVE], 'INPATIENT');
    expect(pending.body.status).toBe('PENDING');
    const otp = await lastOtp(h.control, { patient_id: id });
    const a = await electiveAuthorize(h.hospital, id, otp);
    expect(a.body).toMatchObject({ status: 'AUTHORIZED_PENDING_VISIT', guid: pending.body.guid, token: pending.body.token });
  });

  it('is the OTP path: refused where biometrics are enforced for a patient not whitelisted, and blocked by a PENDING fingerprint request', async () => {
    const covered = await crId(h.hospital, NID.covered);
    expectError(await authorizeThenCode(h.hospital, covered), 422, 'BIOMETRICS_REQUIRED');
    const id = await crId(h.hospital, NID.whitelisted);
    expect((await biometric(h.hospital, id)).body.status).toBe('PENDING');
    expectError(await authorizeThenCode(h.hospital, id), 409, 'PENDING_AUTHORIZATION_EXISTS');
  });

  it('refuses a capitation intervention under OUTPATIENT, as the other authorize shapes do', async () => {
    const id = await crId(h.hospital, NID.whitelisted);
    const r = await authorizeThenCode(h.hospital, id, [CAPITATION], 'OUTPATIENT');
    expectError(r, 400, 'VALIDATION_ERROR');
    expect(r.body.details[0].field).toBe('service_type');
  });
});

describe('visit-end consent by fingerprint', () => {
  it('takes the live twelve-field body naming the patient (no consent_token), PENDING until the finger matches', async () => {
    const id = await crId(h.hospital, NID.covered);
    const a = await authorizeByFingerprint(h, h.hospital, id, [CAPITATION], 'CAPITATION');
    const visit = await h.hospital.post('/api/v1/claims/visit', { patient_id: id, intervention_codes: [CAPITATION], service_type: 'CAPITATION', auth_guid: a.guid });
    const d = await h.hospital.post('/api/v1/claims/authorize', { patient_id: id, interventions: [CAPITATION], service_type: 'CAPITATION', ...BIOMETRIC, is_biometrics_discharge_authorization: true });
    expect(d.status).toBe(200);
    expect(d.body).toMatchObject({ status: 'PENDING', discharge_auth_guid: d.body.guid, isBiometricsDischargeAuthorization: true });
    expect(d.body.shaVerificationRequest.embedExpiry).toBe(120);
    const [finger] = await fingerprints(h.control, id);
    await h.control.post(`/sandbox/authorizations/${d.body.guid}/fingerprint`, { template: finger?.template });
    // It is this claim's visit-end consent: the claim's submit takes its guid.
    const look = await h.hospital.get('/api/v1/claims/authorizations', { guid: d.body.guid });
    expect(look.body).toMatchObject({ status: 'AUTHORIZED', discharge_auth_guid: d.body.guid });
    expect(visit.body.authorization_code).toBe(a.token);
    // Another patient has no open claim here.
    const other = await crId(h.hospital, NID.whitelisted);
    expectError(await h.hospital.post('/api/v1/claims/authorize', { patient_id: other, interventions: [CAPITATION], service_type: 'CAPITATION', ...BIOMETRIC, is_biometrics_discharge_authorization: true }), 404, 'NOT_FOUND');
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
    expectError(await electiveAuthorize(h.hospital, id, otp), 409, 'PENDING_AUTHORIZATION_EXISTS');
    expectError(
      await h.hospital.post('/api/v1/claims/visit', { patient_id: id, intervention_codes: [CAPITATION], service_type: 'CAPITATION', otp }),
      409,
      'PENDING_AUTHORIZATION_EXISTS',
    );
    await h.hospital.post(`/api/v1/claims/authorizations/${pending.body.token}/reject`);
    const visit = await h.hospital.post('/api/v1/claims/visit', { patient_id: id, intervention_codes: [CAPITATION], service_type: 'CAPITATION', otp });
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
    expect(rejected.body).toMatchObject({ status: 'REJECTED', authorizationReason: 'BIOMETRICS_NOT_FOUND_OTP_ALLOWED' });

    await advance(14 * MINUTE);
    expect((await h.hospital.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: [CAPITATION] })).status).toBe(200);
    const otp = await lastOtp(h.control, { patient_id: id });
    const visit = await h.hospital.post('/api/v1/claims/visit', { patient_id: id, intervention_codes: [CAPITATION], service_type: 'CAPITATION', otp });
    expect(visit.status).toBe(200);

    await advance(MINUTE);
    expectError(await h.hospital.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: ['SHA-03-001'] }), 422, 'BIOMETRICS_REQUIRED');
  });

  it('refuses the visit-end fingerprint too, and OTP discharge then works', async () => {
    const id = await crId(h.hospital, NID.unusableFingers);
    await biometric(h.hospital, id);
    await h.hospital.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: [CAPITATION] });
    const otp = await lastOtp(h.control, { patient_id: id });
    const visit = await h.hospital.post('/api/v1/claims/visit', { patient_id: id, intervention_codes: [CAPITATION], service_type: 'CAPITATION', otp });
    const token = visit.body.authorization_code;
    expectError(await h.hospital.post('/api/v1/claims/authorize', { consent_token: token, is_biometrics_discharge_authorization: true }), 422, 'BIOMETRICS_NOT_FOUND_OTP_ALLOWED');
    const sent = await h.hospital.post('/api/v1/claims/otp/discharge', { consent_token: token, patient_id: id });
    expect(sent.status).toBe(200);
    const sms = (await h.control.get('/sandbox/sms', { patient_id: id })).body as any[];
    expect(sms[sms.length - 1].purpose).toBe('discharge');
  });
});

describe('the facility’s authorizations and the open visit returned again (R WORKFLOWS §9)', () => {
  const openByOtp = async (patientId: string) => {
    await h.hospital.post('/api/v1/claims/otp', { patient_id: patientId, intervention_codes: [CAPITATION] });
    return otpVisit(h.hospital, patientId, await lastOtp(h.control, { patient_id: patientId }));
  };

  it('lists every authorization of the facility without token or guid, ignoring beneficiary_code, none of another facility', async () => {
    const id = await crId(h.hospital, NID.whitelisted);
    const other = await crId(h.hospital, NID.covered);
    const visit = await openByOtp(id);
    const pending = await biometric(h.hospital, other);
    const all = await h.hospital.get('/api/v1/claims/authorizations');
    expect(all.status).toBe(200);
    expect(all.body).toEqual([
      expect.objectContaining({ guid: pending.body.guid, status: 'PENDING', beneficiaryCode: other }),
      expect.objectContaining({ guid: visit.body.authorization_guid, token: visit.body.authorization_code, status: 'AUTHORIZED', beneficiaryCode: id }),
    ]);
    expect((await h.hospital.get('/api/v1/claims/authorizations', { beneficiary_code: 'DOES-NOT-EXIST' })).body).toEqual(all.body);
    expect((await h.dispensary.get('/api/v1/claims/authorizations')).body).toEqual([]);
  });

  it('answers the open visit again to a second code, and the open AUTHORIZED record to a fingerprint authorize, which opens the same visit', async () => {
    const id = await crId(h.hospital, NID.whitelisted);
    const first = await openByOtp(id);
    const again = await openByOtp(id);
    expect(again.body).toMatchObject({ authorization_code: first.body.authorization_code, authorization_guid: first.body.authorization_guid });
    const authorized = await biometric(h.hospital, id);
    expect(authorized.body).toMatchObject({ guid: first.body.authorization_guid, token: first.body.authorization_code, status: 'AUTHORIZED' });
    const byGuid = await h.hospital.post('/api/v1/claims/visit', { patient_id: id, intervention_codes: [CAPITATION], service_type: 'CAPITATION', auth_guid: authorized.body.guid });
    expect(byGuid.body).toMatchObject({ authorization_code: first.body.authorization_code });
    expect(((await h.hospital.get('/api/v1/claims/authorizations')).body as any[]).filter((a) => a.beneficiaryCode === id)).toHaveLength(1);
  });

  it('lists a closed visit’s authorization as CLOSED, and then a fingerprint authorize asks for a new consent', async () => {
    const id = await crId(h.hospital, NID.whitelisted);
    const visit = await openByOtp(id);
    const closed = await h.hospital.post('/api/v1/claims/close', { consent_token: visit.body.authorization_code, cancel_reason_type: 'WRONG_PATIENT', cancel_reason_text: 'opened for the wrong patient' });
    expect(closed.status).toBe(200);
    const rows = (await h.hospital.get('/api/v1/claims/authorizations')).body as any[];
    expect(rows.find((a) => a.guid === visit.body.authorization_guid)).toMatchObject({ status: 'CLOSED' });
    expect((await biometric(h.hospital, id)).body).toMatchObject({ status: 'PENDING' });
  });
});
