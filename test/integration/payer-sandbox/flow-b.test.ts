// Flow B of the contract, outpatient capitation, through the client against the sandbox: by OTP
// (sent, then spent by the visit itself) and by fingerprint, from the look-up to the submit with
// invoice and discharge reason, once with the visit-end OTP and once with the discharge_auth_guid
// of a visit-end fingerprint. A capitation intervention goes out as service_type CAPITATION.
import { describe, expect, it } from 'vitest';
import type { ExchangeClient } from '../../../electron/payer';
import { BIOMETRIC, DIAGNOSIS, NID, PRACTITIONER, presentFinger, readOtp, refusal, useWorld } from './harness';

const { w, codes } = useWorld();

/** Steps 1–5 of flow A, confirming paymentMechanism CAPITATION. */
async function lookUp(client: ExchangeClient, nationalId: string) {
  const id = { identification_number: nationalId, identification_type: 'National ID' } as const;
  const [patient, eligibility] = await Promise.all([client.registry.findPatient(id), client.eligibility.check(id)]);
  expect(eligibility.covered).toBe(true);
  const subBenefits = await client.eligibility.subBenefits({ patient_id: patient.id });
  const home = subBenefits.items.find((s) => s.allowedInterventions.includes(codes.capitation.code));
  expect(home).toBeDefined();
  // The interventions are listed one sub-benefit at a time.
  const interventions = await client.eligibility.interventions({ patient_id: patient.id, sub_benefit_code: home?.code ?? '' });
  expect(interventions.items.find((i) => i.code === codes.capitation.code)).toMatchObject({ paymentMechanism: 'CAPITATION', needsPreauth: false, accessPoint: 'OP' });
  return { patient: patient.id, eligibility };
}

describe('flow B: outpatient capitation', () => {
  it('by OTP: the code sent, the visit with it (no authorize), doctor, line, preview, visit-end OTP and submit', async () => {
    // At the level-2 dispensary biometrics are not enforced: OTP consent for any member.
    const { patient, eligibility } = await lookUp(w.dispensary, NID.covered);
    expect(eligibility).toMatchObject({ facilityBiometricsEnforced: false, whitelistedForOTP: false });

    const [contact] = await w.dispensary.consent.contacts({ patient_id: patient });
    await w.dispensary.consent.sendOtp({ patient_id: patient, intervention_codes: [codes.capitation.code], beneficiary_contact_id: contact?.id });
    const otp = await readOtp(w.raw, { patient_id: patient });
    const visitInput = { patient_id: patient, intervention_codes: [codes.capitation.code], service_type: 'CAPITATION', otp } as const;
    // A capitation intervention under OUTPATIENT is refused, naming service_type, and the code survives.
    await refusal(w.dispensary.claims.createVisit({ ...visitInput, service_type: 'OUTPATIENT' }), { kind: 'validation', status: 400, field: 'service_type' });
    const visit = await w.dispensary.claims.createVisit(visitInput);
    expect(visit).toMatchObject({ workflowState: 'DRAFT', claimAuthStatus: 'AUTHORIZED', interventions: [codes.capitation.code] });
    // A re-post after a lost answer returns the same claim, not a second one.
    expect((await w.dispensary.claims.createVisit(visitInput)).consentToken).toBe(visit.consentToken);

    const attached = await w.dispensary.claims.addDoctor({ consent_token: visit.consentToken, identification_number: 'A12345', identification_type: 'registration_number', regulation_body: 'KMPDC' });
    expect(attached.message).toBe('Doctor attached');
    const line = await w.dispensary.claims.addBilling({ consent_token: visit.consentToken, intervention_code: codes.capitation.code, unit_price: 0, quantity: 1, diagnoses: [DIAGNOSIS[0].code] });
    const preview = await w.dispensary.claims.preview({ consent_token: visit.consentToken });
    expect(preview).toMatchObject({ workflowState: 'DRAFT', serviceType: 'CAPITATION', totalAmount: 0, patientId: patient, diagnoses: [{ code: 'CA00', interventionCode: codes.capitation.code }], hasDoctor: true });
    expect(preview.lines.map((l) => l.id)).toEqual([line.id]);

    // Visit end: the discharge OTP to the patient, then submit with it.
    const sent = await w.dispensary.consent.sendDischargeOtp({ consent_token: visit.consentToken, patient_id: patient });
    expect(sent.expiresInSeconds).toBe(300);
    const dischargeOtp = await readOtp(w.raw, { patient_id: patient }, 'discharge');
    const submit = { consent_token: visit.consentToken, invoice_number: preview.invoiceNumber ?? '', discharge_reason: 'RECOVERED', notes: 'Treated and sent home', otp: dischargeOtp } as const;
    // A refused submit does not spend the OTP: the same code works once the submit is right.
    await refusal(w.dispensary.claims.submit({ ...submit, discharge_status: 'FULL' }), { kind: 'rule_violation', status: 422, code: 'NO_PARTIAL_DISCHARGE' });
    const submitted = await w.dispensary.claims.submit(submit);
    expect(submitted).toMatchObject({ workflowState: 'SUBMITTED', consentToken: visit.consentToken, invoiceNumber: preview.invoiceNumber });
    await refusal(w.dispensary.claims.submit(submit), { kind: 'conflict', status: 409, code: 'CLAIM_ALREADY_SUBMITTED' });
    expect(await w.dispensary.claims.preview({ consent_token: visit.consentToken })).toMatchObject({ workflowState: 'SUBMITTED', claimAuthStatus: 'SUBMITTED_CLAIM' });
  });

  it('by fingerprint: authorize CAPITATION, finger, visit by auth_guid, line, visit-end fingerprint and submit with discharge_auth_guid', async () => {
    const { patient, eligibility } = await lookUp(w.hospital, NID.covered);
    expect(eligibility.facilityBiometricsEnforced).toBe(true);

    const pending = await w.hospital.consent.authorizeBiometric({ patient_id: patient, service_type: 'CAPITATION', interventions: [codes.capitation.code], ...BIOMETRIC });
    expect(pending.status).toBe('PENDING');
    // A finger that does not match leaves it PENDING with fewer tries; the right one authorizes it.
    expect(await presentFinger(w.raw, pending.guid ?? '', patient, false)).toMatchObject({ matched: false, status: 'PENDING', attempts_left: 2 });
    expect(await presentFinger(w.raw, pending.guid ?? '', patient)).toMatchObject({ matched: true, status: 'AUTHORIZED' });
    expect((await w.hospital.consent.getAuthorization({ token: pending.token ?? '', guid: pending.guid ?? '' })).status).toBe('AUTHORIZED');

    const visitInput = { patient_id: patient, intervention_codes: [codes.capitation.code], service_type: 'CAPITATION', auth_guid: pending.guid ?? '', ...PRACTITIONER } as const;
    const visit = await w.hospital.claims.createVisit(visitInput);
    expect(visit).toMatchObject({ consentToken: pending.token, authorizationGuid: pending.guid, workflowState: 'DRAFT' });
    expect((await w.hospital.claims.createVisit(visitInput)).consentToken).toBe(visit.consentToken);

    await w.hospital.claims.addBilling({ consent_token: visit.consentToken, intervention_code: codes.capitation.code, unit_price: 0, quantity: 1, diagnoses: [DIAGNOSIS[0].code] });
    const preview = await w.hospital.claims.preview({ consent_token: visit.consentToken });
    // The doctor given with the visit is on the claim.
    expect(preview.hasDoctor).toBe(true);

    // The live visit-end body: the twelve fields naming the patient, no consent_token.
    const discharge = await w.hospital.consent.authorizeDischarge({ patient_id: patient, service_type: 'CAPITATION', interventions: [codes.capitation.code], ...BIOMETRIC });
    expect(discharge).toMatchObject({ status: 'PENDING', dischargeAuthGuid: discharge.guid });
    const submit = { consent_token: visit.consentToken, invoice_number: preview.invoiceNumber ?? '', discharge_reason: 'REFERRED', discharge_auth_guid: discharge.dischargeAuthGuid ?? '' } as const;
    // Before the finger the visit-end authorization is not yet consent.
    await refusal(w.hospital.claims.submit(submit), { kind: 'rule_violation', status: 422, code: 'AUTHORIZATION_NOT_AUTHORIZED' });
    await presentFinger(w.raw, discharge.dischargeAuthGuid ?? '', patient);
    expect(await w.hospital.claims.submit(submit)).toMatchObject({ workflowState: 'SUBMITTED', consentToken: visit.consentToken });
    expect(await w.hospital.consent.getAuthorization({ guid: discharge.dischargeAuthGuid ?? '' })).toMatchObject({ status: 'AUTHORIZED', dischargeAuthGuid: discharge.guid });
  });
});
