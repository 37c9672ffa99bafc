// Requests that break the contract are refused before anything is sent, with the field named.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createExchangeClient, ExchangeError, type ExchangeClient } from '../../../electron/payer';
import { startScriptedExchange, type ScriptedExchange } from './helpers/scripted-exchange';

let exchange: ScriptedExchange;
let client: ExchangeClient;

beforeAll(async () => {
  exchange = await startScriptedExchange({
    routes: {
      'POST /api/v1/claims/discharge': () => ({ status: 200, json: { authorization_code: 'CT', workflow_state: 'SUBMITTED', discharged_on: '2025-07-01T14:30:00+03:00' } }),
      'POST /api/v1/claims/visit': () => ({ status: 200, json: { authorization_code: 'CT-9', workflow_state: 'DRAFT' } }),
      'POST /api/v1/claims/lines': () => ({ status: 200, json: { id: 'L-1', intervention_code: 'SHA-02-001', unit_price: 500, quantity: 1, line_total_amount: 500 } }),
      'POST /api/v1/patients/otp-whitelists': () => ({ status: 200, json: { guid: 'W-1', status: 'PENDING' } }),
    },
  });
  client = createExchangeClient({ baseUrl: exchange.url, credentials: { clientId: 'demo-hospital', clientSecret: 'demo-hospital-secret' } });
});

afterAll(async () => {
  await client.close();
  await exchange.close();
});

beforeEach(() => {
  exchange.requests.length = 0;
  exchange.tokenRequests.length = 0;
});

const doctor = { identification_number: 'A123', identification_type: 'registration_number', regulation_body: 'KMPDC' } as const;
const practitioner = {
  practitioner_identification_type: 'registration_number',
  practitioner_identification_number: 'A123',
  practitioner_regulation_body: 'KMPDC',
} as const;
const submit = { consent_token: 'CT', invoice_number: 'INV', discharge_reason: 'RECOVERED', otp: '123456' } as const;
const visit = { patient_id: 'CR1', intervention_codes: ['SHA-02-001'], service_type: 'CAPITATION', otp: '123456' } as const;
const whitelist = { beneficiary_cr_id: 'CR1', reason_type: 'OTHER', reason: 'burns to both hands', biometric_attempts: 3, facility_fr_code: 'FID-1' } as const;
const biometric = {
  patient_id: 'CR1',
  service_type: 'CAPITATION',
  interventions: ['SHA-02-001'],
  agent_id: '1',
  work_station_id: 'W',
  authorizing_device_os: 'windows',
  ekyc_provider_id: 'Demo',
  provider: 'FID',
} as const;
const line = { consent_token: 'CT', intervention_code: 'SHA-02-001', unit_price: 500, quantity: 1 } as const;
const billing = { ...line, diagnoses: ['CA40'] } as const;
const discharge = { consent_token: 'CT', discharge_date: '2025-07-01T14:30:00+03:00', discharge_reason: 'RECOVERED', invoice_number: 'INV', discharge_auth_guid: 'G-1' } as const;
const pdf = { file_name: 'lab.pdf', content_type: 'application/pdf', data: new Uint8Array([37, 80, 68, 70, 45]) };
const emergencyClaim = {
  interventions: ['SHA-01-001'],
  mode_of_arrival: 'AMBULANCE',
  brought_by: 'PARAMEDICS',
  reference_number: 'AMB-1',
  notes: 'Found unconscious',
  ...doctor,
} as const;
const preauth = {
  consent_token: 'AT',
  intervention_code: 'SHA-05-010',
  service_start: '2025-07-01T08:00:00+03:00',
  service_end: '2025-07-02T08:00:00+03:00',
  items: [{ unit_price: 50_000 }],
  doctors: [{ ...doctor, is_primary: true }],
  diagnoses: [{ icd_code: 'DA01' }],
  provider_notification_email: 'claims@facility.example',
} as const;
const prescription = { consent_token: 'CT', intervention_code: 'SHA-02-001', items: [{ generic_concept_code: 'C1' }] } as const;

// Each case passes deliberately bad input: the cast is the point of the test.
type Call = (c: ExchangeClient) => Promise<unknown>;
const cases: [string, Call, string, RegExp?][] = [
  ['submit with DECEASED', (c) => c.claims.submit({ ...submit, discharge_reason: 'DECEASED' } as never), 'discharge_reason', /DECEASED is not valid/],
  ['submit with a reason outside the enumeration', (c) => c.claims.submit({ ...submit, discharge_reason: 'CURED' } as never), 'discharge_reason'],
  ['submit with both otp and discharge_auth_guid', (c) => c.claims.submit({ ...submit, discharge_auth_guid: 'G' }), 'discharge_auth_guid', /exactly one/],
  ['submit with neither otp nor discharge_auth_guid', (c) => c.claims.submit({ ...submit, otp: undefined }), 'otp', /exactly one/],
  ['emergency submit with DECEASED as discharge_reason', (c) => c.claims.submitEmergency({ consent_token: 'E', invoice_number: 'I', discharge_reason: 'DECEASED' } as never), 'discharge_reason'],
  [
    'emergency submit with an unknown reason_for_unknown_patient',
    (c) => c.claims.submitEmergency({ consent_token: 'E', invoice_number: 'I', discharge_reason: 'OTHER', reason_for_unknown_patient: 'LOST' } as never),
    'reason_for_unknown_patient',
  ],
  ['visit with a service_type outside the enumeration', (c) => c.claims.createVisit({ ...visit, service_type: 'DAYCASE' } as never), 'service_type'],
  ['visit with both otp and auth_guid', (c) => c.claims.createVisit({ ...visit, auth_guid: 'G-1' }), 'auth_guid', /consent strategy/],
  ['visit with no consent strategy', (c) => c.claims.createVisit({ ...visit, otp: undefined }), 'otp', /consent strategy/],
  ['visit naming its intervention with the singular intervention_code', (c) => c.claims.createVisit({ ...visit, intervention_codes: undefined, intervention_code: 'SHA-02-001' } as never), 'intervention_codes'],
  ['visit with intervention_code beside intervention_codes', (c) => c.claims.createVisit({ ...visit, intervention_code: 'SHA-02-001' } as never), 'intervention_code', /not a field/],
  ['visit with an empty intervention_codes', (c) => c.claims.createVisit({ ...visit, intervention_codes: [] }), 'intervention_codes', /at least one/],
  [
    'visit with two of the three doctor fields',
    (c) => c.claims.createVisit({ ...visit, ...practitioner, practitioner_regulation_body: undefined }),
    'practitioner_regulation_body',
    /together/,
  ],
  ['line with one doctor field', (c) => c.claims.addLine({ ...line, practitioner_identification_number: 'A1' }), 'practitioner_identification_type'],
  ['a JSON line with diagnoses (only the multipart line carries them)', (c) => c.claims.addLine({ ...billing } as never), 'diagnoses', /not a field/],
  ['combined billing with an empty diagnoses list', (c) => c.claims.addBilling({ ...billing, diagnoses: [] }), 'diagnoses'],
  ['combined billing with diagnoses as objects where ICD code strings are due', (c) => c.claims.addBilling({ ...billing, diagnoses: [{ code: 'CA40' }] } as never), 'diagnoses[0]'],
  [
    'combined billing with two doctor fields',
    (c) => c.claims.addBilling({ ...billing, ...practitioner, practitioner_identification_type: undefined }),
    'practitioner_identification_type',
  ],
  ['a line file without its title', (c) => c.claims.addBilling({ ...billing, attachments: [{ document_type: 'LAB_RESULTS', file: pdf } as never] }), 'attachments[0].document_title'],
  ['a line file of a document type the exchange does not list', (c) => c.claims.addBilling({ ...billing, attachments: [{ document_title: 'x', document_type: 'LAB_REPORT' as never, file: pdf }] }), 'attachments[0].document_type'],
  ['an attachment sent as `file` rather than `file_blob`', (c) => c.claims.uploadAttachment({ consent_token: 'CT', intervention_code: 'X', document_type: 'OTHER', file: pdf } as never), 'file_blob'],
  ['a diagnosis with one doctor field', (c) => c.claims.addDiagnosis({ consent_token: 'CT', icd_code: 'CA40', intervention_code: 'X', practitioner_regulation_body: 'KMPDC' }), 'practitioner_identification_type'],
  ['discharge without discharge_date', (c) => c.claims.discharge({ ...discharge, discharge_date: undefined } as never), 'discharge_date'],
  ['discharge dated with a day and no time', (c) => c.claims.discharge({ ...discharge, discharge_date: '2025-07-01' }), 'discharge_date', /RFC 3339/],
  ['discharge dated with a time and no offset', (c) => c.claims.discharge({ ...discharge, discharge_date: '2025-07-01T14:30:00' }), 'discharge_date', /RFC 3339/],
  ['line edit by line_guid (the edit names line_id)', (c) => c.claims.editLine({ consent_token: 'CT', line_guid: 'L', quantity: 2 } as never), 'line_id'],
  ['line edit changing nothing', (c) => c.claims.editLine({ line_id: 'L' }), 'quantity', /at least one change/],
  ['line edit to a fractional quantity', (c) => c.claims.editLine({ line_id: 'L', quantity: 1.5 }), 'quantity'],
  ['switch keeping the bill items without their period', (c) => c.claims.switchIntervention({ consent_token: 'CT', existing_intervention_code: 'A', new_intervention_code: 'B', retain_bill_items: true, bill_from: '2025-07-01' }), 'bill_to', /retain_bill_items/],
  ['doctor on a claim without regulation_body', (c) => c.claims.addDoctor({ consent_token: 'CT', identification_number: 'A1', identification_type: 'x' } as never), 'regulation_body'],
  ['preauth without the requesting doctor', (c) => c.preauth.create({ ...preauth, doctors: [] }), 'doctors', /names the requesting doctor/],
  ['preauth doctor without regulation_body', (c) => c.preauth.create({ ...preauth, doctors: [{ identification_number: 'A1', identification_type: 'registration_number' } as never] }), 'doctors[0].regulation_body'],
  ['preauth with a diagnosis given by code, not icd_code', (c) => c.preauth.create({ ...preauth, diagnoses: [{ code: 'DA01' } as never] }), 'diagnoses[0].icd_code'],
  ['preauth without its service dates', (c) => c.preauth.create({ ...preauth, service_start: undefined } as never), 'service_start'],
  ['preauth with a service day and no time', (c) => c.preauth.create({ ...preauth, service_end: '2025-07-02' }), 'service_end', /RFC 3339/],
  ['preauth ending before it starts', (c) => c.preauth.create({ ...preauth, service_end: '2025-06-30T08:00:00+03:00' }), 'service_end', /before service_start/],
  ['preauth without the notification email', (c) => c.preauth.create({ ...preauth, provider_notification_email: 'claims at facility' }), 'provider_notification_email'],
  ['preauth with the retired form of the old reading', (c) => c.preauth.create({ ...preauth, preauth_type: 'surgical' } as never), 'preauth_type', /not a field/],
  ['preauth cancel without the intervention', (c) => c.preauth.cancel({ consent_token: 'AT' } as never), 'intervention_code'],
  ['preauth doctor consent naming no doctor', (c) => c.consent.resendDoctorConsent({ consent_token: 'AT', intervention_code: 'SHA-05-010' }), 'practitioner_registration_number', /name the doctor/],
  ['preauth doctor consent naming the doctor in part', (c) => c.consent.resendDoctorConsent({ consent_token: 'AT', intervention_code: 'SHA-05-010', identification_number: 'A1' }), 'identification_type'],
  ['prescription with no items', (c) => c.prescriptions.create({ ...prescription, items: [], ...doctor }), 'items', /at least one/],
  ['prescription without its consent token', (c) => c.prescriptions.create({ ...prescription, consent_token: undefined } as never), 'consent_token'],
  ['prescription item without its concept code', (c) => c.prescriptions.create({ ...prescription, items: [{ dose_unit: 'mg' } as never] }), 'items[0].generic_concept_code'],
  ['prescription item with a frequency in words', (c) => c.prescriptions.create({ ...prescription, items: [{ generic_concept_code: 'C1', frequency: 'TDS' as never }] }), 'items[0].frequency'],
  ['prescription with two of the three doctor fields', (c) => c.prescriptions.create({ ...prescription, ...doctor, regulation_body: undefined }), 'regulation_body'],
  ['dispense by a professional named by registration number', (c) => c.prescriptions.dispense({
    actual_products: [{ actual_product_code: 'P', medication_price: 10, total_quantity: 2 }],
    consent_token: 'CT',
    doctors: [{ identification_number: 'PH1', identification_type: 'registration_number' as never }],
    intervention_code: 'SHA-02-001',
  }), 'doctors[0].identification_type'],
  ['dispense by a professional without identification_type', (c) => c.prescriptions.dispense({
    actual_products: [{ actual_product_code: 'P', medication_price: 10, total_quantity: 2 }],
    consent_token: 'CT',
    doctors: [{ identification_number: 'PH1' } as never],
    intervention_code: 'SHA-02-001',
  }), 'doctors[0].identification_type'],
  ['emergency claim with two interventions', (c) => c.emergency.createClaim({ ...emergencyClaim, interventions: ['SHA-01-001', 'SHA-01-002'] }), 'interventions', /exactly one/],
  ['emergency claim with no intervention', (c) => c.emergency.createClaim({ ...emergencyClaim, interventions: [] }), 'interventions', /exactly one/],
  ['emergency claim without a reference number', (c) => c.emergency.createClaim({ ...emergencyClaim, reference_number: undefined } as never), 'reference_number'],
  ['emergency claim with blank notes', (c) => c.emergency.createClaim({ ...emergencyClaim, notes: '  ' }), 'notes', /must not be empty/],
  ['emergency claim carrying a consent token', (c) => c.emergency.createClaim({ ...emergencyClaim, consent_token: 'ECT' } as never), 'consent_token', /not a field/],
  ['emergency claim without the doctor regulation_body', (c) => c.emergency.createClaim({ ...emergencyClaim, regulation_body: undefined } as never), 'regulation_body'],
  ['emergency claim by a regulator outside the portal list', (c) => c.emergency.createClaim({ ...emergencyClaim, regulation_body: 'PPB' as never }), 'regulation_body'],
  ['emergency identification without the patient OTP', (c) => c.emergency.identifyClaim({ ...emergencyClaim, beneficiary_cr_id: 'CR1', consent_token: 'ECT' } as never), 'otp'],
  ['emergency protocols without the intervention', (c) => c.emergency.protocols({ active: true } as never), 'intervention_code'],
  ['emergency protocol with a fractional quantity', (c) => c.emergency.addProtocol({ consent_token: 'ECT', protocol_code: 'P', intervention_code: 'SHA-01-001', unit_price: 1, quantity: 1.5 }), 'quantity'],
  ['emergency doctor approval without the claim id', (c) => c.emergency.requestDoctorApproval({ consent_token: 'ECT', intervention_code: 'SHA-01-001', ...doctor } as never), 'emergency_claim_id'],
  ['biometric authorize with an unknown service_type', (c) => c.consent.authorizeBiometric({ ...biometric, service_type: 'DAYCARE' as never }), 'service_type'],
  ['biometric authorize from a linux device os (the exchange knows windows and android)', (c) => c.consent.authorizeBiometric({ ...biometric, authorizing_device_os: 'linux' as never }), 'authorizing_device_os'],
  ['visit-end authorize naming the claim by consent_token (the live body names the patient)', (c) => c.consent.authorizeDischarge({ ...biometric, consent_token: 'CT' } as never), 'consent_token', /not a field/],
  ['OTP authorize without interventions', (c) => c.consent.authorizeOtp({ patient_id: 'CR1', otp: '123456', service_type: 'INPATIENT' } as never), 'interventions'],
  ['OTP authorize without service_type', (c) => c.consent.authorizeOtp({ patient_id: 'CR1', otp: '123456', interventions: ['SHA-05-010'] } as never), 'service_type'],
  ['OTP send naming the contact contact_id (the live name is beneficiary_contact_id)', (c) => c.consent.sendOtp({ patient_id: 'CR1', intervention_codes: ['X'], contact_id: '7' } as never), 'contact_id', /not a field/],
  ['interventions without sub_benefit_code (or code)', (c) => c.eligibility.interventions({ patient_id: 'CR1' }), 'sub_benefit_code'],
  ['eligibility with an unknown identification type', (c) => c.eligibility.check({ identification_number: '1', identification_type: 'Passport' } as never), 'identification_type'],
  ['a field the contract does not have', (c) => c.consent.sendOtp({ patient_id: 'CR1', intervention_codes: ['X'], phone: '0712' } as never), 'phone', /not a field/],
  // Where the sandbox (docs/exchange-wire.md) is stricter than the contract's words, the client
  // refuses first, naming the field, rather than sending a request the exchange will bounce.
  ['OTP whitelist without a reason', (c) => c.consent.requestOtpWhitelist({ ...whitelist, reason: undefined } as never), 'reason'],
  ['OTP whitelist with a blank reason', (c) => c.consent.requestOtpWhitelist({ ...whitelist, reason: '   ' }), 'reason', /must not be empty/],
  ['OTP whitelist without biometric_attempts', (c) => c.consent.requestOtpWhitelist({ ...whitelist, biometric_attempts: undefined } as never), 'biometric_attempts'],
  ['an OTP that is not digits', (c) => c.consent.authorizeOtp({ patient_id: 'CR1', otp: '12ab56', interventions: ['SHA-05-010'], service_type: 'INPATIENT' }), 'otp'],
  ['combined billing with a day/month/year charge_date', (c) => c.claims.addBilling({ ...billing, charge_date: '01/07/2025' }), 'charge_date', /ISO 8601 date/],
  ['combined billing with a charge_date that is no calendar day', (c) => c.claims.addBilling({ ...billing, charge_date: '2025-02-30' }), 'charge_date', /ISO 8601 date/],
  ['combined billing charged at an hour that does not exist', (c) => c.claims.addBilling({ ...billing, charge_date: '2025-07-01T24:00:00Z' }), 'charge_date'],
  ['combined billing with a service_date (not a field of the line)', (c) => c.claims.addBilling({ ...billing, service_date: '2025-07-01' } as never), 'service_date', /not a field/],
  ['discharge with month 13 as discharge_date', (c) => c.claims.discharge({ ...discharge, discharge_date: '2025-13-01T10:00:00Z' }), 'discharge_date', /RFC 3339 date-time/],
  ['intervention switch billing from a date in words', (c) => c.claims.switchIntervention({ consent_token: 'CT', existing_intervention_code: 'A', new_intervention_code: 'B', retain_bill_items: true, bill_from: '1 July', bill_to: '2025-07-03' }), 'bill_from'],
  ['prescription item starting on a US-style date', (c) => c.prescriptions.create({ ...prescription, items: [{ generic_concept_code: 'C1', start_date: '07-01-2025' }] }), 'items[0].start_date'],
  ['POMSF balance for a policy year written 2025-26', (c) => c.eligibility.pomsfBalance({ patient_id: 'CR1', policy_year: '2025-26' }), 'policy_year', /policy year/],
  // The live wire of the rest (docs/exchange-wire.md): what the sources require, or refuse.
  ['POMSF balance for a policy year written 2025/2026 (the year it starts is what R sends)', (c) => c.eligibility.pomsfBalance({ patient_id: 'CR1', policy_year: '2025/2026' }), 'policy_year'],
  ['POMSF balance without policy_year (required by the portal docs)', (c) => c.eligibility.pomsfBalance({ patient_id: 'CR1' } as never), 'policy_year'],
  ['covers by patient_id and scheme_id (our old reading) instead of the consent token', (c) => c.eligibility.setCover({ patient_id: 'CR5', scheme_id: 'SHIF' } as never), 'consent_token'],
  ['covers without the policy number', (c) => c.eligibility.setCover({ consent_token: 'CT', principal_cr_id: 'CR5' } as never), 'policy_number'],
  ['a professionals look-up under a regulator the registry does not know', (c) => c.lookups.searchProfessionals({ identification_number: 'A1', identification_type: 'registration_number', regulator: 'kmdpc' }), 'regulator'],
  ['a facility search by an identifier type the registry does not know', (c) => c.lookups.searchFacilities({ identifier: 'FID-1', identifier_type: 'fr_code' as never }), 'identifier_type'],
  ['a facility search with neither name nor identifier', (c) => c.lookups.searchFacilities({}), 'name', /name or identifier/],
  ['observations without X-PUID', (c) => c.shr.observations({ subject: 'CR1', consent_token: 'CT' } as never), 'puid'],
  ['referrals by a status FHIR does not have', (c) => c.shr.serviceRequests({ performer_organization: 'FID-1', status: 'pending' as never }), 'status'],
  ['a callback endpoint without its environment', (c) => c.callbacks.createEndpoint({ tenant: 'FID', name: 'n', base_url: 'https://h.example.org', entity_type: 'claim' } as never), 'environment'],
  ["a callback endpoint for 'prod' (the exchange refuses it)", (c) => c.callbacks.createEndpoint({ tenant: 'FID', name: 'n', base_url: 'https://h.example.org', entity_type: 'claim', environment: 'prod' as never }), 'environment'],
  ['a callback endpoint with auth_type api_key but no secret_ref', (c) => c.callbacks.createEndpoint({ tenant: 'FID', name: 'n', base_url: 'https://h.example.org', entity_type: 'claim', environment: 'sandbox', auth_type: 'api_key' }), 'secret_ref'],
  ['a callback endpoint at a relative URL', (c) => c.callbacks.createEndpoint({ tenant: 'FID', name: 'n', base_url: '/hooks', entity_type: 'claim', environment: 'sandbox' }), 'base_url'],
  ['an empty change to a callback endpoint', (c) => c.callbacks.updateEndpoint({ endpoint_id: 'EP-1' }), 'name', /at least one/],
  ['a callback operation delivered by DELETE', (c) => c.callbacks.createOperation({ tenant: 'FID', endpoint_id: 'EP-1', name: 'n', path: '/x', method: 'DELETE' as never }), 'method'],
  ['a callback operation with neither path nor path_url_override', (c) => c.callbacks.createOperation({ tenant: 'FID', endpoint_id: 'EP-1', name: 'n' }), 'path'],
  ['an empty patient id', (c) => c.consent.contacts({ patient_id: '  ' }), 'patient_id'],
  ['a page size beyond 100', (c) => c.eligibility.interventions({ patient_id: 'CR1', sub_benefit_code: 'SB-OP', pageSize: 500 }), 'pageSize'],
  ['no input at all where fields are required', (c) => (c.claims.preview as (i?: unknown) => Promise<unknown>)(), 'consent_token'],
  ['an input that is not an object', (c) => (c.claims.preview as (i?: unknown) => Promise<unknown>)(42), undefined as unknown as string, /expected object/],
];

describe('refused before sending', () => {
  it.each(cases)('%s', async (_name, call, field, message) => {
    const error = await call(client).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ExchangeError);
    expect(error).toMatchObject({ kind: 'validation', field, status: undefined, outcomeUnknown: false });
    if (message) expect((error as ExchangeError).message).toMatch(message);
    expect(exchange.requests).toHaveLength(0);
    expect(exchange.tokenRequests).toHaveLength(0);
  });
});

describe('accepted and sent as the contract says', () => {
  it('lets an inpatient discharge record DECEASED (only submit refuses it)', async () => {
    await client.claims.discharge({ ...discharge, discharge_reason: 'DECEASED' });
    expect(exchange.to('POST /api/v1/claims/discharge')[0]?.json).toEqual({ ...discharge, discharge_reason: 'DECEASED' });
  });

  it('sends dates as given: a charge day, a charge date-time, an RFC 3339 discharge date-time', async () => {
    await client.claims.addBilling({ ...billing, charge_date: '2024-02-29' });
    await client.claims.addBilling({ ...billing, charge_date: '2025-07-01T08:30:00+03:00' });
    await client.claims.discharge({ ...discharge, discharge_date: '2025-07-01T11:30:00Z' });
    const sentDates = await Promise.all(
      exchange.to('POST /api/v1/claims/lines').map(async (r) => (await new Response(r.body, { headers: { 'content-type': r.headers['content-type'] ?? '' } }).formData()).get('charge_date')),
    );
    expect(sentDates).toEqual(['2024-02-29', '2025-07-01T08:30:00+03:00']);
    expect(exchange.to('POST /api/v1/claims/discharge')[0]?.json).toMatchObject({ discharge_date: '2025-07-01T11:30:00Z' });
  });

  it('sends an OTP whitelist request for OTHER once it says why', async () => {
    await client.consent.requestOtpWhitelist(whitelist);
    const [sent] = exchange.to('POST /api/v1/patients/otp-whitelists');
    expect(sent?.text).toContain('burns to both hands');
  });

  it('sends all three doctor fields together on a visit', async () => {
    await client.claims.createVisit({ ...visit, ...practitioner });
    expect(exchange.to('POST /api/v1/claims/visit')[0]?.json).toEqual({ ...visit, ...practitioner });
  });
});
