// An inpatient per-diem stay discharged in part and then finalised, and prescriptions with their
// dispense and their read-back (the preview by consent token), through the client against the sandbox.
import { describe, expect, it } from 'vitest';
import { BIOMETRIC, DIAGNOSIS, NID, PRACTITIONER, PREAUTH_DOCTOR, advanceClock, patientId, presentFinger, readOtp, refusal, useWorld } from './harness';

const { w, codes } = useWorld();

/** A visit opened by fingerprint, with the attending doctor named at the start. */
async function visitByFingerprint(patient: string, intervention: string, serviceType: 'INPATIENT' | 'CAPITATION') {
  const a = await w.hospital.consent.authorizeBiometric({ patient_id: patient, service_type: serviceType, interventions: [intervention], ...BIOMETRIC });
  await presentFinger(w.raw, a.guid ?? '', patient);
  return w.hospital.claims.createVisit({ patient_id: patient, intervention_codes: [intervention], service_type: serviceType, auth_guid: a.guid ?? '', ...PRACTITIONER });
}

describe('partial discharge, then finalisation', () => {
  it('records a partial discharge of the days so far, keeps the claim open, then finalises it by submit FULL', async () => {
    const patient = await patientId(w.hospital, NID.covered);
    const visit = await visitByFingerprint(patient, codes.perDiem.code, 'INPATIENT');
    // Rule 3: the per-diem day line is generated at admission.
    const admitted = await w.hospital.claims.preview({ consent_token: visit.consentToken });
    expect(admitted.lines).toMatchObject([{ interventionCode: codes.perDiem.code, quantity: 1 }]);
    const invoice = admitted.invoiceNumber ?? '';

    // Finalising needs an earlier partial; an inpatient claim is not dispatched by a plain submit.
    const finalise = { consent_token: visit.consentToken, invoice_number: invoice, discharge_reason: 'RECOVERED', discharge_status: 'FULL', otp: '000000' } as const;
    await refusal(w.hospital.claims.submit(finalise), { kind: 'rule_violation', status: 422, code: 'NO_PARTIAL_DISCHARGE' });

    // A day and a half later, a partial discharge by visit-end fingerprint.
    await advanceClock(w.raw, 36 * 3600 * 1000);
    const discharge = await w.hospital.consent.authorizeDischarge({ patient_id: patient, service_type: 'INPATIENT', interventions: [codes.perDiem.code], ...BIOMETRIC });
    await presentFinger(w.raw, discharge.dischargeAuthGuid ?? '', patient);
    const partial = await w.hospital.claims.discharge({
      consent_token: visit.consentToken,
      discharge_reason: 'RECOVERED',
      invoice_number: invoice,
      discharge_date: new Date(Date.now() + 36 * 3600 * 1000).toISOString(),
      discharge_auth_guid: discharge.dischargeAuthGuid ?? '',
      discharge_status: 'PARTIAL',
    });
    expect(partial.workflowState).toBe('DRAFT');
    const afterPartial = await w.hospital.claims.preview({ consent_token: visit.consentToken });
    expect(afterPartial).toMatchObject({ workflowState: 'DRAFT', dischargeStatus: 'PARTIAL' });
    expect(afterPartial.lines[0]?.quantity).toBe(2);
    expect(afterPartial.partialDischarges).toMatchObject([{ amount: afterPartial.totalAmount }]);

    // The stay goes on: a line after the partial, then the finalisation by discharge OTP.
    await w.hospital.claims.addBilling({ consent_token: visit.consentToken, intervention_code: codes.perDiem.code, unit_price: 1_200, quantity: 3, diagnoses: [DIAGNOSIS[0].code], service_name: 'IV fluids' });
    await w.hospital.consent.sendDischargeOtp({ consent_token: visit.consentToken, patient_id: patient });
    const otp = await readOtp(w.raw, { patient_id: patient }, 'discharge');
    // Without discharge_status FULL an inpatient claim is told to use discharge; the OTP survives.
    const { discharge_status: _full, ...plain } = { ...finalise, otp };
    await refusal(w.hospital.claims.submit(plain), { kind: 'rule_violation', status: 422, code: 'USE_DISCHARGE' });
    const finalised = await w.hospital.claims.submit({ ...finalise, otp });
    expect(finalised).toMatchObject({ workflowState: 'SUBMITTED', consentToken: visit.consentToken });
    const final = await w.hospital.claims.preview({ consent_token: visit.consentToken });
    expect(final).toMatchObject({ workflowState: 'SUBMITTED', dischargeStatus: 'FULL' });
    expect(final.totalAmount).toBe((afterPartial.totalAmount ?? 0) + 3_600);
    expect(final.partialDischarges).toHaveLength(1);
  });
});

describe('prescriptions and dispense', () => {
  it('prescribes on a claim, dispenses at both paths, and removes the prescribing doctor', async () => {
    const patient = await patientId(w.hospital, NID.covered);
    const visit = await visitByFingerprint(patient, codes.capitation.code, 'CAPITATION');
    const today = new Date().toISOString().slice(0, 10);

    const prescription = await w.hospital.prescriptions.create({
      consent_token: visit.consentToken,
      intervention_code: codes.capitation.code,
      items: [
        { generic_concept_code: 'RXN-723', dose_quantity: 500, dose_unit: 'mg', frequency: 3, period_unit: 'day', duration: 5, duration_unit: 'days', start_date: today, patient_instruction: 'After meals' },
        { generic_concept_code: 'RXN-161', dose_quantity: 1, dose_unit: 'tablet', frequency: 1, period_unit: 'day', needs_refill: false },
      ],
      identification_number: 'A12345',
      identification_type: 'registration_number',
      regulation_body: 'KMPDC',
    });
    expect(prescription).toMatchObject({ status: 'ACTIVE', doctorReviewStatus: 'PENDING' });
    expect(prescription.id).toBeDefined();
    expect(prescription.code).toMatch(/^RX-/);

    const dispense = {
      actual_products: [
        { actual_product_code: 'AMOX-500-CAP', medication_price: 12.5, total_quantity: 15 },
        { actual_product_code: 'PCM-500-TAB', medication_price: 2, total_quantity: 10 },
      ],
      consent_token: visit.consentToken,
      doctors: [{ identification_number: '22334455', identification_type: 'National ID' }],
      intervention_code: codes.capitation.code,
    } as const;
    // One dispense (at the path UAT answers), whatever the number of products.
    const entries = await w.hospital.prescriptions.dispense(dispense);
    expect(entries).toHaveLength(1);
    expect(entries.every((e) => e.status === 'DISPENSED' && e.id !== '')).toBe(true);
    expect(await w.hospital.prescriptions.dispenseAtDocumentedPath(dispense)).toHaveLength(1);
    expect(w.events.filter((e) => e.operation.startsWith('prescriptions.dispense')).map((e) => e.path)).toEqual(['/api/v1/prescriptions/dispense', '/api/v1/prescriptions/dispenses']);

    const removed = await w.hospital.prescriptions.removeDoctor({ consent_token: visit.consentToken, intervention_code: codes.capitation.code, practitioner_registration_number: 'A12345' });
    expect(removed).toEqual({ message: undefined });
    await refusal(
      w.hospital.prescriptions.removeDoctor({ consent_token: visit.consentToken, intervention_code: codes.capitation.code, practitioner_registration_number: 'A12345' }),
      { kind: 'not_found', status: 404, code: 'NOT_FOUND' },
    );
  });

  it('previews a consent token’s prescription: the first written, its status and review as the payer moves them', async () => {
    const patient = await patientId(w.hospital, NID.covered);
    const visit = await visitByFingerprint(patient, codes.capitation.code, 'CAPITATION');
    const byToken = { consent_token: visit.consentToken };
    await refusal(w.hospital.prescriptions.preview(byToken), { kind: 'not_found', status: 404 });
    await refusal(w.hospital.prescriptions.preview({ consent_token: 'CT-NOBODY' }), { kind: 'not_found', status: 404 });

    const first = await w.hospital.prescriptions.create({ ...byToken, intervention_code: codes.capitation.code, items: [{ generic_concept_code: 'RXN-723', frequency: 3 }, { generic_concept_code: 'RXN-161' }], ...PREAUTH_DOCTOR });
    await w.hospital.prescriptions.create({ ...byToken, intervention_code: codes.capitation.code, items: [{ generic_concept_code: 'RXN-999' }] });
    expect(await w.hospital.prescriptions.preview(byToken)).toMatchObject({ code: first.code, id: first.id, status: 'ACTIVE', doctorReviewStatus: 'PENDING', medicationIdentifiers: ['RXN-723', 'RXN-161'] });

    await w.raw.control('POST', `/sandbox/prescriptions/${first.code ?? ''}/review`, { doctor_review_status: 'APPROVED', status: 'COMPLETED' });
    expect(await w.hospital.prescriptions.preview(byToken)).toMatchObject({ code: first.code, status: 'COMPLETED', doctorReviewStatus: 'APPROVED' });
    // The control API takes a review word as SHA writes one (upper case, ours or not: ON_HOLD_PHARMACIST), and at least one field.
    expect((await w.raw.call('POST', `/sandbox/prescriptions/${first.code ?? ''}/review`, { body: { doctor_review_status: 'maybe later' } })).status).toBe(400);
    expect((await w.raw.call('POST', `/sandbox/prescriptions/${first.code ?? ''}/review`, { body: {} })).status).toBe(400);
    expect((await w.raw.call('POST', '/sandbox/prescriptions/RX-NONE/review', { body: { status: 'ACTIVE' } })).status).toBe(404);
    // Another facility does not see it.
    await refusal(w.dispensary.prescriptions.preview(byToken), { kind: 'not_found', status: 404 });
  });

  it('refuses a dispense without an earlier prescription, and a dispenser the registry does not know', async () => {
    const patient = await patientId(w.hospital, NID.covered);
    const visit = await visitByFingerprint(patient, codes.capitation.code, 'CAPITATION');
    const dispense = {
      actual_products: [{ actual_product_code: 'AMOX-500-CAP', medication_price: 12.5, total_quantity: 15 }],
      consent_token: visit.consentToken,
      doctors: [{ identification_number: '22334455', identification_type: 'National ID' }],
      intervention_code: codes.capitation.code,
    } as const;
    await refusal(w.hospital.prescriptions.dispense(dispense), { kind: 'not_found', status: 404 });
    await w.hospital.prescriptions.create({ consent_token: visit.consentToken, intervention_code: codes.capitation.code, items: [{ generic_concept_code: 'RXN-723' }] });
    await refusal(w.hospital.prescriptions.dispense({ ...dispense, doctors: [{ identification_number: '00000000', identification_type: 'National ID' }] }), {
      kind: 'rule_violation',
      status: 422,
      code: 'PROFESSIONAL_NOT_FOUND',
    });
    expect(await w.hospital.prescriptions.dispense(dispense)).toHaveLength(1);
  });
});
