/* eslint-disable @typescript-eslint/no-explicit-any -- wire bodies are untyped JSON; the tests assert their shape */
// The elective flow (flow A phase 1 and the day of visit): AUTHORIZED_PENDING_VISIT, preauth
// lifecycle, rule 1, and visit creation (open visit returned again, per-diem line, tenants).
import { describe, expect, it } from 'vitest';
import { BIOMETRIC, NID, PREAUTH_DOCTOR, authorizeByFingerprint, createPreauth, crId, expectError, lastOtp, openVisit, preauthForm, useHarness, useInterventions } from './harness';

const h = useHarness();
const codes = useInterventions(h);

const postPreauth = (form: FormData) => h.hospital.call('POST', '/api/v1/preauths', { multipart: form });

async function previsitByOtp(patientNid: string) {
  const id = await crId(h.hospital, patientNid);
  expect((await h.hospital.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: [codes.elective] })).status).toBe(200);
  const otp = await lastOtp(h.control, { patient_id: id });
  const a = await h.hospital.post('/api/v1/claims/authorize', { patient_id: id, otp, interventions: [codes.elective], service_type: 'INPATIENT' });
  return { id, a: a.body };
}

const resend = (token: string, extra: Record<string, unknown> = {}) =>
  h.hospital.post('/api/v1/claims/doctor-consent', {
    request_type: 'PREAUTH_DOCTOR_APPROVAL_REQUEST',
    consent_token: token,
    intervention_code: codes.elective,
    practitioner_registration_number: 'A12345',
    ...extra,
  });

describe('elective preauthorization', () => {
  it('pre-visit consent by OTP is AUTHORIZED_PENDING_VISIT; the visit is refused until the preauth is FINALISED (rule 1)', async () => {
    const { id, a } = await previsitByOtp(NID.whitelisted);
    expect(a.status).toBe('AUTHORIZED_PENDING_VISIT');
    const visitByGuid = () =>
      h.hospital.post('/api/v1/claims/visit', { patient_id: id, intervention_codes: [codes.elective], service_type: 'INPATIENT', auth_guid: a.guid });
    expectError(await visitByGuid(), 422, 'PREAUTH_REQUIRED');
    // No preauth yet for the token: the look-up answers 404 (A reads it as "none").
    expectError(await h.hospital.get('/api/v1/preauths', { consent_token: a.token }), 404, 'NOT_FOUND');

    const created = await postPreauth(preauthForm(a.token, codes.elective));
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ token: a.token, interventionCode: codes.elective, status: 'PENDING_DOCTOR_APPROVAL', totalEstimatedAmountForPreauth: 82_700, serviceStart: '2030-01-15T08:00:00+03:00' });
    expect(created.body).not.toHaveProperty('consent_token');
    const doctorSms = (await h.control.get('/sandbox/sms', { doctor_id: 'A12345' })).body as any[];
    expect(doctorSms.map((m) => m.purpose)).toEqual(['preauth_doctor_consent']);
    expect((await resend(a.token)).body).toMatchObject({ data: { status: 'success' } });
    expect((await h.control.get('/sandbox/sms', { doctor_id: 'A12345' })).body).toHaveLength(2);
    expect((await h.hospital.get('/api/v1/preauths', { consent_token: a.token })).body.results[0].status).toBe('PENDING_DOCTOR_APPROVAL');

    expectError(await h.control.post(`/sandbox/preauths/${created.body.id}/payer-approval`), 409, 'INVALID_TRANSITION');
    expect((await h.control.post(`/sandbox/preauths/${created.body.id}/doctor-approval`)).body.status).toBe('ACTIVE');
    expectError(await visitByGuid(), 422, 'PREAUTH_REQUIRED');
    expectError(await resend(a.token), 409, 'PREAUTH_NOT_EDITABLE');
    expect((await h.control.post(`/sandbox/preauths/${created.body.guid}/payer-approval`)).body.status).toBe('FINALISED');

    const look = await h.hospital.get('/api/v1/preauths', { consent_token: a.token });
    expect(look.body).toMatchObject({ pageSize: 1, results: [{ status: 'FINALISED', id: created.body.id, doctorApproved: true, finalApprovedAmount: 82_700 }] });
    expect((await h.hospital.get('/api/v1/claims/authorizations', { token: a.token })).body.status).toBe('AUTHORIZED');

    const visit = await visitByGuid();
    expect(visit.status).toBe(200);
    expect(visit.body).toMatchObject({ authorization_code: a.token, authorization_guid: a.guid, workflow_state: 'DRAFT' });
    const preview = await h.hospital.post('/api/v1/claims/preview', { consent_token: visit.body.authorization_code });
    // The live preview marks the intervention whose preauth the claim carries.
    expect(preview.body.interventions).toEqual([expect.objectContaining({ preauth_exist: true })]);
    // Re-posting the visit with the same authorization returns the same claim.
    expect((await visitByGuid()).body.invoice_number).toBe(visit.body.invoice_number);
  });

  it('refuses a JSON preauth: the exchange reads preauths as multipart only', async () => {
    const { a } = await previsitByOtp(NID.whitelisted);
    const json = await h.hospital.post('/api/v1/preauths', {
      consent_token: a.token,
      intervention_code: codes.elective,
      service_start: '2030-01-15T08:00:00+03:00',
      service_end: '2030-01-17T12:00:00+03:00',
      items: [{ unit_price: 82_700 }],
      doctors: [PREAUTH_DOCTOR],
      diagnoses: [{ icd_code: 'DD51' }],
      provider_notification_email: 'claims@hospital.example',
    });
    expectError(json, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expectError(await h.hospital.get('/api/v1/preauths', { consent_token: a.token }), 404, 'NOT_FOUND');
  });

  it('names the part it cannot take: the lists, the dates, the email, the old reading', async () => {
    const { a } = await previsitByOtp(NID.whitelisted);
    const refusedAt = async (parts: Record<string, unknown>) => {
      const r = await postPreauth(preauthForm(a.token, codes.elective, parts));
      expectError(r, 400, 'VALIDATION_ERROR');
      return (r.body.details as any[]).map((d) => d.field);
    };
    expect(await refusedAt({ items: undefined })).toEqual(['items']);
    expect(await refusedAt({ doctors: [] })).toEqual(['doctors']);
    expect(await refusedAt({ diagnoses: [{ code: 'DD51' }] })).toEqual(['diagnoses.0.icd_code']);
    expect(await refusedAt({ service_end: '2030-01-17' })).toEqual(['service_end']);
    expect(await refusedAt({ service_end: '2030-01-14T08:00:00+03:00' })).toEqual(['service_end']);
    expect(await refusedAt({ provider_notification_email: undefined })).toEqual(['provider_notification_email']);
    expect(await refusedAt({ doctors: [{ ...PREAUTH_DOCTOR, regulation_body: 'PPB' }] })).toEqual(['doctors.0.regulation_body']);
  });

  it('takes attachments whose metadata names their file parts, and only those', async () => {
    const pdf = { field: 'attachments_0_file_blob', name: 'referral.pdf', type: 'application/pdf', data: new Uint8Array([37, 80, 68, 70, 45, 49]) };
    const meta = [{ document_title: 'Referral', document_type: 'REFERRAL_LETTER', file_field_name: 'attachments_0_file_blob' }];
    const { a } = await previsitByOtp(NID.whitelisted);
    const missing = await postPreauth(preauthForm(a.token, codes.elective, { attachments: meta }));
    expectError(missing, 400, 'VALIDATION_ERROR');
    expect(missing.body.details[0].field).toBe('attachments.0.file_field_name');
    const stray = await postPreauth(preauthForm(a.token, codes.elective, {}, [pdf]));
    expectError(stray, 400, 'VALIDATION_ERROR');
    expect(stray.body.details[0].field).toBe('attachments_0_file_blob');
    expect((await postPreauth(preauthForm(a.token, codes.elective, { attachments: meta }, [pdf]))).status).toBe(200);
    // K leaves the part out when there is nothing to attach: taken too.
    const other = await previsitByOtp(NID.whitelisted);
    expect((await postPreauth(preauthForm(other.a.token, codes.elective, { attachments: undefined }))).status).toBe(200);
  });

  it('day of visit by OTP: a new OTP opens the visit once the preauth is FINALISED, and not before', async () => {
    const { id, a } = await previsitByOtp(NID.whitelisted);
    const p = await createPreauth(h.hospital, a.token, codes.elective);
    const visitByOtp = async () => {
      await h.hospital.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: [codes.elective] });
      const otp = await lastOtp(h.control, { patient_id: id });
      return h.hospital.post('/api/v1/claims/visit', { patient_id: id, intervention_codes: [codes.elective], service_type: 'INPATIENT', otp });
    };
    expectError(await visitByOtp(), 422, 'PREAUTH_REQUIRED');
    await h.control.post(`/sandbox/preauths/${p.id}/doctor-approval`);
    await h.control.post(`/sandbox/preauths/${p.id}/payer-approval`);
    const visit = await visitByOtp();
    expect(visit.status).toBe(200);
    expect(visit.body.authorization_code).toBe(a.token);
  });

  it('pre-visit consent by fingerprint is AUTHORIZED_PENDING_VISIT too', async () => {
    const id = await crId(h.hospital, NID.covered);
    const a = await authorizeByFingerprint(h, h.hospital, id, [codes.elective], 'INPATIENT');
    expect(a.status).toBe('AUTHORIZED_PENDING_VISIT');
    expect((await postPreauth(preauthForm(a.token, codes.elective))).status).toBe(200);
  });

  it('refuses a preauth without an AUTHORIZED_PENDING_VISIT consent, for another intervention, or with an unknown doctor', async () => {
    const id = await crId(h.hospital, NID.covered);
    const visitConsent = await authorizeByFingerprint(h, h.hospital, id, [codes.capitation], 'CAPITATION');
    expectError(await postPreauth(preauthForm(visitConsent.token, codes.capitation)), 422, 'INTERVENTION_NOT_ALLOWED');
    const { a } = await previsitByOtp(NID.whitelisted);
    expectError(await postPreauth(preauthForm(a.token, codes.capitation)), 422, 'AUTHORIZATION_MISMATCH');
    expectError(await postPreauth(preauthForm(a.token, codes.elective, { doctors: [{ ...PREAUTH_DOCTOR, identification_number: 'A00000' }] })), 422, 'PROFESSIONAL_NOT_FOUND');
    expectError(await postPreauth(preauthForm('NOPE', codes.elective)), 404, 'NOT_FOUND');
  });

  it('returns the same preauth when creation is repeated', async () => {
    const { a } = await previsitByOtp(NID.whitelisted);
    const first = await createPreauth(h.hospital, a.token, codes.elective);
    const second = await createPreauth(h.hospital, a.token, codes.elective);
    expect(second.id).toBe(first.id);
  });

  it('cancels at /preauths/cancel by consent token and intervention (the singular /preauth/cancel does not answer), once', async () => {
    const { a } = await previsitByOtp(NID.whitelisted);
    const p = await createPreauth(h.hospital, a.token, codes.elective);
    const cancel = { consent_token: a.token, intervention_code: codes.elective };
    expectError(await h.hospital.post('/api/v1/preauth/cancel', cancel), 404, 'NOT_FOUND');
    const cancelled = await h.hospital.post('/api/v1/preauths/cancel', cancel);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id: p.id, status: 'CANCELLED' });
    expectError(await h.hospital.post('/api/v1/preauths/cancel', cancel), 404, 'NOT_FOUND');
    expectError(await h.hospital.post('/api/v1/preauths/cancel', { consent_token: a.token }), 400, 'VALIDATION_ERROR');
  });

  it('refuses to cancel a preauth past its decision', async () => {
    const { a } = await previsitByOtp(NID.whitelisted);
    const p = await createPreauth(h.hospital, a.token, codes.elective);
    await h.control.post(`/sandbox/preauths/${p.id}/doctor-approval`);
    await h.control.post(`/sandbox/preauths/${p.id}/payer-rejection`, { reason: 'not covered' });
    const r = await h.hospital.post('/api/v1/preauths/cancel', { consent_token: a.token, intervention_code: codes.elective });
    expectError(r, 404, 'NOT_FOUND');
  });

  it('resends the doctor consent only with its request_type, to the preauth doctor', async () => {
    const { a } = await previsitByOtp(NID.whitelisted);
    await createPreauth(h.hospital, a.token, codes.elective);
    const noType = await h.hospital.post('/api/v1/claims/doctor-consent', { consent_token: a.token, intervention_code: codes.elective, practitioner_registration_number: 'A12345' });
    expectError(noType, 400, 'VALIDATION_ERROR');
    expect(noType.body.details[0].field).toBe('request_type');
    expectError(await resend(a.token, { practitioner_registration_number: 'A23456' }), 404, 'NOT_FOUND');
    expect((await resend(a.token, { ...PREAUTH_DOCTOR })).status).toBe(200);
  });

  it('removes a preauth diagnosis, and its doctor only before the doctor approves', async () => {
    const { a } = await previsitByOtp(NID.whitelisted);
    const p = await createPreauth(h.hospital, a.token, codes.elective, { diagnoses: [{ icd_code: 'DD51' }, { icd_code: 'MG26' }] });
    const removed = await h.hospital.call('DELETE', '/api/v1/preauths/diagnoses/MG26', {
      body: { consent_token: a.token, icd_code: 'MG26', intervention_code: codes.elective },
    });
    expect(removed.body.preauthDiagnoses.map((d: any) => d.name)).toEqual(['DD51']);
    expectError(
      await h.hospital.call('DELETE', '/api/v1/preauths/diagnoses/MG26', { body: { consent_token: a.token, intervention_code: codes.elective } }),
      404,
      'NOT_FOUND',
    );
    const dropDoctor = () =>
      h.hospital.call('DELETE', '/api/v1/preauths/doctors', {
        body: { consent_token: a.token, intervention_code: codes.elective, practitioner_registration_number: 'A12345' },
      });
    await h.control.post(`/sandbox/preauths/${p.id}/doctor-approval`);
    expectError(await dropDoctor(), 409, 'PREAUTH_NOT_EDITABLE');
    const fresh = (await previsitByOtp(NID.whitelisted)).a;
    const q = await createPreauth(h.hospital, fresh.token, codes.elective);
    const dropped = await h.hospital.call('DELETE', '/api/v1/preauths/doctors', {
      body: { consent_token: fresh.token, intervention_code: codes.elective, practitioner_registration_number: 'A12345' },
    });
    expect(dropped.status).toBe(200);
    expect(dropped.body).toBeNull();
    expect((await h.hospital.get('/api/v1/preauths', { consent_token: fresh.token })).body.results[0].preauthDoctors).toEqual([]);
    expectError(await h.control.post(`/sandbox/preauths/${q.id}/doctor-approval`), 422, 'NO_DOCTOR_ATTACHED');
  });
});

describe('visit creation', () => {
  it('needs exactly one consent strategy and the practitioner fields together', async () => {
    const id = await crId(h.hospital, NID.covered);
    const base = { patient_id: id, intervention_codes: [codes.capitation], service_type: 'CAPITATION' };
    const none = await h.hospital.post('/api/v1/claims/visit', base);
    expectError(none, 400, 'VALIDATION_ERROR');
    expect(none.body.details[0].field).toBe('otp');
    expectError(await h.hospital.post('/api/v1/claims/visit', { ...base, otp: '123456', auth_guid: 'x' }), 400, 'VALIDATION_ERROR');
    const partial = await h.hospital.post('/api/v1/claims/visit', { ...base, auth_guid: 'x', practitioner_identification_number: 'A12345' });
    expectError(partial, 400, 'VALIDATION_ERROR');
    expect((partial.body.details as any[]).map((d) => d.field).sort()).toEqual(['practitioner_identification_type', 'practitioner_regulation_body']);
    expectError(await h.hospital.post('/api/v1/claims/visit', { ...base, service_type: 'DAYCASE', auth_guid: 'x' }), 400, 'VALIDATION_ERROR');
  });

  it('refuses the singular intervention_code, naming intervention_codes: the live visit takes an array', async () => {
    const id = await crId(h.dispensary, NID.covered);
    await h.dispensary.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: [codes.capitation] });
    const otp = await lastOtp(h.control, { patient_id: id });
    const singular = await h.dispensary.post('/api/v1/claims/visit', { patient_id: id, intervention_code: codes.capitation, service_type: 'CAPITATION', otp });
    expectError(singular, 400, 'VALIDATION_ERROR');
    expect(singular.body.details).toEqual([{ field: 'intervention_codes', message: expect.stringMatching(/singular intervention_code is not accepted/) }]);
    const both = await h.dispensary.post('/api/v1/claims/visit', { patient_id: id, intervention_code: codes.capitation, intervention_codes: [codes.capitation], service_type: 'CAPITATION', otp });
    expect(both.body.details.map((d: { field: string }) => d.field)).toEqual(['intervention_code']);
    // Refused before the code was looked at: it still opens the visit.
    expect((await h.dispensary.post('/api/v1/claims/visit', { patient_id: id, intervention_codes: [codes.capitation], service_type: 'CAPITATION', otp })).status).toBe(200);
  });

  it('refuses a capitation intervention under OUTPATIENT, naming service_type; CAPITATION opens it', async () => {
    const id = await crId(h.dispensary, NID.covered);
    await h.dispensary.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: [codes.capitation] });
    const otp = await lastOtp(h.control, { patient_id: id });
    const outpatient = await h.dispensary.post('/api/v1/claims/visit', { patient_id: id, intervention_codes: [codes.capitation], service_type: 'OUTPATIENT', otp });
    expectError(outpatient, 400, 'VALIDATION_ERROR');
    expect(outpatient.body.details[0]).toMatchObject({ field: 'service_type', message: expect.stringContaining('is not supported for service type OUTPATIENT') });
    const visit = await h.dispensary.post('/api/v1/claims/visit', { patient_id: id, intervention_codes: [codes.capitation], service_type: 'CAPITATION', otp });
    expect(visit.body).toMatchObject({ service_type: 'CAPITATION', interventions: [{ intervention_code: codes.capitation, intervention_payment_mechanism: 'CAPITATION' }] });
    // A fee-for-service outpatient intervention stays OUTPATIENT.
    await h.dispensary.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: ['SHA-03-001'] });
    const fee = await h.dispensary.post('/api/v1/claims/visit', { patient_id: id, intervention_codes: ['SHA-03-001'], service_type: 'OUTPATIENT', otp: await lastOtp(h.control, { patient_id: id }) });
    expect(fee.status).toBe(200);
  });

  it('returns an open visit again instead of duplicating it (crash recovery)', async () => {
    const id = await crId(h.dispensary, NID.covered);
    await h.dispensary.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: [codes.capitation] });
    const otp = await lastOtp(h.control, { patient_id: id });
    const body = { patient_id: id, intervention_codes: [codes.capitation], service_type: 'CAPITATION', otp };
    const first = await h.dispensary.post('/api/v1/claims/visit', body);
    const repeat = await h.dispensary.post('/api/v1/claims/visit', body);
    expect(repeat.status).toBe(200);
    expect(repeat.body).toEqual(first.body);
    // A fresh consent for the same patient and intervention finds the same open visit.
    await h.dispensary.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: [codes.capitation] });
    const again = await h.dispensary.post('/api/v1/claims/visit', { ...body, otp: await lastOtp(h.control, { patient_id: id }) });
    expect(again.body.authorization_code).toBe(first.body.authorization_code);
    // A wrong OTP gets nothing.
    expectError(await h.dispensary.post('/api/v1/claims/visit', { ...body, otp: '000000' }), 422, 'INVALID_OTP');
  });

  it('refuses an authorization of another patient or intervention, or one not AUTHORIZED', async () => {
    const id = await crId(h.hospital, NID.covered);
    const other = await crId(h.hospital, NID.whitelisted);
    const a = await authorizeByFingerprint(h, h.hospital, id, [codes.capitation], 'CAPITATION');
    expectError(
      await h.hospital.post('/api/v1/claims/visit', { patient_id: other, intervention_codes: [codes.capitation], service_type: 'CAPITATION', auth_guid: a.guid }),
      422,
      'AUTHORIZATION_MISMATCH',
    );
    expectError(
      await h.hospital.post('/api/v1/claims/visit', { patient_id: id, intervention_codes: ['SHA-03-001'], service_type: 'OUTPATIENT', auth_guid: a.guid }),
      422,
      'AUTHORIZATION_MISMATCH',
    );
    const pending = await h.hospital.post('/api/v1/claims/authorize', { patient_id: id, interventions: [codes.capitation], service_type: 'CAPITATION', ...BIOMETRIC });
    expectError(
      await h.hospital.post('/api/v1/claims/visit', { patient_id: id, intervention_codes: [codes.capitation], service_type: 'CAPITATION', auth_guid: pending.body.guid }),
      422,
      'AUTHORIZATION_NOT_AUTHORIZED',
    );
    expectError(
      await h.hospital.post('/api/v1/claims/visit', { patient_id: id, intervention_codes: [codes.perDiem], service_type: 'OUTPATIENT', auth_guid: a.guid }),
      422,
      'INTERVENTION_NOT_ALLOWED',
    );
  });

  it('generates the per-diem day line at admission', async () => {
    const id = await crId(h.hospital, NID.covered);
    const visit = await openVisit(h, h.hospital, id, codes.perDiem, 'INPATIENT');
    const preview = await h.hospital.post('/api/v1/claims/preview', { consent_token: visit.consent_token });
    expect(preview.body.invoices[0].lines).toHaveLength(1);
    expect(preview.body.invoices[0].lines[0]).toMatchObject({ intervention_code: codes.perDiem, quantity: 1 });
    expect(preview.body.total_claim_amount).toBeGreaterThan(0);
  });

  it("keeps claims to the facility that made them", async () => {
    const id = await crId(h.hospital, NID.covered);
    const visit = await openVisit(h, h.hospital, id, codes.capitation, 'CAPITATION');
    expectError(await h.dispensary.post('/api/v1/claims/preview', { consent_token: visit.consent_token }), 404, 'NOT_FOUND');
    expect((await h.hospital.post('/api/v1/claims/preview', { consent_token: visit.consent_token })).status).toBe(200);
  });
});
