// End-to-end support: `npm run station:web` spawned on free ports (the real station core, its own
// sandbox and the virtual reader), the sandbox's control API, the nurse's actions counted, and
// axe-core on each screen.
import { createServer } from 'node:net';
import type { Browser, Locator, Page } from 'playwright-core';
import { beforeAll, expect } from 'vitest';
import { PATIENTS } from '../../electron/sandbox/world/patients';
import { useChromium } from '../support/browser-suite';
import { axeViolations, ensureRendererBuilt } from '../support/chromium';
import { flows } from './flows';
import { startStationWeb as startStationWebProcess, urlIn } from '../support/station-web-process';

export interface StationWeb {
  /** The launch URL, with the per-launch secret in its fragment. */
  readonly url: string;
  readonly sandbox: SandboxControl;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/** Two free ports, the station's and the sandbox's. */
async function freePorts(): Promise<[number, number]> {
  for (;;) {
    const [a, b] = [await freePort(), await freePort()];
    if (a !== b) return [a, b];
  }
}

/**
 * A port found free can be taken by another test file's process before station:web binds it (the
 * launcher's device service port too): such a start is tried again on fresh ports, twice at most.
 * Any other failure is thrown at once.
 */
async function startOnFreePorts(more: readonly string[]) {
  for (let attempt = 1; ; attempt++) {
    const [port, sandboxPort] = await freePorts();
    try {
      return { port, sandboxPort, running: await startStationWebProcess(['--port', String(port), '--sandbox-port', String(sandboxPort), ...more], 2, 60_000) };
    } catch (error) {
      if (attempt >= 3 || !(error instanceof Error) || !/is taken|EADDRINUSE/.test(error.message)) throw error;
    }
  }
}

/** Starts `npm run station:web -- --port N --sandbox-port M [more]` (e.g. `--staff "NAME:PIN"`) and waits for its two URL lines. */
export async function startStationWeb(more: readonly string[] = []): Promise<StationWeb> {
  await ensureRendererBuilt();
  const { port, sandboxPort, running } = await startOnFreePorts(more);
  const [station, sandbox] = running.lines.map(urlIn);
  if (!station?.startsWith(`http://127.0.0.1:${port}`) || !sandbox?.startsWith(`http://127.0.0.1:${sandboxPort}`)) {
    await running.stop();
    throw new Error(`station:web printed unexpected URLs: ${running.lines.join(', ')}`);
  }
  return { url: station, sandbox: sandboxControl(sandbox), stop: () => running.stop() };
}

export interface SandboxControl {
  readonly url: string;
  /** OTPs sent to the patient (by national ID of the demo world), oldest first. */
  smsCodes(nationalId: string): Promise<string[]>;
  /** The purposes of the SMS sent to a doctor (registration number or national ID), oldest first: requests, no codes. */
  doctorMessages(doctorId: string): Promise<string[]>;
  faults(rule: Record<string, unknown>): Promise<void>;
  clearFaults(): Promise<void>;
  /** What the faults did to the latest exchange calls, oldest first. */
  recentFaults(): Promise<{ at: string; method: string; path: string; latency_ms: number; failed_with: number | null }[]>;
  doctorApproval(preauthId: string): Promise<void>;
  payerApproval(preauthId: string): Promise<void>;
  advanceClock(ms: number): Promise<void>;
  /**
   * Another station (or this one before a restart) opens a biometric authorization for the patient
   * through the exchange's own API and walks away: a PENDING request the station knows nothing of.
   */
  openFingerprintRequestElsewhere(nationalId: string, interventionCode: string): Promise<{ guid: string; status: string }>;
  /** State changes of the sandbox's claims, preauths and authorizations, in order. */
  transitions(): Promise<{ entity_type: string; subject_guid: string; consent_token: string; from_state: string | null; to_state: string }[]>;
  /** SHA's side of a claim (by its consent token): the control API's workflow-state. */
  payerMovesClaim(consentToken: string, to: string, documents?: readonly string[]): Promise<void>;
  /** SHA's side of a prescription (by the code its create answered): its status and the prescriber's review. */
  prescriptionReview(code: string, change: { status?: string; doctor_review_status?: string }): Promise<void>;
}

export function crIdOf(nationalId: string): string {
  const patient = PATIENTS.find((p) => p.nationalId === nationalId);
  if (patient === undefined) throw new Error(`no demo patient ${nationalId}`);
  return patient.crId;
}

function sandboxControl(url: string): SandboxControl {
  const send = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${url}/sandbox${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    if (!response.ok) throw new Error(`sandbox ${method} ${path}: ${response.status} ${await response.text()}`);
    return response.status === 204 ? null : ((await response.json()) as unknown);
  };
  const codes = async (query: string) => ((await send('GET', `/sms?${query}`)) as { otp: string }[]).map((m) => m.otp);
  return {
    url,
    smsCodes: (nationalId) => codes(`patient_id=${encodeURIComponent(crIdOf(nationalId))}`),
    doctorMessages: async (doctorId) => ((await send('GET', `/sms?doctor_id=${encodeURIComponent(doctorId)}`)) as { purpose: string }[]).map((m) => m.purpose),
    faults: async (rule) => void (await send('POST', '/faults', rule)),
    clearFaults: async () => void (await send('DELETE', '/faults')),
    recentFaults: async () => ((await send('GET', '/faults')) as { recent: Awaited<ReturnType<SandboxControl['recentFaults']>> }).recent,
    doctorApproval: async (id) => void (await send('POST', `/preauths/${encodeURIComponent(id)}/doctor-approval`, {})),
    payerApproval: async (id) => void (await send('POST', `/preauths/${encodeURIComponent(id)}/payer-approval`, {})),
    advanceClock: async (ms) => void (await send('POST', '/clock', { advance_ms: ms })),
    openFingerprintRequestElsewhere: async (nationalId, interventionCode) => {
      const token = await fetch(`${url}/api/v1/tenants/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_id: 'demo-hospital', client_secret: 'demo-hospital-secret', grant_type: 'client_credentials' }),
      });
      if (!token.ok) throw new Error(`sandbox token: ${token.status} ${await token.text()}`);
      const { access_token } = (await token.json()) as { access_token: string };
      const authorize = await fetch(`${url}/api/v1/claims/authorize`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${access_token}` },
        // The twelve fields another workstation sends (a capitation intervention goes as CAPITATION).
        body: JSON.stringify({
          patient_id: crIdOf(nationalId),
          interventions: [interventionCode],
          service_type: 'CAPITATION',
          agent_id: '22334455',
          work_station_id: 'WS-ELSEWHERE-01',
          authorizing_device_os: 'windows',
          factors: ['SHA'],
          ekyc_provider_id: 'Idhini Demo Hospital',
          provider: 'FID-00-000004-0',
          is_integration: true,
          is_emergency: false,
          is_biometrics_discharge_authorization: false,
        }),
      });
      if (!authorize.ok) throw new Error(`sandbox authorize: ${authorize.status} ${await authorize.text()}`);
      return (await authorize.json()) as { guid: string; status: string };
    },
    transitions: async () => (await send('GET', '/transitions')) as Awaited<ReturnType<SandboxControl['transitions']>>,
    payerMovesClaim: async (consentToken, to, documents) =>
      void (await send('POST', `/claims/${encodeURIComponent(consentToken)}/workflow-state`, { to, ...(documents === undefined ? {} : { documents }) })),
    prescriptionReview: async (code, change) => void (await send('POST', `/prescriptions/${encodeURIComponent(code)}/review`, change)),
  };
}

/** Waits for a new SMS code to arrive (the send is asynchronous behind the screen). */
export async function nextCode(read: () => Promise<string[]>, seen: number): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const codes = await read();
    if (codes.length > seen) return codes[codes.length - 1] as string;
    if (Date.now() > deadline) throw new Error('no SMS code arrived');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The nurse's actions as architecture.md counts them (clicks, fields, choices): each method is one
 * action. Typing the ID number and pressing Enter (what a scanner does) is one field.
 */
export class Nurse {
  actions = 0;
  readonly log: string[] = [];
  async click(target: Locator, what: string): Promise<void> {
    await target.click();
    this.count(what);
  }
  async fill(target: Locator, value: string, what: string, options: { enter?: boolean } = {}): Promise<void> {
    await target.fill(value);
    if (options.enter === true) await target.press('Enter');
    this.count(what);
  }
  private count(what: string): void {
    this.actions++;
    this.log.push(what);
  }
}

/** First run on a fresh station: training mode on the sandbox is preselected; the demo hospital is chosen. */
export async function setUpTrainingStation(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.getByRole('heading', { name: 'Set up this station' }).waitFor();
  expect(await page.getByRole('checkbox', { name: 'Training mode (sandbox)' }).isChecked()).toBe(true);
  await expectAccessible(page, 'first run');
  await page.getByRole('button', { name: 'Save and sign in' }).click();
  await page.getByRole('textbox', { name: 'ID number' }).waitFor();
}

export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, `axe-core on ${screen}`).toEqual([]);
}

/** A training station (station:web) and a Chromium page on it, signed in, for one test file. */
export interface TrainingSession {
  readonly station: StationWeb;
  readonly page: Page;
  /** The file's Chromium, for a second window. */
  readonly browser: Browser;
}

/**
 * Starts station:web and Chromium before the file's tests and stops both after. The returned
 * object's fields are filled in by the time the tests run.
 */
export function useTrainingStation(defaultTimeoutMs = 15_000, stationWebArgs: readonly string[] = []): TrainingSession {
  const session = {
    get browser() {
      return chromium.browser;
    },
  } as { station: StationWeb; page: Page; readonly browser: Browser };
  const chromium = useChromium({
    setUp: async () => void (session.station = await startStationWeb(stationWebArgs)),
    tearDown: async () => session.station?.stop(),
  });
  beforeAll(async () => {
    session.page = await chromium.browser.newPage({ viewport: { width: 1280, height: 800 } });
    session.page.setDefaultTimeout(defaultTimeoutMs);
    await setUpTrainingStation(session.page, session.station.url);
  }, 120_000);
  return session;
}

/** On a signed-in station: the patient looked up and a visit opened by SMS code (read from the sandbox's outbox). */
export async function openVisitBySms(page: Page, sandbox: SandboxControl, nationalId: string): Promise<void> {
  const field = page.getByRole('textbox', { name: 'ID number' });
  await field.fill(nationalId);
  await field.press('Enter');
  await page.getByText('Covered', { exact: true }).waitFor();
  await page.getByRole('button', { name: 'Verify by SMS code' }).click();
  const before = (await sandbox.smsCodes(nationalId)).length;
  await page.getByRole('button', { name: 'Send code' }).click();
  await page.getByRole('textbox', { name: 'SMS code' }).fill(await nextCode(() => sandbox.smsCodes(nationalId), before));
  await page.getByText('Visit open', { exact: true }).waitFor();
  await page.getByRole('button', { name: 'Open visit' }).click();
  await page.getByRole('heading', { name: 'Visit', exact: true }).waitFor();
}

/** On an open visit: the prescription form filled in (amoxicillin for five days, no refill by the registry's doctor), not yet sent. */
export async function fillPrescription(page: Page): Promise<Locator> {
  await flows.startPrescription(page);
  const form = page.getByRole('form', { name: 'New prescription' });
  await form.getByRole('textbox', { name: 'Generic medicine code' }).fill('AMOX-500');
  await form.getByRole('textbox', { name: 'Medicine name (optional)' }).fill('Amoxicillin 500 mg');
  await flows.fillItemDetails(form, '0');
  return form;
}
