// The production peers' documented request shapes, driven against the running sandbox over HTTP:
// each is accepted, or refused with the refusal the live service is documented to give. The shapes
// are written here from reading the peers' request builders and services (their code is not copied
// or run); each names the source file it follows:
// - R: kahdichienja/rocket, the sha_claim SDK written against UAT (src/sha_claim/…);
// - A: AMPATH/amrs-integrations, packages/hie-saf/src (NestJS middleware in production);
// - K: Omoshlawi/kenyaemr-esm-3.x, packages/esm-billing-app/src (its field names are the exchange's;
//   its transport is its own OpenMRS backend, whose own fields — visit_uuid, patient_uuid — are left out).
// Issue 25: the shapes where the sandbox, not the peer, was the less faithful side failed here
// before it (token 200, authorize-then-code, sub-benefits in one answer, A's resubmission and
// unidentified emergency submit, A's empty contact id, R's own invoice number and dispenser), and
// the interventions' add, retire and restore, which had no route before the ward's-day work (7f1c5a2).
import { describe, expect, it } from 'vitest';
import { Client, HOSPITAL, NID, crId, expectError, findInterventions, lastOtp, useHarness, type Reply } from './harness';

const h = useHarness();

/** The exchange's claims as the sandbox holds them: to move a claim on the payer's side (control API). */
const payerMoves = async (token: string, ...states: string[]) => {
  for (const to of states) expect((await h.control.post(`/sandbox/claims/${encodeURIComponent(token)}/workflow-state`, { to })).status).toBe(200);
};
/** Accepted: a 2xx (the message names the shape and what the sandbox said otherwise). */
const ok = (r: Reply, what: string) => expect(r.status >= 200 && r.status < 300, `${what}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`).toBe(true);
const refusedNaming = (r: Reply, status: number, field: string) => {
  expect(r.status).toBe(status);
  expect((r.body.details as { field: string }[]).map((d) => d.field)).toContain(field);
};
const preview = async (client: Client, token: string) => (await client.post('/api/v1/claims/preview', { consent_token: token })).body;
/** The claim's interventions and their states, as the preview answers them. */
const interventionStates = async (token: string) =>
  Object.fromEntries(((await preview(h.hospital, token)).interventions as { intervention_code: string; workflow_state: string }[]).map((i) => [i.intervention_code, i.workflow_state]));

/**
 * A second service on an open inpatient claim, taken out and brought back: the three calls R and A
 * build alike, `{consent_token, intervention_code}` to /claims/interventions, …/retire, …/restore.
 */
async function addRetireRestore(post: (path: string, body: unknown) => Promise<Reply>, names: [add: string, retire: string, restore: string]) {
  const patient = await crId(h.hospital, NID.whitelisted);
  const { perDiem, elective } = await findInterventions(h.hospital, patient);
  await h.hospital.post('/api/v1/claims/otp', { patient_id: patient, intervention_codes: [perDiem] });
  const visit = await h.hospital.post('/api/v1/claims/visit', { patient_id: patient, service_type: 'INPATIENT', intervention_codes: [perDiem], otp: await lastOtp(h.control, { patient_id: patient }) });
  ok(visit, 'open_visit');
  const token = visit.body.authorization_code as string;
  const body = { consent_token: token, intervention_code: elective };
  ok(await post('/api/v1/claims/interventions', body), names[0]);
  expect(await interventionStates(token)).toEqual({ [perDiem]: 'ACTIVE', [elective]: 'ACTIVE' });
  ok(await post('/api/v1/claims/interventions/retire', body), names[1]);
  expect(await interventionStates(token)).toEqual({ [perDiem]: 'ACTIVE', [elective]: 'INACTIVE' });
  ok(await post('/api/v1/claims/interventions/restore', body), names[2]);
  expect(await interventionStates(token)).toEqual({ [perDiem]: 'ACTIVE', [elective]: 'ACTIVE' });
}

describe('R — the sha_claim SDK (kahdichienja/rocket)', () => {
  it('token, src/sha_claim/infrastructure/auth.py `_fetch`: form-encoded client_id and client_secret, answered 200, the only status it takes', async () => {
    const r = await new Client(h.url).call('POST', '/api/v1/tenants/token', { form: { client_id: HOSPITAL.clientId, client_secret: HOSPITAL.secret } });
    expect(r.status).toBe(200);
    expect(typeof r.body.access_token).toBe('string');
    expect(r.body.expires_in).toBeGreaterThan(0);
  });

  it('eligibility_check, find_patient, sub_benefits and interventions, src/sha_claim/adapters/wire/requests.py', async () => {
    const byId = { identification_number: NID.covered, identification_type: 'National ID' };
    ok(await h.hospital.get('/api/v1/patients/eligibility', byId), 'eligibility_check');
    const patient = await h.hospital.get('/api/v1/patients', byId);
    ok(patient, 'find_patient');
    const subBenefits = await h.hospital.get('/api/v1/patients/sub-benefits', { patient_id: patient.body.id });
    ok(subBenefits, 'sub_benefits');
    const code = (subBenefits.body.results as { code: string }[])[0]?.code ?? '';
    ok(await h.hospital.get('/api/v1/patients/benefits/interventions', { patient_id: patient.body.id, sub_benefit_code: code }), 'interventions');
  });

  it('authorize() with neither otp nor biometrics, requests.py (CHANGELOG 0.1.2 "two-step OTP consent (authorize sends the OTP)"): PENDING, the code texted, and open_visit(Otp) with it opens the visit', async () => {
    const patient = await crId(h.hospital, NID.whitelisted);
    const { capitation } = await findInterventions(h.hospital, patient);
    const pending = await h.hospital.post('/api/v1/claims/authorize', { patient_id: patient, service_type: 'CAPITATION', interventions: [capitation] });
    ok(pending, 'authorize');
    expect(pending.body.status).toBe('PENDING');
    const code = await lastOtp(h.control, { patient_id: patient });
    // open_visit(patient, service_type, codes, Otp(code)), requests.py.
    const visit = await h.hospital.post('/api/v1/claims/visit', { patient_id: patient, service_type: 'CAPITATION', intervention_codes: [capitation], otp: code });
    ok(visit, 'open_visit');
    expect(visit.body).toMatchObject({ workflow_state: 'DRAFT', authorization_code: pending.body.token });
  });

  it('the visit to its submit, requests.py: send_visit_otp, open_visit, add_diagnosis, add_line (multipart, its attachment_{n} parts), add_emergency_doctor, preview, send_discharge_otp, submit with the facility’s own invoice number (domain/identifiers.py `InvoiceNumber`: "Provider\'s own invoice number")', async () => {
    const patient = await crId(h.hospital, NID.whitelisted);
    const { capitation } = await findInterventions(h.hospital, patient);
    ok(await h.hospital.post('/api/v1/claims/otp', { patient_id: patient, intervention_codes: [capitation] }), 'send_visit_otp');
    const visit = await h.hospital.post('/api/v1/claims/visit', { patient_id: patient, service_type: 'CAPITATION', intervention_codes: [capitation], otp: await lastOtp(h.control, { patient_id: patient }) });
    ok(visit, 'open_visit');
    const token = visit.body.authorization_code as string;
    ok(await h.hospital.post('/api/v1/claims/diagnoses', { consent_token: token, icd_code: 'CA40.0', intervention_code: capitation }), 'add_diagnosis');
    const line = new FormData();
    const fields = { consent_token: token, intervention_code: capitation, unit_price: '500.00', quantity: '1', diagnoses: JSON.stringify(['CA40.0']) };
    for (const [name, value] of Object.entries(fields)) line.set(name, value);
    line.set('attachments', JSON.stringify([{ document_title: 'Invoice', document_type: 'INVOICE', file_field_name: 'attachment_0' }]));
    line.set('attachment_0', new Blob([Buffer.from('%PDF-1.4\n%%EOF\n')], { type: 'application/pdf' }), 'invoice.pdf');
    ok(await h.hospital.call('POST', '/api/v1/claims/lines', { multipart: line }), 'add_line');
    ok(await h.hospital.post('/api/v1/claims/doctors', { consent_token: token, identification_number: 'A12345', identification_type: 'registration_number', regulation_body: 'KMPDC' }), 'add_emergency_doctor');
    ok(await h.hospital.post('/api/v1/claims/preview', { consent_token: token }), 'preview');
    ok(await h.hospital.post('/api/v1/claims/otp/discharge', { consent_token: token, patient_id: patient }), 'send_discharge_otp');
    const discharge = await lastOtp(h.control, { patient_id: patient });
    // submit(token, Submission): discharge_reason from domain/enums.py DischargeReason, which also holds DECEASED.
    const deceased = await h.hospital.post('/api/v1/claims/submit', { consent_token: token, invoice_number: 'OPD/2026/000731', discharge_reason: 'DECEASED', otp: discharge });
    // Refused as the contract documents (service-interface.md, Errors: "DECEASED given as discharge_reason on submit: not valid").
    refusedNaming(deceased, 400, 'discharge_reason');
    const submitted = await h.hospital.post('/api/v1/claims/submit', { consent_token: token, invoice_number: 'OPD/2026/000731', discharge_reason: 'RECOVERED', otp: discharge });
    ok(submitted, 'submit');
    expect(submitted.body.workflow_state).toBe('SUBMITTED');
  });

  it('add_intervention, retire_intervention and restore_intervention, requests.py: a second service on an open claim, taken out and brought back', async () => {
    await addRetireRestore((path, body) => h.hospital.post(path, body), ['add_intervention', 'retire_intervention', 'restore_intervention']);
  });

  it('resubmit_lines, requests.py: POST /claims/lines/resubmit {consent_token} on a claim the payer holds', async () => {
    const token = await submittedClaim();
    await payerMoves(token, 'DISPATCHED', 'SUBMITTED_PAYER', 'ON_HOLD');
    ok(await h.hospital.post('/api/v1/claims/lines/resubmit', { consent_token: token }), 'resubmit_lines');
    expect((await preview(h.hospital, token)).workflow_state).toBe('DRAFT_RESUBMIT');
  });

  it('discharge(), requests.py, with DischargeReason.DECEASED (domain/enums.py): a death on the ward, taken by the inpatient discharge (R docs/api/eclaims--claim-dispatch.md lists it there)', async () => {
    const patient = await crId(h.hospital, NID.whitelisted);
    const { perDiem } = await findInterventions(h.hospital, patient);
    ok(await h.hospital.post('/api/v1/claims/otp', { patient_id: patient, intervention_codes: [perDiem] }), 'send_visit_otp');
    const visit = await h.hospital.post('/api/v1/claims/visit', { patient_id: patient, service_type: 'INPATIENT', intervention_codes: [perDiem], otp: await lastOtp(h.control, { patient_id: patient }) });
    ok(visit, 'open_visit');
    const token = visit.body.authorization_code as string;
    ok(await h.hospital.post('/api/v1/claims/doctors', { consent_token: token, identification_number: 'A12345', identification_type: 'registration_number', regulation_body: 'KMPDC' }), 'add_emergency_doctor');
    ok(await h.hospital.post('/api/v1/claims/otp/discharge', { consent_token: token, patient_id: patient }), 'send_discharge_otp');
    const discharged = await h.hospital.post('/api/v1/claims/discharge', {
      consent_token: token,
      discharge_date: '2030-01-03T14:30:00+03:00',
      discharge_reason: 'DECEASED',
      invoice_number: visit.body.invoice_number,
      otp: await lastOtp(h.control, { patient_id: patient }),
    });
    ok(discharged, 'discharge');
    expect(discharged.body).toMatchObject({ workflow_state: 'SUBMITTED', discharge_reason: 'DECEASED' });
  });

  it('create_prescription, then create_dispense naming a dispenser known by registration number as a National ID, requests.py `_dispenser_id_type` (its UAT note, CHANGELOG 0.1.14)', async () => {
    const patient = await crId(h.hospital, NID.whitelisted);
    const { capitation } = await findInterventions(h.hospital, patient);
    await h.hospital.post('/api/v1/claims/otp', { patient_id: patient, intervention_codes: [capitation] });
    const visit = await h.hospital.post('/api/v1/claims/visit', { patient_id: patient, service_type: 'CAPITATION', intervention_codes: [capitation], otp: await lastOtp(h.control, { patient_id: patient }) });
    const token = visit.body.authorization_code as string;
    const medication = {
      generic_concept_code: 'GE10002',
      dose_quantity: 1,
      dose_unit: 'tablet',
      frequency: 2,
      period_unit: 'day',
      duration: 5,
      duration_unit: 'days',
      start_date: '2030-01-03',
      needs_refill: false,
      refill_count: 0,
    };
    ok(
      await h.hospital.post('/api/v1/prescriptions', { consent_token: token, intervention_code: capitation, items: [medication], identification_number: 'A12345', identification_type: 'registration_number', regulation_body: 'KMPDC' }),
      'create_prescription',
    );
    const dispense = await h.hospital.post('/api/v1/prescriptions/dispense', {
      consent_token: token,
      intervention_code: capitation,
      actual_products: [{ actual_product_code: 'GE10002', total_quantity: 10, medication_price: 4.5 }],
      doctors: [{ identification_number: 'A12345', identification_type: 'National ID' }],
    });
    ok(dispense, 'create_dispense');
  });

  it('open_emergency_case, requests.py: notes sent, as UAT requires them (WORKFLOWS §9.7)', async () => {
    const { emergency } = await findInterventions(h.hospital, await crId(h.hospital, NID.covered));
    const r = await h.hospital.post('/api/v1/claims/emergency', {
      identification_number: 'A34567',
      identification_type: 'registration_number',
      regulation_body: 'KMPDC',
      reference_number: 'AMB-2030-0007',
      brought_by: 'PARAMEDICS',
      mode_of_arrival: 'AMBULANCE',
      interventions: [emergency],
      notes: 'road traffic accident, unconscious',
    });
    ok(r, 'open_emergency_case');
    expect(typeof r.body.authorization_code).toBe('string');
  });

  it('add_next_of_kin and upload, requests.py: no such route, as the contract retires them (service-interface.md, Versioning "Changes recorded")', async () => {
    const token = await submittedClaim();
    const kin = await h.hospital.post('/api/v1/patients/next-of-kin/contacts', {
      consent_token: token,
      next_of_kin_full_name: 'Jane Wanjiru',
      next_of_kin_id_number: '12345678',
      next_of_kin_id_number_type: 'National ID',
      contact_value: '+254700000001',
    });
    expectError(kin, 404, 'NOT_FOUND');
    const file = new FormData();
    file.set('file', new Blob([Buffer.from('%PDF-1.4\n%%EOF\n')], { type: 'application/pdf' }), 'scan.pdf');
    expectError(await h.hospital.call('POST', '/api/v1/uploads', { multipart: file }), 404, 'NOT_FOUND');
    expectError(await h.hospital.get('/api/v1/uploads/F-1'), 404, 'NOT_FOUND');
  });
});

describe('A — AMPATH hie-saf services (AMPATH/amrs-integrations)', () => {
  /** Every call A makes carries the facility (hie-http-request/hie-http-requests.ts `getHeaders`). */
  const facility = { headers: { 'x-facility-id': HOSPITAL.code, 'x-facility-id-type': 'fr-code' } };
  const post = (path: string, body: unknown) => h.hospital.post(path, body, facility);

  it('token, auth/hie-auth/hie-auth.service.ts `fetchToken`: form-encoded with grant_type', async () => {
    const r = await new Client(h.url).call('POST', '/api/v1/tenants/token', { form: { client_id: HOSPITAL.clientId, client_secret: HOSPITAL.secret, grant_type: 'client_credentials' } });
    ok(r, 'fetchToken');
    expect(typeof r.body.access_token).toBe('string');
  });

  it('sub-benefits, claims/claims-eligibility/sub-benefits/sub-benefits.service.ts: the first answer’s results, read alone, hold every sub-benefit', async () => {
    const patient = await crId(h.hospital, NID.covered);
    const r = await h.hospital.get('/api/v1/patients/sub-benefits', { patient_id: patient }, facility);
    ok(r, 'fetchPatientSubBenefits');
    expect(r.body.count).toBe(30);
    expect(r.body.results).toHaveLength(r.body.count);
  });

  it('OTP and visit, claims/claims-eligibility/otp/claims-otp.service.ts (beneficiary_contact_id "" when it has none) and visit/visit.service.ts `createClaimsVisit`', async () => {
    const patient = await crId(h.hospital, NID.whitelisted);
    const { capitation } = await findInterventions(h.hospital, patient);
    ok(await post('/api/v1/claims/otp', { intervention_codes: [capitation], patient_id: patient, beneficiary_contact_id: '' }), 'fetchOtp');
    const visit = await post('/api/v1/claims/visit', { intervention_codes: [capitation], patient_id: patient, service_type: 'CAPITATION', otp: await lastOtp(h.control, { patient_id: patient }) });
    ok(visit, 'createClaimsVisit');
  });

  it('interventions on an open claim, claims/claims-eligibility/interventions/interventions.service.ts (types/index.ts `AddInterventionDto`, `RetireInterventionDto`, `RestoreInterventionDto`)', async () => {
    await addRetireRestore(post, ['addInterventions', 'retireInterventions', 'restoreInterventions']);
  });

  it('resubmission, claims/claims-eligibility/claim-resubmission/claim-resubmission.service.ts: {consent_token} posted to /claims/submit on a returned claim', async () => {
    const token = await submittedClaim();
    await payerMoves(token, 'DISPATCHED', 'SUBMITTED_PAYER', 'AUTOMATIC_CHECKS_DONE');
    ok(await post('/api/v1/claims/submit', { consent_token: token }), 'resubmitClaim (reopened)');
    expect((await preview(h.hospital, token)).workflow_state).toBe('DRAFT_RESUBMIT');
    ok(await post('/api/v1/claims/submit', { consent_token: token }), 'resubmitClaim (sent back)');
    expect((await preview(h.hospital, token)).workflow_state).toBe('SUBMITTED');
  });

  it('unidentified emergency, claims/claims-eligibility/emergency/emergency-claim.service.ts: create (types `CreateEmergencyUnidentifiedClaimDto`, notes optional there), then submit as `SubmitUnIdentifiedClaimDto`, without discharge_reason', async () => {
    const { emergency } = await findInterventions(h.hospital, await crId(h.hospital, NID.covered));
    const create = {
      interventions: [emergency],
      mode_of_arrival: 'WALK-IN',
      brought_by: 'UNKNOWN',
      reference_number: 'CAS-2030-0042',
      identification_number: 'A34567',
      identification_type: 'registration_number',
      regulation_body: 'KMPDC',
    };
    // Without notes: refused as UAT refuses it (R docs/api/WORKFLOWS.md §9.7, {"notes": ["This field may not be blank."]}).
    refusedNaming(await post('/api/v1/claims/emergency', create), 400, 'notes');
    const created = await post('/api/v1/claims/emergency', { ...create, notes: 'brought in collapsed, no documents' });
    ok(created, 'createEmergencyUnidentifiedClaim');
    const submitted = await post('/api/v1/claims/submit', { consent_token: created.body.authorization_code, invoice_number: created.body.invoice_number, reason_for_unknown_patient: 'SHA_UNREGISTERED' });
    ok(submitted, 'submitEmergencyUnIdentifiedClaim');
    expect(submitted.body.workflow_state).toBe('SUBMITTED');
  });

  it('claim submission, claims/claims-eligibility/claim-submission/types/index.ts `SubmitClaimDto` {consent_token, invoice_number, otp, discharge_reason, notes}', async () => {
    const patient = await crId(h.hospital, NID.whitelisted);
    const { capitation } = await findInterventions(h.hospital, patient);
    await post('/api/v1/claims/otp', { intervention_codes: [capitation], patient_id: patient, beneficiary_contact_id: '' });
    const visit = await post('/api/v1/claims/visit', { intervention_codes: [capitation], patient_id: patient, service_type: 'CAPITATION', otp: await lastOtp(h.control, { patient_id: patient }) });
    const token = visit.body.authorization_code as string;
    await post('/api/v1/claims/doctors', { consent_token: token, identification_number: 'A12345', identification_type: 'registration_number', regulation_body: 'KMPDC' });
    await post('/api/v1/claims/otp/discharge', { consent_token: token, patient_id: patient });
    const submitted = await post('/api/v1/claims/submit', {
      consent_token: token,
      invoice_number: visit.body.invoice_number,
      otp: await lastOtp(h.control, { patient_id: patient }),
      discharge_reason: 'RECOVERED',
      notes: 'treated and sent home',
    });
    ok(submitted, 'submitClaim');
  });
});

describe('K — KenyaEMR billing module (Omoshlawi/kenyaemr-esm-3.x)', () => {
  it('OTP and visit, packages/esm-billing-app/src/billing-form/social-health-authority/sha-virtual-claim.resource.ts `sendSHAOtp`, `createSHAVirtualClaim` (is_biometrics false by OTP)', async () => {
    const patient = await crId(h.hospital, NID.whitelisted);
    const { capitation } = await findInterventions(h.hospital, patient);
    ok(await h.hospital.post('/api/v1/claims/otp', { patient_id: patient, intervention_codes: [capitation] }), 'sendSHAOtp');
    const visit = await h.hospital.post('/api/v1/claims/visit', {
      patient_id: patient,
      service_type: 'CAPITATION',
      intervention_codes: [capitation],
      otp: await lastOtp(h.control, { patient_id: patient }),
      is_biometrics: false,
    });
    ok(visit, 'createSHAVirtualClaim');
  });

  it('switchInterventionOnVisit, sha-virtual-claim.resource.ts: retain_bill_items true with no billing period, refused naming bill_from as DHA requires the period (R CHANGELOG 0.1.9)', async () => {
    const patient = await crId(h.hospital, NID.whitelisted);
    const { capitation, all } = await findInterventions(h.hospital, patient);
    await h.hospital.post('/api/v1/claims/otp', { patient_id: patient, intervention_codes: [capitation] });
    const visit = await h.hospital.post('/api/v1/claims/visit', { patient_id: patient, service_type: 'CAPITATION', intervention_codes: [capitation], otp: await lastOtp(h.control, { patient_id: patient }) });
    const other = (all as { code: string; accessPoint: string; paymentMechanism: string }[]).find((i) => i.code !== capitation && i.accessPoint === 'OP' && i.paymentMechanism === 'CAPITATION')?.code ?? '';
    const switched = await h.hospital.post('/api/v1/claims/interventions/switch', {
      consent_token: visit.body.authorization_code,
      existing_intervention_code: capitation,
      new_intervention_code: other,
      retain_bill_items: true,
    });
    refusedNaming(switched, 400, 'bill_from');
  });
});

/** A capitation visit by SMS code (the whitelisted member), its doctor and one line, submitted with the visit-end code: its consent token. */
async function submittedClaim(): Promise<string> {
  const patient = await crId(h.hospital, NID.whitelisted);
  const { capitation } = await findInterventions(h.hospital, patient);
  await h.hospital.post('/api/v1/claims/otp', { patient_id: patient, intervention_codes: [capitation] });
  const visit = await h.hospital.post('/api/v1/claims/visit', { patient_id: patient, service_type: 'CAPITATION', intervention_codes: [capitation], otp: await lastOtp(h.control, { patient_id: patient }) });
  const token = visit.body.authorization_code as string;
  await h.hospital.post('/api/v1/claims/doctors', { consent_token: token, identification_number: 'A12345', identification_type: 'registration_number', regulation_body: 'KMPDC' });
  await h.hospital.post('/api/v1/claims/otp/discharge', { consent_token: token, patient_id: patient });
  const submitted = await h.hospital.post('/api/v1/claims/submit', { consent_token: token, invoice_number: visit.body.invoice_number, discharge_reason: 'RECOVERED', otp: await lastOtp(h.control, { patient_id: patient }) });
  if (submitted.status !== 200) throw new Error(`submit: ${submitted.status} ${JSON.stringify(submitted.body)}`);
  return token;
}
