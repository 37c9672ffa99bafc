/* eslint-disable @typescript-eslint/no-explicit-any -- wire bodies are untyped JSON; the tests assert their shape */
// Claims after the visit opens: lines, doctor (rule 2), discharge and submit shapes, partial
// discharge, attachments and their limits, housekeeping, and the payer's side of the lifecycle.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  DOCTOR,
  NID,
  addLine,
  crId,
  dischargeByFingerprint,
  expectError,
  findInterventions,
  lastOtp,
  openVisit,
  useHarness,
  type Interventions,
} from './harness';

const h = useHarness();
let codes: Interventions;
let patient: string;
beforeAll(async () => {
  patient = await crId(h.hospital, NID.covered);
  codes = await findInterventions(h.hospital, patient);
});

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

function attachment(consentToken: string, code: string, data: Buffer, type: string, name = 'file.pdf') {
  const form = new FormData();
  form.set('consent_token', consentToken);
  form.set('intervention_code', code);
  form.set('document_type', 'INVOICE');
  form.set('file', new Blob([data], { type }), name);
  return h.hospital.call('POST', '/api/v1/claims/attachments', { multipart: form });
}

const preview = (token: string) => h.hospital.post('/api/v1/claims/preview', { consent_token: token }).then((r) => r.body);

describe('billing lines and the doctor', () => {
  it('adds a JSON line and a multipart line with an attachment; the total follows', async () => {
    const visit = await openVisit(h, h.hospital, patient, codes.capitation, 'CAPITATION', false);
    const first = await addLine(h.hospital, visit.consent_token, codes.capitation, 850);
    expect(first).toMatchObject({ total_amount: 850 });
    expect(first.lines).toHaveLength(1);
    const form = new FormData();
    form.set('consent_token', visit.consent_token);
    form.set('intervention_code', codes.capitation);
    form.set('unit_price', '120.5');
    form.set('quantity', '2');
    form.set('diagnoses', JSON.stringify([{ code: 'MD12', name: 'Cough' }]));
    form.set('attachments', new Blob([PDF], { type: 'application/pdf' }), 'lab.pdf');
    const multipart = await h.hospital.call('POST', '/api/v1/claims/lines', { multipart: form });
    expect(multipart.status).toBe(200);
    expect(multipart.body.total_amount).toBe(1091);
    const p = await preview(visit.consent_token);
    expect(p.attachments).toHaveLength(1);
    expect(p.diagnoses.map((d: any) => d.code).sort()).toEqual(['CA00', 'MD12']);
  });

  it('validates a line: positive price and quantity, at least one diagnosis, an intervention of the claim', async () => {
    const visit = await openVisit(h, h.hospital, patient, codes.capitation, 'CAPITATION');
    const base = { consent_token: visit.consent_token, intervention_code: codes.capitation, unit_price: 100, quantity: 1, diagnoses: [{ code: 'CA00' }] };
    expectError(await h.hospital.post('/api/v1/claims/lines', { ...base, unit_price: -1 }), 400, 'VALIDATION_ERROR');
    // A zero price is a valid line (capitation services are paid per head, not per line).
    expect((await h.hospital.post('/api/v1/claims/lines', { ...base, unit_price: 0 })).status).toBe(200);
    expectError(await h.hospital.post('/api/v1/claims/lines', { ...base, quantity: -1 }), 400, 'VALIDATION_ERROR');
    expectError(await h.hospital.post('/api/v1/claims/lines', { ...base, diagnoses: [] }), 400, 'VALIDATION_ERROR');
    expectError(await h.hospital.post('/api/v1/claims/lines', { ...base, intervention_code: 'SHA-03-001' }), 422, 'INTERVENTION_NOT_ALLOWED');
    expectError(await h.hospital.post('/api/v1/claims/lines', { ...base, practitioner_identification_number: 'A12345' }), 400, 'VALIDATION_ERROR');
    expectError(await h.hospital.post('/api/v1/claims/lines', { ...base, consent_token: 'NOPE' }), 404, 'NOT_FOUND');
  });

  it('attaches one doctor per claim: by a line, by POST /claims/doctors, removed by DELETE', async () => {
    const visit = await openVisit(h, h.hospital, patient, codes.capitation, 'CAPITATION', false);
    expect((await preview(visit.consent_token)).doctor).toBeUndefined();
    await addLine(h.hospital, visit.consent_token, codes.capitation, 850, DOCTOR);
    expect((await preview(visit.consent_token)).doctor).toMatchObject({ registration_number: 'A12345', regulation_body: 'KMPDC' });
    const other = { consent_token: visit.consent_token, identification_number: 'RCO-04512', identification_type: 'registration_number', regulation_body: 'COC' };
    expectError(await h.hospital.post('/api/v1/claims/doctors', other), 409, 'DOCTOR_ALREADY_ATTACHED');
    expect((await h.hospital.call('DELETE', '/api/v1/claims/doctors', { body: { consent_token: visit.consent_token } })).status).toBe(204);
    expectError(await h.hospital.call('DELETE', '/api/v1/claims/doctors', { body: { consent_token: visit.consent_token } }), 404, 'NOT_FOUND');
    expectError(await h.hospital.post('/api/v1/claims/doctors', { ...other, identification_number: 'RCO-00000' }), 422, 'PROFESSIONAL_NOT_FOUND');
    expect((await h.hospital.post('/api/v1/claims/doctors', other)).status).toBe(200);
    expect((await preview(visit.consent_token)).doctor.registration_number).toBe('RCO-04512');
  });
});

describe('submit (outpatient)', () => {
  it('standard shape with the discharge OTP', async () => {
    const id = await crId(h.dispensary, NID.whitelisted);
    await h.dispensary.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: [codes.capitation] });
    const opened = (
      await h.dispensary.post('/api/v1/claims/visit', {
        patient_id: id,
        intervention_codes: [codes.capitation],
        service_type: 'CAPITATION',
        otp: await lastOtp(h.control, { patient_id: id }),
        ...DOCTOR,
      })
    ).body;
    const visit = { ...opened, consent_token: opened.authorization_code as string };
    await addLine(h.dispensary, visit.consent_token, codes.capitation);
    const sent = await h.dispensary.post('/api/v1/claims/otp/discharge', { consent_token: visit.consent_token, patient_id: id });
    expect(sent.status).toBe(200);
    const otp = await lastOtp(h.control, { patient_id: id });
    const body = { consent_token: visit.consent_token, invoice_number: visit.invoice_number, discharge_reason: 'RECOVERED', notes: 'well', otp };
    const submitted = await h.dispensary.post('/api/v1/claims/submit', body);
    expect(submitted.status).toBe(200);
    expect(submitted.body).toMatchObject({ workflow_state: 'SUBMITTED', consent_token: visit.consent_token });
    expect(typeof submitted.body.submitted_at).toBe('string');
    expectError(await h.dispensary.post('/api/v1/claims/submit', body), 409, 'CLAIM_ALREADY_SUBMITTED');
    expectError(await addLineRaw(h.dispensary, visit.consent_token), 409, 'CLAIM_ALREADY_SUBMITTED');
  });

  it('standard shape with discharge_auth_guid from the visit-end fingerprint', async () => {
    const visit = await openVisit(h, h.hospital, patient, codes.capitation, 'CAPITATION');
    const guid = await dischargeByFingerprint(h, h.hospital, visit.consent_token, patient);
    const look = await h.hospital.get('/api/v1/claims/authorizations', { guid });
    expect(look.body).toMatchObject({ status: 'AUTHORIZED', discharge_auth_guid: guid });
    const r = await h.hospital.post('/api/v1/claims/submit', {
      consent_token: visit.consent_token,
      invoice_number: visit.invoice_number,
      discharge_reason: 'REFERRED',
      discharge_auth_guid: guid,
    });
    expect(r.body.workflow_state).toBe('SUBMITTED');
  });

  it('is refused with no doctor attached (rule 2), without spending the consent', async () => {
    const visit = await openVisit(h, h.hospital, patient, codes.capitation, 'CAPITATION', false);
    const guid = await dischargeByFingerprint(h, h.hospital, visit.consent_token, patient);
    const body = { consent_token: visit.consent_token, invoice_number: visit.invoice_number, discharge_reason: 'RECOVERED', discharge_auth_guid: guid };
    expectError(await h.hospital.post('/api/v1/claims/submit', body), 422, 'NO_DOCTOR_ATTACHED');
    await h.hospital.post('/api/v1/claims/doctors', { consent_token: visit.consent_token, identification_number: '22334455', identification_type: 'National ID', regulation_body: 'KMPDC' });
    expect((await h.hospital.post('/api/v1/claims/submit', body)).status).toBe(200);
  });

  it('is refused with DECEASED as discharge_reason, and without a discharge OTP or discharge_auth_guid', async () => {
    const visit = await openVisit(h, h.hospital, patient, codes.capitation, 'CAPITATION');
    const base = { consent_token: visit.consent_token, invoice_number: visit.invoice_number };
    const deceased = await h.hospital.post('/api/v1/claims/submit', { ...base, discharge_reason: 'DECEASED', otp: '123456' });
    expectError(deceased, 400, 'VALIDATION_ERROR');
    expect(deceased.body.details[0]).toMatchObject({ field: 'discharge_reason' });
    expectError(await h.hospital.post('/api/v1/claims/submit', { ...base, discharge_reason: 'RECOVERED' }), 422, 'DISCHARGE_CONSENT_REQUIRED');
    expectError(await h.hospital.post('/api/v1/claims/submit', { ...base, discharge_reason: 'RECOVERED', otp: '123456' }), 422, 'INVALID_OTP');
    expectError(await h.hospital.post('/api/v1/claims/submit', { ...base, invoice_number: 'INV-X', discharge_reason: 'RECOVERED', otp: '123456' }), 422, 'INVOICE_MISMATCH');
    // The visit's own consent is not a visit-end consent.
    expectError(
      await h.hospital.post('/api/v1/claims/submit', { ...base, discharge_reason: 'RECOVERED', discharge_auth_guid: visit.authorization_guid }),
      422,
      'AUTHORIZATION_MISMATCH',
    );
    expectError(await h.hospital.post('/api/v1/claims/submit', { ...base, discharge_reason: 'RECOVERED', otp: '123456', discharge_status: 'FULL' }), 422, 'NO_PARTIAL_DISCHARGE');
    expectError(await h.hospital.post('/api/v1/claims/discharge', { ...base, discharge_reason: 'RECOVERED', otp: '123456' }), 422, 'USE_SUBMIT');
  });

  it('refuses a visit-end authorization that is still PENDING', async () => {
    const visit = await openVisit(h, h.hospital, patient, codes.capitation, 'CAPITATION');
    const pending = await h.hospital.post('/api/v1/claims/authorize', { consent_token: visit.consent_token, is_biometrics_discharge_authorization: true });
    expect(pending.body).toMatchObject({ status: 'PENDING', discharge_auth_guid: pending.body.guid });
    const r = await h.hospital.post('/api/v1/claims/submit', {
      consent_token: visit.consent_token,
      invoice_number: visit.invoice_number,
      discharge_reason: 'RECOVERED',
      discharge_auth_guid: pending.body.guid,
    });
    expectError(r, 422, 'AUTHORIZATION_NOT_AUTHORIZED');
  });
});

async function addLineRaw(client: typeof h.hospital, token: string) {
  return client.post('/api/v1/claims/lines', { consent_token: token, intervention_code: codes.capitation, unit_price: 1, quantity: 1, diagnoses: [{ code: 'CA00' }] });
}

describe('discharge (inpatient)', () => {
  it('discharges a per-diem stay with the discharge OTP, billing the days stayed', async () => {
    const id = await crId(h.hospital, NID.whitelisted);
    const visit = await openVisit(h, h.hospital, id, codes.perDiem, 'INPATIENT');
    await h.control.post('/sandbox/clock', { advance_ms: 3 * 24 * 3600 * 1000 - 60_000 });
    h.hospital.token = (await h.hospital.post('/api/v1/tenants/token', { client_id: 'demo-hospital', client_secret: 'demo-hospital-secret' })).body.access_token;
    const base = { consent_token: visit.consent_token, invoice_number: visit.invoice_number, discharge_reason: 'RECOVERED' };
    expectError(await h.hospital.post('/api/v1/claims/submit', { ...base, otp: '123456' }), 422, 'USE_DISCHARGE');
    await h.hospital.post('/api/v1/claims/otp/discharge', { consent_token: visit.consent_token });
    const r = await h.hospital.post('/api/v1/claims/discharge', { ...base, discharge_date: '2030-01-03', otp: await lastOtp(h.control, { patient_id: id }) });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ workflow_state: 'SUBMITTED', consent_token: visit.consent_token });
    const p = await preview(visit.consent_token);
    expect(p.lines[0]).toMatchObject({ generated: 'per_diem', quantity: 3 });
    expect(p.discharge_status).toBe('FULL');
  });

  it('accepts DECEASED at discharge (the contract forbids it on submit only)', async () => {
    const visit = await openVisit(h, h.hospital, patient, codes.perDiem, 'INPATIENT');
    const guid = await dischargeByFingerprint(h, h.hospital, visit.consent_token, patient);
    const r = await h.hospital.post('/api/v1/claims/discharge', {
      consent_token: visit.consent_token,
      invoice_number: visit.invoice_number,
      discharge_reason: 'DECEASED',
      auth_guid: guid,
    });
    expect(r.body.workflow_state).toBe('SUBMITTED');
  });

  it('partial discharge, then finalisation by submit with discharge_status FULL', async () => {
    const visit = await openVisit(h, h.hospital, patient, codes.perDiem, 'INPATIENT');
    await addLine(h.hospital, visit.consent_token, codes.perDiem, 2000);
    const first = await dischargeByFingerprint(h, h.hospital, visit.consent_token, patient);
    const base = { consent_token: visit.consent_token, invoice_number: visit.invoice_number, discharge_reason: 'RECOVERED' };
    expectError(await h.hospital.post('/api/v1/claims/submit', { ...base, discharge_auth_guid: first, discharge_status: 'FULL' }), 422, 'NO_PARTIAL_DISCHARGE');
    expectError(await h.hospital.post('/api/v1/claims/submit', { ...base, discharge_auth_guid: first, discharge_status: 'PARTIAL' }), 422, 'USE_DISCHARGE');
    const partial = await h.hospital.post('/api/v1/claims/discharge', { ...base, discharge_auth_guid: first, discharge_status: 'PARTIAL' });
    expect(partial.body).toMatchObject({ workflow_state: 'DRAFT', discharge_status: 'PARTIAL' });
    let p = await preview(visit.consent_token);
    expect(p.partial_discharges).toHaveLength(1);
    expect(p.partial_discharges[0].amount).toBe(p.total_amount);
    // The visit-end consent is spent; more billing follows, then finalisation with a new consent.
    expectError(await h.hospital.post('/api/v1/claims/submit', { ...base, discharge_auth_guid: first, discharge_status: 'FULL' }), 422, 'AUTHORIZATION_NOT_AUTHORIZED');
    await addLine(h.hospital, visit.consent_token, codes.perDiem, 500);
    const second = await dischargeByFingerprint(h, h.hospital, visit.consent_token, patient);
    const final = await h.hospital.post('/api/v1/claims/submit', { ...base, discharge_auth_guid: second, discharge_status: 'FULL' });
    expect(final.body.workflow_state).toBe('SUBMITTED');
    p = await preview(visit.consent_token);
    expect(p.discharge_status).toBe('FULL');
  });
});

describe('attachments', () => {
  it('stores a PDF, PNG or JPEG and refuses other types, lying content, oversized files and an eleventh file', async () => {
    const visit = await openVisit(h, h.hospital, patient, codes.capitation, 'CAPITATION');
    const token = visit.consent_token;
    const ok = await attachment(token, codes.capitation, PDF, 'application/pdf', 'invoice.pdf');
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ file_name: 'invoice.pdf', content_type: 'application/pdf', size: PDF.length });
    expect(typeof ok.body.attachment_id).toBe('string');
    expect((await attachment(token, codes.capitation, PNG, 'image/png', 'x.png')).status).toBe(200);
    expectError(await attachment(token, codes.capitation, Buffer.from('hello'), 'text/plain', 'x.txt'), 415, 'UNSUPPORTED_MEDIA_TYPE');
    expectError(await attachment(token, codes.capitation, Buffer.from('MZ not a pdf'), 'application/pdf', 'x.pdf'), 415, 'UNSUPPORTED_MEDIA_TYPE');
    const big = Buffer.concat([PDF, Buffer.alloc(5 * 1024 * 1024)]);
    expectError(await attachment(token, codes.capitation, big, 'application/pdf', 'big.pdf'), 413, 'ATTACHMENT_TOO_LARGE');
    expectError(await h.hospital.post('/api/v1/claims/attachments', { consent_token: token }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    for (let i = 0; i < 8; i++) expect((await attachment(token, codes.capitation, PDF, 'application/pdf')).status).toBe(200);
    expectError(await attachment(token, codes.capitation, PDF, 'application/pdf'), 422, 'TOO_MANY_ATTACHMENTS');
    const listed = (await preview(token)).attachments as any[];
    expect(listed).toHaveLength(10);
    const removed = await h.hospital.call('PATCH', '/api/v1/claims/attachments', {
      body: { attachment_id: listed[0].attachment_id, consent_token: token, intervention_code: codes.capitation },
    });
    expect(removed.body.data.attachments).toHaveLength(9);
    expect(typeof removed.body.message).toBe('string');
  });
});

describe('housekeeping', () => {
  it('removes a line and a diagnosis, switches an intervention, edits after resubmission', async () => {
    const visit = await openVisit(h, h.hospital, patient, codes.capitation, 'CAPITATION');
    const token = visit.consent_token;
    const added = await addLine(h.hospital, token, codes.capitation, 500, { diagnoses: [{ code: 'CA00' }, { code: 'MG26' }] });
    const diag = await h.hospital.call('PATCH', '/api/v1/claims/diagnoses', { body: { consent_token: token, icd_code: 'MG26', intervention_code: codes.capitation } });
    expect(diag.body.data.diagnoses).toEqual([{ code: 'CA00' }]);
    const switched = await h.hospital.post('/api/v1/claims/interventions/switch', {
      consent_token: token,
      existing_intervention_code: codes.capitation,
      new_intervention_code: 'SHA-03-001',
      retain_bill_items: true,
    });
    expect(switched.body.data.interventions).toEqual(['SHA-03-001']);
    expect(switched.body.data.lines[0].intervention_code).toBe('SHA-03-001');
    const removed = await h.hospital.call('PATCH', '/api/v1/claims/lines', { body: { consent_token: token, line_guid: added.line_guid } });
    expect(removed.body.data.lines).toEqual([]);
    expectError(await h.hospital.call('PATCH', '/api/v1/claims/lines', { body: { consent_token: token, line_guid: added.line_guid } }), 404, 'NOT_FOUND');
  });

  it('closes a draft claim for good', async () => {
    const visit = await openVisit(h, h.hospital, patient, codes.capitation, 'CAPITATION');
    const closed = await h.hospital.post('/api/v1/claims/close', { consent_token: visit.consent_token, cancel_reason_type: 'WRONG_PATIENT', cancel_reason_text: 'mixed up' });
    expect(closed.body).toMatchObject({ claim_auth_status: 'CLOSED', workflow_state: 'CLOSED' });
    expectError(await h.hospital.post('/api/v1/claims/close', { consent_token: visit.consent_token, cancel_reason_type: 'OTHER_REASONS', cancel_reason_text: 'x' }), 409, 'CLAIM_ALREADY_SUBMITTED');
    expectError(await h.hospital.post('/api/v1/claims/close', { consent_token: visit.consent_token, cancel_reason_type: 'BORED', cancel_reason_text: 'x' }), 400, 'VALIDATION_ERROR');
  });

  it("follows the payer's side through the control API, and resubmission after the payer returns the claim", async () => {
    const visit = await openVisit(h, h.hospital, patient, codes.capitation, 'CAPITATION');
    const token = visit.consent_token;
    const line = await addLine(h.hospital, token, codes.capitation, 900);
    const guid = await dischargeByFingerprint(h, h.hospital, token, patient);
    await h.hospital.post('/api/v1/claims/submit', { consent_token: token, invoice_number: visit.invoice_number, discharge_reason: 'RECOVERED', discharge_auth_guid: guid });
    expectError(await h.control.post(`/sandbox/claims/${token}/workflow-state`, { to: 'CLOSED' }), 409, 'INVALID_TRANSITION');
    for (const to of ['DISPATCHED', 'SUBMITTED_PAYER', 'AUTOMATIC_CHECKS_DONE']) {
      expect((await h.control.post(`/sandbox/claims/${token}/workflow-state`, { to })).body.workflow_state).toBe(to);
    }
    const payer = await h.hospital.get('/api/v1/claims/preview/payer', { provider_claim_no: visit.invoice_number });
    expect(payer.body).toMatchObject({ pageSize: 1, results: [{ provider_claim_no: visit.invoice_number, status: 'AUTOMATIC_CHECKS_DONE', total_amount: 900 }] });
    expect((await h.hospital.post('/api/v1/claims/lines/resubmit', { consent_token: token })).body.workflow_state).toBe('DRAFT_RESUBMIT');
    const edited = await h.hospital.call('PATCH', '/api/v1/claims/lines/edit', { body: { consent_token: token, line_guid: line.line_guid, unit_price: 800 } });
    expect(edited.body.data.total_amount).toBe(800);
    const rediagnosed = await h.hospital.call('PATCH', '/api/v1/claims/lines/edit', {
      body: { consent_token: token, line_guid: line.line_guid, diagnoses: [{ code: 'MG26' }], service_date: '2030-01-02' },
    });
    expect(rediagnosed.body.data.lines[0]).toMatchObject({ diagnoses: [{ code: 'MG26' }], service_date: '2030-01-02' });
    expectError(await h.hospital.call('PATCH', '/api/v1/claims/lines/edit', { body: { consent_token: token, line_guid: line.line_guid } }), 400, 'VALIDATION_ERROR');
    const again = await dischargeByFingerprint(h, h.hospital, token, patient);
    const resubmitted = await h.hospital.post('/api/v1/claims/submit', { consent_token: token, invoice_number: visit.invoice_number, discharge_reason: 'RECOVERED', discharge_auth_guid: again });
    expect(resubmitted.body.workflow_state).toBe('SUBMITTED');
  });
});
