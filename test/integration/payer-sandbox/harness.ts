// The exchange client (electron/payer) against the conformance sandbox (electron/sandbox), both
// real: the sandbox in-process on a free port, the client over real HTTP. What a nurse's patient
// does (reading the SMS, pressing a finger, a doctor or the payer approving) goes through the
// sandbox's control API, with plain fetch.
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { createExchangeClient, ExchangeError, type ExchangeClient, type ExchangeClientOptions, type ExchangeErrorKind, type ExchangeEvent, type Intervention } from '../../../electron/payer';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../../electron/sandbox';

export const HOSPITAL = { clientId: 'demo-hospital', clientSecret: 'demo-hospital-secret', code: 'FID-00-000004-0' } as const;
export const DISPENSARY = { clientId: 'demo-dispensary', clientSecret: 'demo-dispensary-secret', code: 'FID-00-000002-0' } as const;
/** A service account: its token has no tenant of its own. */
export const INTEGRATOR = { clientId: 'demo-integrator', clientSecret: 'demo-integrator-secret' } as const;

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

/** A registered KMPDC doctor of the demo world, as the practitioner_* fields of visits, lines and preauths. */
export const PRACTITIONER = {
  practitioner_identification_type: 'registration_number',
  practitioner_identification_number: 'A12345',
  practitioner_regulation_body: 'KMPDC',
} as const;
/** The emergency physician of the demo world, as the doctor fields of emergency calls. */
export const EMERGENCY_DOCTOR = { identification_number: 'A34567', identification_type: 'registration_number', regulation_body: 'KMPDC' } as const;
/** The requesting doctor of a preauth, as its `doctors` list names them. */
export const PREAUTH_DOCTOR = { identification_number: 'A12345', identification_type: 'registration_number', regulation_body: 'KMPDC' } as const;

/** What the station sends on every biometric authorize (field notes, [3x]). */
export const BIOMETRIC = {
  agent_id: '22334455',
  work_station_id: 'WS-IDHINI-01',
  authorizing_device_os: 'windows',
  ekyc_provider_id: 'Idhini Demo Hospital',
  provider: HOSPITAL.code,
} as const;

export const DIAGNOSIS = [{ code: 'CA00', name: 'Acute nasopharyngitis' }] as const;

/** The control API and raw calls: plain fetch, so nothing of the client is involved. */
export class Raw {
  constructor(readonly baseUrl: string) {}

  async call<T = unknown>(method: string, path: string, options: { body?: unknown; token?: string; headers?: Record<string, string> } = {}): Promise<{ status: number; body: T }> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(new URL(path, this.baseUrl), { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    const text = await response.text();
    return { status: response.status, body: (text === '' ? null : JSON.parse(text)) as T };
  }

  /** A control call that must succeed. */
  async control<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const r = await this.call<T>(method, path, body === undefined ? {} : { body });
    if (r.status < 200 || r.status > 299) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  }

  async token(who: { clientId: string; clientSecret: string }): Promise<string> {
    const r = await this.call<{ access_token: string }>('POST', '/api/v1/tenants/token', { body: { client_id: who.clientId, client_secret: who.clientSecret } });
    if (r.status !== 200) throw new Error(`token: ${r.status}`);
    return r.body.access_token;
  }
}

export interface Sms {
  readonly to: string;
  readonly otp: string | null;
  readonly purpose: string;
}

export interface World {
  readonly sandbox: RunningSandbox;
  readonly raw: Raw;
  /** The demo hospital (level 4, biometrics enforced). */
  readonly hospital: ExchangeClient;
  /** The demo dispensary (level 2, biometrics not enforced). */
  readonly dispensary: ExchangeClient;
  /** Every HTTP attempt of the hospital's client, as its onEvent reports them. */
  readonly events: ExchangeEvent[];
  /** Another client of the same exchange with its own options (closed with the world). */
  client(credentials: { clientId: string; clientSecret: string }, options?: Partial<ExchangeClientOptions>): ExchangeClient;
  /** POST /sandbox/reset: the seeded world again; event log emptied. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** Quick retries so retry tests stay fast; a deadline far above any sandbox answer. */
const testRetry = { attempts: 3, baseDelayMs: 5, maxDelayMs: 50 };

export async function startWorld(options: SandboxOptions = {}): Promise<World> {
  const sandbox = await startSandbox({ port: 0, callbackRetryBaseMs: 20, ...options });
  const events: ExchangeEvent[] = [];
  const clients: ExchangeClient[] = [];
  const client = (credentials: { clientId: string; clientSecret: string }, extra: Partial<ExchangeClientOptions> = {}) => {
    const c = createExchangeClient({ baseUrl: sandbox.url, credentials, retry: testRetry, timeoutMs: 15_000, ...extra });
    clients.push(c);
    return c;
  };
  const hospital = client(HOSPITAL, { onEvent: (e) => events.push(e) });
  const dispensary = client(DISPENSARY);
  const raw = new Raw(sandbox.url);
  return {
    sandbox,
    raw,
    hospital,
    dispensary,
    events,
    client,
    reset: async () => {
      await raw.control('POST', '/sandbox/reset');
      events.length = 0;
    },
    close: async () => {
      await Promise.all(clients.map((c) => c.close()));
      await sandbox.close();
    },
  };
}

/**
 * The set-up every test file here shares, registered in the calling file: one world for the file
 * (started before its first test, closed after its last), back to the seeded demo world before each
 * test, and the covered patient's four kinds of intervention. Call it before the file's own hooks,
 * which then run after the reset. `w` and `codes` are filled in when the file's tests start: read
 * them inside tests and hooks, never at the top level.
 */
export function useWorld(options: SandboxOptions = {}): { readonly w: World; readonly codes: Catalogue } {
  const w = {} as World;
  const codes = {} as Catalogue;
  beforeAll(async () => {
    Object.assign(w, await startWorld(options));
    Object.assign(codes, await catalogue(w.hospital, await patientId(w.hospital, NID.covered)));
  });
  afterAll(async () => {
    await w.close();
  });
  beforeEach(async () => {
    await w.reset();
  });
  return { w, codes };
}

export async function patientId(client: ExchangeClient, nationalId: string): Promise<string> {
  return (await client.registry.findPatient({ identification_number: nationalId, identification_type: 'National ID' })).id;
}

export interface Catalogue {
  readonly capitation: Intervention;
  readonly elective: Intervention;
  readonly perDiem: Intervention;
  readonly emergency: Intervention;
}

/**
 * The four kinds of intervention every covered member has, found as contracts.md says a client
 * finds them: by the scenario the client recognises from the flags and spellings the sandbox sends.
 */
export async function catalogue(client: ExchangeClient, patient: string): Promise<Catalogue> {
  const all: Intervention[] = [];
  // The exchange lists interventions one sub-benefit at a time (sub_benefit_code is required).
  for (let page = 1; ; page++) {
    const subBenefits = await client.eligibility.subBenefits({ patient_id: patient, page, pageSize: 100 });
    for (const s of subBenefits.items) {
      for (let p = 1; ; p++) {
        const listed = await client.eligibility.interventions({ patient_id: patient, sub_benefit_code: s.code, ...(p === 1 ? {} : { page: p }) });
        all.push(...listed.items);
        if (!listed.hasNext) break;
      }
    }
    if (!subBenefits.hasNext) break;
  }
  const pick = (what: string, fits: (i: Intervention) => boolean): Intervention => {
    const found = all.find(fits);
    if (found === undefined) throw new Error(`no ${what} intervention among ${all.length}`);
    return found;
  };
  return {
    capitation: pick('capitation', (i) => i.scenario === 'capitation' && i.accessPoint === 'OP'),
    elective: pick('elective', (i) => i.scenario === 'elective-preauth' && i.accessPoint === 'IP' && i.paymentMechanism === 'FEE_FOR_SERVICE'),
    perDiem: pick('per diem', (i) => i.scenario === 'per-diem' && i.accessPoint === 'IP'),
    emergency: pick('emergency', (i) => i.scenario === 'emergency' && i.protocolCode !== undefined && i.applicableTariff !== undefined),
  };
}

/** The SMS outbox, oldest first, for a patient (CR id) or a doctor. */
export async function outbox(raw: Raw, who: { patient_id: string } | { doctor_id: string }): Promise<Sms[]> {
  return raw.control<Sms[]>('GET', `/sandbox/sms?${new URLSearchParams(who).toString()}`);
}

/** The code of the newest SMS of that purpose: what the patient (or doctor) reads out to the nurse. */
export async function readOtp(raw: Raw, who: { patient_id: string } | { doctor_id: string }, purpose = 'consent'): Promise<string> {
  const codes = (await outbox(raw, who)).filter((m) => m.otp !== null && m.purpose === purpose);
  const last = codes[codes.length - 1];
  if (last?.otp == null) throw new Error(`no ${purpose} OTP in the outbox for ${JSON.stringify(who)}`);
  return last.otp;
}

/** A 512-byte template no demo patient has enrolled. */
export const STRANGER_TEMPLATE = Buffer.alloc(512, 7).toString('base64');

/** The patient presses an enrolled finger (or a stranger's) on the reader of the authorization page. */
export async function presentFinger(raw: Raw, guid: string, crId: string, matching = true): Promise<{ matched: boolean; status: string; attempts_left: number }> {
  let template = STRANGER_TEMPLATE;
  if (matching) {
    const [finger] = await raw.control<{ finger: string; template: string }[]>('GET', `/sandbox/patients/${encodeURIComponent(crId)}/fingerprints`);
    if (finger === undefined) throw new Error(`patient ${crId} has no enrolled finger`);
    template = finger.template;
  }
  return raw.control('POST', `/sandbox/authorizations/${encodeURIComponent(guid)}/fingerprint`, { template });
}

export async function advanceClock(raw: Raw, ms: number): Promise<void> {
  await raw.control('POST', '/sandbox/clock', { advance_ms: ms });
}

/** Awaits a rejection and checks it is the ExchangeError described. */
export async function refusal(
  call: Promise<unknown>,
  expected: { kind: ExchangeErrorKind; status?: number | undefined; code?: string | undefined; field?: string | undefined },
): Promise<ExchangeError> {
  const error = await call.then(
    (value) => {
      throw new Error(`expected ${expected.kind} ${expected.code ?? ''}, got an answer: ${JSON.stringify(value)}`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ExchangeError);
  expect(error).toMatchObject(expected);
  return error as ExchangeError;
}
