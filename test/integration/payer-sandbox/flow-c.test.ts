// Flow C, emergency with an unidentified patient, through the client against the sandbox, as the
// live exchange runs it: the claim created with no prior consent (its authorization_code the
// consent token of every later call), a protocol of the intervention added by the multipart call,
// the doctor's approval asked once the claim exists, identification on the same claim (protocols
// kept), submit; and the 24-hour window refusing a late submit.
import { describe, expect, it } from 'vitest';
import type { EmergencyProtocol } from '../../../electron/payer';
import { EMERGENCY_DOCTOR, HOSPITAL, NID, advanceClock, outbox, patientId, readOtp, refusal, useWorld } from './harness';

const { w, codes } = useWorld();

const HOUR = 3600 * 1000;

/** The claim for an unknown patient, its protocol added, the doctor asked. */
async function unidentifiedClaim(reference: string) {
  const intervention = codes.emergency.code;
  // Creating for an unidentified patient sends no consent token, no beneficiary_cr_id, no patient otp.
  const payload = {
    interventions: [intervention],
    mode_of_arrival: 'AMBULANCE',
    brought_by: 'PARAMEDICS',
    reference_number: reference,
    notes: 'Road traffic accident, unconscious on arrival',
    ...EMERGENCY_DOCTOR,
  } as const;
  const claim = await w.hospital.emergency.createClaim(payload);
  expect(claim).toMatchObject({ workflowState: 'DRAFT', referenceNumber: reference });
  expect(Date.parse(claim.expiresAt ?? '') - Date.parse(claim.visitStart ?? '')).toBe(24 * HOUR);

  const protocols = await w.hospital.emergency.protocols({ intervention_code: intervention, active: true });
  expect(protocols.items.length).toBeGreaterThan(0);
  expect(protocols.items.every((p) => p.status === 'ACTIVE' && p.interventionCodes.includes(intervention))).toBe(true);
  const protocol = protocols.items[0] as EmergencyProtocol;
  expect(protocol.protocolCode).toBe(codes.emergency.protocolCode);
  const line = await w.hospital.emergency.addProtocol({
    consent_token: claim.consentToken,
    protocol_code: protocol.protocolCode,
    intervention_code: intervention,
    unit_price: protocol.applicableTariff ?? 0,
    quantity: 1,
    diagnoses: ['NA00'],
  });
  expect(line).toMatchObject({ itemCode: protocol.protocolCode, total: protocol.applicableTariff });

  await w.hospital.emergency.requestDoctorApproval({ consent_token: claim.consentToken, intervention_code: intervention, emergency_claim_id: claim.claimId, ...EMERGENCY_DOCTOR });
  expect((await outbox(w.raw, { doctor_id: EMERGENCY_DOCTOR.identification_number })).some((m) => m.purpose === 'emergency_doctor_approval')).toBe(true);
  return { claim, payload, protocol };
}

describe('flow C: emergency with an unidentified patient', () => {
  it('goes from unidentified to identified (same claim, protocols kept) to submitted', async () => {
    const { claim, payload, protocol } = await unidentifiedClaim('AMB-2231');
    const unknown = await w.hospital.claims.preview({ consent_token: claim.consentToken });
    expect(unknown).toMatchObject({ patientId: undefined, serviceType: 'EMERGENCY', totalAmount: protocol.applicableTariff });

    // The patient comes round: an OTP to them (OTP only, even where biometrics are enforced),
    // then the original payload again plus beneficiary_cr_id, that OTP and the claim's token.
    const patient = await patientId(w.hospital, NID.covered);
    await w.hospital.consent.sendOtp({ patient_id: patient, intervention_codes: [codes.emergency.code] });
    const identified = await w.hospital.emergency.identifyClaim({
      ...payload,
      beneficiary_cr_id: patient,
      otp: await readOtp(w.raw, { patient_id: patient }),
      consent_token: claim.consentToken,
    });
    expect(identified).toMatchObject({ consentToken: claim.consentToken, claimId: claim.claimId, visitStart: claim.visitStart });

    const preview = await w.hospital.claims.preview({ consent_token: claim.consentToken });
    expect(preview).toMatchObject({ patientId: patient, invoiceNumber: claim.invoiceNumber, totalAmount: unknown.totalAmount });
    expect(preview.lines.map((l) => l.itemCode)).toEqual([protocol.protocolCode]);

    // Identified emergency submit: no consent OTP, and no reason_for_unknown_patient any more.
    const submit = { consent_token: claim.consentToken, invoice_number: claim.invoiceNumber ?? '', discharge_reason: 'RECOVERED' } as const;
    await refusal(w.hospital.claims.submitEmergency({ ...submit, reason_for_unknown_patient: 'SHA_UNREGISTERED' }), { kind: 'validation', status: 400, field: 'reason_for_unknown_patient' });
    expect(await w.hospital.claims.submitEmergency(submit)).toMatchObject({ workflowState: 'SUBMITTED', consentToken: claim.consentToken });
  });

  it('submits a claim still unidentified with reason_for_unknown_patient', async () => {
    const { claim } = await unidentifiedClaim('AMB-2232');
    const submit = { consent_token: claim.consentToken, invoice_number: claim.invoiceNumber ?? '', discharge_reason: 'OTHER' } as const;
    await refusal(w.hospital.claims.submitEmergency(submit), { kind: 'validation', status: 400, field: 'reason_for_unknown_patient' });
    expect(await w.hospital.claims.submitEmergency({ ...submit, reason_for_unknown_patient: 'DECEASED' })).toMatchObject({ workflowState: 'SUBMITTED' });
  });

  it('refuses the submit once 24 hours of sandbox time have passed', async () => {
    const { claim } = await unidentifiedClaim('AMB-2233');
    const submit = { consent_token: claim.consentToken, invoice_number: claim.invoiceNumber ?? '', discharge_reason: 'REFERRED', reason_for_unknown_patient: 'SHA_UNREGISTERED' } as const;
    await advanceClock(w.raw, 24 * HOUR + 1);
    await refusal(w.hospital.claims.submitEmergency(submit), { kind: 'rule_violation', status: 422, code: 'EMERGENCY_WINDOW_EXPIRED' });
    expect((await w.hospital.claims.preview({ consent_token: claim.consentToken })).workflowState).toBe('DRAFT');
  });

  it('refuses, raw, an emergency create without reference_number: the client refuses it first', async () => {
    const body = { interventions: [codes.emergency.code], mode_of_arrival: 'WALK-IN', brought_by: 'RELATIVE', notes: 'collapsed in the car park', ...EMERGENCY_DOCTOR };
    const raw = await w.raw.call('POST', '/api/v1/claims/emergency', { body, token: await w.raw.token(HOSPITAL) });
    expect(raw).toMatchObject({ status: 400, body: { error: 'VALIDATION_ERROR', details: [{ field: 'reference_number' }] } });
    await refusal(w.hospital.emergency.createClaim(body as never), { kind: 'validation', status: undefined, field: 'reference_number' });
  });
});
