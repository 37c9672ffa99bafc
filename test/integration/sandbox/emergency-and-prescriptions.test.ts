/* eslint-disable @typescript-eslint/no-explicit-any -- wire bodies are untyped JSON; the tests assert their shape */
// Flow C (emergency, unidentified → identified → submitted, 24-hour window, one intervention)
// and prescriptions with dispenses.
import { describe, expect, it } from 'vitest';
import { EMERGENCY_DOCTOR, HOSPITAL, NID, crId, expectError, lastOtp, openVisit, tokenFor, useHarness, useInterventions } from './harness';

const h = useHarness();
const codes = useInterventions(h);

async function emergencyConsent(code = codes.emergency) {
  const sent = await h.hospital.post('/api/v1/claims/doctor-consent', { is_emergency: true, ...EMERGENCY_DOCTOR, intervention_code: code });
  expect(sent.status).toBe(200);
  const otp = await lastOtp(h.control, { doctor_id: EMERGENCY_DOCTOR.identification_number });
  const r = await h.hospital.post('/api/v1/claims/authorize', { is_emergency: true, otp, ...EMERGENCY_DOCTOR, intervention_code: code });
  expect(r.status).toBe(200);
  return r.body;
}

async function protocolOf(code: string) {
  const r = await h.hospital.get('/api/v1/claims/emergency/protocols', { active: 'true', intervention_code: code });
  expect(r.body.count).toBeGreaterThan(0);
  return r.body.results[0];
}

function emergencyBody(consentToken: string, protocol: any, extra: Record<string, unknown> = {}) {
  return {
    consent_token: consentToken,
    interventions: [protocol.intervention_code],
    protocol_code: protocol.protocolCode,
    unit_price: protocol.applicableTariff,
    mode_of_arrival: 'AMBULANCE',
    brought_by: 'PARAMEDICS',
    reference_number: 'AMB-2291',
    ...EMERGENCY_DOCTOR,
    notes: 'found unconscious',
    ...extra,
  };
}

describe('emergency claims', () => {
  it('consent by the doctor: the OTP goes to the doctor, the authorization is EMERGENCY_AUTHORIZED', async () => {
    const a = await emergencyConsent();
    expect(a).toMatchObject({ status: 'EMERGENCY_AUTHORIZED' });
    expect(a.authorization_code).toBe(a.token);
    const sms = (await h.control.get('/sandbox/sms', { doctor_id: EMERGENCY_DOCTOR.identification_number })).body as any[];
    expect(sms[0]).toMatchObject({ purpose: 'emergency_consent', to: '+254711900003' });
    // The doctor's national ID finds the same messages.
    expect((await h.control.get('/sandbox/sms', { doctor_id: '24681357' })).body).toHaveLength(1);
    expectError(
      await h.hospital.post('/api/v1/claims/doctor-consent', { is_emergency: true, ...EMERGENCY_DOCTOR, intervention_code: codes.capitation }),
      422,
      'INTERVENTION_NOT_ALLOWED',
    );
  });

  it('flow C: unidentified creation, identification updating the same claim and keeping its protocols, submit', async () => {
    const a = await emergencyConsent();
    const [p1, p2] = (await h.hospital.get('/api/v1/claims/emergency/protocols', { active: 'true', intervention_code: codes.emergency })).body.results;
    const created = await h.hospital.post('/api/v1/claims/emergency', emergencyBody(a.token, p1));
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ consent_token: a.token, workflow_state: 'DRAFT' });
    expect(created.body.beneficiary_cr_id).toBeUndefined();
    expect(Date.parse(created.body.submit_deadline) - Date.parse(created.body.emergency_at)).toBe(24 * 3600 * 1000);
    expect(created.body.protocols.map((p: any) => p.protocol_code)).toEqual([p1.protocolCode]);
    expect(p2).toBeDefined();
    const more = await h.hospital.post('/api/v1/claims/emergency', emergencyBody(a.token, p2));
    expect(more.body.protocols).toHaveLength(2);

    // Identification: the patient's OTP (by claims/otp, allowed even where biometrics are enforced).
    const id = await crId(h.hospital, NID.covered);
    expect((await h.hospital.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: [codes.emergency] })).status).toBe(200);
    const otp = await lastOtp(h.control, { patient_id: id });
    const identified = await h.hospital.post('/api/v1/claims/emergency', emergencyBody(a.token, p1, { beneficiary_cr_id: id, otp }));
    expect(identified.status).toBe(200);
    expect(identified.body).toMatchObject({ consent_token: a.token, beneficiary_cr_id: id, emergency_at: created.body.emergency_at });
    expect(identified.body.protocols.map((p: any) => p.protocol_code)).toEqual([p1.protocolCode, p2.protocolCode]);

    const preview = (await h.hospital.post('/api/v1/claims/preview', { consent_token: a.token })).body;
    expect(preview.patient_number).toBe(id);
    expect(preview.invoices[0].lines).toHaveLength(2);

    const base = { consent_token: a.token, invoice_number: preview.invoice_number, discharge_reason: 'RECOVERED' };
    expectError(await h.hospital.post('/api/v1/claims/submit', { ...base, reason_for_unknown_patient: 'SHA_UNREGISTERED' }), 400, 'VALIDATION_ERROR');
    const submitted = await h.hospital.post('/api/v1/claims/submit', base);
    expect(submitted.body.workflow_state).toBe('SUBMITTED');
  });

  it('submits an unidentified claim with reason_for_unknown_patient, and only with it', async () => {
    const a = await emergencyConsent();
    const protocol = await protocolOf(codes.emergency);
    const created = await h.hospital.post('/api/v1/claims/emergency', emergencyBody(a.token, protocol, { mode_of_arrival: 'WALK-IN', brought_by: 'UNKNOWN' }));
    const invoice = (await h.hospital.post('/api/v1/claims/preview', { consent_token: created.body.consent_token })).body.invoice_number;
    const base = { consent_token: a.token, invoice_number: invoice, discharge_reason: 'OTHER' };
    expectError(await h.hospital.post('/api/v1/claims/submit', base), 400, 'VALIDATION_ERROR');
    expectError(await h.hospital.post('/api/v1/claims/submit', { ...base, reason_for_unknown_patient: 'UNKNOWN' }), 400, 'VALIDATION_ERROR');
    const r = await h.hospital.post('/api/v1/claims/submit', { ...base, reason_for_unknown_patient: 'DECEASED' });
    expect(r.body.workflow_state).toBe('SUBMITTED');
  });

  it('refuses submission after 24 hours of sandbox time', async () => {
    const a = await emergencyConsent();
    const created = await h.hospital.post('/api/v1/claims/emergency', emergencyBody(a.token, await protocolOf(codes.emergency)));
    const invoice = (await h.hospital.post('/api/v1/claims/preview', { consent_token: created.body.consent_token })).body.invoice_number;
    await h.control.post('/sandbox/clock', { advance_ms: 24 * 3600 * 1000 + 1000 });
    h.hospital.token = await tokenFor(h.url, HOSPITAL);
    const r = await h.hospital.post('/api/v1/claims/submit', {
      consent_token: a.token,
      invoice_number: invoice,
      discharge_reason: 'RECOVERED',
      reason_for_unknown_patient: 'SHA_UNREGISTERED',
    });
    expectError(r, 422, 'EMERGENCY_WINDOW_EXPIRED');
  });

  it('takes exactly one intervention, the protocol tariff, a known doctor and an emergency consent', async () => {
    const a = await emergencyConsent();
    const protocol = await protocolOf(codes.emergency);
    const two = await h.hospital.post('/api/v1/claims/emergency', emergencyBody(a.token, protocol, { interventions: [codes.emergency, 'SHA-01-002'] }));
    expectError(two, 400, 'VALIDATION_ERROR');
    expect(two.body.details[0].field).toBe('interventions');
    expectError(await h.hospital.post('/api/v1/claims/emergency', emergencyBody(a.token, protocol, { interventions: [] })), 400, 'VALIDATION_ERROR');
    expectError(await h.hospital.post('/api/v1/claims/emergency', emergencyBody(a.token, protocol, { unit_price: 1 })), 422, 'TARIFF_MISMATCH');
    expectError(await h.hospital.post('/api/v1/claims/emergency', emergencyBody(a.token, protocol, { identification_number: 'A00000' })), 422, 'PROFESSIONAL_NOT_FOUND');
    expectError(await h.hospital.post('/api/v1/claims/emergency', emergencyBody(a.token, protocol, { mode_of_arrival: 'HELICOPTER' })), 400, 'VALIDATION_ERROR');
    expectError(await h.hospital.post('/api/v1/claims/emergency', emergencyBody(a.token, protocol, { beneficiary_cr_id: 'CR1' })), 400, 'VALIDATION_ERROR');
    const visit = await openVisit(h, h.hospital, await crId(h.hospital, NID.covered), codes.capitation, 'CAPITATION');
    expectError(await h.hospital.post('/api/v1/claims/emergency', emergencyBody(visit.consent_token, protocol)), 422, 'AUTHORIZATION_MISMATCH');
  });

  it('has no visit-end consent: no discharge OTP, no discharge fingerprint, no /claims/discharge', async () => {
    const a = await emergencyConsent();
    await h.hospital.post('/api/v1/claims/emergency', emergencyBody(a.token, await protocolOf(codes.emergency)));
    expectError(await h.hospital.post('/api/v1/claims/otp/discharge', { consent_token: a.token }), 422, 'NOT_APPLICABLE_TO_EMERGENCY');
    expectError(await h.hospital.post('/api/v1/claims/authorize', { consent_token: a.token, is_biometrics_discharge_authorization: true }), 422, 'NOT_APPLICABLE_TO_EMERGENCY');
    expectError(
      await h.hospital.post('/api/v1/claims/discharge', { consent_token: a.token, invoice_number: 'x', discharge_reason: 'RECOVERED', discharge_date: '2030-01-01T10:00:00Z', otp: '111111' }),
      422,
      'USE_SUBMIT',
    );
  });

  it('lists protocols as a page, filtered by intervention and activity', async () => {
    const all = await h.hospital.get('/api/v1/claims/emergency/protocols', { pageSize: '100' });
    expect(all.body.count).toBeGreaterThan(50);
    const retired = await h.hospital.get('/api/v1/claims/emergency/protocols', { active: 'false' });
    expect((retired.body.results as any[]).every((p) => p.active === false)).toBe(true);
    expect(Object.keys(all.body.results[0]).sort()).toEqual(['active', 'applicableTariff', 'intervention_code', 'name', 'protocolCode']);
  });
});

describe('prescriptions', () => {
  it('creates a prescription, dispenses it on both paths, removes its doctor', async () => {
    const id = await crId(h.hospital, NID.covered);
    const visit = await openVisit(h, h.hospital, id, codes.capitation, 'CAPITATION');
    const item = { generic_concept_code: 'RXN-723', dose_quantity: 1, dose_unit: 'tablet', frequency: 'TDS', duration: 5, duration_unit: 'days' };
    const doctor = { identification_number: 'A12345', identification_type: 'registration_number', regulation_body: 'KMPDC' };
    const rx = await h.hospital.post('/api/v1/prescriptions', { consent_token: visit.consent_token, intervention_code: codes.capitation, items: [item], ...doctor });
    expect(rx.status).toBe(200);
    expect(Object.keys(rx.body).sort()).toEqual(['code', 'doctorReviewStatus', 'guid', 'id', 'replicated', 'status']);
    expect(Array.isArray(rx.body.doctorReviewStatus)).toBe(true);
    const dispense = {
      actual_products: [{ actual_product_code: 'PRD-AMOX-500', medication_price: 45, total_quantity: 15 }],
      consent_token: visit.consent_token,
      doctors: [{ identification_number: 'A12345', identification_type: 'registration_number' }],
      intervention_code: codes.capitation,
    };
    for (const path of ['/api/v1/prescriptions/dispenses', '/api/v1/prescriptions/dispense']) {
      const d = await h.hospital.post(path, dispense);
      expect(d.status).toBe(200);
      expect(d.body[0]).toMatchObject({ status: 'DISPENSED' });
      expect(typeof d.body[0].id).toBe('number');
    }
    // Dispensing doctors come from the registry: by registration number or national ID, under their regulator if named.
    expect((await h.hospital.post('/api/v1/prescriptions/dispenses', { ...dispense, doctors: [{ identification_number: '22334455', identification_type: 'National ID', regulation_body: 'KMPDC' }] })).status).toBe(200);
    for (const unknown of [
      { identification_number: 'Q1', identification_type: 'registration_number' },
      { identification_number: 'A12345', identification_type: 'registration_number', regulation_body: 'NCK' },
      { identification_number: 'A12345', identification_type: 'National ID' },
    ]) {
      expectError(await h.hospital.post('/api/v1/prescriptions/dispenses', { ...dispense, doctors: [unknown] }), 422, 'PROFESSIONAL_NOT_FOUND');
    }
    const removed = await h.hospital.call('DELETE', '/api/v1/prescriptions/doctors', {
      body: { consent_token: visit.consent_token, intervention_code: codes.capitation, practitioner_registration_number: 'A12345' },
    });
    expect(removed.status).toBe(200);
    expect(typeof removed.body).toBe('string');
  });

  it('takes a prescription without a doctor (optional in the contract), but not a doctor given in part', async () => {
    const items = [{ generic_concept_code: 'RXN-723' }];
    const r = await h.hospital.post('/api/v1/prescriptions', { items });
    expect(r.status).toBe(200);
    expect(r.body.doctorReviewStatus).toEqual([]);
    const partial = await h.hospital.post('/api/v1/prescriptions', { items, identification_number: 'A12345' });
    expectError(partial, 400, 'VALIDATION_ERROR');
    expect((partial.body.details as any[]).map((d) => d.field).sort()).toEqual(['identification_type', 'regulation_body']);
  });

  it('refuses an empty items list (Limits: at least 1) and an unknown doctor', async () => {
    const doctor = { identification_number: 'A12345', identification_type: 'registration_number', regulation_body: 'KMPDC' };
    const empty = await h.hospital.post('/api/v1/prescriptions', { items: [], ...doctor });
    expectError(empty, 400, 'VALIDATION_ERROR');
    expect(empty.body.details[0].field).toBe('items');
    expectError(await h.hospital.post('/api/v1/prescriptions', { items: [{ generic_concept_code: 'X' }], ...doctor, identification_number: 'Q1' }), 422, 'PROFESSIONAL_NOT_FOUND');
    expectError(await h.hospital.post('/api/v1/prescriptions', { items: [{ generic_concept_code: 'X' }], ...doctor, regulation_body: 'XYZ' }), 422, 'PROFESSIONAL_NOT_FOUND');
    expectError(
      await h.hospital.post('/api/v1/prescriptions/dispenses', {
        actual_products: [{ actual_product_code: 'P', medication_price: 1, total_quantity: 1 }],
        consent_token: 'NOPE',
        doctors: [{ identification_number: 'A12345', identification_type: 'registration_number' }],
        intervention_code: 'SHA-02-001',
      }),
      404,
      'NOT_FOUND',
    );
  });
});
