// The secret scan: full flows through the station core with every log line, every event and the
// audit export captured; none may hold the client secret, an access token, a consent token or
// authorization guid, an SMS code, or a patient's name. The SQLite file itself holds them only
// sealed: every column but the sealed ones is read through SQLite and scanned, and the raw bytes
// (with sealed text blanked) are scanned for copies left in old or freed pages. Then the audit
// trail: an edited and a removed record are found by audit.verify.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memorySecretStore } from '../../../electron/station';
import { createSealer } from '../../../electron/station/sealing';
import { DOCTOR, FACILITIES, eventually, openStation, presentAtPage, startWorld, stepOf, visitOpenedBy, type StationHandle, type World } from './harness';

let world: World;
let s: StationHandle;
const secretStore = memorySecretStore();
const dbPath = () => join(world.dir.path, 'scanned.db');

beforeAll(async () => {
  world = await startWorld();
  s = await openStation({ databasePath: dbPath(), sandboxUrl: world.sandbox.url, secrets: secretStore, extra: { clock: { now: () => world.sandbox.context.clock.now() } } });
});
afterAll(async () => {
  await s.station.stop();
  await world.close();
});

async function smsFlow(nationalId: string): Promise<void> {
  const cr = await world.control.crIdOf(nationalId);
  const patient = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: nationalId });
  const consent = await s.ok('consent.begin', { patientRef: patient.patientRef });
  if (stepOf(consent)?.route.route === 'fingerprint' && nationalId === '30000004') await s.ok('consent.startFingerprint', { workflowId: consent.workflowId });
  await s.ok('consent.sendSms', { workflowId: consent.workflowId });
  // A wrong code first: its refusal is logged too.
  await s.refused('consent.confirmSms', { workflowId: consent.workflowId, code: '111111' });
  await s.ok('consent.confirmSms', { workflowId: consent.workflowId, code: await world.control.latestCode({ patient_id: cr }, 'consent') });
  const visit = await visitOpenedBy(s, consent.workflowId);
  await s.ok('visit.addLine', { workflowId: visit.workflowId, unitPriceKes: 900, quantity: 1, diagnoses: [{ code: 'CA40.0' }] });
  await s.ok('visit.preview', { workflowId: visit.workflowId });
  const discharge = await s.ok('discharge.begin', { workflowId: visit.workflowId });
  await s.ok('consent.sendSms', { workflowId: discharge.workflowId });
  await s.ok('consent.confirmSms', { workflowId: discharge.workflowId, code: await world.control.latestCode({ patient_id: cr }, 'discharge') });
  expect((await s.ok('discharge.submit', { workflowId: discharge.workflowId, reason: 'RECOVERED' })).state).toBe('submitted');
}

async function fingerprintFlow(nationalId: string): Promise<void> {
  const cr = await world.control.crIdOf(nationalId);
  const template = await world.control.enrolledTemplate(cr);
  const patient = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: nationalId });
  const consent = await s.ok('consent.begin', { patientRef: patient.patientRef });
  // A cancelled request first, then the one the patient completes.
  await s.ok('consent.startFingerprint', { workflowId: consent.workflowId });
  await s.ok('consent.cancel', { workflowId: consent.workflowId });
  const started = await s.ok('consent.retry', { workflowId: consent.workflowId });
  await presentAtPage(stepOf(started)!.fingerprint!.link!.url, template);
  await eventually(() => s.ok('workflow.get', { workflowId: consent.workflowId }), (v) => v.state === 'visit-opened', 'consent, and the visit it opens');
  const visit = await s.ok('visit.open', { workflowId: consent.workflowId, doctor: DOCTOR });
  await s.ok('visit.addLine', { workflowId: visit.workflowId, unitPriceKes: 900, quantity: 1, diagnoses: [{ code: 'CA40.0' }] });
  const discharge = await s.ok('discharge.begin', { workflowId: visit.workflowId });
  const awaiting = await s.ok('consent.startFingerprint', { workflowId: discharge.workflowId });
  await presentAtPage(stepOf(awaiting)!.fingerprint!.link!.url, template);
  await eventually(() => s.ok('workflow.get', { workflowId: discharge.workflowId }), (v) => v.state === 'ready', 'discharge consent');
  expect((await s.ok('discharge.submit', { workflowId: discharge.workflowId, reason: 'RECOVERED' })).state).toBe('submitted');
}

async function emergencyFlow(): Promise<void> {
  const [protocol] = (await s.ok('emergency.protocols', { interventionCode: 'SHA-01-001' })).items;
  const doctor = { identificationType: 'registration_number', identificationNumber: 'A34567', regulationBody: 'KMPDC' };
  const created = await s.ok('emergency.create', {
    interventionCode: 'SHA-01-001',
    protocolCode: protocol!.protocolCode,
    doctor,
    modeOfArrival: 'AMBULANCE',
    broughtBy: 'RELATIVE',
    referenceNumber: 'AMB-SECRETS-1',
    notes: 'collapsed at the bus stage',
  });
  const patient = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000002' });
  await s.ok('emergency.identify', { workflowId: created.workflowId, patientRef: patient.patientRef });
  const cr = await world.control.crIdOf('30000002');
  await s.ok('consent.confirmSms', { workflowId: created.workflowId, code: await world.control.latestCode({ patient_id: cr }, 'consent') });
  expect((await s.ok('emergency.submit', { workflowId: created.workflowId, reason: 'RECOVERED' })).state).toBe('submitted');
}

function secretsOfTheRun(names: string[]): { label: string; value: string; digits?: boolean }[] {
  const state = world.sandbox.context.state;
  const out: { label: string; value: string; digits?: boolean }[] = [{ label: 'client secret', value: FACILITIES.hospital.clientSecret }];
  for (const token of state.tokens.keys()) out.push({ label: 'access token', value: token });
  for (const a of state.authorizations.values()) {
    out.push({ label: 'authorization token', value: a.token }, { label: 'authorization guid', value: a.guid });
    if (a.ekyc !== null) out.push({ label: 'embed token', value: a.ekyc.embedToken });
  }
  for (const c of state.claims.values()) out.push({ label: 'consent token', value: c.consent_token });
  for (const m of state.sms) if (m.otp !== null) out.push({ label: 'SMS code', value: m.otp, digits: true });
  for (const name of names) {
    out.push({ label: 'patient name', value: name });
    for (const part of name.split(' ')) out.push({ label: 'patient name part', value: part });
  }
  return out;
}

function leaks(text: string, secrets: { label: string; value: string; digits?: boolean }[]): string[] {
  return secrets
    .filter((secret) => (secret.digits === true ? new RegExp(`(?<![0-9])${secret.value}(?![0-9])`).test(text) : text.toLowerCase().includes(secret.value.toLowerCase())))
    .map((secret) => secret.label);
}

/**
 * Every value in every table, read through SQLite, except the sealed columns (which must all be
 * sealed: `v1:` and base64url).
 */
function tableValues(path: string): { plain: { where: string; text: string }[]; sealedCount: number } {
  const db = new Database(path, { readonly: true });
  try {
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name);
    const plain: { where: string; text: string }[] = [];
    let sealedCount = 0;
    for (const table of tables) {
      for (const row of db.prepare(`SELECT * FROM "${table}"`).all() as Record<string, unknown>[]) {
        for (const [column, value] of Object.entries(row)) {
          if (column === 'sealed') {
            expect(value, `${table}.sealed`).toMatch(/^v1:[A-Za-z0-9_-]+$/);
            sealedCount += 1;
          } else if (typeof value === 'string') {
            plain.push({ where: `${table}.${column}`, text: value });
          }
        }
      }
    }
    return { plain, sealedCount };
  } finally {
    db.close();
  }
}

/** The looked-up patients, opened with the journal key from the secret store. */
async function openedPatients(path: string): Promise<string> {
  const key = Buffer.from((await secretStore.get('idhini.journal-key'))!, 'base64');
  const sealer = createSealer(key);
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('SELECT sealed FROM patients').all() as { sealed: string }[]).map((row) => JSON.stringify(sealer.open(row.sealed))).join('\n');
  } finally {
    db.close();
  }
}

/**
 * The raw bytes as text with every run of 16 or more base64url characters blanked. Sealed records,
 * handles and hashes are such runs, and random base64 holds any four letters by chance (a name
 * part like "Juma" about once in six runs of this test). A name in plain text is set apart by
 * spaces, quotes or the bytes of SQLite's record format, so it stays visible (the next test shows it).
 */
function withoutLongRuns(files: Buffer[]): string {
  return files.map((bytes) => bytes.toString('latin1').replace(/[A-Za-z0-9_-]{16,}/g, ' ')).join('\n');
}

describe('secret scan', () => {
  it('no log line, event or audit record carries a secret or a patient name; the journal keeps them sealed', async () => {
    await smsFlow('30000002');
    await smsFlow('30000004');
    await fingerprintFlow('30000001');
    await emergencyFlow();
    const names = await Promise.all(['30000001', '30000002', '30000004'].map((id) => world.control.fullNameOf(id)));
    const secrets = secretsOfTheRun(names);
    expect(secrets.filter((x) => x.label === 'access token').length).toBeGreaterThan(0);
    expect(secrets.filter((x) => x.label === 'SMS code').length).toBeGreaterThanOrEqual(5);
    expect(secrets.filter((x) => x.label === 'consent token').length).toBe(4);

    expect(s.logs.length).toBeGreaterThan(100);
    const logText = s.logs.join('');
    expect(logText).toContain('exchange call');
    expect(logText).toContain('"command":"consent.confirmSms"');
    const badLines = s.logs.map((line) => ({ line, found: leaks(line, secrets) })).filter((l) => l.found.length > 0);
    expect(badLines.map((l) => `${l.found.join(', ')}: ${l.line.slice(0, 200)}`)).toEqual([]);

    // The authorization link (with the page's own embed token) is what the renderer shows: not a secret by the contract.
    expect(leaks(JSON.stringify(s.events), secrets.filter((x) => x.label !== 'embed token'))).toEqual([]);
    const exported = await s.ok('audit.export', {});
    expect(exported.recordCount).toBeGreaterThan(50);
    expect(leaks(exported.content, secrets)).toEqual([]);

    // The SQLite file: every value outside the sealed columns is free of them; the sealed ones do hold
    // the patients (so the scan is not looking at an empty journal), only encrypted.
    const diskSecrets = secrets.filter((x) => x.label !== 'SMS code');
    const { plain, sealedCount } = tableValues(dbPath());
    expect(plain.length).toBeGreaterThan(100);
    expect(plain.flatMap(({ where, text }) => leaks(text, diskSecrets).map((label) => `${label} in ${where}`))).toEqual([]);
    expect(sealedCount).toBeGreaterThan(10);
    const patientsSealed = await openedPatients(dbPath());
    for (const name of names) expect(patientsSealed).toContain(name);

    // And the raw bytes (file and WAL: old page images, freed pages), sealed text taken out first.
    const raw = ['', '-wal'].map((suffix) => `${dbPath()}${suffix}`).filter(existsSync).map((p) => readFileSync(p));
    expect(raw.length).toBeGreaterThan(0);
    expect(leaks(withoutLongRuns(raw), diskSecrets)).toEqual([]);
  });

  it('the raw scan still finds a name stored in plain text beside handles and sealed text', () => {
    const scratch = join(world.dir.path, 'plain.db');
    const db = new Database(scratch);
    db.exec('CREATE TABLE t (id TEXT, note TEXT, sealed TEXT)');
    const id = 'wf_AbCdEfGhIjKlMnOp';
    const insert = db.prepare('INSERT INTO t VALUES (?, ?, ?)');
    insert.run(id, 'visit for Otieno Juma Ochieng', 'v1:' + 'x'.repeat(5000));
    insert.run(id, JSON.stringify({ fullName: 'Wanjiku Mumbi Kamau' }), 'v1:abc');
    db.close();
    const text = withoutLongRuns([readFileSync(scratch)]);
    const names = ['Otieno Juma Ochieng', 'Wanjiku Mumbi Kamau'].map((value) => ({ label: value, value }));
    expect(leaks(text, names).sort()).toEqual(['Otieno Juma Ochieng', 'Wanjiku Mumbi Kamau']);
  });

  it('audit.verify finds an edited record and a removed record', async () => {
    expect(await s.ok('audit.verify', {})).toMatchObject({ intact: true, firstBrokenSeq: null });
    const total = (await s.ok('audit.read', { pageSize: 1 })).total;
    await s.station.stop();

    // Someone with the file in hand: the station's own triggers stop edits, so they are dropped first.
    const raw = new Database(dbPath());
    raw.exec('DROP TRIGGER audit_no_update; DROP TRIGGER audit_no_delete;');
    raw.prepare("UPDATE audit SET summary = 'nothing to see' WHERE seq = 10").run();
    raw.close();
    s = await openStation({ databasePath: dbPath(), sandboxUrl: world.sandbox.url, secrets: secretStore, signIn: false });
    const edited = await s.ok('audit.verify', {});
    expect(edited).toMatchObject({ intact: false, firstBrokenSeq: 10 });
    await s.station.stop();

    const again = new Database(dbPath());
    again.prepare("UPDATE audit SET summary = (SELECT summary FROM audit WHERE seq = 10) WHERE seq = 10").run();
    again.prepare('DELETE FROM audit WHERE seq = ?').run(Math.floor(total / 2));
    again.close();
    s = await openStation({ databasePath: dbPath(), sandboxUrl: world.sandbox.url, secrets: secretStore, signIn: false });
    const removed = await s.ok('audit.verify', {});
    expect(removed.intact).toBe(false);
    expect(removed.firstBrokenSeq).toBeLessThanOrEqual(Math.floor(total / 2));
  });
});
