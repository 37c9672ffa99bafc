// The sandbox's answers held to the documented shapes: a recording proxy stands between the client
// and the sandbox while a tour calls every operation of the client; each 2xx answer of an operation
// that has response fixtures (test/fixtures/wire/) must have the fixtures' JSON types and nesting
// for every field it shares with them, and no field that is in neither a fixture nor the entry's
// Read table (docs/exchange-wire.md). The tour is written against the client's public API, so a
// change of a method's input shows here at compile time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations, type ExchangeClient, type ExchangeEvent } from '../../../electron/payer';
import { matchTemplate } from '../../support/wire-check';
import { readWireDoc } from '../../support/wire-doc';
import { fixturesByOperation, loadWireFixtures } from '../../support/wire-fixtures';
import { startWireRecorder, type Recorded, type WireRecorder } from '../../support/wire-recorder';
import { compareShape } from '../../support/wire-shape';
import { BIOMETRIC, DIAGNOSIS, DISPENSARY, EMERGENCY_DOCTOR, HOSPITAL, NID, PRACTITIONER, PREAUTH_DOCTOR, patientId, presentFinger, readOtp, useWorld, type Catalogue, type World } from './harness';

const { w, codes } = useWorld();

const pdf = { file_name: 'lab.pdf', content_type: 'application/pdf', data: new TextEncoder().encode('%PDF-1.4\n% lab result\n') };
const today = () => new Date().toISOString().slice(0, 10);
const now = () => new Date().toISOString();
/** The attending doctor as the claim's doctor calls name them. */
const DOCTOR = { identification_number: PRACTITIONER.practitioner_identification_number, identification_type: 'registration_number', regulation_body: 'KMPDC' } as const;

interface Tour {
  readonly hospital: ExchangeClient;
  readonly dispensary: ExchangeClient;
  readonly w: World;
  readonly codes: Catalogue;
}

/** One step of the tour: what it calls is its business; a step that throws is reported by name. */
type Step = readonly [name: string, run: (t: Tour) => Promise<void>];

/** Flow B by OTP at the dispensary: the look-up, the visit with the code, billing, and the submit. */
const outpatientByOtp: Step = [
  'flow B by SMS code, billing and submit',
  async ({ dispensary: c, w, codes }) => {
    const id = { identification_number: NID.covered, identification_type: 'National ID' } as const;
    const patient = (await c.registry.findPatient(id)).id;
    await c.eligibility.check(id);
    const subBenefits = await c.eligibility.subBenefits({ patient_id: patient });
    const home = subBenefits.items.find((s) => s.allowedInterventions.includes(codes.capitation.code));
    await c.eligibility.interventions({ patient_id: patient, sub_benefit_code: home?.code ?? '' });
    await c.eligibility.utilization({ patient_id: patient, intervention_code: codes.capitation.code });
    const [contact] = await c.consent.contacts({ patient_id: patient });
    await c.consent.sendOtp({ patient_id: patient, intervention_codes: [codes.capitation.code], beneficiary_contact_id: contact?.id });
    const visit = await c.claims.createVisit({ patient_id: patient, intervention_codes: [codes.capitation.code], service_type: 'CAPITATION', otp: await readOtp(w.raw, { patient_id: patient }) });
    const token = visit.consentToken;
    await c.claims.addDoctor({ consent_token: token, ...DOCTOR });
    await c.claims.addLine({ consent_token: token, intervention_code: codes.capitation.code, unit_price: 0, quantity: 1, service_name: 'Consultation' });
    await c.claims.addDiagnosis({ consent_token: token, icd_code: DIAGNOSIS[0].code, intervention_code: codes.capitation.code });
    await c.claims.addBilling({
      consent_token: token,
      intervention_code: codes.capitation.code,
      unit_price: 0,
      quantity: 1,
      diagnoses: ['CA40'],
      attachments: [{ document_title: 'Chest X-ray report', document_type: 'LAB_RESULTS', file: pdf }],
    });
    const attachment = await c.claims.uploadAttachment({ consent_token: token, intervention_code: codes.capitation.code, document_type: 'LAB_RESULTS', file_blob: pdf });
    const preview = await c.claims.preview({ consent_token: token });
    const [first, second] = preview.lines;
    if (first === undefined || second === undefined) throw new Error(`the preview has ${preview.lines.length} lines, two were billed`);
    await c.claims.editLine({ line_id: first.id, quantity: 2 });
    await c.claims.removeLine({ consent_token: token, line_guid: second.id });
    await c.claims.removeDiagnosis({ consent_token: token, icd_code: 'CA40', intervention_code: codes.capitation.code });
    await c.claims.removeAttachment({ consent_token: token, attachment_id: attachment.id, intervention_code: codes.capitation.code });
    await c.claims.removeDoctor({ consent_token: token });
    await c.claims.addDoctor({ consent_token: token, ...DOCTOR });
    await c.consent.sendDischargeOtp({ consent_token: token, patient_id: patient });
    const otp = await readOtp(w.raw, { patient_id: patient }, 'discharge');
    await c.claims.submit({ consent_token: token, invoice_number: preview.invoiceNumber ?? '', discharge_reason: 'RECOVERED', otp });
    await c.claims.payerPreview({ provider_claim_no: preview.invoiceNumber ?? '' });
  },
];

/** Flow B by fingerprint at the hospital, with a rejected authorization and the visit-end fingerprint. */
const outpatientByFingerprint: Step = [
  'flow B by fingerprint, a rejected authorization, prescriptions and the visit end',
  async ({ hospital: c, w, codes }) => {
    const patient = await patientId(c, NID.covered);
    const authorize = { patient_id: patient, service_type: 'CAPITATION', interventions: [codes.capitation.code], ...BIOMETRIC } as const;
    const stale = await c.consent.authorizeBiometric(authorize);
    await c.consent.rejectAuthorization({ token: stale.token ?? '' });
    const pending = await c.consent.authorizeBiometric(authorize);
    await presentFinger(w.raw, pending.guid ?? '', patient);
    await c.consent.getAuthorization({ token: pending.token ?? '', guid: pending.guid ?? '' });
    await c.consent.listFacilityAuthorizations({});
    const visit = await c.claims.createVisit({ patient_id: patient, intervention_codes: [codes.capitation.code], service_type: 'CAPITATION', auth_guid: pending.guid ?? '', ...PRACTITIONER });
    const token = visit.consentToken;
    await c.claims.addBilling({ consent_token: token, intervention_code: codes.capitation.code, unit_price: 0, quantity: 1, diagnoses: [DIAGNOSIS[0].code] });
    await c.prescriptions.create({
      consent_token: token,
      intervention_code: codes.capitation.code,
      items: [{ generic_concept_code: 'RXN-723', dose_quantity: 500, dose_unit: 'mg', frequency: 3, period_unit: 'day', duration: 5, duration_unit: 'days', start_date: today() }],
      ...DOCTOR,
    });
    const dispense = {
      actual_products: [{ actual_product_code: 'AMOX-500-CAP', medication_price: 12.5, total_quantity: 15 }],
      consent_token: token,
      doctors: [{ identification_number: '22334455', identification_type: 'National ID' }],
      intervention_code: codes.capitation.code,
    } as const;
    await c.prescriptions.preview({ consent_token: token });
    await c.prescriptions.dispense(dispense);
    await c.prescriptions.dispenseAtDocumentedPath(dispense);
    await c.prescriptions.removeDoctor({ consent_token: token, intervention_code: codes.capitation.code, practitioner_registration_number: DOCTOR.identification_number });
    await c.shr.observations({ subject: patient, consent_token: token, puid: `PUID-${DOCTOR.identification_number}` });
    const discharge = await c.consent.authorizeDischarge(authorize);
    await presentFinger(w.raw, discharge.dischargeAuthGuid ?? '', patient);
    const preview = await c.claims.preview({ consent_token: token });
    await c.claims.submit({ consent_token: token, invoice_number: preview.invoiceNumber ?? '', discharge_reason: 'RECOVERED', discharge_auth_guid: discharge.dischargeAuthGuid ?? '' });
    // Resubmission follows the payer's hold on a submitted claim (the payer's side, by the control API).
    for (const to of ['DISPATCHED', 'SUBMITTED_PAYER', 'ON_HOLD']) await w.raw.control('POST', `/sandbox/claims/${encodeURIComponent(token)}/workflow-state`, { to });
    await c.claims.resubmit({ consent_token: token });
    // The documented forms disagree on the route (docs/exchange-wire.md): the sandbox serves all three.
    await c.claims.resubmitAtPostmanPath({ consent_token: token });
    for (const to of ['DISPATCHED', 'SUBMITTED_PAYER', 'ON_HOLD']) await w.raw.control('POST', `/sandbox/claims/${encodeURIComponent(token)}/workflow-state`, { to });
    await c.claims.resubmitBySubmit({ consent_token: token });
  },
];

/** Flow A phase one by OTP (whitelisted member), the preauth and its changes, then its cancellation. */
const electivePreauth: Step = [
  'flow A phase one by SMS code: preauth created, found, changed, cancelled',
  async ({ hospital: c, w, codes }) => {
    const patient = await patientId(c, NID.whitelisted);
    const intervention = codes.elective.code;
    await c.consent.sendOtp({ patient_id: patient, intervention_codes: [intervention] });
    const previsit = await c.consent.authorizeOtp({ patient_id: patient, otp: await readOtp(w.raw, { patient_id: patient }), interventions: [intervention], service_type: 'INPATIENT' });
    const token = previsit.token ?? '';
    await c.preauth.create({
      consent_token: token,
      intervention_code: intervention,
      service_start: '2030-01-15T08:00:00+03:00',
      service_end: '2030-01-17T12:00:00+03:00',
      items: [{ unit_price: 80_000 }],
      doctors: [{ ...PREAUTH_DOCTOR, is_primary: true }],
      diagnoses: [{ icd_code: 'DD51' }, { icd_code: 'CA00' }],
      attachments: [{ document_title: 'Theatre notes', document_type: 'CLINICAL_NOTES', file: pdf }],
      provider_notification_email: 'claims@hospital.example',
      chief_complaint: 'Reducible right inguinal swelling',
    });
    await c.preauth.find({ consent_token: token });
    await c.consent.resendDoctorConsent({ consent_token: token, intervention_code: intervention, practitioner_registration_number: PREAUTH_DOCTOR.identification_number, ...PREAUTH_DOCTOR });
    await c.preauth.removeDiagnosis({ consent_token: token, icd_code: 'CA00', intervention_code: intervention });
    await c.shr.serviceRequests({ performer_organization: HOSPITAL.code, count: 10 });
    await c.preauth.removeDoctor({ consent_token: token, intervention_code: intervention, practitioner_registration_number: PREAUTH_DOCTOR.identification_number });
    await c.preauth.cancel({ consent_token: token, intervention_code: intervention });
  },
];

/** An inpatient per-diem stay: a second service added, retired and restored, a partial discharge, an intervention switch, and the claim closed. */
const inpatientStay: Step = [
  'an inpatient stay: a service added, retired and restored, partial discharge, intervention switch, close',
  async ({ hospital: c, w, codes }) => {
    const patient = await patientId(c, NID.covered);
    const a = await c.consent.authorizeBiometric({ patient_id: patient, service_type: 'INPATIENT', interventions: [codes.perDiem.code], ...BIOMETRIC });
    await presentFinger(w.raw, a.guid ?? '', patient);
    const visit = await c.claims.createVisit({ patient_id: patient, intervention_codes: [codes.perDiem.code], service_type: 'INPATIENT', auth_guid: a.guid ?? '', ...PRACTITIONER });
    const token = visit.consentToken;
    await c.lookups.bedOccupancy({ facility_code: HOSPITAL.code });
    await c.claims.addIntervention({ consent_token: token, intervention_code: codes.elective.code });
    await c.claims.retireIntervention({ consent_token: token, intervention_code: codes.elective.code });
    await c.claims.restoreIntervention({ consent_token: token, intervention_code: codes.elective.code });
    const preview = await c.claims.preview({ consent_token: token });
    await c.consent.sendDischargeOtp({ consent_token: token, patient_id: patient });
    const otp = await readOtp(w.raw, { patient_id: patient }, 'discharge');
    await c.claims.discharge({ consent_token: token, discharge_reason: 'RECOVERED', invoice_number: preview.invoiceNumber ?? '', otp, discharge_status: 'PARTIAL', discharge_date: now() });
    await c.claims.switchIntervention({
      consent_token: token,
      existing_intervention_code: codes.perDiem.code,
      new_intervention_code: codes.perDiem.code,
      retain_bill_items: true,
      bill_from: today(),
      bill_to: today(),
    });
    await c.claims.close({ consent_token: token, cancel_reason_type: 'WRONG_PATIENT', cancel_reason_text: 'opened for the wrong patient' });
  },
];

/** Flow C as the live exchange runs it: the claim first, a protocol, the doctor asked, identified later, submitted. */
const emergency: Step = [
  'flow C: emergency claim, protocol, doctor approval, identified, submitted',
  async ({ hospital: c, w, codes }) => {
    const intervention = codes.emergency.code;
    const payload = {
      interventions: [intervention],
      mode_of_arrival: 'AMBULANCE',
      brought_by: 'PARAMEDICS',
      reference_number: 'AMB-2231',
      notes: 'Road traffic accident',
      ...EMERGENCY_DOCTOR,
    } as const;
    const claim = await c.emergency.createClaim(payload);
    const protocols = await c.emergency.protocols({ intervention_code: intervention, active: true });
    const protocol = protocols.items[0];
    if (protocol === undefined) throw new Error(`no protocol of ${intervention}`);
    await c.emergency.addProtocol({
      consent_token: claim.consentToken,
      protocol_code: protocol.protocolCode,
      intervention_code: intervention,
      unit_price: protocol.applicableTariff ?? 0,
      quantity: 1,
      diagnoses: ['NA00'],
    });
    await c.emergency.requestDoctorApproval({ consent_token: claim.consentToken, intervention_code: intervention, emergency_claim_id: claim.claimId, ...EMERGENCY_DOCTOR });
    const patient = await patientId(c, NID.covered);
    await c.consent.sendOtp({ patient_id: patient, intervention_codes: [intervention] });
    await c.emergency.identifyClaim({ ...payload, beneficiary_cr_id: patient, otp: await readOtp(w.raw, { patient_id: patient }), consent_token: claim.consentToken });
    const preview = await c.claims.preview({ consent_token: claim.consentToken });
    await c.claims.submitEmergency({ consent_token: claim.consentToken, invoice_number: preview.invoiceNumber ?? '', discharge_reason: 'RECOVERED' });
  },
];

/** Covers, balances, tariffs, the OTP whitelist, look-ups, the record's labels and callbacks. */
const theRest: Step = [
  'covers, balances, the OTP whitelist, look-ups and callbacks',
  async ({ hospital: c, codes }) => {
    const twoSchemes = await patientId(c, NID.twoSchemes);
    const eligibility = await c.eligibility.check({ identification_number: NID.twoSchemes, identification_type: 'National ID' });
    const chosen = eligibility.schemes.find((s) => s.covered);
    const consent = await c.consent.authorizeBiometric({ patient_id: twoSchemes, service_type: 'CAPITATION', interventions: [codes.capitation.code], ...BIOMETRIC });
    await c.eligibility.setCover({ consent_token: consent.token ?? '', principal_cr_id: chosen?.principalCrNumber ?? '', policy_number: chosen?.policyNumber ?? '' });
    await c.eligibility.pomsfBalance({ patient_id: twoSchemes, policy_year: '2025' });
    const patient = await patientId(c, NID.covered);
    await c.eligibility.resolvePmfTariffs({
      fr_code: HOSPITAL.code,
      intervention_codes: [codes.capitation.code],
      hcw_identifier_type: 'registration_number',
      hcw_identifier: DOCTOR.identification_number,
      hcw_regulator: 'KMPDC',
    });
    const whitelist = await c.consent.requestOtpWhitelist({
      beneficiary_cr_id: patient,
      reason_type: 'OTHER',
      reason: 'Burns to both hands',
      biometric_attempts: 3,
      facility_fr_code: HOSPITAL.code,
      attachment: { document_title: 'Clinician note', file: pdf },
    });
    await c.consent.otpWhitelistStatus({ beneficiary_cr_id: patient, guid: whitelist.guid, facility_fr_code: HOSPITAL.code });
    await c.lookups.searchFacilities({ identifier: HOSPITAL.code, identifier_type: 'fr-code' });
    await c.lookups.searchProfessionals({ identification_number: DOCTOR.identification_number, identification_type: 'registration_number', regulator: 'kmpdc' });
    await c.lookups.searchConcepts({ search: 'malaria', limit: 5 });
    await c.shr.securityLabels({});
    const endpoint = await c.callbacks.createEndpoint({ tenant: HOSPITAL.code, name: 'ward station', base_url: 'https://hooks.example.org/idhini', entity_type: 'claim', environment: 'sandbox' });
    await c.callbacks.listEndpoints({ tenant: HOSPITAL.code });
    await c.callbacks.updateEndpoint({ endpoint_id: endpoint.id, name: 'ward station 2' });
    await c.callbacks.createOperation({ tenant: HOSPITAL.code, endpoint_id: endpoint.id, name: 'claims', path: '/claims' });
    await c.callbacks.deleteEndpoint({ endpoint_id: endpoint.id });
  },
];

const tour: readonly Step[] = [outpatientByOtp, outpatientByFingerprint, electivePreauth, inpatientStay, emergency, theRest];

/** One recorded exchange and the client operation it was, by the client's own telemetry. */
interface Called {
  readonly operation: string;
  readonly record: Recorded;
}

const { fixtures } = loadWireFixtures(operations);
const byOperation = fixturesByOperation(fixtures);
const doc = readWireDoc();

let recorder: WireRecorder;
const called: Called[] = [];
const failedSteps: string[] = [];

beforeAll(async () => {
  recorder = await startWireRecorder({ target: w.sandbox.url });
  const events: ExchangeEvent[] = [];
  const onEvent = (e: ExchangeEvent) => events.push(e);
  const t: Tour = {
    hospital: w.client(HOSPITAL, { baseUrl: recorder.url, onEvent }),
    dispensary: w.client(DISPENSARY, { baseUrl: recorder.url, onEvent }),
    w,
    codes,
  };
  for (const [name, run] of tour) {
    try {
      await run(t);
    } catch (error) {
      failedSteps.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  // The tour waits for each call: every attempt the client reports is the next request recorded.
  recorder.records.forEach((record, i) => {
    const event = events[i];
    if (event === undefined || event.method !== record.method || matchTemplate(event.path, record.path) === null) {
      throw new Error(`request #${record.seq} ${record.method} ${record.path} does not pair with the client's event ${event ? `${event.method} ${event.path}` : '(none)'}`);
    }
    called.push({ operation: event.operation, record });
  });
}, 120_000);

afterAll(async () => {
  await recorder?.close();
});

describe('the sandbox tour', () => {
  it('runs every step against the sandbox through the recording proxy', () => {
    expect(failedSteps).toEqual([]);
  });

  it('calls every operation of the client, answered 2xx', () => {
    const answered = new Set(called.filter((c) => (c.record.answer?.status ?? 0) < 300).map((c) => c.operation));
    expect(operations.map((op) => op.name).filter((name) => !answered.has(name))).toEqual([]);
  });
});

describe.each([...byOperation].map(([operation, own]) => [operation, own] as const))('the sandbox’s answers of %s', (operation, own) => {
  it('have the fixtures’ JSON types and nesting, and no field in neither a fixture nor the Read table', () => {
    const answers = called.filter((c) => c.operation === operation && c.record.answer !== undefined && c.record.answer.status < 300);
    expect(answers.length, `the tour never had ${operation} answered 2xx: add it to the tour`).toBeGreaterThan(0);
    const rows = doc.byName.get(operation)?.read ?? [];
    const problems = answers.flatMap(({ record }) => {
      const answer = record.answer!;
      const body = answer.json ?? (answer.text === '' ? null : answer.text);
      return compareShape(body, own.map((f) => f.body), rows).map((p) => `#${record.seq} ${record.method} ${record.path}: ${p.message}`);
    });
    expect(problems).toEqual([]);
  });
});
