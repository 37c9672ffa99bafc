// Flow B through the browser host, as the renderer drives it over the WebSocket, against the
// training sandbox: every contract message and every log line (station core and browser host) is
// recorded, then searched for every secret the sandbox issued during the flow — the client secret,
// access tokens, consent and authorization tokens and guids, SMS codes. The renderer sends two of
// them by design (the client secret once, on facility.signIn; the code the patient reads out, on
// consent.confirmSms): those two outgoing calls are the only exception.
// The browser host logs through the core's logger (station.log), whose scrubber knows every secret
// the core has seen: a hostile request whose path and Origin carry a consent token is logged by the
// host with the token blanked — and the same lines from a host given a logger of its own would leak
// it, which the scan catches.
import { request } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startBrowserHost } from '../../../electron/browser-host';
import { createStationLogger } from '../../../electron/station';
import { startTrainingStation, type TrainingStation } from '../../../scripts/station-web-runtime';
import { DOCTOR, presentAtPage } from '../station/harness';
import { connectBridge, secretOf, type BridgeClient } from './bridge-client';

const CLIENT_SECRET = 'demo-hospital-secret';

let dir: string;
let running: TrainingStation;
let client: BridgeClient;
const logLines: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'idhini-secret-scan-'));
  await writeFile(path.join(dir, 'index.html'), '<!doctype html><title>Idhini</title>');
  running = await startTrainingStation({ port: 0, sandboxPort: 0, rendererDir: dir, logDestination: { write: (line: string) => logLines.push(line) } });
  client = await connectBridge(running.host.url, secretOf(running.launchUrl));
});

afterAll(async () => {
  client.close();
  await running.close();
  await rm(dir, { recursive: true, force: true });
});

async function ok(name: string, input: unknown): Promise<Record<string, unknown>> {
  const outcome = await client.invoke(name, input);
  if (!outcome.ok) throw new Error(`${name} refused: ${JSON.stringify(outcome.error)}`);
  return outcome.value as Record<string, unknown>;
}

async function until(read: () => Promise<Record<string, unknown>>, accept: (view: Record<string, unknown>) => boolean, what: string) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const view = await read();
    if (accept(view)) return view;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(view).slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const control = async <T>(pathname: string): Promise<T> => (await (await fetch(`${running.sandbox.url}/sandbox${pathname}`)).json()) as T;

type View = { workflowId: string; state: string; verification?: { fingerprint?: { link?: { url: string } | null } | null } | null };

describe('secret scan over a whole flow B through the browser host', () => {
  it('drives flow B by SMS code and by fingerprint, to submitted claims', async () => {
    await ok('settings.update', { facilityCode: 'FID-00-000004-0', facilityName: 'Idhini Demo Hospital', agentNationalId: '22334455' });
    await ok('facility.signIn', { clientId: 'demo-hospital', clientSecret: CLIENT_SECRET });
    const world = await control<{ patients: { identification_number: string; cr_id: string }[] }>('/world');
    const crOf = (id: string) => world.patients.find((p) => p.identification_number === id)!.cr_id;

    // By SMS code (30000002 is whitelisted): consent, visit, line, visit-end code, submit.
    const smsPatient = await ok('patient.lookUp', { idType: 'National ID', idNumber: '30000002' });
    const consent = (await ok('consent.begin', { patientRef: smsPatient.patientRef })) as unknown as View;
    await ok('consent.sendSms', { workflowId: consent.workflowId });
    const codeFor = async (purpose: string) =>
      (await control<{ otp: string | null; purpose: string }[]>(`/sms?patient_id=${crOf('30000002')}`)).filter((m) => m.purpose === purpose && m.otp !== null).at(-1)!.otp!;
    // Confirm spends the code on the visit itself; the nurse then names the doctor on it.
    const opened = (await ok('consent.confirmSms', { workflowId: consent.workflowId, code: await codeFor('consent') })) as unknown as View & { visitWorkflowId: string };
    const visit = (await ok('visit.attachDoctor', { workflowId: opened.visitWorkflowId, doctor: DOCTOR })) as unknown as View;
    await ok('visit.addLine', { workflowId: visit.workflowId, unitPriceKes: 900, quantity: 1, diagnoses: [{ code: 'CA40.0' }] });
    await ok('visit.preview', { workflowId: visit.workflowId });
    const discharge = (await ok('discharge.begin', { workflowId: visit.workflowId })) as unknown as View;
    await ok('consent.sendSms', { workflowId: discharge.workflowId });
    await ok('consent.confirmSms', { workflowId: discharge.workflowId, code: await codeFor('discharge') });
    expect((await ok('discharge.submit', { workflowId: discharge.workflowId, reason: 'RECOVERED' })).state).toBe('submitted');

    // By fingerprint (30000001): the patient presents an enrolled finger at the authorization page.
    const template = (await control<{ template: string }[]>(`/patients/${crOf('30000001')}/fingerprints`))[0]!.template;
    const fpPatient = await ok('patient.lookUp', { idType: 'National ID', idNumber: '30000001' });
    const fpConsent = (await ok('consent.begin', { patientRef: fpPatient.patientRef })) as unknown as View;
    const started = (await ok('consent.startFingerprint', { workflowId: fpConsent.workflowId })) as unknown as View;
    expect((await presentAtPage(started.verification!.fingerprint!.link!.url, template)).matched).toBe(true);
    await until(() => ok('workflow.get', { workflowId: fpConsent.workflowId }), (v) => v.state === 'visit-opened', 'the fingerprint consent, and the visit it opens');
    const fpVisit = (await ok('visit.open', { workflowId: fpConsent.workflowId, doctor: DOCTOR })) as unknown as View;
    await ok('visit.addLine', { workflowId: fpVisit.workflowId, unitPriceKes: 500, quantity: 1, diagnoses: [{ code: 'CA40.0' }] });
    const fpDischarge = (await ok('discharge.begin', { workflowId: fpVisit.workflowId })) as unknown as View;
    const awaiting = (await ok('consent.startFingerprint', { workflowId: fpDischarge.workflowId })) as unknown as View;
    expect((await presentAtPage(awaiting.verification!.fingerprint!.link!.url, template)).matched).toBe(true);
    await until(() => ok('workflow.get', { workflowId: fpDischarge.workflowId }), (v) => v.state === 'ready', 'the discharge authorization');
    expect((await ok('discharge.submit', { workflowId: fpDischarge.workflowId, reason: 'RECOVERED' })).state).toBe('submitted');
  });

  it('logs a hostile request carrying a consent token through the core, which blanks the token; a logger of the host’s own would not', async () => {
    const token = [...running.sandbox.context.state.claims.values()].at(-1)!.consent_token;
    const before = logLines.length;
    await hostileRequests(running.host.url, token);
    const hostLines = logLines.slice(before).filter((line) => line.includes('"component":"browser-host"'));
    expect(hostLines.map((line) => (JSON.parse(line) as { msg: string }).msg).sort()).toEqual(['bridge upgrade refused: foreign Origin', 'request refused: foreign Host header']);
    expect(findLeaks(hostLines.map((line) => ['log', line]), scannedSecrets())).toEqual([]);

    // The same host over the same core, with a logger of its own (as the shells had): the scan catches it.
    const ownLines: string[] = [];
    const own = await startBrowserHost({ core: running.station.hosted, rendererDir: dir, port: 0, log: createStationLogger({ destination: { write: (line: string) => ownLines.push(line) } }).log });
    try {
      await hostileRequests(own.url, token);
    } finally {
      await own.close();
    }
    expect(findLeaks(ownLines.map((line) => ['log', line]), scannedSecrets())).toEqual([
      expect.stringMatching(/^claim consent token in a log line: .*foreign Host header/),
      expect.stringMatching(/^claim consent token in a log line: .*foreign Origin/),
    ]);
  });

  it('finds no client secret, access token, consent token or SMS code in any message or log line', () => {
    const secrets = scannedSecrets();
    const kinds = new Set(secrets.values());
    // The flow really issued each kind: a scan over nothing would prove nothing.
    expect([...kinds].sort()).toEqual(expect.arrayContaining(['SMS code', 'access token', 'authorization guid', 'client secret', 'consent token']));

    // The detector works: the one call that carries the client secret by design does contain it.
    expect(client.sent.some((frame) => frame.includes(CLIENT_SECRET))).toBe(true);
    // The two calls that carry a secret to the station by design are left out; everything else is scanned.
    const outgoing = client.sent.filter((frame) => !/"name":"(facility\.signIn|consent\.confirmSms)"/.test(frame));
    expect(outgoing.length).toBeGreaterThan(10);
    expect(client.received.length).toBeGreaterThan(20);
    expect(logLines.length).toBeGreaterThan(20);
    const corpus: [string, string][] = [
      ...outgoing.map((text): [string, string] => ['sent', text]),
      ...client.received.map((text): [string, string] => ['received', text]),
      ...logLines.map((text): [string, string] => ['log', text]),
    ];
    expect(findLeaks(corpus, secrets)).toEqual([]);
  });
});

/** Every secret the sandbox issued during the run, by value, with its kind. */
function scannedSecrets(): Map<string, string> {
  const state = running.sandbox.context.state;
  const secrets = new Map<string, string>();
  const add = (kind: string, value: string | null | undefined) => {
    if (typeof value === 'string' && value.length >= 4) secrets.set(value, kind);
  };
  add('client secret', CLIENT_SECRET);
  for (const token of state.tokens.keys()) add('access token', token);
  for (const a of state.authorizations.values()) {
    add('consent token', a.token);
    add('authorization guid', a.guid);
  }
  for (const c of state.claims.values()) add('claim consent token', c.consent_token);
  for (const otp of state.otps) {
    add('SMS code', otp.code);
    add('claim consent token', otp.claim_consent_token);
  }
  return secrets;
}

function findLeaks(corpus: [string, string][], secrets: Map<string, string>): string[] {
  const leaks: string[] = [];
  for (const [where, text] of corpus) {
    for (const [secret, kind] of secrets) if (text.includes(secret)) leaks.push(`${kind} in a ${where} line: ${text.slice(0, 240)}`);
  }
  return leaks;
}

/**
 * What a hostile page or program might send the host: a request under another Host name whose path
 * carries the token (refused: DNS rebinding), and a bridge upgrade from an Origin that carries it
 * (refused: foreign Origin). The host logs both refusals, with the path and the Origin.
 */
async function hostileRequests(hostUrl: string, token: string): Promise<void> {
  const { hostname, port } = new URL(hostUrl);
  const status = await new Promise<number>((resolve, reject) => {
    const req = request({ host: hostname, port, path: `/claims/${token}`, headers: { host: 'station.attacker.example' } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.once('error', reject);
    req.end();
  });
  expect(status).toBe(421);
  const refused = await new Promise<number>((resolve) => {
    const ws = new WebSocket(`${hostUrl.replace(/^http/, 'ws')}/bridge`, { origin: `https://attacker.example/${token}` });
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.once('open', () => {
      resolve(101);
      ws.close();
    });
    ws.once('error', () => undefined);
  });
  expect(refused).toBe(403);
}
