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

function attachment(consentToken: string, code: string, data: Buffer, type: string, name = 'file.pdf', part = 'file_blob', documentType = 'INVOICE') {
  const form = new FormData();
  form.set('consent_token', consentToken);
  form.set('intervention_code', code);
  form.set('document_type', documentType);
  form.set(part, new Blob([data], { type }), name);
  return h.hospital.call('POST', '/api/v1/claims/attachments', { multipart: form });
}

const preview = (token: string) => h.hospital.post('/api/v1/claims/preview', { consent_token: token }).then((r) => r.body);
const previewLines = (p: any): any[] => p.invoices.flatMap((i: any) => i.lines);

/** A multipart line from its text parts and files ([part name, bytes, type, file name]). */
function multipartLine(fields: Record<string, string>, files: [string, Buffer, string, string][] = []) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  for (const [part, data, type, name] of files) form.set(part, new Blob([data], { type }), name);
  return h.hospital.call('POST', '/api/v1/claims/lines', { multipart: form });
}

describe('billing lines and the doctor', () => {
  it('adds a JSON line and a multipart line with its diagnoses and a named file; the line object comes back and the preview holds them', async () => {
    const visit = await openVisit(h, h.hospital, patient, codes.capitation, 'CAPITATION', false);
    const json = await h.hospital.post('/api/v1/claims/lines', { consent_token: visit.consent_token, intervention_code: codes.capitation, unit_price: '850', quantity: '1' });
    expect(json.status).toBe(200);
    expect(json.body).toMatchObject({ intervention_code: codes.capitation, unit_price: 850, quantity: 1, line_total_amount: 850 });
    expect(typeof json.body.id).toBe('string');
    expect(json.body).not.toHaveProperty('line_guid');
    const meta = [{ document_title: 'Lab results', document_type: 'LAB_RESULTS', file_field_name: 'attachments_0_file_blob' }];
    const multipart = await multipartLine(
      {
        consent_token: visit.consent_token,
        intervention_code: codes.capitation,
        unit_price: '120.5',
        quantity: '2',
        charge_date: '2030-01-01T09:30:00+03:00',
        diagnoses: JSON.stringify(['MD12', 'CA00']),
        attachments: JSON.stringify(meta),
      },
      [['attachments_0_file_blob', PDF, 'application/pdf', 'lab.pdf']],
    );
    expect(multipart.status).toBe(200);
    expect(multipart.body).toMatchObject({ line_total_amount: 241, charge_date: '2030-01-01T09:30:00+03:00' });
    const p = await preview(visit.consent_token);
    expect(p.authorization_code).toBe(visit.consent_token);
    expect(previewLines(p).map((l) => l.id)).toEqual([json.body.id, multipart.body.id]);
    expect(p.total_claim_amount).toBe(1091);
    expect(p.invoices[0]).toMatchObject({ invoice_number: visit.invoice_number, total_inv_amount: 1091 });
    expect(p.claim_attachments).toEqual([expect.objectContaining({ title: 'Lab results', attachment_type: 'LAB_RESULTS', intervention_code: codes.capitation })]);
    expect(p.claim_diagnoses.map((d: any) => [d.diagnosis_code, d.intervention_code])).toEqual([
      ['MD12', codes.capitation],
      ['CA00', codes.capitation],
    ]);
    expect(p).not.toHaveProperty('lines');
  });

  it('takes the file part R names attachment_{n} as long as the metadata names it too', async () => {
    const visit = await openVisit(h, h.hospital, patient, codes.capitation, 'CAPITATION');
    const meta = [{ document_title: 'Bill', document_type: 'FINAL_BILL', file_field_name: 'attachment_0' }];
    const r = await multipartLine(
      { consent_token: visit.consent_token, intervention_code: codes.capitation, unit_price: '10', quantity: '1', attachments: JSON.stringify(meta) },
      [['attachment_0', PDF, 'application/pdf', 'bill.pdf']],
    );
    expect(r.status).toBe(200);
    expect((await preview(visit.consent_token)).claim_attachments).toHaveLength(1);
  });

  it('refuses what the live service refuses, and a file the metadata does not pair, naming the field', async () => {
    const visit = await openVisit(h, h.hospital, patient, codes.capitation, 'CAPITATION');
    const base = { consent_token: visit.consent_token, intervention_code: codes.capitation, unit_price: '100', quantity: '1' };
    const field = (r: any) => r.body.details[0].field;
    const objects = await multipartLine({ ...base, diagnoses: JSON.stringify([{ code: 'CA00' }]) });
    expectError(objects, 400, 'VALIDATION_ERROR');
    expect(field(objects)).toBe('diagnoses.0');
    expect(objects.body.details[0].message).toMatch(/ICD code string/);
    const words = await multipartLine({ ...base, diagnoses: 'CA00, MD12' });
    expectError(words, 400, 'VALIDATION_ERROR');
    expect(field(words)).toBe('diagnoses');
    const missingPart = await multipartLine({ ...base, attachments: JSON.stringify([{ document_title: 'x', document_type: 'OTHER', file_field_name: 'attachments_0_file_blob' }]) });
    expectError(missingPart, 400, 'VALIDATION_ERROR');
    expect(field(missingPart)).toBe('attachments.0.file_field_name');
    const stray = await multipartLine(base, [['attachments', PDF, 'application/pdf', 'lab.pdf']]);
    expectError(stray, 400, 'VALIDATION_ERROR');
    expect(field(stray)).toBe('attachments');
    const badType = await multipartLine({ ...base, attachments: JSON.stringify([{ document_type: 'LAB_REPORT', file_field_name: 'f' }]) }, [['f', PDF, 'application/pdf', 'x.pdf']]);
    expect(field(badType)).toBe('attachments.0.document_type');
    expect(field(await multipartLine({ ...base, charge_date: '01/01/2030' }))).toBe('charge_date');
    expect((await preview(visit.consent_token)).invoices[0].lines).toEqual([]);
  });

  it('validates a line: positive price and quantity, an intervention of the claim; diagnoses are not required', async () => {
    const visit = await openVisit(h, h.hospital, patient, codes.capitation, 'CAPITATION');
    const base = { consent_token: visit.consent_token, intervention_code: codes.capitation, unit_price: 100, quantity: 1 };
    expectError(await h.hospital.post('/api/v1/claims/lines', { ...base, unit_price: -1 }), 400, 'VALIDATION_ERROR');
    // A zero price is a valid line (capitation services are paid per head, not per line).
    expect((await h.hospital.post('/api/v1/claims/lines', { ...base, unit_price: 0 })).status).toBe(200);
    expectError(await h.hospital.post('/api/v1/claims/lines', { ...base, quantity: -1 }), 400, 'VALIDATION_ERROR');
    expectError(await h.hospital.post('/api/v1/claims/lines', { ...base, intervention_code: 'SHA-03-001' }), 422, 'INTERVENTION_NOT_ALLOWED');
    expectError(await h.hospital.post('/api/v1/claims/lines', { ...base, practitioner_identification_number: 'A12345' }), 400, 'VALIDATION_ERROR');
    expectError(await h.hospital.post('/api/v1/claims/lines', { ...base, consent_token: 'NOPE' }), 404, 'NOT_FOUND');
  });

  it('adds a diagnosis to an intervention of the claim with POST /claims/diagnoses, once, and removes it with PATCH', async () => {
    const visit = await openVisit(h, h.hospital, patient, codes.capitation, 'CAPITATION', false);
    const body = { consent_token: visit.consent_token, icd_code: 'MG26', intervention_code: codes.capitation };
    const added = await h.hospital.post('/api/v1/claims/diagnoses', { ...body, ...DOCTOR });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ diagnosis_code: 'MG26', diagnosis_name: 'Fever of other or unknown origin', intervention_code: codes.capitation });
    expect((await h.hospital.post('/api/v1/claims/diagnoses', body)).body.claim_diagnosis_id).toBe(added.body.claim_diagnosis_id);
    const p = await preview(visit.consent_token);
    expect(p.claim_diagnoses).toHaveLength(1);
    // The doctor sent with the diagnosis is attached (rule 2); the portal shows an invoice's doctors as `{}`.
    expect(p.invoices[0].doctors).toEqual([{}]);
    expect(h.sandbox.context.state.claims.get(visit.consent_token)?.doctor).toMatchObject({ registration_number: 'A12345' });
    expectError(await h.hospital.post('/api/v1/claims/diagnoses', { ...body, icd_code: { code: 'MG26' } }), 400, 'VALIDATION_ERROR');
    expectError(await h.hospital.post('/api/v1/claims/diagnoses', { ...body, intervention_code: 'SHA-03-001' }), 422, 'INTERVENTION_NOT_ALLOWED');
    const removed = await h.hospital.call('PATCH', '/api/v1/claims/diagnoses', { body });
    expect(removed.body).toEqual({ data: {}, message: 'Diagnosis removed' });
    expect((await preview(visit.consent_token)).claim_diagnoses).toEqual([]);
    expectError(await h.hospital.call('PATCH', '/api/v1/claims/diagnoses', { body }), 404, 'NOT_FOUND');
  });

  it('attaches one doctor per claim: by a line, by POST /claims/doctors, removed by DELETE', async () => {
    const visit = await openVisit(h, h.hospital, patient, codes.capitation, 'CAPITATION', false);
    expect((await preview(visit.consent_token)).invoices[0].doctors).toEqual([]);
    await addLine(h.hospital, visit.consent_token, codes.capitation, 850, DOCTOR);
    expect((await preview(visit.consent_token)).invoices[0].doctors).toEqual([{}]);
    expect(h.sandbox.context.state.claims.get(visit.consent_token)?.doctor).toMatchObject({ registration_number: 'A12345', regulation_body: 'KMPDC' });
    const other = { consent_token: visit.consent_token, identification_number: 'RCO-04512', identification_type: 'registration_number', regulation_body: 'COC' };
    expectError(await h.hospital.post('/api/v1/claims/doctors', other), 409, 'DOCTOR_ALREADY_ATTACHED');
    expect((await h.hospital.call('DELETE', '/api/v1/claims/doctors', { body: { consent_token: visit.consent_token } })).status).toBe(204);
    expectError(await h.hospital.call('DELETE', '/api/v1/claims/doctors', { body: { consent_token: visit.consent_token } }), 404, 'NOT_FOUND');
    expectError(await h.hospital.post('/api/v1/claims/doctors', { ...other, identification_number: 'RCO-00000' }), 422, 'PROFESSIONAL_NOT_FOUND');
    expect((await h.hospital.post('/api/v1/claims/doctors', other)).body).toEqual({ data: {}, message: 'Doctor attached' });
    expect((await preview(visit.consent_token)).invoices[0].doctors).toHaveLength(1);
    expect(h.sandbox.context.state.claims.get(visit.consent_token)?.doctor?.registration_number).toBe('RCO-04512');
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
    // The answer is the claim object.
    expect(submitted.body).toMatchObject({ workflow_state: 'SUBMITTED', authorization_code: visit.consent_token, invoice_number: visit.invoice_number, notes: 'well' });
    expect(submitted.body.invoices[0].lines).toHaveLength(1);
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
    // The visit's own consent is not a visit-end consent.
    expectError(
      await h.hospital.post('/api/v1/claims/submit', { ...base, discharge_reason: 'RECOVERED', discharge_auth_guid: visit.authorization_guid }),
      422,
      'AUTHORIZATION_MISMATCH',
    );
    expectError(await h.hospital.post('/api/v1/claims/submit', { ...base, discharge_reason: 'RECOVERED', otp: '123456', discharge_status: 'FULL' }), 422, 'NO_PARTIAL_DISCHARGE');
    expectError(await h.hospital.post('/api/v1/claims/discharge', { ...base, discharge_reason: 'RECOVERED', discharge_date: '2030-01-01T10:00:00Z', otp: '123456' }), 422, 'USE_SUBMIT');
  });

  it("names discharge_reason when a visit's submit lacks it, and speaks of DECEASED only when it was sent", async () => {
    const visit = await openVisit(h, h.hospital, patient, codes.capitation, 'CAPITATION');
    const missing = await h.hospital.post('/api/v1/claims/submit', { consent_token: visit.consent_token, invoice_number: visit.invoice_number, otp: '123456' });
    expectError(missing, 400, 'VALIDATION_ERROR');
    expect(missing.body.details).toEqual([expect.objectContaining({ field: 'discharge_reason' })]);
    expect(JSON.stringify(missing.body)).not.toContain('DECEASED');
    const deceased = await h.hospital.post('/api/v1/claims/submit', { consent_token: visit.consent_token, discharge_reason: 'DECEASED', otp: '123456' });
    expect(deceased.body.details[0].message).toMatch(/DECEASED is not valid on submit.*discharge/);
  });

  it("takes the facility's own invoice number (the portal: as the provider uses it internally) and refuses another claim's", async () => {
    const visit = await openVisit(h, h.hospital, patient, codes.capitation, 'CAPITATION');
    const other = await openVisit(h, h.hospital, await crId(h.hospital, NID.whitelisted), codes.capitation, 'CAPITATION');
    await addLine(h.hospital, visit.consent_token, codes.capitation, 500);
    const guid = await dischargeByFingerprint(h, h.hospital, visit.consent_token, patient);
    const base = { consent_token: visit.consent_token, discharge_reason: 'RECOVERED', discharge_auth_guid: guid };
    expectError(await h.hospital.post('/api/v1/claims/submit', { ...base, invoice_number: other.invoice_number }), 422, 'INVOICE_MISMATCH');
    const r = await h.hospital.post('/api/v1/claims/submit', { ...base, invoice_number: 'WARD3/2026/0147' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ workflow_state: 'SUBMITTED', invoice_number: visit.invoice_number, invoices: [{ invoice_number: visit.invoice_number, provider_invoice_ref: 'WARD3/2026/0147' }] });
    // The payer's preview finds the claim by either number, and the facility's number names no other claim now.
    expect((await h.hospital.get('/api/v1/claims/preview/payer', { provider_claim_no: 'WARD3/2026/0147' })).body.results).toHaveLength(1);
    expect((await h.hospital.get('/api/v1/claims/preview/payer', { provider_claim_no: visit.invoice_number })).body.results).toHaveLength(1);
    const otherGuid = await dischargeByFingerprint(h, h.hospital, other.consent_token, await crId(h.hospital, NID.whitelisted));
    const taken = await h.hospital.post('/api/v1/claims/submit', { consent_token: other.consent_token, discharge_reason: 'RECOVERED', discharge_auth_guid: otherGuid, invoice_number: 'WARD3/2026/0147' });
    expectError(taken, 422, 'INVOICE_MISMATCH');
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
  return client.post('/api/v1/claims/lines', { consent_token: token, intervention_code: codes.capitation, unit_price: 1, quantity: 1 });
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
    const otp = await lastOtp(h.control, { patient_id: id });
    // The live discharge wants an RFC 3339 date-time: a bare date (or none) is a 400 naming the field, and spends nothing.
    for (const discharge_date of [undefined, '2030-01-03', '2030-01-03T10:00:00']) {
      const refused = await h.hospital.post('/api/v1/claims/discharge', { ...base, discharge_date, otp });
      expectError(refused, 400, 'VALIDATION_ERROR');
      expect(refused.body.details[0].field).toBe('discharge_date');
    }
    const r = await h.hospital.post('/api/v1/claims/discharge', { ...base, discharge_date: '2030-01-03T14:30:00+03:00', otp });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ workflow_state: 'SUBMITTED', authorization_code: visit.consent_token, discharged_on: '2030-01-03T14:30:00+03:00', discharge_reason: 'RECOVERED' });
    const p = await preview(visit.consent_token);
    expect(previewLines(p)[0]).toMatchObject({ intervention_code: codes.perDiem, quantity: 3 });
    expect(p.discharge_status).toBe('FULL');
  });

  it('accepts DECEASED at discharge (the contract forbids it on submit only)', async () => {
    const visit = await openVisit(h, h.hospital, patient, codes.perDiem, 'INPATIENT');
    const guid = await dischargeByFingerprint(h, h.hospital, visit.consent_token, patient);
    const r = await h.hospital.post('/api/v1/claims/discharge', {
      consent_token: visit.consent_token,
      invoice_number: visit.invoice_number,
      discharge_reason: 'DECEASED',
      discharge_date: '2030-01-01T08:00:00Z',
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
    const partial = await h.hospital.post('/api/v1/claims/discharge', { ...base, discharge_date: '2030-01-02T10:00:00+03:00', discharge_auth_guid: first, discharge_status: 'PARTIAL' });
    expect(partial.body).toMatchObject({ workflow_state: 'DRAFT', discharge_status: 'PARTIAL' });
    let p = await preview(visit.consent_token);
    expect(p.partial_discharges).toHaveLength(1);
    expect(p.partial_discharges[0].amount).toBe(p.total_claim_amount);
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
    expect(ok.body).toMatchObject({ title: 'invoice.pdf', attachment_type: 'INVOICE', intervention_code: codes.capitation, retry_count: 0 });
    expect(typeof ok.body.id).toBe('string');
    // The file goes in the part named file_blob, of a document type the portal lists.
    const asFile = await attachment(token, codes.capitation, PDF, 'application/pdf', 'x.pdf', 'file');
    expectError(asFile, 400, 'VALIDATION_ERROR');
    expect(asFile.body.details[0].field).toBe('file_blob');
    expectError(await attachment(token, codes.capitation, PDF, 'application/pdf', 'x.pdf', 'file_blob', 'LAB_REPORT'), 400, 'VALIDATION_ERROR');
    expect((await attachment(token, codes.capitation, PNG, 'image/png', 'x.png')).status).toBe(200);
    expectError(await attachment(token, codes.capitation, Buffer.from('hello'), 'text/plain', 'x.txt'), 415, 'UNSUPPORTED_MEDIA_TYPE');
    expectError(await attachment(token, codes.capitation, Buffer.from('MZ not a pdf'), 'application/pdf', 'x.pdf'), 415, 'UNSUPPORTED_MEDIA_TYPE');
    const big = Buffer.concat([PDF, Buffer.alloc(5 * 1024 * 1024)]);
    expectError(await attachment(token, codes.capitation, big, 'application/pdf', 'big.pdf'), 413, 'ATTACHMENT_TOO_LARGE');
    expectError(await h.hospital.post('/api/v1/claims/attachments', { consent_token: token }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    for (let i = 0; i < 8; i++) expect((await attachment(token, codes.capitation, PDF, 'application/pdf')).status).toBe(200);
    expectError(await attachment(token, codes.capitation, PDF, 'application/pdf'), 422, 'TOO_MANY_ATTACHMENTS');
    const listed = (await preview(token)).claim_attachments as any[];
    expect(listed).toHaveLength(10);
    const removed = await h.hospital.call('PATCH', '/api/v1/claims/attachments', {
      body: { attachment_id: listed[0].id, consent_token: token, intervention_code: codes.capitation },
    });
    expect(removed.body).toEqual({ data: {}, message: 'Attachment removed' });
    expect((await preview(token)).claim_attachments).toHaveLength(9);
  });
});

describe('housekeeping', () => {
  it('removes a line and a diagnosis, switches an intervention (keeping the bill items over a period)', async () => {
    const visit = await openVisit(h, h.hospital, patient, codes.capitation, 'CAPITATION');
    const token = visit.consent_token;
    const added = await addLine(h.hospital, token, codes.capitation, 500, { diagnoses: JSON.stringify(['CA00', 'MG26']) });
    const diag = await h.hospital.call('PATCH', '/api/v1/claims/diagnoses', { body: { consent_token: token, icd_code: 'MG26', intervention_code: codes.capitation } });
    expect(diag.status).toBe(200);
    expect((await preview(token)).claim_diagnoses.map((d: any) => d.diagnosis_code)).toEqual(['CA00']);
    const switchBody = { consent_token: token, existing_intervention_code: codes.capitation, new_intervention_code: 'SHA-03-001', retain_bill_items: true };
    const undated = await h.hospital.post('/api/v1/claims/interventions/switch', switchBody);
    expectError(undated, 400, 'VALIDATION_ERROR');
    expect(undated.body.details.map((d: any) => d.field)).toEqual(['bill_from', 'bill_to']);
    const { retain_bill_items: _kept, ...withoutRetain } = switchBody;
    expect((await h.hospital.post('/api/v1/claims/interventions/switch', withoutRetain)).body.details[0].field).toBe('retain_bill_items');
    const switched = await h.hospital.post('/api/v1/claims/interventions/switch', { ...switchBody, bill_from: '2030-01-01T08:00:00Z', bill_to: '2030-01-01T18:00:00Z' });
    expect(switched.body).toEqual({ data: {}, message: 'Intervention switched' });
    const p = await preview(token);
    // The switched-out intervention stays on the claim, INACTIVE (R WORKFLOWS §9.8, UAT).
    expect(p.interventions.map((i: any) => [i.intervention_code, i.workflow_state])).toEqual([
      ['SHA-03-001', 'ACTIVE'],
      [codes.capitation, 'INACTIVE'],
    ]);
    expect(previewLines(p)[0].intervention_code).toBe('SHA-03-001');
    expect(p.claim_diagnoses[0].intervention_code).toBe('SHA-03-001');
    const removed = await h.hospital.call('PATCH', '/api/v1/claims/lines', { body: { consent_token: token, line_guid: added.id } });
    expect(removed.body).toEqual({ data: {}, message: 'Line removed' });
    expect(previewLines(await preview(token))).toEqual([]);
    expectError(await h.hospital.call('PATCH', '/api/v1/claims/lines', { body: { consent_token: token, line_guid: added.id } }), 404, 'NOT_FOUND');
  });

  it('closes a draft claim for good', async () => {
    const visit = await openVisit(h, h.hospital, patient, codes.capitation, 'CAPITATION');
    const closed = await h.hospital.post('/api/v1/claims/close', { consent_token: visit.consent_token, cancel_reason_type: 'WRONG_PATIENT', cancel_reason_text: 'mixed up' });
    expect(closed.body).toMatchObject({ claim_auth_status: 'CLOSED', workflow_state: 'CLOSED', authorization_code: visit.consent_token, cancel_reason_type: 'WRONG_PATIENT', cancel_reason_text: 'mixed up' });
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
    expect(payer.body).toMatchObject({ pageSize: 1, results: [{ providerClaimNo: visit.invoice_number, workflowState: 'AUTOMATIC_CHECKS_DONE', proposedValue: 900 }] });
    const resubmitted = await h.hospital.post('/api/v1/claims/lines/resubmit', { consent_token: token });
    expect(resubmitted.body).toMatchObject({ line_id: line.id, status: 'DRAFT_RESUBMIT' });
    expect(typeof resubmitted.body.resubmitted_at).toBe('string');
    // The edit names the line by line_id (the portal, R) or claim_line_id (the exchange's Postman collection), and answers the line.
    const edited = await h.hospital.call('PATCH', '/api/v1/claims/lines/edit', { body: { line_id: line.id, unit_price: '800' } });
    expect(edited.body).toMatchObject({ id: line.id, unit_price: 800, line_total_amount: 800 });
    expect((await h.hospital.call('PATCH', '/api/v1/claims/lines/edit', { body: { claim_line_id: line.id, quantity: 2 } })).body.line_total_amount).toBe(1600);
    expectError(await h.hospital.call('PATCH', '/api/v1/claims/lines/edit', { body: { line_id: line.id } }), 400, 'VALIDATION_ERROR');
    expectError(await h.hospital.call('PATCH', '/api/v1/claims/lines/edit', { body: { line_id: line.id, quantity: 1.5 } }), 400, 'VALIDATION_ERROR');
    expectError(await h.hospital.call('PATCH', '/api/v1/claims/lines/edit', { body: { line_id: 'NOPE', quantity: 1 } }), 404, 'NOT_FOUND');
    const again = await dischargeByFingerprint(h, h.hospital, token, patient);
    const submittedAgain = await h.hospital.post('/api/v1/claims/submit', { consent_token: token, invoice_number: visit.invoice_number, discharge_reason: 'RECOVERED', discharge_auth_guid: again });
    expect(submittedAgain.body.workflow_state).toBe('SUBMITTED');
  });

  it.each([
    ['the portal and R', '/api/v1/claims/lines/resubmit'],
    ['the Postman collection', '/api/v1/claims/resubmit'],
    ["A's claim-resubmission.service.ts", '/api/v1/claims/submit'],
  ])('resubmits a returned claim in the form of %s (%s, the consent token alone): reopened, then sent back', async (_source, path) => {
    const visit = await openVisit(h, h.hospital, patient, codes.capitation, 'CAPITATION');
    const token = visit.consent_token;
    await addLine(h.hospital, token, codes.capitation, 900);
    const guid = await dischargeByFingerprint(h, h.hospital, token, patient);
    await h.hospital.post('/api/v1/claims/submit', { consent_token: token, invoice_number: visit.invoice_number, discharge_reason: 'RECOVERED', discharge_auth_guid: guid });
    for (const to of ['DISPATCHED', 'SUBMITTED_PAYER', 'AUTOMATIC_CHECKS_DONE']) await h.control.post(`/sandbox/claims/${token}/workflow-state`, { to });
    const reopened = await h.hospital.post(path, { consent_token: token });
    expect(reopened.status).toBe(200);
    expect((await preview(token)).workflow_state).toBe('DRAFT_RESUBMIT');
    const back = await h.hospital.post(path, { consent_token: token });
    expect(back.status).toBe(200);
    expect((await preview(token)).workflow_state).toBe('SUBMITTED');
    // Nothing to resubmit now: the dedicated routes refuse the state, and A's form is a submit of a submitted claim.
    expect((await h.hospital.post(path, { consent_token: token })).status).toBe(409);
  });

  it('keeps a bare submit of a claim never submitted a submit: discharge_reason is still required there', async () => {
    const visit = await openVisit(h, h.hospital, patient, codes.capitation, 'CAPITATION');
    const r = await h.hospital.post('/api/v1/claims/submit', { consent_token: visit.consent_token });
    expectError(r, 400, 'VALIDATION_ERROR');
    expect(r.body.details[0].field).toBe('discharge_reason');
  });

  it('queues a submitted claim (PENDING, SUBMISSION_READY) and lets it fail to submit, all by the control API', async () => {
    const visit = await openVisit(h, h.hospital, patient, codes.capitation, 'CAPITATION');
    const token = visit.consent_token;
    await addLine(h.hospital, token, codes.capitation, 700);
    const guid = await dischargeByFingerprint(h, h.hospital, token, patient);
    await h.hospital.post('/api/v1/claims/submit', { consent_token: token, invoice_number: visit.invoice_number, discharge_reason: 'RECOVERED', discharge_auth_guid: guid });
    expectError(await h.control.post(`/sandbox/claims/${token}/workflow-state`, { to: 'DRAFT' }), 409, 'INVALID_TRANSITION');
    for (const to of ['PENDING', 'SUBMISSION_READY', 'FAILED_TO_SUBMIT']) {
      expect((await h.control.post(`/sandbox/claims/${token}/workflow-state`, { to })).body.workflow_state).toBe(to);
    }
    expect((await preview(token)).workflow_state).toBe('FAILED_TO_SUBMIT');
    // A claim that failed to submit is reopened by the resubmission, then sent back by it.
    expect((await h.hospital.post('/api/v1/claims/lines/resubmit', { consent_token: token })).body.status).toBe('DRAFT_RESUBMIT');
    expect((await h.hospital.post('/api/v1/claims/lines/resubmit', { consent_token: token })).body).toMatchObject({ status: 'SUBMITTED', message: 'Claim resubmitted' });
  });

  it('returns a claim for the documents its intervention lists, refuses to take it back without them, and takes it back once they are attached', async () => {
    const visit = await openVisit(h, h.hospital, patient, codes.capitation, 'CAPITATION');
    const token = visit.consent_token;
    await addLine(h.hospital, token, codes.capitation, 600);
    const guid = await dischargeByFingerprint(h, h.hospital, token, patient);
    await h.hospital.post('/api/v1/claims/submit', { consent_token: token, invoice_number: visit.invoice_number, discharge_reason: 'RECOVERED', discharge_auth_guid: guid });
    // The claim's interventions carry the document types that apply to them (A VisitIntervention).
    const types = (await preview(token)).interventions[0].applicable_document_types;
    expect(types).toContain('INVOICE');
    expectError(await h.control.post(`/sandbox/claims/${token}/workflow-state`, { to: 'DISPATCHED', documents: ['INVOICE'] }), 400, 'VALIDATION_ERROR');
    for (const to of ['DISPATCHED', 'SUBMITTED_PAYER', 'DRAFT_RESUBMIT_DOCUMENTS']) await h.control.post(`/sandbox/claims/${token}/workflow-state`, { to });
    const refused = await h.hospital.post('/api/v1/claims/lines/resubmit', { consent_token: token });
    expectError(refused, 422, 'DOCUMENTS_MISSING');
    expect(refused.body.message).toContain('INVOICE');
    expect((await preview(token)).workflow_state).toBe('DRAFT_RESUBMIT_DOCUMENTS');
    // A paper of another type does not stand in for the one asked for.
    expect((await attachment(token, codes.capitation, PDF, 'application/pdf', 'notes.pdf', 'file_blob', 'CASE_NOTE')).status).toBe(200);
    expectError(await h.hospital.post('/api/v1/claims/lines/resubmit', { consent_token: token }), 422, 'DOCUMENTS_MISSING');
    expect((await attachment(token, codes.capitation, PNG, 'image/png', 'invoice.png', 'file_blob', 'INVOICE')).status).toBe(200);
    const back = await h.hospital.post('/api/v1/claims/lines/resubmit', { consent_token: token });
    expect(back.body).toMatchObject({ status: 'SUBMITTED', message: 'Claim resubmitted' });
    expect((await preview(token)).workflow_state).toBe('SUBMITTED');
  });

  it('returns a claim for the documents the payer names', async () => {
    const visit = await openVisit(h, h.hospital, patient, codes.capitation, 'CAPITATION');
    const token = visit.consent_token;
    await addLine(h.hospital, token, codes.capitation, 500);
    const guid = await dischargeByFingerprint(h, h.hospital, token, patient);
    await h.hospital.post('/api/v1/claims/submit', { consent_token: token, invoice_number: visit.invoice_number, discharge_reason: 'RECOVERED', discharge_auth_guid: guid });
    for (const to of ['DISPATCHED', 'SUBMITTED_PAYER']) await h.control.post(`/sandbox/claims/${token}/workflow-state`, { to });
    await h.control.post(`/sandbox/claims/${token}/workflow-state`, { to: 'DRAFT_RESUBMIT_DOCUMENTS', documents: ['LAB_RESULTS'] });
    expect((await h.hospital.post('/api/v1/claims/lines/resubmit', { consent_token: token })).body.message).toContain('LAB_RESULTS');
    expect((await attachment(token, codes.capitation, PDF, 'application/pdf', 'lab.pdf', 'file_blob', 'LAB_RESULTS')).status).toBe(200);
    expect((await h.hospital.post('/api/v1/claims/lines/resubmit', { consent_token: token })).body.status).toBe('SUBMITTED');
  });
});
