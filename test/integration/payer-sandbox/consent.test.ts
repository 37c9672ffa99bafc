// Consent through the client against the sandbox, beyond the happy flows: the stale PENDING that
// blocks OTP until it is rejected, a member under two schemes (covers), fingerprints that never
// match, OTPs that are single use, short-lived and scoped to their facility, members the registry
// does not cover or cannot reach, and the OTP whitelist request.
import { describe, expect, it } from 'vitest';
import { BIOMETRIC, HOSPITAL, NID, advanceClock, patientId, presentFinger, readOtp, refusal, useWorld } from './harness';

const { w, codes } = useWorld();

const MINUTE = 60 * 1000;

describe('a stale PENDING biometric authorization', () => {
  it('refuses OTP with conflict PENDING_AUTHORIZATION_EXISTS until it is rejected, then OTP works', async () => {
    const patient = await patientId(w.hospital, NID.whitelisted);
    const otpFor = { patient_id: patient, intervention_codes: [codes.capitation.code] };
    // The nurse started a fingerprint consent and walked away from it.
    const stale = await w.hospital.consent.authorizeBiometric({ patient_id: patient, service_type: 'CAPITATION', interventions: otpFor.intervention_codes, ...BIOMETRIC });
    expect(stale.status).toBe('PENDING');

    const conflict = await refusal(w.hospital.consent.sendOtp(otpFor), { kind: 'conflict', status: 409, code: 'PENDING_AUTHORIZATION_EXISTS' });
    const [pending] = conflict.details ?? [];
    expect(pending).toMatchObject({ guid: stale.guid, token: stale.token });
    // The pending token is in details for the station to reject it, never in what a log keeps.
    expect(JSON.stringify(conflict)).not.toContain(stale.token);
    // The block is per facility: the dispensary may still send this patient an OTP.
    expect((await w.dispensary.consent.sendOtp(otpFor)).contact).toMatch(/\*{3}/);

    const rejected = await w.hospital.consent.rejectAuthorization({ token: String(pending?.token) });
    expect(rejected).toEqual({ message: 'The authorization has been closed.' });
    expect(await w.hospital.consent.getAuthorization({ token: stale.token ?? '', guid: stale.guid ?? '' })).toMatchObject({ status: 'REJECTED', reason: 'REJECTED_BY_FACILITY' });
    await refusal(w.hospital.consent.rejectAuthorization({ token: String(pending?.token) }), { kind: 'conflict', status: 409, code: 'AUTHORIZATION_NOT_PENDING' });

    // Then the code goes out, and the visit spends it: the visit is the consent (no authorize).
    await w.hospital.consent.sendOtp(otpFor);
    const visit = await w.hospital.claims.createVisit({ patient_id: patient, otp: await readOtp(w.raw, { patient_id: patient }), intervention_codes: otpFor.intervention_codes, service_type: 'CAPITATION' });
    expect(visit.workflowState).toBe('DRAFT');
  });

  it('expires after ten minutes of sandbox time, and then no longer blocks OTP', async () => {
    const patient = await patientId(w.hospital, NID.whitelisted);
    const stale = await w.hospital.consent.authorizeBiometric({ patient_id: patient, service_type: 'CAPITATION', interventions: [codes.capitation.code], ...BIOMETRIC });
    await advanceClock(w.raw, 10 * MINUTE);
    expect(await w.hospital.consent.getAuthorization({ guid: stale.guid ?? '' })).toMatchObject({ status: 'EXPIRED', reason: 'EXPIRED' });
    expect((await w.hospital.consent.sendOtp({ patient_id: patient, intervention_codes: [codes.capitation.code] })).expiresInSeconds).toBe(300);
  });
});

describe('fingerprints', () => {
  it('three fingers that do not match reject the authorization; it cannot open a visit', async () => {
    const patient = await patientId(w.hospital, NID.covered);
    const a = await w.hospital.consent.authorizeBiometric({ patient_id: patient, service_type: 'CAPITATION', interventions: [codes.capitation.code], ...BIOMETRIC });
    for (const left of [2, 1, 0]) expect((await presentFinger(w.raw, a.guid ?? '', patient, false)).attempts_left).toBe(left);
    expect(await w.hospital.consent.getAuthorization({ guid: a.guid ?? '' })).toMatchObject({ status: 'REJECTED', reason: 'FINGERPRINT_NOT_MATCHED' });
    await refusal(w.hospital.claims.createVisit({ patient_id: patient, intervention_codes: [codes.capitation.code], service_type: 'CAPITATION', auth_guid: a.guid ?? '' }), {
      kind: 'rule_violation',
      status: 422,
      code: 'AUTHORIZATION_NOT_AUTHORIZED',
    });
  });
});

describe('covers: a member under two schemes (30000005)', () => {
  it('consents without a cover, then sets it under the consent token by principal and policy, refusing a policy that does not cover', async () => {
    const patient = await patientId(w.hospital, NID.twoSchemes);
    const eligibility = await w.hospital.eligibility.check({ identification_number: NID.twoSchemes, identification_type: 'National ID' });
    const covering = eligibility.schemes.filter((s) => s.covered);
    expect(covering).toHaveLength(2);
    // The cover needs a consent token: consent itself is not held up by the choice.
    const consent = await w.hospital.consent.authorizeBiometric({ patient_id: patient, service_type: 'CAPITATION', interventions: [codes.capitation.code], ...BIOMETRIC });
    expect(consent.status).toBe('PENDING');
    const chosen = covering[1];
    const cover = { consent_token: consent.token ?? '', principal_cr_id: chosen?.principalCrNumber ?? '', policy_number: chosen?.policyNumber ?? '' };
    expect(cover.principal_cr_id).toBe(patient);
    await refusal(w.hospital.eligibility.setCover({ ...cover, policy_number: 'NO-SUCH-POLICY' }), { kind: 'rule_violation', status: 422, code: 'NOT_COVERED' });
    await refusal(w.hospital.eligibility.setCover({ ...cover, consent_token: 'NO-SUCH-TOKEN' }), { kind: 'not_found', status: 404 });
    // The dispensary cannot set a cover under the hospital's consent.
    await refusal(w.dispensary.eligibility.setCover(cover), { kind: 'not_found', status: 404 });
    expect(await w.hospital.eligibility.setCover(cover)).toEqual({ message: expect.stringContaining('PUBLIC OFFICERS') });
  });
});

describe('OTPs', () => {
  it('are single use, valid five minutes, and good only at the facility that sent them', async () => {
    const patient = await patientId(w.dispensary, NID.covered);
    const visit = { patient_id: patient, intervention_codes: [codes.capitation.code], service_type: 'CAPITATION' } as const;
    await w.dispensary.consent.sendOtp({ patient_id: patient, intervention_codes: [codes.capitation.code] });
    const otp = await readOtp(w.raw, { patient_id: patient });
    const opened = await w.dispensary.claims.createVisit({ ...visit, otp });
    // The same code posted again answers the visit it opened (a lost answer), not a second one.
    expect((await w.dispensary.claims.createVisit({ ...visit, otp })).consentToken).toBe(opened.consentToken);
    const elective = { patient_id: patient, interventions: [codes.elective.code], service_type: 'INPATIENT' } as const;
    await refusal(w.dispensary.consent.authorizeOtp({ ...elective, otp }), { kind: 'rule_violation', status: 422, code: 'INVALID_OTP' });

    await w.dispensary.consent.sendOtp({ patient_id: patient, intervention_codes: [codes.elective.code] });
    const second = await readOtp(w.raw, { patient_id: patient });
    // The hospital holds a whitelisted patient's OTP to nothing it did not send.
    const whitelisted = await patientId(w.hospital, NID.whitelisted);
    await w.dispensary.consent.sendOtp({ patient_id: whitelisted, intervention_codes: [codes.capitation.code] });
    await refusal(
      w.hospital.claims.createVisit({ patient_id: whitelisted, intervention_codes: [codes.capitation.code], service_type: 'CAPITATION', otp: await readOtp(w.raw, { patient_id: whitelisted }) }),
      { kind: 'rule_violation', code: 'INVALID_OTP' },
    );

    await advanceClock(w.raw, 5 * MINUTE);
    await refusal(w.dispensary.consent.authorizeOtp({ ...elective, otp: second }), { kind: 'rule_violation', status: 422, code: 'OTP_EXPIRED' });
  });

  it('cannot reach a member without a phone (NO_CONTACT), and are refused for a member not covered (NOT_COVERED)', async () => {
    const noPhone = await patientId(w.dispensary, NID.noPhone);
    expect(await w.dispensary.consent.contacts({ patient_id: noPhone })).toEqual([]);
    await refusal(w.dispensary.consent.sendOtp({ patient_id: noPhone, intervention_codes: [codes.capitation.code] }), { kind: 'rule_violation', status: 422, code: 'NO_CONTACT' });

    const eligibility = await w.dispensary.eligibility.check({ identification_number: NID.notCovered, identification_type: 'National ID' });
    expect(eligibility).toMatchObject({ found: true, covered: false });
    expect(eligibility.reason).toBeTruthy();
    expect(eligibility.possibleSolution).toBeTruthy();
    const uncovered = await patientId(w.dispensary, NID.notCovered);
    await refusal(w.dispensary.consent.sendOtp({ patient_id: uncovered, intervention_codes: [codes.capitation.code] }), { kind: 'rule_violation', status: 422, code: 'NOT_COVERED' });

    await refusal(w.dispensary.registry.findPatient({ identification_number: NID.notFound, identification_type: 'National ID' }), { kind: 'not_found', status: 404, code: 'NOT_FOUND' });
    expect(await w.dispensary.eligibility.check({ identification_number: NID.notFound, identification_type: 'National ID' })).toMatchObject({ found: false, covered: false });
  });
});

describe('the OTP whitelist', () => {
  it('asks for OTP consent for a member, and once the payer approves the hospital may use OTP', async () => {
    const patient = await patientId(w.hospital, NID.covered);
    await refusal(w.hospital.consent.sendOtp({ patient_id: patient, intervention_codes: [codes.capitation.code] }), { kind: 'rule_violation', code: 'BIOMETRICS_REQUIRED' });
    const request = await w.hospital.consent.requestOtpWhitelist({
      beneficiary_cr_id: patient,
      reason_type: 'OTHER',
      reason: 'Burns to both hands',
      biometric_attempts: 3,
      facility_fr_code: HOSPITAL.code,
      attachment: { document_title: 'Clinician note', file: { file_name: 'burns.png', content_type: 'image/png', data: Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]) } },
    });
    expect(request).toEqual({ guid: request.guid, status: 'PENDING', reasonType: 'OTHER' });
    const status = () => w.hospital.consent.otpWhitelistStatus({ beneficiary_cr_id: patient, guid: request.guid, facility_fr_code: HOSPITAL.code });
    expect((await status()).items).toEqual([{ guid: request.guid, status: 'PENDING', reasonType: 'OTHER' }]);
    // A's query (the facility, no guid) finds the patient's requests too.
    expect((await w.hospital.consent.otpWhitelistStatus({ beneficiary_cr_id: patient, facility_fr_code: HOSPITAL.code })).items.map((r) => r.guid)).toContain(request.guid);
    await w.raw.control('POST', `/sandbox/otp-whitelists/${request.guid}/approval`);
    expect((await status()).items[0]?.status).toBe('APPROVED');
    expect((await w.hospital.eligibility.check({ identification_number: NID.covered, identification_type: 'National ID' })).whitelistedForOTP).toBe(true);
    await w.hospital.consent.sendOtp({ patient_id: patient, intervention_codes: [codes.capitation.code] });
  });
});
