// Flow C of the contract, emergency with an unidentified patient, through the client against the
// sandbox: the doctor's OTP consent, protocols, the claim for an unknown patient, identification
// on the same claim (protocols kept), submit; and the 24-hour window refusing a late submit.
import { describe, expect, it } from 'vitest';
import type { EmergencyProtocol } from '../../../electron/payer';
import { EMERGENCY_DOCTOR, NID, advanceClock, patientId, readOtp, refusal, useWorld } from './harness';

const { w, codes } = useWorld();

const HOUR = 3600 * 1000;

/** The doctor's consent (OTP to the doctor), the protocols, and the claim for an unknown patient. */
async function unidentifiedClaim() {
  const intervention = codes.emergency.code;
  await w.hospital.emergency.sendDoctorOtp({ ...EMERGENCY_DOCTOR, intervention_code: intervention });
  const consent = await w.hospital.emergency.authorize({
    otp: await readOtp(w.raw, { doctor_id: EMERGENCY_DOCTOR.identification_number }),
    ...EMERGENCY_DOCTOR,
    intervention_code: intervention,
  });
  expect(consent.status).toBe('EMERGENCY_AUTHORIZED');

  const protocols = await w.hospital.emergency.protocols({ intervention_code: intervention, active: true });
  expect(protocols.items.length).toBeGreaterThan(0);
  expect(protocols.items.every((p) => p.interventionCode === intervention && p.active === true)).toBe(true);
  const protocol = protocols.items[0] as EmergencyProtocol;
  expect(protocol.protocolCode).toBe(codes.emergency.protocolCode);

  // Creating for an unidentified patient sends no beneficiary_cr_id and no patient otp.
  const payload = {
    consent_token: consent.consentToken,
    intervention_code: intervention,
    protocol_code: protocol.protocolCode,
    unit_price: protocol.applicableTariff ?? 0,
    mode_of_arrival: 'AMBULANCE',
    brought_by: 'PARAMEDICS',
    reference_number: 'AMB-2231',
    ...EMERGENCY_DOCTOR,
    notes: 'Road traffic accident, unconscious on arrival',
  } as const;
  const claim = await w.hospital.emergency.createClaim(payload);
  expect(claim).toMatchObject({ consentToken: consent.consentToken, workflowState: 'DRAFT', beneficiaryCrId: undefined });
  expect(Date.parse(claim.submitDeadline ?? '') - Date.parse(claim.emergencyAt ?? '')).toBe(24 * HOUR);
  expect(claim.protocols.map((p) => p.protocol_code)).toEqual([protocol.protocolCode]);
  return { claim, payload, protocol };
}

describe('flow C: emergency with an unidentified patient', () => {
  it('goes from unidentified to identified (same claim, protocols kept) to submitted', async () => {
    const { claim, payload, protocol } = await unidentifiedClaim();
    const unknown = await w.hospital.claims.preview({ consent_token: claim.consentToken });
    expect(unknown).toMatchObject({ patientId: undefined, serviceType: 'EMERGENCY', totalAmount: protocol.applicableTariff });

    // The patient comes round: an OTP to them (OTP only, even where biometrics are enforced),
    // then the original payload again plus beneficiary_cr_id and that OTP.
    const patient = await patientId(w.hospital, NID.covered);
    await w.hospital.consent.sendOtp({ patient_id: patient, intervention_codes: [codes.emergency.code] });
    const identified = await w.hospital.emergency.identifyClaim({ ...payload, beneficiary_cr_id: patient, otp: await readOtp(w.raw, { patient_id: patient }) });
    expect(identified).toMatchObject({ consentToken: claim.consentToken, beneficiaryCrId: patient, emergencyAt: claim.emergencyAt });
    expect(identified.protocols.map((p) => p.protocol_code)).toEqual([protocol.protocolCode]);

    const preview = await w.hospital.claims.preview({ consent_token: claim.consentToken });
    expect(preview).toMatchObject({ patientId: patient, invoiceNumber: unknown.invoiceNumber, totalAmount: unknown.totalAmount });
    expect(preview.lines.map((l) => l.itemCode)).toEqual([protocol.protocolCode]);

    // Identified emergency submit: no consent OTP, and no reason_for_unknown_patient any more.
    const submit = { consent_token: claim.consentToken, invoice_number: preview.invoiceNumber ?? '', discharge_reason: 'RECOVERED' } as const;
    await refusal(w.hospital.claims.submitEmergency({ ...submit, reason_for_unknown_patient: 'SHA_UNREGISTERED' }), { kind: 'validation', status: 400, field: 'reason_for_unknown_patient' });
    expect(await w.hospital.claims.submitEmergency(submit)).toMatchObject({ workflowState: 'SUBMITTED', consentToken: claim.consentToken });
  });

  it('submits a claim still unidentified with reason_for_unknown_patient', async () => {
    const { claim } = await unidentifiedClaim();
    const { invoiceNumber } = await w.hospital.claims.preview({ consent_token: claim.consentToken });
    const submit = { consent_token: claim.consentToken, invoice_number: invoiceNumber ?? '', discharge_reason: 'OTHER' } as const;
    await refusal(w.hospital.claims.submitEmergency(submit), { kind: 'validation', status: 400, field: 'reason_for_unknown_patient' });
    expect(await w.hospital.claims.submitEmergency({ ...submit, reason_for_unknown_patient: 'DECEASED' })).toMatchObject({ workflowState: 'SUBMITTED' });
  });

  it('refuses the submit once 24 hours of sandbox time have passed', async () => {
    const { claim } = await unidentifiedClaim();
    const { invoiceNumber } = await w.hospital.claims.preview({ consent_token: claim.consentToken });
    const submit = { consent_token: claim.consentToken, invoice_number: invoiceNumber ?? '', discharge_reason: 'REFERRED', reason_for_unknown_patient: 'SHA_UNREGISTERED' } as const;
    await advanceClock(w.raw, 24 * HOUR + 1);
    await refusal(w.hospital.claims.submitEmergency(submit), { kind: 'rule_violation', status: 422, code: 'EMERGENCY_WINDOW_EXPIRED' });
    expect((await w.hospital.claims.preview({ consent_token: claim.consentToken })).workflowState).toBe('DRAFT');
  });
});
