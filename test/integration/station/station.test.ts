// The station around the workflows: first-run settings, facility sign-in and sign-out, the idle
// lock, local paging and search of ~850 interventions, recent patients, workflow listing after a
// restart, readers, and answers that would leave the contract being withheld.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memorySecretStore } from '../../../electron/station';
import { eventually, FACILITIES, fastTiming, openStation, startWorld, stepOf, visitOpenedBy, type World } from './harness';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world.close();
});

describe('settings and sign-in', () => {
  it('names what is missing on first run, keeps the secret only in the store, refuses a wrong secret', async () => {
    const secrets = memorySecretStore();
    const s = await world.station({ signIn: false, secrets, extra: { initialSettings: { exchangeBaseUrl: world.sandbox.url, trainingMode: true } } });
    const first = await s.ok('settings.get', {});
    expect(first).toMatchObject({ credentialsStored: false, clientId: null });
    expect(first.missing).toEqual(['clientId', 'facilityCode', 'facilityName', 'agentNationalId']);
    expect((await s.refused('patient.lookUp', { idType: 'National ID', idNumber: '30000001' })).code).toBe('NOT_SIGNED_IN');
    const updated = await s.ok('settings.update', { facilityCode: FACILITIES.hospital.code, facilityName: FACILITIES.hospital.name, agentNationalId: '22334455' });
    expect(updated.missing).toEqual(['clientId']);
    expect((await s.refused('facility.signIn', { clientId: 'demo-hospital', clientSecret: 'not-the-secret' })).code).toBe('SIGN_IN_FAILED');
    expect((await s.ok('settings.get', {})).credentialsStored).toBe(false);
    const session = await s.ok('facility.signIn', { clientId: 'demo-hospital', clientSecret: FACILITIES.hospital.clientSecret });
    expect(session).toMatchObject({ signedIn: true, facilityCode: FACILITIES.hospital.code, exchangeOrigin: world.sandbox.url });
    const settings = await s.ok('settings.get', {});
    expect(settings).toMatchObject({ credentialsStored: true, clientId: 'demo-hospital', missing: [] });
    expect(JSON.stringify(settings)).not.toContain(FACILITIES.hospital.clientSecret);
    // Kept bound to the exchange's origin that accepted it.
    expect(JSON.parse(String(await secrets.get('idhini.client-secret')))).toEqual({ origin: world.sandbox.url, secret: FACILITIES.hospital.clientSecret });
    // A shell logging through the core's logger gets the same scrubbing.
    s.station.log.child({ component: 'shell' }).warn({ detail: `secret was ${FACILITIES.hospital.clientSecret}` }, 'shell line');
    const shellLine = s.logs.find((l) => l.includes('shell line'));
    expect(shellLine).toContain('[secret]');
    expect(shellLine).not.toContain(FACILITIES.hospital.clientSecret);
    // Signing in again reuses the stored secret.
    expect((await s.ok('facility.signIn', {})).signedIn).toBe(true);
    const out = await s.ok('facility.signOut', { forgetCredentials: true });
    expect(out.signedIn).toBe(false);
    expect(await secrets.get('idhini.client-secret')).toBeUndefined();
    expect((await s.ok('settings.get', {})).missing).toContain('clientId');
  });
});

describe('the idle lock', () => {
  it('locks after the idle minutes by itself, answers LOCKED to all but the status and the sign-in, and unlocks', async () => {
    let now = Date.parse('2025-03-04T09:00:00Z');
    const clock = { now: () => now };
    const s = await world.station({ extra: { clock, idleClock: clock, timing: { ...fastTiming, idleCheckMs: 20 } } });
    const status = await s.ok('station.status', {});
    expect(status.staff).toMatchObject({ name: 'Training nurse', role: 'nurse' });
    expect(status).toMatchObject({ locked: false, signedIn: true, trainingMode: true, host: 'browser', contractVersion: 1 });
    expect(Date.parse(status.lockAt!) - now).toBe(10 * 60_000);
    await s.ok('station.lock', {});
    expect((await s.refused('patient.recent', {})).code).toBe('LOCKED');
    expect(s.events.some((e) => e.type === 'station.locked' && e.reason === 'manual')).toBe(true);
    expect((await s.ok('station.unlock', { pin: '1234' })).locked).toBe(false);
    // Idle: nobody acts for the idle minutes (the administrator's setting); the screens' reads are nobody.
    now += 10 * 60_000 - 1000;
    await s.ok('work.queue', {});
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await s.ok('station.status', {})).locked).toBe(false);
    now += 1000;
    await eventually(() => s.ok('station.status', {}), (status) => status.locked, 'the idle lock');
    expect(s.events.some((e) => e.type === 'station.locked' && e.reason === 'idle')).toBe(true);
    await s.ok('station.unlock', { pin: '1234' });
    expect((await s.ok('patient.recent', {})).items).toEqual([]);
  });
});

describe('benefits, paged and searched on the station', () => {
  it('every intervention of the member is fetched once, one sub-benefit at a time, and paged, searched and filtered locally', async () => {
    const s = await world.station();
    const interventionCalls = () => s.logs.filter((l) => l.includes('"operation":"eligibility.interventions"')).length;
    const patient = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000001' });
    expect(patient.suggestedIntervention).toMatchObject({ scenario: 'capitation' });
    const subBenefits = await s.ok('benefits.subBenefits', { patientRef: patient.patientRef, pageSize: 100 });
    // The rest follow in the background; asked for whole, each list comes once, whole in one answer.
    const all = await s.ok('benefits.interventions', { patientRef: patient.patientRef, pageSize: 100 });
    expect(all.total).toBeGreaterThan(800);
    expect(all.totalPages).toBe(Math.ceil(all.total / 100));
    const callsBefore = interventionCalls();
    expect(callsBefore).toBe(subBenefits.total);
    expect(all.items.every((i) => i.subBenefitCode !== null)).toBe(true);
    const searched = await s.ok('benefits.interventions', { patientRef: patient.patientRef, search: 'hernia' });
    expect(searched.items.length).toBeGreaterThan(0);
    expect(searched.items.every((i) => i.name.toLowerCase().includes('hernia') || i.code.toLowerCase().includes('hernia'))).toBe(true);
    const emergency = await s.ok('benefits.interventions', { patientRef: patient.patientRef, scenario: 'emergency', page: 2, pageSize: 10 });
    expect(emergency.page).toBe(2);
    expect(emergency.items.every((i) => i.scenario === 'emergency' && i.handling.startsWith === 'emergency')).toBe(true);
    const perDiem = await s.ok('benefits.interventions', { patientRef: patient.patientRef, scenario: 'per-diem', pageSize: 1 });
    expect(perDiem.items[0]).toMatchObject({ paymentMechanism: 'PER_DIEM', careSetting: 'inpatient', handling: { billing: 'automatic', closeBy: 'discharge' } });
    const sub = await s.ok('benefits.subBenefits', { patientRef: patient.patientRef, careSetting: 'outpatient' });
    expect(sub.total).toBeGreaterThan(5);
    expect(sub.items.every((b) => b.careSetting !== 'inpatient')).toBe(true);
    const utilization = await s.ok('benefits.utilization', { patientRef: patient.patientRef, interventionCode: patient.suggestedIntervention!.code });
    expect(utilization).toMatchObject({ available: true, interventionCode: patient.suggestedIntervention!.code });
    expect(interventionCalls(), 'no interventions fetched again').toBe(callsBefore);
    const recent = await s.ok('patient.recent', {});
    expect(recent.items[0]).toMatchObject({ patientRef: patient.patientRef, maskedName: patient.maskedName, covered: true });
    expect(recent.items[0]!.maskedIdNumber).toBe('30****01');
  });
});

describe('after a restart', () => {
  it('unfinished workflows are listed with their views; the patient and the session come back', async () => {
    const secrets = memorySecretStore();
    const databasePath = join(world.dir.path, 'restart.db');
    const first = await openStation({ databasePath, sandboxUrl: world.sandbox.url, secrets });
    const patient = await first.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000002' });
    const consent = await first.ok('consent.begin', { patientRef: patient.patientRef });
    await first.ok('consent.sendSms', { workflowId: consent.workflowId });
    await first.station.stop();

    const second = await openStation({ databasePath, sandboxUrl: world.sandbox.url, secrets, signIn: false });
    try {
      const listed = await second.ok('workflow.list', { patientRef: patient.patientRef });
      expect(listed.items).toHaveLength(1);
      expect(listed.items[0]).toMatchObject({ workflowId: consent.workflowId, state: 'verifying', verification: { stage: 'sms-sent' } });
      const cr = await world.control.crIdOf('30000002');
      await second.ok('consent.confirmSms', { workflowId: consent.workflowId, code: await world.control.latestCode({ patient_id: cr }, 'consent') });
      expect((await visitOpenedBy(second, consent.workflowId)).state).toBe('open');
      expect((await second.ok('workflow.list', { kind: 'consent', includeEnded: true })).items[0]?.state).toBe('visit-opened');
    } finally {
      await second.station.stop();
    }
  });
});

describe('readers', () => {
  it('reports the readers facade and refuses a fingerprint without any device service', async () => {
    const s = await world.station({ readers: (await import('../../../electron/station')).noReaders() });
    const state = await s.ok('readers.state', { refresh: true });
    expect(state).toMatchObject({ reader: { state: 'absent' }, hardwareService: { state: 'not-running' }, localDeviceService: { state: 'off' } });
    const patient = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000001' });
    const consent = await s.ok('consent.begin', { patientRef: patient.patientRef });
    expect((await s.refused('consent.startFingerprint', { workflowId: consent.workflowId })).code).toBe('HARDWARE_SERVICE_NOT_RUNNING');
    expect((await s.refused('workflow.get', { workflowId: 'wf_doesnotexist' })).code).toBe('NOT_FOUND');
    expect((await s.refused('consent.begin', { patientRef: 'pt_nottheresorry' })).code).toBe('NOT_FOUND');
  });
});

describe('the authorization link area', () => {
  it('is the shell’s: the core answers no setArea; in Electron the shell takes the link by its handle, the renderer sees its origin only', async () => {
    const browser = await world.station();
    const electron = await world.station({ extra: { host: 'electron' } });
    for (const [s, host] of [
      [browser, 'browser'],
      [electron, 'electron'],
    ] as const) {
      const patient = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000001' });
      const consent = await s.ok('consent.begin', { patientRef: patient.patientRef });
      const started = await s.ok('consent.startFingerprint', { workflowId: consent.workflowId });
      const link = stepOf(started)!.fingerprint!.link!;
      // Each shell answers it (electron/main's view, the browser host's "the renderer shows it"); no shell stands in front of this bridge.
      expect((await s.refused('authorizationView.setArea', { handle: link.handle, area: { x: 10, y: 20, width: 600, height: 400 } })).code).toBe('WRONG_STATE');
      const behind = s.station.authorizationLink(link.handle)!;
      expect(behind).toMatchObject({ url: expect.stringMatching(/\?t=/), allowedOrigins: [world.sandbox.url] });
      // Electron: the renderer's views name the link's origin only; its path and embed token stay in the main process.
      expect(link.url).toBe(host === 'electron' ? `${world.sandbox.url}/` : behind.url);
      if (host === 'electron') expect(JSON.stringify([started, ...s.events])).not.toContain(new URL(behind.url).search);
      // A locked station gives the shell no link (the shell answers setArea past the lock gate); the sign-in brings it back.
      await s.ok('station.lock', {});
      expect(s.station.authorizationLink(link.handle)).toBeNull();
      await s.ok('station.unlock', { pin: '1234' });
      expect(s.station.authorizationLink(link.handle)).toEqual(behind);
      await s.ok('consent.cancel', { workflowId: consent.workflowId });
      expect(s.station.authorizationLink(link.handle)).toBeNull();
    }
  });
});
