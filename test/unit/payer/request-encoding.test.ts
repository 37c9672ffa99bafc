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
  it('sends combined billing as multipart: diagnoses as JSON text, files as attachments', async () => {
    await client.claims.addBilling(requestExamples['claims.addBilling'] as never);
    const form = await formOf(only());
    expect(form.get('consent_token')).toBe('CT-1');
    expect(form.get('unit_price')).toBe('500');
    expect(form.get('quantity')).toBe('2');
    expect(JSON.parse(String(form.get('diagnoses')))).toEqual([{ code: 'CA40', name: 'Pneumonia' }]);
    const file = form.get('attachments') as File;
    expect(file.name).toBe('lab.pdf');
    expect(file.type).toBe('application/pdf');
    expect([...new Uint8Array(await file.arrayBuffer())]).toEqual(pdfBytes);
  });

  it('sends a single line as JSON', async () => {
    await client.claims.addLine(requestExamples['claims.addLine'] as never);
    const request = only();
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.json).toEqual(requestExamples['claims.addLine']);
  });

  it('uploads an attachment as the file part of a multipart form', async () => {
    await expect(client.claims.uploadAttachment(requestExamples['claims.uploadAttachment'] as never)).resolves.toEqual({
      id: 'ATT-1',
      fileName: 'lab.pdf',
      contentType: 'application/pdf',
      size: 5,
      documentType: undefined,
    });
    const form = await formOf(only());
    expect(form.get('document_type')).toBe('LAB_REPORT');
    expect((form.get('file') as File).name).toBe('lab.pdf');
  });

  it('requests an OTP whitelist as multipart with an optional attachment', async () => {
    await client.consent.requestOtpWhitelist({ beneficiary_cr_id: 'CR1', reason_type: 'OLD' });
    const form = await formOf(only());
    expect([...form.keys()].sort()).toEqual(['beneficiary_cr_id', 'reason_type']);
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

  it('marks a visit-end authorize as a discharge authorization', async () => {
    await client.consent.authorizeDischarge(requestExamples['consent.authorizeDischarge'] as never);
    expect(only().json).toMatchObject({ consent_token: 'CT-1', is_biometrics_discharge_authorization: true, is_emergency: false });
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

  it('reads a 204 on a removal as a confirmation', async () => {
    await expect(client.claims.removeDoctor({ consent_token: 'CT-1' })).resolves.toEqual({ message: undefined });
  });

  it('puts the tenant and endpoint in the path, not in the body', async () => {
    await client.callbacks.createEndpoint({ tenant: 'FID-00-000004-0', url: 'https://hooks.example.org/x' });
    expect(only().json).toEqual({ url: 'https://hooks.example.org/x' });
    exchange.requests.length = 0;
    await client.callbacks.createOperation({ tenant: 'FID-00-000004-0', endpoint_id: 'EP-1', name: 'claims', path: '/claims' });
    expect(only().json).toEqual({ name: 'claims', path: '/claims', action: 'status_changed', method: 'POST', request_content_type: 'application/json' });
  });

  it('sends the shared health record consent as headers, and FHIR search names as query keys', async () => {
    await client.shr.observations({ subject: 'CR1', consent_token: 'CT-9', puid: 'PU-1' });
    const observation = only();
    expect(observation.headers['x-consent-token']).toBe('CT-9');
    expect(observation.headers['x-puid']).toBe('PU-1');
    expect([...observation.query.keys()]).toEqual(['subject']);
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

  it('sends page and search parameters of the interventions list', async () => {
    const page = await client.eligibility.interventions({ patient_id: 'CR1', sub_benefit_code: 'SB-OP', page: 2, pageSize: 50 });
    expect(Object.fromEntries(only().query)).toEqual({ patient_id: 'CR1', sub_benefit_code: 'SB-OP', page: '2', pageSize: '50' });
    expect(page.items.map((i) => i.scenario)).toEqual(['capitation', 'elective-preauth', 'emergency']);
  });
});
