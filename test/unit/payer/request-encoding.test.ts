// What goes on the wire: multipart where the wire doc says so, the fixed fields of each authorize
// shape, path parameters, query names and operation headers, read back by a real HTTP server.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createExchangeClient, type ExchangeClient } from '../../../electron/payer';
import { startScriptedExchange, type RecordedRequest, type ScriptedExchange } from './helpers/scripted-exchange';
import { requestExamples, responseExamples } from './helpers/wire-examples';

let exchange: ScriptedExchange;
let client: ExchangeClient;

/** Answers every operation's path with its first example answer. */
function routes() {
  const ok = (answer: unknown) => () => ({ status: 200, json: answer });
  const first = (name: keyof typeof responseExamples) => responseExamples[name][0];
  return {
    'POST /api/v1/claims/lines': ok(first('claims.addBilling')),
    'POST /api/v1/claims/attachments': ok(first('claims.uploadAttachment')),
    'POST /api/v1/claims/diagnoses': ok(first('claims.addDiagnosis')),
    'PATCH /api/v1/claims/lines/edit': ok(first('claims.editLine')),
    'POST /api/v1/patients/otp-whitelists': ok(first('consent.requestOtpWhitelist')),
    'POST /api/v1/claims/authorize': ok({ ...(first('consent.authorizeDischarge') as object), authorization_code: 'ECT-1' }),
    'POST /api/v1/claims/doctor-consent': ok({ message: 'sent' }),
    'POST /api/v1/preauths': ok(first('preauth.create')),
    'POST /api/v1/preauths/cancel': ok(first('preauth.cancel')),
    'POST /api/v1/claims/emergency': ok(first('emergency.createClaim')),
    'POST /api/v1/claims/emergency/protocols': ok(first('emergency.addProtocol')),
    'GET /api/v1/claims/emergency/protocols': ok(first('emergency.protocols')),
    'POST /api/v1/prescriptions/dispense': ok(first('prescriptions.dispense')),
    'POST /api/v1/claims/authorizations/AT%2F1%20x/reject': ok({ message: 'rejected' }),
    'DELETE /api/v1/preauths/diagnoses/DB10.1': ok(first('preauth.removeDiagnosis')),
    'POST /api/v1/tenants/FID-00-000004-0/endpoints': ok(first('callbacks.createEndpoint')),
    'POST /api/v1/tenants/FID-00-000004-0/endpoints/EP-1/operations': ok(first('callbacks.createOperation')),
    'GET /api/v1/shr/Observation': ok(first('shr.observations')),
    'GET /api/v1/shr/ServiceRequest': ok(first('shr.serviceRequests')),
    'GET /api/v1/facilities/search': ok(first('lookups.searchFacilities')),
    'GET /api/v1/professionals': ok(first('lookups.searchProfessionals')),
    'GET /api/v1/patients/benefits/interventions': ok(first('eligibility.interventions')),
    'POST /api/v1/authorizations/covers': ok(first('eligibility.setCover')),
    'GET /api/v1/patients/pomsf-balances': ok(first('eligibility.pomsfBalance')),
    'GET /api/v1/facilities/FID-00-000004-0/beds/occupancy': ok(first('lookups.bedOccupancy')),
    'POST /api/v1/claims/visit': ok(first('claims.createVisit')),
    'POST /api/v1/claims/otp': ok(first('consent.sendOtp')),
    'DELETE /api/v1/claims/doctors': () => ({ status: 204 }),
  };
}

beforeAll(async () => {
  exchange = await startScriptedExchange({ routes: routes() });
  client = createExchangeClient({ baseUrl: exchange.url, credentials: { clientId: 'a', clientSecret: 'b' } });
});
afterAll(async () => {
  await client.close();
  await exchange.close();
});
beforeEach(() => {
  exchange.requests.length = 0;
});

function only(): RecordedRequest {
  expect(exchange.requests).toHaveLength(1);
  return exchange.requests[0] as RecordedRequest;
}

async function formOf(request: RecordedRequest): Promise<FormData> {
  const contentType = request.headers['content-type'] ?? '';
  expect(contentType).toMatch(/^multipart\/form-data; boundary=/);
  return new Response(request.body, { headers: { 'content-type': contentType } }).formData();
}

const pdfBytes = [37, 80, 68, 70, 45];

describe('multipart', () => {
  it('sends combined billing as multipart: text parts, diagnoses as a JSON list of codes, each file in the part its metadata names', async () => {
    await expect(client.claims.addBilling(requestExamples['claims.addBilling'] as never)).resolves.toMatchObject({ id: 'L-2', amount: 1000 });
    const form = await formOf(only());
    expect([...form.keys()].sort()).toEqual(['attachments', 'attachments_0_file_blob', 'charge_date', 'consent_token', 'diagnoses', 'intervention_code', 'quantity', 'unit_price']);
    expect(form.get('consent_token')).toBe('CT-1');
    expect(form.get('unit_price')).toBe('500');
    expect(form.get('quantity')).toBe('2');
    expect(form.get('charge_date')).toBe('2025-07-01T09:30:00+03:00');
    expect(JSON.parse(String(form.get('diagnoses')))).toEqual(['CA40', 'MG26']);
    expect(JSON.parse(String(form.get('attachments')))).toEqual([{ document_title: 'Lab results', document_type: 'LAB_RESULTS', file_field_name: 'attachments_0_file_blob' }]);
    const file = form.get('attachments_0_file_blob') as File;
    expect(file.name).toBe('lab.pdf');
    expect(file.type).toBe('application/pdf');
    expect([...new Uint8Array(await file.arrayBuffer())]).toEqual(pdfBytes);
  });

  it('names the n-th file of a line attachments_{n}_file_blob, and sends no attachments part without files', async () => {
    const file = (n: number) => ({ document_title: `Page ${n}`, document_type: 'CLAIM_FORM' as const, file: { file_name: `p${n}.pdf`, content_type: 'application/pdf', data: new Uint8Array(pdfBytes) } });
    await client.claims.addBilling({ consent_token: 'CT-1', intervention_code: 'SHA-02-001', unit_price: 1, quantity: 1, attachments: [file(0), file(1)] });
    const form = await formOf(only());
    const names = (JSON.parse(String(form.get('attachments'))) as { file_field_name: string }[]).map((a) => a.file_field_name);
    expect(names).toEqual(['attachments_0_file_blob', 'attachments_1_file_blob']);
    expect(names.map((n) => (form.get(n) as File).name)).toEqual(['p0.pdf', 'p1.pdf']);
    exchange.requests.length = 0;
    await client.claims.addBilling({ consent_token: 'CT-1', intervention_code: 'SHA-02-001', unit_price: 1, quantity: 1, diagnoses: ['CA40'] });
    expect([...(await formOf(only())).keys()].sort()).toEqual(['consent_token', 'diagnoses', 'intervention_code', 'quantity', 'unit_price']);
  });

  it('sends a single line as JSON with its amounts as text and no diagnoses', async () => {
    await client.claims.addLine(requestExamples['claims.addLine'] as never);
    const request = only();
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.json).toEqual({ ...(requestExamples['claims.addLine'] as object), unit_price: '500', quantity: '1' });
  });

  it('uploads an attachment as the file part file_blob of a multipart form', async () => {
    await expect(client.claims.uploadAttachment(requestExamples['claims.uploadAttachment'] as never)).resolves.toEqual({
      id: 'ATT-1',
      title: 'Lab results',
      attachmentType: 'LAB_RESULTS',
      interventionCode: 'SHA-02-001',
      description: undefined,
    });
    const form = await formOf(only());
    expect([...form.keys()].sort()).toEqual(['consent_token', 'document_type', 'file_blob', 'intervention_code']);
    expect(form.get('document_type')).toBe('LAB_RESULTS');
    expect((form.get('file_blob') as File).name).toBe('lab.pdf');
  });

  it('requests an OTP whitelist as A sends it: text parts, the attachments metadata, no file part without one', async () => {
    await client.consent.requestOtpWhitelist({ beneficiary_cr_id: 'CR1', reason_type: 'OLD', reason: 'Old', biometric_attempts: 2, facility_fr_code: 'FID-1' });
    const form = await formOf(only());
    expect([...form.keys()].sort()).toEqual(['attachments', 'beneficiary_cr_id', 'biometric_attempts', 'facility_fr_code', 'reason', 'reason_type']);
    expect(form.get('biometric_attempts')).toBe('2');
    expect(form.get('attachments')).toBe('[]');
  });

  it('names the one whitelist attachment attachments_file_blob, in its part and in its metadata', async () => {
    await client.consent.requestOtpWhitelist(requestExamples['consent.requestOtpWhitelist'] as never);
    const form = await formOf(only());
    expect(JSON.parse(String(form.get('attachments')))).toEqual([
      { document_title: 'Clinician note', document_type: 'SUPPORT_DOCUMENT', file_field_name: 'attachments_file_blob', file_name: 'lab.pdf' },
    ]);
    const file = form.get('attachments_file_blob') as File;
    expect(file.name).toBe('lab.pdf');
    expect([...new Uint8Array(await file.arrayBuffer())]).toEqual(pdfBytes);
  });
});

describe('authorize shapes', () => {
  it('marks a biometric visit authorize and fills the defaults', async () => {
    await client.consent.authorizeBiometric(requestExamples['consent.authorizeBiometric'] as never).catch(() => undefined);
    expect(only().json).toEqual({
      patient_id: 'CR0000001',
      service_type: 'OUTPATIENT',
      interventions: ['SHA-02-001'],
      agent_id: '12345678',
      work_station_id: 'WS-0001',
      authorizing_device_os: 'windows',
      factors: ['SHA'],
      ekyc_provider_id: 'Demo Hospital',
      provider: 'FID-00-000004-0',
      is_integration: true,
      is_emergency: false,
      is_biometrics_discharge_authorization: false,
    });
  });

  it('sends the visit-end authorize as the twelve-field body naming the patient, marked as a discharge authorization', async () => {
    await client.consent.authorizeDischarge(requestExamples['consent.authorizeDischarge'] as never);
    expect(only().json).toEqual({
      patient_id: 'CR0000001',
      service_type: 'CAPITATION',
      interventions: ['SHA-02-001'],
      agent_id: '12345678',
      work_station_id: 'WS-0001',
      authorizing_device_os: 'windows',
      factors: ['SHA'],
      ekyc_provider_id: 'Demo Hospital',
      provider: 'FID-00-000004-0',
      is_integration: true,
      is_emergency: false,
      is_biometrics_discharge_authorization: true,
    });
  });

  it('sends the elective OTP authorize with its interventions and service type', async () => {
    await client.consent.authorizeOtp(requestExamples['consent.authorizeOtp'] as never);
    expect(only().json).toEqual({ patient_id: 'CR0000002', otp: '123456', interventions: ['SHA-05-010'], service_type: 'INPATIENT' });
  });

  it('opens a visit with intervention_codes, never the singular intervention_code', async () => {
    await client.claims.createVisit({ patient_id: 'CR1', intervention_codes: ['SHA-12-001'], service_type: 'CAPITATION', otp: '123456' });
    expect(only().json).toEqual({ patient_id: 'CR1', intervention_codes: ['SHA-12-001'], service_type: 'CAPITATION', otp: '123456' });
  });

  it('sends the OTP contact as beneficiary_contact_id', async () => {
    await client.consent.sendOtp(requestExamples['consent.sendOtp'] as never);
    expect(only().json).toEqual({ patient_id: 'CR0000002', intervention_codes: ['SHA-02-001'], beneficiary_contact_id: '7' });
  });

});

describe('preauth, emergency and prescriptions', () => {
  it('sends a preauth as multipart: the lists as JSON text, each attachment in the part its metadata names', async () => {
    await expect(client.preauth.create(requestExamples['preauth.create'] as never)).resolves.toMatchObject({ id: '11', interventionCode: 'SHA-05-010' });
    const request = only();
    const form = await formOf(request);
    expect(form.get('consent_token')).toBe('AT-1');
    expect(form.get('service_start')).toBe('2025-07-01T08:00:00+03:00');
    expect(form.get('service_end')).toBe('2025-07-03T12:00:00+03:00');
    expect(JSON.parse(String(form.get('items')))).toEqual([{ unit_price: '85000.00' }]);
    expect(JSON.parse(String(form.get('doctors')))).toEqual([
      { identification_number: 'A1234', identification_type: 'registration_number', regulation_body: 'KMPDC', is_primary: true, intervention_code: 'SHA-05-010' },
    ]);
    expect(JSON.parse(String(form.get('diagnoses')))).toEqual([{ icd_code: 'DB10', consent_token: 'AT-1', intervention_code: 'SHA-05-010' }]);
    expect(JSON.parse(String(form.get('attachments')))).toEqual([{ document_title: 'Referral letter', document_type: 'REFERRAL_LETTER', file_field_name: 'attachments_0_file_blob' }]);
    const file = form.get('attachments_0_file_blob') as File;
    expect(file.name).toBe('lab.pdf');
    expect([...new Uint8Array(await file.arrayBuffer())]).toEqual(pdfBytes);
    expect(form.get('provider_notification_email')).toBe('claims@facility.example');
    expect(form.get('clinical_indications')).toBe('Acute appendicitis');
    expect(form.has('preauth_type')).toBe(false);
  });

  it('sends an empty attachments list when there is no document (R sends [])', async () => {
    const { attachments: _none, ...rest } = requestExamples['preauth.create'] as Record<string, unknown>;
    await client.preauth.create(rest as never);
    const form = await formOf(only());
    expect(form.get('attachments')).toBe('[]');
    expect([...form.keys()].filter((k) => k.endsWith('_file_blob'))).toEqual([]);
  });

  it('cancels a preauth by consent token and intervention', async () => {
    await expect(client.preauth.cancel({ consent_token: 'AT-1', intervention_code: 'SHA-05-010' })).resolves.toMatchObject({ status: 'CANCELLED' });
    expect(only().json).toEqual({ consent_token: 'AT-1', intervention_code: 'SHA-05-010' });
  });

  it('names the request_type of every doctor consent: the preauth resend and the emergency approval', async () => {
    await client.consent.resendDoctorConsent(requestExamples['consent.resendDoctorConsent'] as never);
    expect(only().json).toEqual({
      consent_token: 'AT-1',
      intervention_code: 'SHA-05-010',
      practitioner_registration_number: 'A1234',
      identification_number: 'A1234',
      identification_type: 'registration_number',
      regulation_body: 'KMPDC',
      request_type: 'PREAUTH_DOCTOR_APPROVAL_REQUEST',
    });
    exchange.requests.length = 0;
    await client.emergency.requestDoctorApproval(requestExamples['emergency.requestDoctorApproval'] as never);
    expect(only().json).toEqual({
      consent_token: 'ECT-1',
      intervention_code: 'SHA-01-001',
      emergency_claim_id: 'EC-7',
      identification_number: 'A1234',
      identification_type: 'registration_number',
      regulation_body: 'KMPDC',
      request_type: 'EMERGENCY_CLAIM_DOCTOR_APPROVAL_REQUEST',
    });
  });

  it('creates an emergency claim with no consent token and reads the one it answers', async () => {
    await expect(client.emergency.createClaim(requestExamples['emergency.createClaim'] as never)).resolves.toMatchObject({ consentToken: 'ECT-1', claimId: 'EC-7' });
    expect(only().json).toEqual(requestExamples['emergency.createClaim']);
    expect(only().json).not.toHaveProperty('consent_token');
  });

  it('asks for protocols with both required query parameters, and adds one as multipart with comma-separated diagnoses', async () => {
    await client.emergency.protocols({ active: true, intervention_code: 'SHA-01-001' });
    expect(Object.fromEntries(only().query)).toEqual({ active: 'true', intervention_code: 'SHA-01-001' });
    exchange.requests.length = 0;
    await expect(client.emergency.addProtocol(requestExamples['emergency.addProtocol'] as never)).resolves.toMatchObject({ lineId: 'L-9', itemCode: 'PROT-TRAUMA-1' });
    const form = await formOf(only());
    expect(Object.fromEntries(form)).toEqual({
      consent_token: 'ECT-1',
      protocol_code: 'PROT-TRAUMA-1',
      intervention_code: 'SHA-01-001',
      unit_price: '3000.00',
      quantity: '1',
      diagnoses: 'NA00,PA60',
    });
  });

  it('dispenses at /prescriptions/dispense, the path UAT answers', async () => {
    await client.prescriptions.dispense(requestExamples['prescriptions.dispense'] as never);
    expect(only().path).toBe('/api/v1/prescriptions/dispense');
  });
});

describe('paths, queries and headers', () => {
  it('puts the token in the reject path, encoded, with no body', async () => {
    await client.consent.rejectAuthorization({ token: 'AT/1 x' });
    const request = only();
    expect(request.path).toBe('/api/v1/claims/authorizations/AT%2F1%20x/reject');
    expect(request.text).toBe('');
  });

  it('sends a DELETE with its path parameter and JSON body', async () => {
    await client.preauth.removeDiagnosis({ consent_token: 'AT-1', icd_code: 'DB10.1', intervention_code: 'SHA-05-010' });
    const request = only();
    expect(request.method).toBe('DELETE');
    expect(request.json).toEqual({ consent_token: 'AT-1', icd_code: 'DB10.1', intervention_code: 'SHA-05-010' });
  });

  it('adds a diagnosis and edits a line as JSON: the code bare, the edited price as text', async () => {
    await expect(client.claims.addDiagnosis(requestExamples['claims.addDiagnosis'] as never)).resolves.toMatchObject({ code: 'CA40', interventionCode: 'SHA-02-001' });
    expect(only().json).toEqual({ consent_token: 'CT-1', icd_code: 'CA40', intervention_code: 'SHA-02-001' });
    exchange.requests.length = 0;
    await expect(client.claims.editLine({ line_id: 'L-1', unit_price: 9.5, quantity: 2 })).resolves.toMatchObject({ id: 'L-1' });
    expect(only().json).toEqual({ line_id: 'L-1', unit_price: '9.5', quantity: 2 });
  });

  it('reads a 204 on a removal as a confirmation', async () => {
    await expect(client.claims.removeDoctor({ consent_token: 'CT-1' })).resolves.toEqual({ message: undefined });
  });

  it('puts the tenant and endpoint in the path and sends the live callback bodies', async () => {
    await client.callbacks.createEndpoint({ tenant: 'FID-00-000004-0', name: 'claims', base_url: 'https://hooks.example.org/x', entity_type: 'claim', environment: 'production' });
    expect(only().json).toEqual({ name: 'claims', base_url: 'https://hooks.example.org/x', entity_type: 'claim', environment: 'production', auth_type: 'none' });
    exchange.requests.length = 0;
    await client.callbacks.createOperation({ tenant: 'FID-00-000004-0', endpoint_id: 'EP-1', name: 'claims', path: '/claims' });
    expect(only().json).toEqual({ name: 'claims', path: '/claims', action: 'status_changed', method: 'POST', request_content_type: 'application/json' });
  });

  it('sets the cover with the consent token, the principal and the policy', async () => {
    await client.eligibility.setCover({ consent_token: 'CT-1', principal_cr_id: 'CR5', policy_number: 'POL-5' });
    const request = only();
    expect([request.method, request.path]).toEqual(['POST', '/api/v1/authorizations/covers']);
    expect(request.json).toEqual({ consent_token: 'CT-1', principal_cr_id: 'CR5', policy_number: 'POL-5' });
  });

  it('asks for POMSF balances by policy year and principal, and bed occupancy by facility in the path', async () => {
    await client.eligibility.pomsfBalance({ patient_id: 'CR5', policy_year: '2025', principal_member_number: 'CR1' });
    expect(Object.fromEntries(only().query)).toEqual({ patient_id: 'CR5', policy_year: '2025', principal_member_number: 'CR1' });
    exchange.requests.length = 0;
    await client.lookups.bedOccupancy({ facility_code: 'FID-00-000004-0' });
    expect(only().path).toBe('/api/v1/facilities/FID-00-000004-0/beds/occupancy');
  });

  it('asks for the token form-encoded, with grant_type', async () => {
    const before = exchange.tokenRequests.length;
    await client.auth.authenticate();
    expect(exchange.tokenRequests).toHaveLength(before + 1);
    const request = exchange.tokenRequests.at(-1) as RecordedRequest;
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(request.text))).toEqual({ client_id: 'a', client_secret: 'b', grant_type: 'client_credentials' });
  });

  it('sends the shared health record consent as headers, and FHIR search names as query keys', async () => {
    await client.shr.observations({ subject: 'CR1', consent_token: 'CT-9', puid: 'PU-1', page_token: 'p2' });
    const observation = only();
    expect(observation.headers['x-consent-token']).toBe('CT-9');
    expect(observation.headers['x-puid']).toBe('PU-1');
    expect(Object.fromEntries(observation.query)).toEqual({ subject: 'CR1', page_token: 'p2' });
    exchange.requests.length = 0;
    await client.shr.serviceRequests({ performer_organization: 'FID-1', count: 10 });
    expect(Object.fromEntries(only().query)).toEqual({ 'performer:Organization': 'FID-1', count: '10' });
  });

  it('spells look-up queries as the live service does', async () => {
    await client.lookups.searchFacilities({ identifier: 'FID-1', identifier_type: 'fr-code' });
    expect(Object.fromEntries(only().query)).toEqual({ identifier: 'FID-1', 'identifier-type': 'fr-code' });
    exchange.requests.length = 0;
    await client.lookups.searchProfessionals({ identification_number: 'A1', identification_type: 'registration_number', regulator: 'kmpdc' });
    expect(only().query.get('regulator')).toBe('KMPDC');
  });

  it('asks for one sub-benefit\'s interventions by sub_benefit_code, and a page only when asked', async () => {
    const page = await client.eligibility.interventions({ patient_id: 'CR1', sub_benefit_code: 'SB-OP' });
    expect(Object.fromEntries(only().query)).toEqual({ patient_id: 'CR1', sub_benefit_code: 'SB-OP' });
    expect(page.items.map((i) => i.scenario)).toEqual(['capitation', 'elective-preauth', 'emergency']);
    exchange.requests.length = 0;
    await client.eligibility.interventions({ patient_id: 'CR1', sub_benefit_code: 'SB-OP', page: 2, pageSize: 50 });
    expect(Object.fromEntries(only().query)).toEqual({ patient_id: 'CR1', sub_benefit_code: 'SB-OP', page: '2', pageSize: '50' });
  });

  it('looks one intervention up by code, as A does', async () => {
    await client.eligibility.interventions({ patient_id: 'CR1', code: 'SHA-12-001' });
    expect(Object.fromEntries(only().query)).toEqual({ patient_id: 'CR1', code: 'SHA-12-001' });
  });
});
