/* eslint-disable @typescript-eslint/no-explicit-any -- wire bodies are untyped JSON; the tests assert their shape */
// Test harness for the sandbox: starts it in-process on a free port and drives it over real HTTP
// with plain fetch (never the exchange client), plus the demo-world facts and flow steps the
// sandbox tests share.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../../electron/sandbox/index';

export const HOSPITAL = { clientId: 'demo-hospital', secret: 'demo-hospital-secret', code: 'FID-00-000004-0' } as const;
export const DISPENSARY = { clientId: 'demo-dispensary', secret: 'demo-dispensary-secret', code: 'FID-00-000002-0' } as const;

/** National IDs of the demo world (../shared/design/contracts.md). */
export const NID = {
  covered: '30000001',
  whitelisted: '30000002',
  notCovered: '30000003',
  unusableFingers: '30000004',
  twoSchemes: '30000005',
  noPhone: '30000006',
  notFound: '99999999',
} as const;

export const DOCTOR = {
  practitioner_identification_type: 'registration_number',
  practitioner_identification_number: 'A12345',
  practitioner_regulation_body: 'KMPDC',
} as const;
export const EMERGENCY_DOCTOR = { identification_number: 'A34567', identification_type: 'registration_number', regulation_body: 'KMPDC' } as const;

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface CallOptions {
  body?: unknown;
  form?: Record<string, string>;
  multipart?: FormData;
  headers?: Record<string, string>;
  token?: string | null;
  query?: Record<string, string>;
}

function parseBody(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export class Client {
  constructor(
    readonly baseUrl: string,
    public token: string | null = null,
  ) {}

  async call<T = any>(method: string, path: string, options: CallOptions = {}): Promise<Reply<T>> {
    const url = new URL(path, this.baseUrl);
    for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, v);
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    const token = options.token === undefined ? this.token : options.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let body: RequestInit['body'] | undefined;
    if (options.multipart !== undefined) body = options.multipart;
    else if (options.form !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    } else if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const response = await fetch(url, { method, headers, body });
    const text = await response.text();
    return { status: response.status, body: parseBody(text) as T, headers: response.headers };
  }

  get<T = any>(path: string, query?: Record<string, string>, options: CallOptions = {}) {
    return this.call<T>('GET', path, { ...options, ...(query === undefined ? {} : { query }) });
  }
  post<T = any>(path: string, body?: unknown, options: CallOptions = {}) {
    return this.call<T>('POST', path, { ...options, ...(body === undefined ? {} : { body }) });
  }
}

export interface Harness {
  readonly sandbox: RunningSandbox;
  readonly url: string;
  /** The demo hospital's client (biometrics enforced). */
  readonly hospital: Client;
  /** The demo dispensary's client (biometrics not enforced). */
  readonly dispensary: Client;
  /** The control API (no token). */
  readonly control: Client;
  reset(): Promise<void>;
  close(): Promise<void>;
}

export async function tokenFor(baseUrl: string, who: { clientId: string; secret: string }): Promise<string> {
  const r = await new Client(baseUrl).post('/api/v1/tenants/token', { client_id: who.clientId, client_secret: who.secret });
  if (r.status !== 200) throw new Error(`token: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.access_token as string;
}

export async function startHarness(options: SandboxOptions = {}): Promise<Harness> {
  const sandbox = await startSandbox({ callbackRetryBaseMs: 20, ...options });
  const hospital = new Client(sandbox.url, await tokenFor(sandbox.url, HOSPITAL));
  const dispensary = new Client(sandbox.url, await tokenFor(sandbox.url, DISPENSARY));
  const control = new Client(sandbox.url);
  return {
    sandbox,
    url: sandbox.url,
    hospital,
    dispensary,
    control,
    reset: async () => {
      const r = await control.post('/sandbox/reset');
      if (r.status !== 200) throw new Error(`reset: ${r.status}`);
      // Tokens survive a reset, but a test may have moved the clock past their hour.
      hospital.token = await tokenFor(sandbox.url, HOSPITAL);
      dispensary.token = await tokenFor(sandbox.url, DISPENSARY);
    },
    close: () => sandbox.close(),
  };
}

/**
 * The set-up of the files here, registered in the calling file: one sandbox for the file (started
 * before its first test, closed after its last) and, unless `resetEachTest` is false, the seeded
 * demo world again before each test. Call it before the file's own hooks, which then run after it.
 * The harness is filled in when the file's tests start: read it inside tests and hooks only.
 */
export function useHarness(options: SandboxOptions = {}, { resetEachTest = true } = {}): Harness {
  const h = {} as Harness;
  beforeAll(async () => {
    Object.assign(h, await startHarness(options));
  });
  afterAll(async () => {
    await h.close();
  });
  if (resetEachTest) {
    beforeEach(async () => {
      await h.reset();
    });
  }
  return h;
}

export async function crId(client: Client, nationalId: string): Promise<string> {
  const r = await client.get('/api/v1/patients', { identification_number: nationalId, identification_type: 'National ID' });
  if (r.status !== 200) throw new Error(`patient ${nationalId}: ${r.status}`);
  return r.body.id as string;
}

/**
 * Interventions found by their properties, as contracts.md says a client finds them: one
 * sub-benefit at a time, as the exchange lists them (sub_benefit_code is required).
 */
export async function findInterventions(client: Client, patientId: string) {
  const all: any[] = [];
  const subBenefits = await client.get('/api/v1/patients/sub-benefits', { patient_id: patientId, pageSize: '100' });
  if (subBenefits.status !== 200) throw new Error(`sub-benefits: ${subBenefits.status}`);
  for (const s of subBenefits.body.results as { code: string }[]) {
    const r = await client.get('/api/v1/patients/benefits/interventions', { patient_id: patientId, sub_benefit_code: s.code });
    if (r.status !== 200) throw new Error(`interventions: ${r.status}`);
    all.push(...r.body.results);
  }
  const norm = (m: string) => m.replace(/\s+/g, '_');
  const pick = (what: string, f: (i: any) => boolean) => {
    const found = all.find(f);
    if (found === undefined) throw new Error(`no ${what} intervention`);
    return found.code as string;
  };
  return {
    all,
    capitation: pick('capitation', (i) => norm(i.paymentMechanism) === 'CAPITATION' && i.accessPoint === 'OP' && !i.needsPreauth),
    elective: pick('elective', (i) => norm(i.paymentMechanism) === 'FEE_FOR_SERVICE' && i.accessPoint === 'IP' && i.needsPreauth && i.needsManualPreauthApproval),
    perDiem: pick('per diem', (i) => norm(i.paymentMechanism) === 'PER_DIEM' && i.accessPoint === 'IP'),
    emergency: pick('emergency', (i) => i.code.startsWith('SHA-01') && i.protocolCode !== undefined && i.applicableTariff !== undefined),
  };
}

export type Interventions = Awaited<ReturnType<typeof findInterventions>>;

/** The covered patient's interventions, found once before the file's tests (call it after useHarness). */
export function useInterventions(h: Harness): Interventions {
  const codes = {} as Interventions;
  beforeAll(async () => {
    Object.assign(codes, await findInterventions(h.hospital, await crId(h.hospital, NID.covered)));
  });
  return codes;
}

/** The newest SMS with a code in the outbox for this patient (or doctor). */
export async function lastOtp(control: Client, query: { patient_id?: string; doctor_id?: string }): Promise<string> {
  const r = await control.get('/sandbox/sms', query as Record<string, string>);
  const withCode = (r.body as any[]).filter((m) => m.otp !== null);
  const last = withCode[withCode.length - 1];
  if (last === undefined) throw new Error(`no OTP in the outbox for ${JSON.stringify(query)}`);
  return last.otp as string;
}

export async function fingerprints(control: Client, patientId: string): Promise<{ finger: string; template: string }[]> {
  const r = await control.get(`/sandbox/patients/${encodeURIComponent(patientId)}/fingerprints`);
  return r.body;
}

/** A 512-byte template that no demo patient has enrolled. */
export const STRANGER_TEMPLATE = Buffer.alloc(512, 7).toString('base64');

/** The biometric fields every fingerprint authorize carries (the twelve with patient, service type and interventions). */
export const BIOMETRIC = {
  agent_id: '22334455',
  work_station_id: 'WS-TEST-01',
  authorizing_device_os: 'windows',
  factors: ['SHA'],
  ekyc_provider_id: 'Idhini Demo Hospital',
  provider: HOSPITAL.code,
  is_integration: true,
  is_emergency: false,
} as const;

/** Biometric authorize, then a matching finger through the control API. */
export async function authorizeByFingerprint(h: Harness, client: Client, patientId: string, interventions: string[], serviceType: string) {
  const r = await client.post('/api/v1/claims/authorize', {
    patient_id: patientId,
    interventions,
    service_type: serviceType,
    agent_id: '22334455',
    work_station_id: 'WS-TEST-01',
    authorizing_device_os: 'windows',
    factors: ['SHA'],
    ekyc_provider_id: 'Idhini Demo Hospital',
    provider: HOSPITAL.code,
    is_integration: true,
    is_emergency: false,
    is_biometrics_discharge_authorization: false,
  });
  if (r.status !== 200) throw new Error(`authorize: ${r.status} ${JSON.stringify(r.body)}`);
  const [finger] = await fingerprints(h.control, patientId);
  const matched = await h.control.post(`/sandbox/authorizations/${r.body.guid}/fingerprint`, { template: finger?.template });
  if (matched.status !== 200) throw new Error(`fingerprint: ${matched.status} ${JSON.stringify(matched.body)}`);
  return { ...r.body, status: matched.body.status as string };
}

/** Opens a visit by fingerprint with a doctor attached; returns the visit answer. */
export async function openVisit(h: Harness, client: Client, patientId: string, code: string, serviceType: string, withDoctor = true) {
  const a = await authorizeByFingerprint(h, client, patientId, [code], serviceType);
  const r = await client.post('/api/v1/claims/visit', {
    patient_id: patientId,
    intervention_codes: [code],
    service_type: serviceType,
    auth_guid: a.guid,
    ...(withDoctor ? DOCTOR : {}),
  });
  if (r.status !== 200) throw new Error(`visit: ${r.status} ${JSON.stringify(r.body)}`);
  // authorization_code is the claim's consent_token: named so for the billing calls that follow.
  return { ...r.body, consent_token: r.body.authorization_code as string };
}

/** A multipart billing line with one diagnosis (the live shape); returns the line object. */
export async function addLine(client: Client, consentToken: string, code: string, unitPrice = 1000, extra: Record<string, string> = {}) {
  const form = new FormData();
  const fields = { consent_token: consentToken, intervention_code: code, unit_price: String(unitPrice), quantity: '1', diagnoses: JSON.stringify(['CA00']), ...extra };
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  const r = await client.call('POST', '/api/v1/claims/lines', { multipart: form });
  if (r.status !== 200) throw new Error(`line: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** Visit-end consent by fingerprint; returns the discharge_auth_guid. */
export async function dischargeByFingerprint(h: Harness, client: Client, consentToken: string, patientId: string): Promise<string> {
  const r = await client.post('/api/v1/claims/authorize', { consent_token: consentToken, is_biometrics_discharge_authorization: true, factors: ['SHA'] });
  if (r.status !== 200) throw new Error(`discharge authorize: ${r.status} ${JSON.stringify(r.body)}`);
  const [finger] = await fingerprints(h.control, patientId);
  await h.control.post(`/sandbox/authorizations/${r.body.guid}/fingerprint`, { template: finger?.template });
  return r.body.discharge_auth_guid as string;
}

export function expectError(r: Reply, status: number, code: string): void {
  if (r.status !== status || r.body?.error !== code || typeof r.body?.trace_id !== 'string') {
    throw new Error(`expected ${status} ${code}, got ${r.status} ${JSON.stringify(r.body)}`);
  }
}

/** The requesting doctor as the preauth's `doctors` list names it (A, K). */
export const PREAUTH_DOCTOR = { identification_number: 'A12345', identification_type: 'registration_number', regulation_body: 'KMPDC' } as const;

/**
 * A preauth as the live exchange takes it: multipart, the lists as JSON text parts (A, K, R).
 * `parts` replaces (or, given undefined, leaves out) any part; `files` adds file parts.
 */
export function preauthForm(consentToken: string, interventionCode: string, parts: Record<string, unknown> = {}, files: { field: string; name: string; type: string; data: Uint8Array }[] = []): FormData {
  const all: Record<string, unknown> = {
    consent_token: consentToken,
    intervention_code: interventionCode,
    service_start: '2030-01-15T08:00:00+03:00',
    service_end: '2030-01-17T12:00:00+03:00',
    items: [{ unit_price: '82700.00' }],
    doctors: [{ ...PREAUTH_DOCTOR, intervention_code: interventionCode, is_primary: true }],
    diagnoses: [{ icd_code: 'DD51', consent_token: consentToken, intervention_code: interventionCode }],
    attachments: [],
    provider_notification_email: 'claims@hospital.example',
    clinical_indications: 'Reducible right inguinal hernia',
    ...parts,
  };
  const form = new FormData();
  for (const [key, value] of Object.entries(all)) {
    if (value === undefined) continue;
    form.append(key, typeof value === 'string' ? value : JSON.stringify(value));
  }
  for (const f of files) form.append(f.field, new Blob([f.data], { type: f.type }), f.name);
  return form;
}

export async function createPreauth(client: Client, consentToken: string, interventionCode: string, parts: Record<string, unknown> = {}) {
  const r = await client.call('POST', '/api/v1/preauths', { multipart: preauthForm(consentToken, interventionCode, parts) });
  if (r.status !== 200) throw new Error(`preauth: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** An emergency claim as the live exchange takes it: no consent token, one intervention, reference number and notes. */
export function emergencyBody(interventionCode: string, extra: Record<string, unknown> = {}) {
  return {
    interventions: [interventionCode],
    mode_of_arrival: 'AMBULANCE',
    brought_by: 'PARAMEDICS',
    reference_number: `AMB-${Math.floor(Math.random() * 1e9)}`,
    notes: 'found unconscious at the roadside',
    ...EMERGENCY_DOCTOR,
    ...extra,
  };
}

export async function createEmergency(client: Client, interventionCode: string, extra: Record<string, unknown> = {}) {
  const r = await client.post('/api/v1/claims/emergency', emergencyBody(interventionCode, extra));
  if (r.status !== 200) throw new Error(`emergency: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** Adds an emergency protocol by the live multipart call; returns the line it answers. */
export async function addProtocol(client: Client, consentToken: string, protocol: { protocolCode: string; applicableTariff: string; intervention: { code: string }[] }, parts: Record<string, string> = {}) {
  const form = new FormData();
  const all = { consent_token: consentToken, protocol_code: protocol.protocolCode, intervention_code: protocol.intervention[0]?.code ?? '', unit_price: protocol.applicableTariff, quantity: '1', ...parts };
  for (const [key, value] of Object.entries(all)) form.append(key, value);
  return client.call('POST', '/api/v1/claims/emergency/protocols', { multipart: form });
}
