// The client's request schemas and the sandbox's agree: every worked example the client accepts
// passes the sandbox's validation (whatever the sandbox then says of the made-up ids), and where
// the sandbox is stricter than the contract's words the client refuses the same input first, naming
// the same field the sandbox names when it is sent raw.
import { beforeEach, describe, expect, it } from 'vitest';
import { ExchangeError, type ExchangeClient, type OperationName } from '../../../electron/payer';
import { requestExamples } from '../../unit/payer/helpers/wire-examples';
import { HOSPITAL, PRACTITIONER, refusal, useWorld } from './harness';

const { w } = useWorld();
let token: string;
beforeEach(async () => {
  token = await w.raw.token(HOSPITAL);
});

type Method = (input: unknown) => Promise<unknown>;
function method(client: ExchangeClient, name: OperationName): Method {
  const [group, key] = name.split('.') as [string, string];
  return (client as unknown as Record<string, Record<string, Method>>)[group]?.[key] as Method;
}

async function outcome(call: Promise<unknown>): Promise<{ ok: true } | { ok: false; error: ExchangeError }> {
  try {
    await call;
    return { ok: true };
  } catch (error) {
    if (!(error instanceof ExchangeError)) throw error;
    return { ok: false, error };
  }
}

const today = new Date().toISOString().slice(0, 10);
/** Examples plus the optional fields the examples leave out, where the two sides once disagreed. */
const variants: [OperationName, unknown][] = [
  ...(Object.entries(requestExamples) as [OperationName, unknown][]).filter(([name]) => name !== 'auth.token'),
  ['claims.addLine', { ...(requestExamples['claims.addLine'] as object), scheme_code: 'UHC' }],
  ['claims.addBilling', { ...(requestExamples['claims.addBilling'] as object), charge_date: today, scheme_code: 'UHC', ...PRACTITIONER }],
  ['claims.addDiagnosis', { ...(requestExamples['claims.addDiagnosis'] as object), ...PRACTITIONER }],
  ['claims.discharge', { ...(requestExamples['claims.discharge'] as object), discharge_date: '2025-07-03T11:30:00Z', discharge_status: undefined, notes: 'Wound clean' }],
  ['claims.editLine', { line_id: 'L-1', unit_price: 800, scheme_code: 'UHC' }],
  ['claims.switchIntervention', { ...(requestExamples['claims.switchIntervention'] as object), bill_from: '2025-07-01', bill_to: '2025-07-03T23:59:59Z' }],
  ['consent.requestOtpWhitelist', { beneficiary_cr_id: 'CR0000001', reason_type: 'OTHER', reason: 'burns to both hands', biometric_attempts: 3, facility_fr_code: HOSPITAL.code }],
  ['consent.otpWhitelistStatus', { beneficiary_cr_id: 'CR0000001', facility_fr_code: HOSPITAL.code }],
  ['eligibility.interventions', { patient_id: 'CR0000001', code: 'SHA-02-001' }],
  ['eligibility.pomsfBalance', { patient_id: 'CR6427810395574-2', policy_year: '2025', principal_member_number: 'CR6427810395574-2' }],
  ['prescriptions.create', { consent_token: 'CT-1', intervention_code: 'SHA-02-001', items: [{ generic_concept_code: 'RXN-723', start_date: today, end_date: '2025-12-31' }] }],
  ['preauth.create', { ...(requestExamples['preauth.create'] as object), attachments: [] }],
];

describe('what the client sends, the sandbox reads', () => {
  it.each(variants.map(([name, input], i) => [`${name} #${i}`, name, input] as const))('%s passes the sandbox’s request validation', async (_label, name, input) => {
    const result = await outcome(method(w.hospital, name)(input));
    if (result.ok) return;
    const { kind, status, code, field, message } = result.error;
    // Made-up ids end in 404 or a rule; a 400 (or a refusal before sending) would be a disagreement.
    expect(['validation', 'malformed_response', 'server', 'network'], `${name}: ${kind} ${status ?? ''} ${code ?? ''} ${field ?? ''} ${message}`).not.toContain(kind);
  });
});

/** The body the client would have sent, sent raw: the sandbox's 400 and the fields it names. */
async function rawRefusal(method: string, path: string, body: unknown): Promise<string[]> {
  const init: RequestInit = { method, headers: { authorization: `Bearer ${token}` } };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    init.headers = { ...init.headers, 'content-type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  const response = await fetch(new URL(path, w.sandbox.url), init);
  const answer = (await response.json()) as { error: string; details?: { field: string }[] };
  expect(response.status, JSON.stringify(answer)).toBe(400);
  expect(answer.error).toBe('VALIDATION_ERROR');
  // The sandbox writes paths with dots (items.0.start_date), the client with brackets.
  return (answer.details ?? []).map((d) => d.field.replace(/\.(\d+)(?=\.|$)/g, '[$1]'));
}

const billing = { consent_token: 'CT-1', intervention_code: 'SHA-02-001', unit_price: 500, quantity: 1, diagnoses: ['CA40'] };
/** The multipart line as the client encodes it: text parts, diagnoses as JSON text. */
const billingForm = (extra: Record<string, string>) => () => {
  const form = new FormData();
  for (const [name, value] of Object.entries({ ...billing, diagnoses: JSON.stringify(billing.diagnoses), ...extra })) form.append(name, String(value));
  return form;
};
const discharge = { consent_token: 'CT-1', discharge_reason: 'RECOVERED', invoice_number: 'INV-1', otp: '123456' };
const preauth = {
  consent_token: 'AT-1',
  intervention_code: 'SHA-08-001',
  service_start: '2030-01-15T08:00:00+03:00',
  service_end: '2030-01-16T08:00:00+03:00',
  items: [{ unit_price: 80_000 }],
  doctors: [{ identification_number: 'A12345', identification_type: 'registration_number', regulation_body: 'KMPDC', is_primary: true }],
  diagnoses: [{ icd_code: 'DD51' }],
  provider_notification_email: 'claims@hospital.example',
} as const;
/** A preauth the way the client sends it: multipart, its lists as JSON text. */
const preauthForm = (fields: Record<string, unknown>) => {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, typeof value === 'string' ? value : JSON.stringify(value));
  return form;
};
const emergencyWithout = (field: string) => {
  const { [field]: _left, ...rest } = requestExamples['emergency.createClaim'] as Record<string, unknown>;
  return rest;
};
const whitelistForm = () => {
  const form = new FormData();
  form.append('beneficiary_cr_id', 'CR5284739102216-4');
  form.append('reason_type', 'OTHER');
  form.append('biometric_attempts', '3');
  return form;
};
const singularVisit = { patient_id: 'CR5284739102216-4', intervention_code: 'SHA-02-001', service_type: 'CAPITATION', otp: '123456' };
const bareOtpAuthorize = { patient_id: 'CR5284739102216-4', otp: '123456' };

const stricter: [string, OperationName, unknown, string, string, string, unknown][] = [
  [
    'an OTP whitelist without a reason',
    'consent.requestOtpWhitelist',
    { beneficiary_cr_id: 'CR5284739102216-4', reason_type: 'OTHER', biometric_attempts: 3, facility_fr_code: HOSPITAL.code },
    'reason',
    'POST',
    '/api/v1/patients/otp-whitelists',
    whitelistForm,
  ],
  ['a visit naming its intervention with the singular intervention_code', 'claims.createVisit', singularVisit, 'intervention_codes', 'POST', '/api/v1/claims/visit', singularVisit],
  ['interventions without sub_benefit_code', 'eligibility.interventions', { patient_id: 'CR5284739102216-4' }, 'sub_benefit_code', 'GET', '/api/v1/patients/benefits/interventions?patient_id=CR5284739102216-4', undefined],
  ['an OTP authorize without interventions and service_type', 'consent.authorizeOtp', bareOtpAuthorize, 'interventions', 'POST', '/api/v1/claims/authorize', bareOtpAuthorize],
  ['a line charged 01/07/2025', 'claims.addBilling', { ...billing, charge_date: '01/07/2025' }, 'charge_date', 'POST', '/api/v1/claims/lines', billingForm({ charge_date: '01/07/2025' })],
  ['a line whose diagnoses are objects, not ICD code strings', 'claims.addBilling', { ...billing, diagnoses: [{ code: 'CA40' }] }, 'diagnoses[0]', 'POST', '/api/v1/claims/lines', billingForm({ diagnoses: JSON.stringify([{ code: 'CA40' }]) })],
  ['a discharge with no discharge_date', 'claims.discharge', discharge, 'discharge_date', 'POST', '/api/v1/claims/discharge', discharge],
  ['a discharge dated "today"', 'claims.discharge', { ...discharge, discharge_date: 'today' }, 'discharge_date', 'POST', '/api/v1/claims/discharge', { ...discharge, discharge_date: 'today' }],
  ['a discharge dated with a bare day', 'claims.discharge', { ...discharge, discharge_date: '2025-07-01' }, 'discharge_date', 'POST', '/api/v1/claims/discharge', { ...discharge, discharge_date: '2025-07-01' }],
  ['a line edit to 1.5 units', 'claims.editLine', { line_id: 'L-1', quantity: 1.5 }, 'quantity', 'PATCH', '/api/v1/claims/lines/edit', { line_id: 'L-1', quantity: 1.5 }],
  ['a line edit that changes nothing', 'claims.editLine', { line_id: 'L-1' }, 'quantity', 'PATCH', '/api/v1/claims/lines/edit', { line_id: 'L-1' }],
  [
    'a switch keeping the bill items without their period',
    'claims.switchIntervention',
    { consent_token: 'CT-1', existing_intervention_code: 'SHA-02-001', new_intervention_code: 'SHA-02-002', retain_bill_items: true, bill_from: '2025-07-01' },
    'bill_to',
    'POST',
    '/api/v1/claims/interventions/switch',
    { consent_token: 'CT-1', existing_intervention_code: 'SHA-02-001', new_intervention_code: 'SHA-02-002', retain_bill_items: true, bill_from: '2025-07-01' },
  ],
  [
    'an intervention switch billed from "1 July"',
    'claims.switchIntervention',
    { consent_token: 'CT-1', existing_intervention_code: 'SHA-02-001', new_intervention_code: 'SHA-02-002', retain_bill_items: true, bill_from: '1 July', bill_to: '2025-07-03' },
    'bill_from',
    'POST',
    '/api/v1/claims/interventions/switch',
    { consent_token: 'CT-1', existing_intervention_code: 'SHA-02-001', new_intervention_code: 'SHA-02-002', retain_bill_items: true, bill_from: '1 July', bill_to: '2025-07-03' },
  ],
  [
    'a prescription starting 07-01-2025',
    'prescriptions.create',
    { consent_token: 'CT-1', intervention_code: 'SHA-02-001', items: [{ generic_concept_code: 'RXN-723', start_date: '07-01-2025' }] },
    'items[0].start_date',
    'POST',
    '/api/v1/prescriptions',
    { consent_token: 'CT-1', intervention_code: 'SHA-02-001', items: [{ generic_concept_code: 'RXN-723', start_date: '07-01-2025' }] },
  ],
  ['a preauth without the requesting doctor', 'preauth.create', { ...preauth, doctors: [] }, 'doctors', 'POST', '/api/v1/preauths', () => preauthForm({ ...preauth, doctors: [] })],
  ['a preauth serviced on a day with no time', 'preauth.create', { ...preauth, service_end: '2030-01-16' }, 'service_end', 'POST', '/api/v1/preauths', () => preauthForm({ ...preauth, service_end: '2030-01-16' })],
  ['a prescription given three times a day in words', 'prescriptions.create', { consent_token: 'CT-1', intervention_code: 'SHA-02-001', items: [{ generic_concept_code: 'RXN-723', frequency: 'TDS' }] }, 'items[0].frequency', 'POST', '/api/v1/prescriptions', { consent_token: 'CT-1', intervention_code: 'SHA-02-001', items: [{ generic_concept_code: 'RXN-723', frequency: 'TDS' }] }],
  ['an emergency claim without a reference number', 'emergency.createClaim', emergencyWithout('reference_number'), 'reference_number', 'POST', '/api/v1/claims/emergency', emergencyWithout('reference_number')],
  ['an emergency claim without notes', 'emergency.createClaim', emergencyWithout('notes'), 'notes', 'POST', '/api/v1/claims/emergency', emergencyWithout('notes')],
  ['a dispenser named by registration number', 'prescriptions.dispense', { ...(requestExamples['prescriptions.dispense'] as object), doctors: [{ identification_number: 'A12345', identification_type: 'registration_number' }] }, 'doctors[0].identification_type', 'POST', '/api/v1/prescriptions/dispense', { ...(requestExamples['prescriptions.dispense'] as object), doctors: [{ identification_number: 'A12345', identification_type: 'registration_number' }] }],
  ['a POMSF policy year 2025-26', 'eligibility.pomsfBalance', { patient_id: 'CR6427810395574-2', policy_year: '2025-26' }, 'policy_year', 'GET', '/api/v1/patients/pomsf-balances?patient_id=CR6427810395574-2&policy_year=2025-26', undefined],
  ['a POMSF policy year 2025/2026 (R sends the year it starts)', 'eligibility.pomsfBalance', { patient_id: 'CR6427810395574-2', policy_year: '2025/2026' }, 'policy_year', 'GET', '/api/v1/patients/pomsf-balances?patient_id=CR6427810395574-2&policy_year=2025%2F2026', undefined],
];

describe('where the sandbox is stricter than the contract, the client refuses first', () => {
  it.each(stricter)('%s: refused before sending, and by the sandbox raw', async (_label, name, input, field, verb, path, body) => {
    await refusal(method(w.hospital, name)(input), { kind: 'validation', status: undefined, field });
    expect(w.events.filter((e) => e.operation === name)).toEqual([]);
    expect(await rawRefusal(verb, path, typeof body === 'function' ? (body as () => FormData)() : body)).toContain(field);
  });

  it('sends the same inputs once they are put right, and the sandbox takes them', async () => {
    const patient = 'CR5284739102216-4';
    expect((await w.hospital.consent.requestOtpWhitelist({ beneficiary_cr_id: patient, reason_type: 'OTHER', reason: 'Burns to both hands', biometric_attempts: 3, facility_fr_code: HOSPITAL.code })).status).toBe('PENDING');
    await refusal(w.hospital.preauth.create(preauth), { kind: 'not_found', status: 404 });
    expect((await w.hospital.eligibility.pomsfBalance({ patient_id: 'CR6427810395574-2', policy_year: '2025' })).policies[0]?.policyYear).toBe('2025');
  });
});
