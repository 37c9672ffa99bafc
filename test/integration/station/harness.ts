// The station core against a running sandbox, driven only through bridge.invoke, as a shell would.
// Each harness owns a fresh temp dir (SQLite file), an in-process sandbox on port 0 and every log
// line the core writes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { CommandInput, CommandName, CommandOutput, StationError, StationEvent, VerificationStep, WorkflowView } from '../../../electron/contract';
import { createExchangeClient } from '../../../electron/payer';
import { startSandbox, TERMINOLOGY, type RunningSandbox } from '../../../electron/sandbox';
import { createStation, memorySecretStore, nativeReaders, type ReadersFacade, type SecretStore, type Station, type StationDeps } from '../../../electron/station';

export const FACILITIES = {
  hospital: { clientId: 'demo-hospital', clientSecret: 'demo-hospital-secret', code: 'FID-00-000004-0', name: 'Idhini Demo Hospital' },
  dispensary: { clientId: 'demo-dispensary', clientSecret: 'demo-dispensary-secret', code: 'FID-00-000002-0', name: 'Idhini Demo Dispensary' },
} as const;

export const DOCTOR = { identificationType: 'registration_number', identificationNumber: 'A12345', regulationBody: 'KMPDC' };
export { HERNIA_NOTES, HERNIA_PREAUTH, SURGEON } from '../../support/elective';
export const WORKSTATION = 'WS-IDHINI-TEST-01';

export const fastTiming = { authorizationPollMs: 50, preauthPollMs: 100, smsResendCooldownMs: 200, reconcileRetryMs: 200, exchangeTimeoutMs: 10_000 };

export interface StationHandle {
  readonly station: Station;
  readonly events: StationEvent[];
  readonly logs: string[];
  ok<N extends CommandName>(name: N, input: CommandInput<N>): Promise<CommandOutput<N>>;
  refused<N extends CommandName>(name: N, input: CommandInput<N>): Promise<StationError>;
}

export class ControlApi {
  constructor(readonly url: string) {}

  async get<T>(path: string): Promise<T> {
    const response = await fetch(`${this.url}/sandbox${path}`);
    expect(response.status, `GET /sandbox${path}`).toBe(200);
    return (await response.json()) as T;
  }

  async post<T>(path: string, body: unknown = {}): Promise<T> {
    const response = await fetch(`${this.url}/sandbox${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(response.status, `POST /sandbox${path}: ${await response.clone().text()}`).toBe(200);
    return (await response.json()) as T;
  }

  /** The newest SMS code sent to a patient (or a doctor, by national id) for a purpose. */
  async latestCode(query: { patient_id?: string; doctor_id?: string }, purpose: string): Promise<string> {
    const qs = new URLSearchParams(query as Record<string, string>).toString();
    const messages = await this.get<{ otp: string | null; purpose: string }[]>(`/sms?${qs}`);
    const code = messages.filter((m) => m.purpose === purpose && m.otp !== null).at(-1)?.otp;
    expect(code, `an SMS code (${purpose})`).toBeTruthy();
    return code!;
  }

  /** The newest SMS code sent for a purpose, or null when none was (the patient's phone shows nothing). */
  async latestCodeOrNull(query: { patient_id?: string; doctor_id?: string }, purpose: string): Promise<string | null> {
    const qs = new URLSearchParams(query as Record<string, string>).toString();
    const messages = await this.get<{ otp: string | null; purpose: string }[]>(`/sms?${qs}`);
    return messages.filter((m) => m.purpose === purpose && m.otp !== null).at(-1)?.otp ?? null;
  }

  async crIdOf(nationalId: string): Promise<string> {
    const world = await this.get<{ patients: { identification_number: string; cr_id: string; full_name: string }[] }>('/world');
    return world.patients.find((p) => p.identification_number === nationalId)!.cr_id;
  }

  async fullNameOf(nationalId: string): Promise<string> {
    const world = await this.get<{ patients: { identification_number: string; full_name: string }[] }>('/world');
    return world.patients.find((p) => p.identification_number === nationalId)!.full_name;
  }

  async enrolledTemplate(crId: string): Promise<string> {
    const fingers = await this.get<{ finger: string; template: string }[]>(`/patients/${crId}/fingerprints`);
    return fingers[0]!.template;
  }

  async advanceClock(ms: number): Promise<void> {
    await this.post('/clock', { advance_ms: ms });
  }
}

/** What the patient does at the authorization page: present a finger to its capture call. */
export async function presentAtPage(linkUrl: string, template: string): Promise<{ matched: boolean; status: string }> {
  const url = new URL(linkUrl);
  url.pathname = `${url.pathname}/capture`;
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ template }) });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as { matched: boolean; status: string };
}

export function tempDir(): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), 'idhini-station-'));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

export function fixedReaders(): ReadersFacade {
  return nativeReaders({ localWorkstationId: WORKSTATION });
}

export interface StationOptions {
  readonly databasePath: string;
  readonly sandboxUrl: string;
  readonly facility?: keyof typeof FACILITIES;
  readonly secrets?: SecretStore;
  readonly readers?: ReadersFacade;
  readonly extra?: Partial<StationDeps>;
  readonly signIn?: boolean;
}

export async function openStation(o: StationOptions): Promise<StationHandle> {
  const facility = FACILITIES[o.facility ?? 'hospital'];
  const logs: string[] = [];
  const events: StationEvent[] = [];
  const station = createStation({
    databasePath: o.databasePath,
    secrets: o.secrets ?? memorySecretStore(),
    exchangeClientFactory: createExchangeClient,
    readers: o.readers ?? fixedReaders(),
    platform: 'win32',
    host: 'browser',
    appVersion: '0.1.0-test',
    log: { destination: { write: (line: string) => logs.push(line) }, level: 'debug' },
    timing: fastTiming,
    initialSettings: {
      exchangeBaseUrl: o.sandboxUrl,
      trainingMode: true,
      facilityCode: facility.code,
      facilityName: facility.name,
      agentNationalId: '22334455',
      allowedLinkOrigins: [o.sandboxUrl],
      defaultServiceType: 'OUTPATIENT',
      terminology: TERMINOLOGY,
    },
    ...o.extra,
  });
  station.bridge.subscribe((event) => events.push(event));
  await station.start();
  const handle: StationHandle = {
    station,
    events,
    logs,
    async ok(name, input) {
      const outcome = await station.bridge.invoke(name, input);
      if (!outcome.ok) throw new Error(`${name} refused: ${JSON.stringify(outcome.error)}`);
      return outcome.value;
    },
    async refused(name, input) {
      const outcome = await station.bridge.invoke(name, input);
      if (outcome.ok) throw new Error(`${name} was expected to be refused, answered ${JSON.stringify(outcome.value).slice(0, 300)}`);
      return outcome.error;
    },
  };
  if (o.signIn !== false) await handle.ok('facility.signIn', { clientId: facility.clientId, clientSecret: facility.clientSecret });
  return handle;
}

export interface World {
  readonly sandbox: RunningSandbox;
  readonly control: ControlApi;
  readonly dir: { path: string; remove(): void };
  readonly stations: StationHandle[];
  station(options?: Partial<Omit<StationOptions, 'sandboxUrl'>>): Promise<StationHandle>;
  close(): Promise<void>;
}

/** A sandbox and a temp dir; stations opened on it are stopped at close. */
export async function startWorld(): Promise<World> {
  const sandbox = await startSandbox({ port: 0, seed: 'station-tests' });
  const dir = tempDir();
  const stations: StationHandle[] = [];
  let n = 0;
  return {
    sandbox,
    control: new ControlApi(sandbox.url),
    dir,
    stations,
    async station(options = {}) {
      n += 1;
      // The station reads sandbox time (as in training mode), so the sandbox's clock control moves both.
      const clock = { now: () => sandbox.context.clock.now() };
      const handle = await openStation({ databasePath: join(dir.path, `station-${n}.db`), sandboxUrl: sandbox.url, ...options, extra: { clock, ...options.extra } });
      stations.push(handle);
      return handle;
    },
    async close() {
      for (const s of stations) await s.station.stop();
      await sandbox.close();
      dir.remove();
    },
  };
}

/** Polls a condition (views move on their own: fingerprint look-ups, preauth status). */
export async function eventually<T>(read: () => Promise<T> | T, accept: (value: T) => boolean, what: string, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(value).slice(0, 400)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The verification step of any view that has one. */
export function stepOf(view: WorkflowView): VerificationStep | null {
  return 'verification' in view ? view.verification : null;
}

/**
 * The visit an SMS-code consent opened (a confirmed code opens it at once: the visit is the
 * consent), with the attending doctor attached as visit.open would have: what "Open visit" shows.
 */
export async function visitOpenedBy(s: StationHandle, consentWorkflowId: string, doctor = DOCTOR): Promise<CommandOutput<'visit.attachDoctor'>> {
  const consent = await s.ok('workflow.get', { workflowId: consentWorkflowId });
  if (consent.kind !== 'consent' || consent.state !== 'visit-opened' || consent.visitWorkflowId === null) {
    throw new Error(`the consent opened no visit: ${JSON.stringify(consent).slice(0, 300)}`);
  }
  return s.ok('visit.attachDoctor', { workflowId: consent.visitWorkflowId, doctor });
}

/** Flow B by SMS code to the submit: look-up, code, visit with its doctor, one line, the visit-end code, submit. The visit's workflow id. */
export async function submitBySmsCode(s: StationHandle, control: ControlApi, nationalId: string, unitPriceKes = 900): Promise<string> {
  const cr = await control.crIdOf(nationalId);
  const patient = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: nationalId });
  const consent = await s.ok('consent.begin', { patientRef: patient.patientRef });
  await s.ok('consent.sendSms', { workflowId: consent.workflowId });
  await s.ok('consent.confirmSms', { workflowId: consent.workflowId, code: await control.latestCode({ patient_id: cr }, 'consent') });
  const visit = await visitOpenedBy(s, consent.workflowId, DOCTOR);
  await s.ok('visit.addLine', { workflowId: visit.workflowId, unitPriceKes, quantity: 1, diagnoses: [{ code: 'CA40.0' }] });
  const discharge = await s.ok('discharge.begin', { workflowId: visit.workflowId });
  await s.ok('consent.sendSms', { workflowId: discharge.workflowId });
  await s.ok('consent.confirmSms', { workflowId: discharge.workflowId, code: await control.latestCode({ patient_id: cr }, 'discharge') });
  await s.ok('discharge.submit', { workflowId: discharge.workflowId, reason: 'RECOVERED' });
  return visit.workflowId;
}
