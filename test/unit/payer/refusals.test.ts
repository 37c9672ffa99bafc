// Requests that break the contract are refused before anything is sent, with the field named.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createExchangeClient, ExchangeError, type ExchangeClient } from '../../../electron/payer';
import { startScriptedExchange, type ScriptedExchange } from './helpers/scripted-exchange';

let exchange: ScriptedExchange;
let client: ExchangeClient;

beforeAll(async () => {
  exchange = await startScriptedExchange({
    routes: {
      'POST /api/v1/claims/discharge': () => ({ status: 200, json: { message: 'discharged', workflow_state: 'SUBMITTED', consent_token: 'CT' } }),
      'POST /api/v1/claims/visit': () => ({ status: 200, json: { authorization_code: 'CT-9', workflow_state: 'DRAFT' } }),
      'POST /api/v1/claims/lines': () => ({ status: 200, json: { message: 'Billing line saved', line_guid: 'L-1', lines: [], total_amount: 500 } }),
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
const visit = { patient_id: 'CR1', intervention_code: 'SHA-02-001', service_type: 'OUTPATIENT', otp: '123456' } as const;
const line = { consent_token: 'CT', intervention_code: 'SHA-02-001', unit_price: 500, quantity: 1, diagnoses: [{ code: 'CA40' }] } as const;
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
  ['visit with intervention_code and intervention_codes', (c) => c.claims.createVisit({ ...visit, intervention_codes: ['X'] }), 'intervention_codes'],
  [
    'visit with two of the three doctor fields',
    (c) => c.claims.createVisit({ ...visit, ...practitioner, practitioner_regulation_body: undefined }),
    'practitioner_regulation_body',
    /together/,
  ],
  ['line with one doctor field', (c) => c.claims.addLine({ ...line, practitioner_identification_number: 'A1' }), 'practitioner_identification_type'],
  ['line without a diagnosis', (c) => c.claims.addLine({ ...line, diagnoses: [] }), 'diagnoses', /ICD-11/],
  [
    'combined billing with two doctor fields',
    (c) => c.claims.addBilling({ ...line, ...practitioner, practitioner_identification_type: undefined }),
    'practitioner_identification_type',
  ],
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
  ['biometric authorize with an unknown service_type', (c) => c.consent.authorizeBiometric({
    patient_id: 'CR1',
    service_type: 'DAYCARE' as never,
    interventions: ['SHA-02-001'],
    agent_id: '1',
    work_station_id: 'W',
    authorizing_device_os: 'windows',
    ekyc_provider_id: 'Demo',
    provider: 'FID',
  }), 'service_type'],
  ['eligibility with an unknown identification type', (c) => c.eligibility.check({ identification_number: '1', identification_type: 'Passport' } as never), 'identification_type'],
  ['a field the contract does not have', (c) => c.consent.sendOtp({ patient_id: 'CR1', intervention_codes: ['X'], phone: '0712' } as never), 'phone', /not a field/],
  // Where the sandbox (docs/exchange-wire.md) is stricter than the contract's words, the client
  // refuses first, naming the field, rather than sending a request the exchange will bounce.
  ['OTP whitelist for OTHER without reason_text', (c) => c.consent.requestOtpWhitelist({ beneficiary_cr_id: 'CR1', reason_type: 'OTHER' }), 'reason_text', /required when reason_type is OTHER/],
  ['OTP whitelist for OTHER with a blank reason_text', (c) => c.consent.requestOtpWhitelist({ beneficiary_cr_id: 'CR1', reason_type: 'OTHER', reason_text: '   ' }), 'reason_text', /required/],
  ['line with a day/month/year service_date', (c) => c.claims.addLine({ ...line, service_date: '01/07/2025' }), 'service_date', /ISO 8601 date/],
  ['line with a service_date that is no calendar day', (c) => c.claims.addLine({ ...line, service_date: '2025-02-30' }), 'service_date', /ISO 8601 date/],
  ['line with a service_date at an hour that does not exist', (c) => c.claims.addLine({ ...line, service_date: '2025-07-01T24:00:00Z' }), 'service_date'],
  ['combined billing with a service_date in words', (c) => c.claims.addBilling({ ...line, service_date: 'yesterday' }), 'service_date'],
  ['discharge with month 13 as discharge_date', (c) => c.claims.discharge({ consent_token: 'CT', discharge_reason: 'RECOVERED', invoice_number: 'INV', auth_guid: 'G', discharge_date: '2025-13-01' }), 'discharge_date', /ISO 8601 date/],
  ['line edit with slashes in service_date', (c) => c.claims.editLine({ consent_token: 'CT', line_guid: 'L', service_date: '2025/07/01' }), 'service_date'],
  ['line edit leaving a line without diagnoses', (c) => c.claims.editLine({ consent_token: 'CT', line_guid: 'L', diagnoses: [] }), 'diagnoses', /at least one/],
  ['intervention switch billing from a date in words', (c) => c.claims.switchIntervention({ consent_token: 'CT', existing_intervention_code: 'A', new_intervention_code: 'B', retain_bill_items: true, bill_from: '1 July' }), 'bill_from'],
  ['prescription item starting on a US-style date', (c) => c.prescriptions.create({ ...prescription, items: [{ generic_concept_code: 'C1', start_date: '07-01-2025' }] }), 'items[0].start_date'],
  ['POMSF balance for a policy year written 2025-26', (c) => c.eligibility.pomsfBalance({ patient_id: 'CR1', policy_year: '2025-26' }), 'policy_year', /policy year/],
  ['an OTP that is not digits', (c) => c.consent.authorizeOtp({ patient_id: 'CR1', otp: '12ab56' }), 'otp'],
  ['an empty patient id', (c) => c.consent.contacts({ patient_id: '  ' }), 'patient_id'],
  ['a page size beyond 100', (c) => c.eligibility.interventions({ patient_id: 'CR1', pageSize: 500 }), 'pageSize'],
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
    await client.claims.discharge({ consent_token: 'CT', discharge_reason: 'DECEASED', invoice_number: 'INV', auth_guid: 'G-1' });
    expect(exchange.to('POST /api/v1/claims/discharge')[0]?.json).toEqual({
      consent_token: 'CT',
      discharge_reason: 'DECEASED',
      invoice_number: 'INV',
      auth_guid: 'G-1',
    });
  });

  it('sends ISO 8601 dates as given: a day, or a day with time and offset', async () => {
    await client.claims.addLine({ ...line, service_date: '2024-02-29' });
    await client.claims.addLine({ ...line, service_date: '2025-07-01T08:30:00+03:00' });
    await client.claims.discharge({ consent_token: 'CT', discharge_reason: 'RECOVERED', invoice_number: 'INV', auth_guid: 'G-1', discharge_date: '2025-07-01' });
    expect(exchange.to('POST /api/v1/claims/lines').map((r) => (r.json as { service_date: string }).service_date)).toEqual(['2024-02-29', '2025-07-01T08:30:00+03:00']);
    expect(exchange.to('POST /api/v1/claims/discharge')[0]?.json).toMatchObject({ discharge_date: '2025-07-01' });
  });

  it('sends an OTP whitelist request for OTHER once it says why', async () => {
    await client.consent.requestOtpWhitelist({ beneficiary_cr_id: 'CR1', reason_type: 'OTHER', reason_text: 'burns to both hands' });
    const [sent] = exchange.to('POST /api/v1/patients/otp-whitelists');
    expect(sent?.text).toContain('burns to both hands');
  });

  it('sends all three doctor fields together on a visit', async () => {
    await client.claims.createVisit({ ...visit, ...practitioner });
    expect(exchange.to('POST /api/v1/claims/visit')[0]?.json).toEqual({ ...visit, ...practitioner });
  });
});
