/* eslint-disable @typescript-eslint/no-explicit-any -- wire bodies are untyped JSON; the tests assert their shape */
// Flow C as the live exchange runs it (the claim created with no prior consent, protocols added by
// the multipart call, the doctor's approval asked once the claim exists, the patient identified
// later, 24-hour window, one intervention) and prescriptions with dispenses.
import { describe, expect, it } from 'vitest';
import {
  EMERGENCY_DOCTOR,
  HOSPITAL,
  NID,
  addProtocol,
  createEmergency,
  crId,
  emergencyBody,
  expectError,
  lastOtp,
  openVisit,
  tokenFor,
  useHarness,
  useInterventions,
} from './harness';

const h = useHarness();
const codes = useInterventions(h);

async function protocolsOf(code: string) {
  const r = await h.hospital.get('/api/v1/claims/emergency/protocols', { active: 'true', intervention_code: code });
  expect(r.status).toBe(200);
  expect(r.body.count).toBeGreaterThan(0);
  return r.body.results as any[];
}

const invoiceOf = async (token: string) => (await h.hospital.post('/api/v1/claims/preview', { consent_token: token })).body.invoice_number as string;

describe('emergency claims', () => {
  it('creates the claim with no prior consent: authorization_code is its consent token, the visit expires after 24 hours', async () => {
    const created = await h.hospital.post('/api/v1/claims/emergency', emergencyBody(codes.emergency, { reference_number: 'AMB-2291' }));
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ workflow_state: 'DRAFT', service_type: 'EMERGENCY', reference_number: 'AMB-2291' });
    expect(typeof created.body.authorization_code).toBe('string');
    expect(typeof created.body.id).toBe('string');
    expect(created.body).not.toHaveProperty('consent_token');
    expect(Date.parse(created.body.emergency_visit_expiry) - Date.parse(created.body.visit_start)).toBe(24 * 3600 * 1000);
    const preview = await h.hospital.post('/api/v1/claims/preview', { consent_token: created.body.authorization_code });
    // An unidentified patient's claim names no patient (the preview's patient_number is left out).
    expect(preview.body).toMatchObject({ invoice_number: created.body.invoice_number });
    expect(preview.body).not.toHaveProperty('patient_number');
  });

  it('refuses an emergency create without reference_number, with blank notes, or with a consent of its own as the only name', async () => {
    const missing: Record<string, unknown> = emergencyBody(codes.emergency);
    delete missing.reference_number;
    const noReference = await h.hospital.post('/api/v1/claims/emergency', missing);
    expectError(noReference, 400, 'VALIDATION_ERROR');
    expect(noReference.body.details.map((d: any) => d.field)).toEqual(['reference_number']);
    const blank = await h.hospital.post('/api/v1/claims/emergency', emergencyBody(codes.emergency, { notes: '  ' }));
    expectError(blank, 400, 'VALIDATION_ERROR');
    expect(blank.body.details).toEqual([{ field: 'notes', message: 'This field may not be blank.' }]);
    const noNotes: Record<string, unknown> = emergencyBody(codes.emergency);
    delete noNotes.notes;
    expectError(await h.hospital.post('/api/v1/claims/emergency', noNotes), 400, 'VALIDATION_ERROR');
    expectError(await h.hospital.post('/api/v1/claims/emergency', emergencyBody(codes.emergency, { consent_token: 'NOPE' })), 404, 'NOT_FOUND');
  });

  it('takes exactly one emergency intervention, a listed doctor type and regulator, a known doctor', async () => {
    const two = await h.hospital.post('/api/v1/claims/emergency', emergencyBody(codes.emergency, { interventions: [codes.emergency, 'SHA-01-002'] }));
    expectError(two, 400, 'VALIDATION_ERROR');
    expect(two.body.details[0].field).toBe('interventions');
    expectError(await h.hospital.post('/api/v1/claims/emergency', emergencyBody(codes.emergency, { interventions: [] })), 400, 'VALIDATION_ERROR');
    expectError(await h.hospital.post('/api/v1/claims/emergency', emergencyBody(codes.capitation)), 422, 'INTERVENTION_NOT_ALLOWED');
    expectError(await h.hospital.post('/api/v1/claims/emergency', emergencyBody(codes.emergency, { identification_number: 'A00000' })), 422, 'PROFESSIONAL_NOT_FOUND');
    expectError(await h.hospital.post('/api/v1/claims/emergency', emergencyBody(codes.emergency, { regulation_body: 'PPB' })), 400, 'VALIDATION_ERROR');
    expectError(await h.hospital.post('/api/v1/claims/emergency', emergencyBody(codes.emergency, { mode_of_arrival: 'HELICOPTER' })), 400, 'VALIDATION_ERROR');
    // The doctor may be named by national ID, as the portal allows.
    expect((await h.hospital.post('/api/v1/claims/emergency', emergencyBody(codes.emergency, { identification_type: 'National ID', identification_number: '24681357' }))).status).toBe(200);
  });

  it('flow C: protocols added by the multipart call, the doctor asked, the patient identified on the same claim, submitted', async () => {
    const created = await createEmergency(h.hospital, codes.emergency, { reference_number: 'AMB-7001' });
    const token = created.authorization_code as string;
    const [p1, p2] = await protocolsOf(codes.emergency);
    const line = await addProtocol(h.hospital, token, p1, { diagnoses: 'NA00, PA60' });
    expect(line.status).toBe(200);
    expect(line.body).toMatchObject({ item_code: p1.protocolCode, intervention_code: codes.emergency, quantity: 1, line_total_amount: Number(p1.applicableTariff) });
    expect(typeof line.body.id).toBe('string');
    expect((await addProtocol(h.hospital, token, p2, { diagnoses: JSON.stringify(['NA00']) })).status).toBe(200);

    // The doctor's approval, asked once the claim exists (EMERGENCY_CLAIM_DOCTOR_APPROVAL_REQUEST).
    const asked = await h.hospital.post('/api/v1/claims/doctor-consent', {
      request_type: 'EMERGENCY_CLAIM_DOCTOR_APPROVAL_REQUEST',
      consent_token: token,
      emergency_claim_id: created.id,
      intervention_code: codes.emergency,
      ...EMERGENCY_DOCTOR,
    });
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({ data: { status: 'success' } });
    const sms = (await h.control.get('/sandbox/sms', { doctor_id: '24681357' })).body as any[];
    expect(sms.map((m) => [m.purpose, m.otp])).toEqual([['emergency_doctor_approval', null]]);

    // Identification later: the same payload again with the patient's registry id and SMS code.
    const id = await crId(h.hospital, NID.covered);
    expect((await h.hospital.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: [codes.emergency] })).status).toBe(200);
    const otp = await lastOtp(h.control, { patient_id: id });
    const identified = await h.hospital.post('/api/v1/claims/emergency', emergencyBody(codes.emergency, { reference_number: 'AMB-7001', beneficiary_cr_id: id, otp, consent_token: token }));
    expect(identified.status).toBe(200);
    expect(identified.body).toMatchObject({ authorization_code: token, id: created.id, member_number: id, visit_start: created.visit_start });

    const preview = (await h.hospital.post('/api/v1/claims/preview', { consent_token: token })).body;
    expect(preview.patient_number).toBe(id);
    expect(preview.invoices[0].lines.map((l: any) => l.item_code)).toEqual([p1.protocolCode, p2.protocolCode]);

    const base = { consent_token: token, invoice_number: preview.invoice_number, discharge_reason: 'RECOVERED' };
    expectError(await h.hospital.post('/api/v1/claims/submit', { ...base, reason_for_unknown_patient: 'SHA_UNREGISTERED' }), 400, 'VALIDATION_ERROR');
    expect((await h.hospital.post('/api/v1/claims/submit', base)).body.workflow_state).toBe('SUBMITTED');
  });

  it('identifies by the reference number alone too (ours), and never without the patient code', async () => {
    const created = await createEmergency(h.hospital, codes.emergency, { reference_number: 'AMB-7002' });
    const id = await crId(h.hospital, NID.covered);
    const noCode = await h.hospital.post('/api/v1/claims/emergency', emergencyBody(codes.emergency, { reference_number: 'AMB-7002', beneficiary_cr_id: id }));
    expectError(noCode, 400, 'VALIDATION_ERROR');
    expect(noCode.body.details[0].field).toBe('otp');
    await h.hospital.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: [codes.emergency] });
    const otp = await lastOtp(h.control, { patient_id: id });
    const identified = await h.hospital.post('/api/v1/claims/emergency', emergencyBody(codes.emergency, { reference_number: 'AMB-7002', beneficiary_cr_id: id, otp }));
    expect(identified.body).toMatchObject({ authorization_code: created.authorization_code, member_number: id });
    // Posting the same reference again is the same claim, not a second one.
    expect((await h.hospital.post('/api/v1/claims/emergency', emergencyBody(codes.emergency, { reference_number: 'AMB-7002' }))).body.authorization_code).toBe(created.authorization_code);
  });

  it('names a patient known on arrival at creation (A sends beneficiary_cr_id with no code)', async () => {
    const id = await crId(h.hospital, NID.covered);
    const created = await createEmergency(h.hospital, codes.emergency, { beneficiary_cr_id: id });
    expect(created.member_number).toBe(id);
  });

  it('adds a protocol only as multipart, of the claim intervention, at its tariff, in whole quantities', async () => {
    const created = await createEmergency(h.hospital, codes.emergency);
    const token = created.authorization_code as string;
    const [protocol] = await protocolsOf(codes.emergency);
    const json = await h.hospital.post('/api/v1/claims/emergency/protocols', { consent_token: token, protocol_code: protocol.protocolCode, intervention_code: codes.emergency, unit_price: 1, quantity: 1 });
    expectError(json, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expectError(await addProtocol(h.hospital, token, protocol, { unit_price: '1' }), 422, 'TARIFF_MISMATCH');
    expectError(await addProtocol(h.hospital, token, protocol, { quantity: '1.5' }), 400, 'VALIDATION_ERROR');
    expectError(await addProtocol(h.hospital, token, protocol, { protocol_code: 'EP-NOPE' }), 422, 'INTERVENTION_NOT_ALLOWED');
    const visit = await openVisit(h, h.hospital, await crId(h.hospital, NID.covered), codes.capitation, 'CAPITATION');
    expectError(await addProtocol(h.hospital, visit.consent_token, protocol), 422, 'INTERVENTION_NOT_ALLOWED');
  });

  it('submits an unidentified claim with reason_for_unknown_patient, and only with it', async () => {
    const created = await createEmergency(h.hospital, codes.emergency, { mode_of_arrival: 'WALK-IN', brought_by: 'UNKNOWN' });
    const token = created.authorization_code as string;
    const base = { consent_token: token, invoice_number: await invoiceOf(token), discharge_reason: 'OTHER' };
    expectError(await h.hospital.post('/api/v1/claims/submit', base), 400, 'VALIDATION_ERROR');
    expectError(await h.hospital.post('/api/v1/claims/submit', { ...base, reason_for_unknown_patient: 'UNKNOWN' }), 400, 'VALIDATION_ERROR');
    const r = await h.hospital.post('/api/v1/claims/submit', { ...base, reason_for_unknown_patient: 'DECEASED' });
    expect(r.body.workflow_state).toBe('SUBMITTED');
  });

  it("submits an unidentified claim without discharge_reason, as A's SubmitUnIdentifiedClaimDto sends it, and names no DECEASED it was not sent", async () => {
    const created = await createEmergency(h.hospital, codes.emergency, { mode_of_arrival: 'WALK-IN', brought_by: 'UNKNOWN' });
    const token = created.authorization_code as string;
    const invoice = await invoiceOf(token);
    const missing = await h.hospital.post('/api/v1/claims/submit', { consent_token: token, invoice_number: invoice });
    expectError(missing, 400, 'VALIDATION_ERROR');
    expect(missing.body.details.map((d: any) => d.field)).toEqual(['reason_for_unknown_patient']);
    expect(JSON.stringify(missing.body)).not.toContain('discharge_reason');
    const r = await h.hospital.post('/api/v1/claims/submit', { consent_token: token, invoice_number: invoice, reason_for_unknown_patient: 'SHA_UNREGISTERED' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ workflow_state: 'SUBMITTED', reason_for_unknown_patient: 'SHA_UNREGISTERED' });
  });

  it('refuses submission after 24 hours of sandbox time', async () => {
    const created = await createEmergency(h.hospital, codes.emergency);
    const token = created.authorization_code as string;
    const invoice = await invoiceOf(token);
    await h.control.post('/sandbox/clock', { advance_ms: 24 * 3600 * 1000 + 1000 });
    h.hospital.token = await tokenFor(h.url, HOSPITAL);
    const r = await h.hospital.post('/api/v1/claims/submit', { consent_token: token, invoice_number: invoice, discharge_reason: 'RECOVERED', reason_for_unknown_patient: 'SHA_UNREGISTERED' });
    expectError(r, 422, 'EMERGENCY_WINDOW_EXPIRED');
  });

  it('has no visit-end consent: no discharge OTP, no discharge fingerprint, no /claims/discharge', async () => {
    const token = (await createEmergency(h.hospital, codes.emergency)).authorization_code as string;
    expectError(await h.hospital.post('/api/v1/claims/otp/discharge', { consent_token: token }), 422, 'NOT_APPLICABLE_TO_EMERGENCY');
    expectError(await h.hospital.post('/api/v1/claims/authorize', { consent_token: token, is_biometrics_discharge_authorization: true }), 422, 'NOT_APPLICABLE_TO_EMERGENCY');
    expectError(await h.hospital.post('/api/v1/claims/discharge', { consent_token: token, invoice_number: 'x', discharge_reason: 'RECOVERED', discharge_date: '2030-01-01T10:00:00Z', otp: '111111' }), 422, 'USE_SUBMIT');
  });

  it('lists protocols as a page of one intervention, both query parameters required', async () => {
    const active = await h.hospital.get('/api/v1/claims/emergency/protocols', { active: 'true', intervention_code: codes.emergency });
    expect(Object.keys(active.body.results[0]).sort()).toEqual(['applicableTariff', 'intervention', 'name', 'protocolCode', 'status']);
    expect((active.body.results as any[]).every((p) => p.status === 'ACTIVE' && p.intervention[0].code === codes.emergency && typeof p.applicableTariff === 'string')).toBe(true);
    const noIntervention = await h.hospital.get('/api/v1/claims/emergency/protocols', { active: 'true' });
    expectError(noIntervention, 400, 'VALIDATION_ERROR');
    expect(noIntervention.body.details[0].field).toBe('intervention_code');
    expectError(await h.hospital.get('/api/v1/claims/emergency/protocols', { intervention_code: codes.emergency }), 400, 'VALIDATION_ERROR');
  });
});

describe('doctor consent', () => {
  it('needs request_type, and a known emergency claim for the emergency kind', async () => {
    const created = await createEmergency(h.hospital, codes.emergency);
    const noType = await h.hospital.post('/api/v1/claims/doctor-consent', { consent_token: created.authorization_code, intervention_code: codes.emergency, ...EMERGENCY_DOCTOR });
    expectError(noType, 400, 'VALIDATION_ERROR');
    expect(noType.body.details[0].field).toBe('request_type');
    const ask = (extra: Record<string, unknown>) =>
      h.hospital.post('/api/v1/claims/doctor-consent', { request_type: 'EMERGENCY_CLAIM_DOCTOR_APPROVAL_REQUEST', intervention_code: codes.emergency, ...EMERGENCY_DOCTOR, ...extra });
    expect((await ask({ emergency_claim_id: created.id })).status).toBe(200);
    expectError(await ask({ emergency_claim_id: 'EC-NOPE' }), 404, 'NOT_FOUND');
    expectError(await ask({ consent_token: created.authorization_code, identification_number: 'A00000' }), 422, 'PROFESSIONAL_NOT_FOUND');
    const visit = await openVisit(h, h.hospital, await crId(h.hospital, NID.covered), codes.capitation, 'CAPITATION');
    expectError(await ask({ consent_token: visit.consent_token }), 422, 'INTERVENTION_NOT_ALLOWED');
  });
});

describe('prescriptions', () => {
  const doctor = { identification_number: 'A12345', identification_type: 'registration_number', regulation_body: 'KMPDC' };
  const item = { generic_concept_code: 'RXN-723', dose_quantity: 1, dose_unit: 'tablet', frequency: 3, period_unit: 'day', duration: 5, duration_unit: 'days' };

  it('creates a prescription, dispenses it on both paths, removes its doctor', async () => {
    const visit = await openVisit(h, h.hospital, await crId(h.hospital, NID.covered), codes.capitation, 'CAPITATION');
    const rx = await h.hospital.post('/api/v1/prescriptions', { consent_token: visit.consent_token, intervention_code: codes.capitation, items: [item], ...doctor });
    expect(rx.status).toBe(200);
    expect(rx.body).toMatchObject({ doctorReviewStatus: 'PENDING', status: 'ACTIVE', intervention: { code: codes.capitation }, dosage: [{ medicationIdentifier: 'RXN-723', frequency: 3 }] });
    expect(typeof rx.body.id).toBe('number');
    const dispense = {
      actual_products: [{ actual_product_code: 'PRD-AMOX-500', medication_price: 45, total_quantity: 15 }],
      consent_token: visit.consent_token,
      doctors: [{ identification_number: '22334455', identification_type: 'National ID' }],
      intervention_code: codes.capitation,
    };
    for (const path of ['/api/v1/prescriptions/dispense', '/api/v1/prescriptions/dispenses']) {
      const d = await h.hospital.post(path, dispense);
      expect(d.status).toBe(200);
      expect(d.body).toMatchObject({ status: 'DISPENSED', dispenseDosages: [{ medicationIdentifier: 'PRD-AMOX-500', totalQuantity: '15' }] });
      expect(typeof d.body.id).toBe('number');
    }
    // The dispenser by an identity document: a registration number is not a valid choice there (UAT).
    expectError(await h.hospital.post('/api/v1/prescriptions/dispense', { ...dispense, doctors: [{ identification_number: 'A12345', identification_type: 'registration_number' }] }), 400, 'VALIDATION_ERROR');
    // R sends such a dispenser's registration number as a National ID (create_dispense(), its UAT note of 2026-09-24): taken.
    expect((await h.hospital.post('/api/v1/prescriptions/dispense', { ...dispense, doctors: [{ identification_number: 'A12345', identification_type: 'National ID' }] })).status).toBe(200);
    expectError(await h.hospital.post('/api/v1/prescriptions/dispense', { ...dispense, doctors: [{ identification_number: '99999999', identification_type: 'National ID' }] }), 422, 'PROFESSIONAL_NOT_FOUND');
    const removed = await h.hospital.call('DELETE', '/api/v1/prescriptions/doctors', {
      body: { consent_token: visit.consent_token, intervention_code: codes.capitation, practitioner_registration_number: 'A12345' },
    });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({});
  });

  it('needs the consent token and intervention (portal), an integer frequency, and the doctor whole or not at all', async () => {
    const visit = await openVisit(h, h.hospital, await crId(h.hospital, NID.covered), codes.capitation, 'CAPITATION');
    const base = { consent_token: visit.consent_token, intervention_code: codes.capitation, items: [{ generic_concept_code: 'RXN-723' }] };
    const withoutDoctor = await h.hospital.post('/api/v1/prescriptions', base);
    expect(withoutDoctor.body.doctorReviewStatus).toBe('NOT_REQUIRED');
    expectError(await h.hospital.post('/api/v1/prescriptions', { items: base.items }), 400, 'VALIDATION_ERROR');
    const words = await h.hospital.post('/api/v1/prescriptions', { ...base, items: [{ ...item, frequency: 'TDS' }] });
    expectError(words, 400, 'VALIDATION_ERROR');
    expect(words.body.details[0].field).toBe('items.0.frequency');
    const partial = await h.hospital.post('/api/v1/prescriptions', { ...base, identification_number: 'A12345' });
    expectError(partial, 400, 'VALIDATION_ERROR');
    expect((partial.body.details as any[]).map((d) => d.field).sort()).toEqual(['identification_type', 'regulation_body']);
  });

  it('refuses an empty items list (Limits: at least 1), an unknown doctor, a dispense without a prescription', async () => {
    const visit = await openVisit(h, h.hospital, await crId(h.hospital, NID.covered), codes.capitation, 'CAPITATION');
    const base = { consent_token: visit.consent_token, intervention_code: codes.capitation, ...doctor };
    const empty = await h.hospital.post('/api/v1/prescriptions', { ...base, items: [] });
    expectError(empty, 400, 'VALIDATION_ERROR');
    expect(empty.body.details[0].field).toBe('items');
    expectError(await h.hospital.post('/api/v1/prescriptions', { ...base, items: [{ generic_concept_code: 'X' }], identification_number: 'Q1' }), 422, 'PROFESSIONAL_NOT_FOUND');
    expectError(
      await h.hospital.post('/api/v1/prescriptions/dispense', {
        actual_products: [{ actual_product_code: 'P', medication_price: 1, total_quantity: 1 }],
        consent_token: 'NOPE',
        doctors: [{ identification_number: '22334455', identification_type: 'National ID' }],
        intervention_code: 'SHA-02-001',
      }),
      404,
      'NOT_FOUND',
    );
  });
});
