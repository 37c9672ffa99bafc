// Records that survive an upgrade: every data folder an earlier release left in
// test/fixtures/data-folders (see its README) is opened by today's station. The sandbox is brought
// back to where that release left it (its recorded calls replayed on the same seed and clock), the
// station starts on a copy of the folder a minute after it stopped, with browser mode's key store
// from the folder: every workflow in flight is in the queue, the audit verifies, nothing is
// quarantined, and each goes on to its end — the consent takes its SMS code and opens the visit, the
// open visit is billed and submitted, the elective's doctor and the payer approve and it reaches its
// visit.
import { chmodSync, cpSync, existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../electron/sandbox';
import { FileSecretStore } from '../../../electron/station';
import { FixtureTime, readFixture, replayExchange, MANIFEST_FILE, type FixtureManifest } from '../../support/data-folder';
import { ControlApi, DOCTOR, eventually, openStation, presentAtPage, stepOf, tempDir, type StationHandle } from './harness';

const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/data-folders');
const folders = readdirSync(FIXTURES).filter((name) => existsSync(path.join(FIXTURES, name, MANIFEST_FILE)));

it('finds the data folders of earlier releases', () => {
  // One per release from 2026-11-28 on: none found is a broken checkout, never a pass.
  expect(folders.length).toBeGreaterThan(0);
});

describe.each(folders)('the data folder of %s', (name) => {
  const { manifest, exchange } = readFixture(path.join(FIXTURES, name));
  const time = new FixtureTime();
  const dir = tempDir();
  let sandbox: RunningSandbox;
  let control: ControlApi;
  let s: StationHandle;
  const story = (which: FixtureManifest['workflows'][number]['story']) => {
    const found = manifest.workflows.find((w) => w.story === which);
    if (found === undefined) throw new Error(`${name} has no ${which}`);
    return found;
  };

  beforeAll(async () => {
    // A copy: the fixture is never written to. Git does not keep secrets.json to its owner; the copy is.
    cpSync(path.join(FIXTURES, name, manifest.station.folder), path.join(dir.path, manifest.station.folder), { recursive: true });
    chmodSync(path.join(dir.path, manifest.station.secrets), 0o600);
    sandbox = await startSandbox({ port: 0, seed: exchange.sandbox.seed, now: time.now });
    control = new ControlApi(sandbox.url);
    await replayExchange(exchange, sandbox.url, time);
    time.runFrom(Date.parse(manifest.stoppedAt) + 60_000);
    const nurse = manifest.staff.find((m) => m.role === 'nurse')!;
    s = await openStation({
      databasePath: path.join(dir.path, manifest.station.database),
      sandboxUrl: sandbox.url,
      secrets: new FileSecretStore(path.join(dir.path, manifest.station.secrets), { platform: process.platform }),
      signIn: false,
      extra: {
        clock: { now: () => sandbox.context.clock.now() },
        // As station:web --exchange gives it at every start: the exchange is at another port now.
        provisioning: { source: 'launcher', settings: { exchangeBaseUrl: sandbox.url, allowedLinkOrigins: [sandbox.url] }, staff: [], allowLoopbackHttp: true },
      },
    });
    await s.station.signInFacility({ clientId: manifest.facility.clientId, clientSecret: manifest.facility.clientSecret });
    await s.ok('station.unlock', { pin: nurse.pin });
  }, 60_000);

  afterAll(async () => {
    await s?.station.stop();
    await sandbox?.close();
    dir.remove();
  });

  it('starts with every workflow in flight in the queue and the audit intact', async () => {
    const queue = await s.ok('work.queue', {});
    const queued = new Map(queue.items.map((item) => [item.view.workflowId, item.view]));
    for (const w of manifest.workflows) expect(queued.get(w.workflowId), w.story).toMatchObject({ kind: w.kind, state: w.state });
    expect(await s.ok('audit.verify', {})).toMatchObject({ intact: true, firstBrokenSeq: null });
  });

  it('takes the patient’s SMS code on the consent, which opens the visit', async () => {
    const consent = story('consent-awaiting-sms-code');
    const code = await control.latestCode({ patient_id: await control.crIdOf(consent.patient.idNumber) }, 'consent');
    const opened = await s.ok('consent.confirmSms', { workflowId: consent.workflowId, code });
    expect(opened).toMatchObject({ kind: 'consent', state: 'visit-opened' });
    if (opened.kind !== 'consent' || opened.visitWorkflowId === null) throw new Error('no visit');
    expect(await s.ok('workflow.get', { workflowId: opened.visitWorkflowId })).toMatchObject({ kind: 'visit', state: 'open' });
  });

  it('bills the open visit and submits its claim', async () => {
    const visit = story('visit-open');
    const billed = await s.ok('visit.addLine', { workflowId: visit.workflowId, unitPriceKes: 900, quantity: 1, diagnoses: [{ code: 'CA40.0' }] });
    expect(billed).toMatchObject({ doctor: DOCTOR, lines: [{ unitPriceKes: 900 }] });
    const discharge = await s.ok('discharge.begin', { workflowId: visit.workflowId });
    const awaiting = await s.ok('consent.startFingerprint', { workflowId: discharge.workflowId });
    const template = await control.enrolledTemplate(await control.crIdOf(visit.patient.idNumber));
    expect((await presentAtPage(stepOf(awaiting)!.fingerprint!.link!.url, template)).matched).toBe(true);
    await eventually(() => s.ok('workflow.get', { workflowId: discharge.workflowId }), (v) => v.state === 'ready', 'the visit-end authorization');
    expect(await s.ok('discharge.submit', { workflowId: discharge.workflowId, reason: 'RECOVERED' })).toMatchObject({ state: 'submitted', claimStatus: 'SUBMITTED' });
    expect(await s.ok('workflow.get', { workflowId: visit.workflowId })).toMatchObject({ state: 'closed' });
  });

  it('hears the doctor’s and the payer’s approval of the elective and opens its visit', async () => {
    const elective = story('elective-awaiting-doctor');
    const view = await s.ok('workflow.get', { workflowId: elective.workflowId });
    const reference = view.kind === 'elective' ? view.preauth?.reference : undefined;
    expect(reference).toBeTruthy();
    await control.post(`/preauths/${reference}/doctor-approval`);
    await eventually(() => s.ok('workflow.get', { workflowId: elective.workflowId }), (v) => v.state === 'awaiting-payer', 'the doctor’s approval to be seen');
    await control.post(`/preauths/${reference}/payer-approval`);
    await eventually(() => s.ok('workflow.get', { workflowId: elective.workflowId }), (v) => v.state === 'finalised', 'the preauth to be finalised');
    const visit = await s.ok('visit.open', { workflowId: elective.workflowId, doctor: DOCTOR });
    expect(visit).toMatchObject({ state: 'open', serviceType: 'INPATIENT', fromWorkflowId: elective.workflowId });
    expect(await s.ok('workflow.get', { workflowId: elective.workflowId })).toMatchObject({ state: 'visit-opened', visitWorkflowId: visit.workflowId });
  });
});
