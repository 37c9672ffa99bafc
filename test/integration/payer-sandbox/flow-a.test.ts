// Flow A of the contract, elective inpatient preauth, both phases, through the client against the
// sandbox: pre-visit consent (by OTP and by fingerprint), the preauth polled until FINALISED while
// the doctor and the payer act, the day-of-visit claim without a new authorize, lines, preview,
// and the discharge by discharge OTP and by a discharge fingerprint authorization.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { ExchangeClient, Preauth } from '../../../electron/payer';
import { BIOMETRIC, DIAGNOSIS, NID, PRACTITIONER, PREAUTH_DOCTOR, presentFinger, readOtp, refusal, useWorld } from './harness';

const { w, codes } = useWorld();

const today = () => new Date().toISOString().slice(0, 10);
const now = () => new Date().toISOString();
const pdf = { file_name: 'theatre-notes.pdf', content_type: 'application/pdf', data: new TextEncoder().encode('%PDF-1.4\n% theatre notes\n') };

/** Steps 2–5: the patient, eligibility, sub-benefits and the elective intervention's flags. */
async function lookUp(client: ExchangeClient, nationalId: string) {
  const id = { identification_number: nationalId, identification_type: 'National ID' } as const;
  const [patient, eligibility] = await Promise.all([client.registry.findPatient(id), client.eligibility.check(id)]);
  expect(eligibility).toMatchObject({ found: true, covered: true, crNumber: patient.id, facilityBiometricsEnforced: true });
  const subBenefits = await client.eligibility.subBenefits({ patient_id: patient.id });
  const home = subBenefits.items.find((s) => s.allowedInterventions.includes(codes.elective.code));
  expect(home).toBeDefined();
  const page = await client.eligibility.interventions({ patient_id: patient.id, sub_benefit_code: home?.code ?? '' });
  const elective = page.items.find((i) => i.code === codes.elective.code);
  expect(elective).toMatchObject({ needsPreauth: true, needsManualPreauthApproval: true, scenario: 'elective-preauth' });
  return { patient: patient.id, eligibility };
}

/** Step 7: the preauth, asked for with the pre-visit authorization's token: multipart, as the live exchange takes it. */
async function createPreauth(client: ExchangeClient, consentToken: string): Promise<Preauth> {
  const preauth = await client.preauth.create({
    consent_token: consentToken,
    intervention_code: codes.elective.code,
    service_start: '2030-01-15T08:00:00+03:00',
    service_end: '2030-01-17T12:00:00+03:00',
    items: [{ unit_price: 80_000 }],
    doctors: [{ ...PREAUTH_DOCTOR, is_primary: true }],
    diagnoses: [{ icd_code: 'DD51' }],
    attachments: [{ document_title: 'Theatre notes', document_type: 'CLINICAL_NOTES', file: pdf }],
    provider_notification_email: 'claims@hospital.example',
    chief_complaint: 'Reducible right inguinal swelling',
  });
  expect(preauth).toMatchObject({ status: 'PENDING_DOCTOR_APPROVAL', consentToken, interventionCode: codes.elective.code, requestedAmount: 80_000 });
  return preauth;
}

/**
 * Step 8: poll GET /preauths until FINALISED. The doctor approves once the station has seen the
 * preauth wait for them, the payer once it has seen it ACTIVE: the statuses come back in order.
 */
async function pollUntilFinalised(client: ExchangeClient, consentToken: string, preauthId: string): Promise<string[]> {
  const seen: string[] = [];
  for (let poll = 0; poll < 50; poll++) {
    const [preauth] = await client.preauth.find({ consent_token: consentToken });
    const status = preauth?.status ?? 'none';
    if (seen[seen.length - 1] !== status) {
      seen.push(status);
      if (status === 'PENDING_DOCTOR_APPROVAL') await w.raw.control('POST', `/sandbox/preauths/${preauthId}/doctor-approval`);
      if (status === 'ACTIVE') await w.raw.control('POST', `/sandbox/preauths/${preauthId}/payer-approval`, { approved_amount: 75_000 });
    }
    if (status === 'FINALISED') return seen;
    await sleep(10);
  }
  throw new Error(`the preauth never reached FINALISED: ${seen.join(' → ')}`);
}

/**
 * Step 10: billing (a JSON line, a diagnosis, a multipart line with its diagnoses and a file), then
 * the preview the station reconciles with: the claim object, its lines in invoices[].lines.
 */
async function bill(client: ExchangeClient, consentToken: string) {
  const line = await client.claims.addLine({
    consent_token: consentToken,
    intervention_code: codes.elective.code,
    unit_price: 60_000,
    quantity: 1,
    service_name: 'Herniorrhaphy',
    ...PRACTITIONER,
  });
  expect(line).toMatchObject({ interventionCode: codes.elective.code, unitPrice: 60_000, quantity: 1, amount: 60_000, itemName: 'Herniorrhaphy' });
  const diagnosis = await client.claims.addDiagnosis({ consent_token: consentToken, icd_code: 'DD51', intervention_code: codes.elective.code });
  expect(diagnosis).toMatchObject({ code: 'DD51', name: 'Inguinal hernia', interventionCode: codes.elective.code });
  const billed = await client.claims.addBilling({
    consent_token: consentToken,
    intervention_code: codes.elective.code,
    unit_price: 7_500,
    quantity: 2,
    charge_date: today(),
    diagnoses: [DIAGNOSIS[0].code],
    service_name: 'Theatre consumables',
    attachments: [{ document_title: 'Theatre notes', document_type: 'THEATRE_NOTES', file: pdf }],
  });
  expect(billed).toMatchObject({ amount: 15_000, chargeDate: today() });
  const preview = await client.claims.preview({ consent_token: consentToken });
  expect(preview).toMatchObject({ consentToken, workflowState: 'DRAFT', serviceType: 'INPATIENT', totalAmount: 75_000, interventions: [codes.elective.code], hasDoctor: true });
  expect(preview.lines.map((l) => l.id)).toEqual([line.id, billed.id]);
  expect(preview.diagnoses.map((d) => d.code)).toEqual(['DD51', 'CA00']);
  expect(preview.attachments).toMatchObject([{ title: 'Theatre notes', attachmentType: 'THEATRE_NOTES', interventionCode: codes.elective.code }]);
  return preview;
}

const authorizeCalls = () => w.events.filter((e) => e.operation.startsWith('consent.authorize')).length;

describe('flow A: elective inpatient preauth', () => {
  it('by OTP: pre-visit OTP consent, preauth to FINALISED, OTP visit on the day, lines, discharge by discharge OTP', async () => {
    const { patient, eligibility } = await lookUp(w.hospital, NID.whitelisted);
    expect(eligibility.whitelistedForOTP).toBe(true);

    // Step 6, OTP path: contacts, the OTP to the main contact, the pre-visit authorize with it
    // (interventions and service_type required).
    const contacts = await w.hospital.consent.contacts({ patient_id: patient });
    const main = contacts.find((c) => c.main);
    expect(main?.value).toMatch(/\*{3}/);
    const sent = await w.hospital.consent.sendOtp({ patient_id: patient, intervention_codes: [codes.elective.code], beneficiary_contact_id: main?.id });
    expect(sent.contact).toBe(main?.value);
    const previsit = await w.hospital.consent.authorizeOtp({ patient_id: patient, otp: await readOtp(w.raw, { patient_id: patient }), interventions: [codes.elective.code], service_type: 'INPATIENT' });
    expect(previsit.status).toBe('AUTHORIZED_PENDING_VISIT');
    const token = previsit.token ?? '';

    const preauth = await createPreauth(w.hospital, token);
    expect(await pollUntilFinalised(w.hospital, token, preauth.id ?? '')).toEqual(['PENDING_DOCTOR_APPROVAL', 'ACTIVE', 'FINALISED']);
    const [finalised] = await w.hospital.preauth.find({ consent_token: token });
    expect(finalised?.approvedAmount).toBe(75_000);
    expect((await w.hospital.consent.getAuthorization({ token })).status).toBe('AUTHORIZED');

    // Step 9, OTP path: no new authorize; a fresh OTP opens the visit.
    const authorizesBefore = authorizeCalls();
    await w.hospital.consent.sendOtp({ patient_id: patient, intervention_codes: [codes.elective.code] });
    const visit = await w.hospital.claims.createVisit({
      patient_id: patient,
      intervention_codes: [codes.elective.code],
      service_type: 'INPATIENT',
      otp: await readOtp(w.raw, { patient_id: patient }),
    });
    expect(authorizeCalls()).toBe(authorizesBefore);
    // The claim's consent_token is the pre-visit authorization's token, so the preauth is found by it.
    expect(visit).toMatchObject({ consentToken: token, workflowState: 'DRAFT', interventions: [codes.elective.code] });
    expect((await w.hospital.preauth.find({ consent_token: visit.consentToken }))[0]?.status).toBe('FINALISED');

    const preview = await bill(w.hospital, visit.consentToken);

    // Step 11, OTP: the discharge OTP (not subject to biometrics), then the discharge.
    await w.hospital.consent.sendDischargeOtp({ consent_token: visit.consentToken, patient_id: patient });
    const dischargeOtp = await readOtp(w.raw, { patient_id: patient }, 'discharge');
    const discharged = await w.hospital.claims.discharge({
      consent_token: visit.consentToken,
      discharge_reason: 'RECOVERED',
      invoice_number: preview.invoiceNumber ?? '',
      discharge_date: now(),
      notes: 'Wound clean, review in two weeks',
      otp: dischargeOtp,
    });
    expect(discharged).toMatchObject({ workflowState: 'SUBMITTED', consentToken: visit.consentToken, invoiceNumber: preview.invoiceNumber });
    expect(await w.hospital.claims.preview({ consent_token: visit.consentToken })).toMatchObject({ workflowState: 'SUBMITTED', claimAuthStatus: 'SUBMITTED_CLAIM', dischargeStatus: 'FULL' });
  });

  it('by fingerprint: pre-visit fingerprint consent, visit refused until FINALISED, visit by auth_guid, discharge by fingerprint', async () => {
    const { patient, eligibility } = await lookUp(w.hospital, NID.covered);
    expect(eligibility.whitelistedForOTP).toBe(false);

    // Step 6, biometric path: PENDING with the sandbox's own authorization page, then the finger.
    const pending = await w.hospital.consent.authorizeBiometric({ patient_id: patient, service_type: 'INPATIENT', interventions: [codes.elective.code], ...BIOMETRIC });
    expect(pending).toMatchObject({ status: 'PENDING', workStationId: BIOMETRIC.work_station_id });
    expect(pending.verificationUrl?.startsWith(`${w.sandbox.url}/ekyc/authorize/`)).toBe(true);
    expect(await presentFinger(w.raw, pending.guid ?? '', patient)).toMatchObject({ matched: true, status: 'AUTHORIZED_PENDING_VISIT' });
    const previsit = await w.hospital.consent.getAuthorization({ guid: pending.guid ?? '' });
    expect(previsit).toMatchObject({ status: 'AUTHORIZED_PENDING_VISIT', token: pending.token, patientId: patient, interventions: [codes.elective.code] });

    // Rule 1: no claim before the preauth is approved.
    const visitInput = { patient_id: patient, intervention_codes: [codes.elective.code], service_type: 'INPATIENT', auth_guid: pending.guid ?? '', ...PRACTITIONER } as const;
    await refusal(w.hospital.claims.createVisit(visitInput), { kind: 'rule_violation', status: 422, code: 'PREAUTH_REQUIRED' });

    const preauth = await createPreauth(w.hospital, pending.token ?? '');
    expect(await pollUntilFinalised(w.hospital, pending.token ?? '', preauth.guid ?? '')).toEqual(['PENDING_DOCTOR_APPROVAL', 'ACTIVE', 'FINALISED']);
    expect((await w.hospital.consent.getAuthorization({ guid: pending.guid ?? '' })).status).toBe('AUTHORIZED');

    // Step 9, biometric path: the pre-visit authorization's guid opens the visit, no new authorize.
    const authorizesBefore = authorizeCalls();
    const visit = await w.hospital.claims.createVisit(visitInput);
    expect(authorizeCalls()).toBe(authorizesBefore);
    expect(visit).toMatchObject({ consentToken: pending.token, authorizationGuid: pending.guid, workflowState: 'DRAFT' });

    const preview = await bill(w.hospital, visit.consentToken);

    // Step 11, biometrics: a discharge authorization, the finger, then the discharge with its guid.
    const discharge = await w.hospital.consent.authorizeDischarge({ patient_id: patient, service_type: 'INPATIENT', interventions: [codes.elective.code], ...BIOMETRIC });
    expect(discharge.status).toBe('PENDING');
    expect(discharge.dischargeAuthGuid).toBe(discharge.guid);
    expect(await presentFinger(w.raw, discharge.dischargeAuthGuid ?? '', patient)).toMatchObject({ status: 'AUTHORIZED' });
    const discharged = await w.hospital.claims.discharge({
      consent_token: visit.consentToken,
      discharge_reason: 'REFERRED',
      invoice_number: preview.invoiceNumber ?? '',
      discharge_date: '2030-01-03T14:30:00+03:00',
      discharge_auth_guid: discharge.dischargeAuthGuid ?? '',
    });
    expect(discharged.dischargedOn).toBe('2030-01-03T14:30:00+03:00');
    expect(discharged).toMatchObject({ workflowState: 'SUBMITTED', consentToken: visit.consentToken });
    expect(await w.hospital.claims.preview({ consent_token: visit.consentToken })).toMatchObject({ workflowState: 'SUBMITTED', dischargeStatus: 'FULL' });
  });
});
