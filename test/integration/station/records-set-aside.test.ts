// Records the station cannot read back are set aside, never cast and never deleted: on a copy of the
// 2026-11-28 data folder, one workflow is re-sealed as a newer Idhini's (version 99), one is altered
// on disk, one holds a state no machine has, a memo is not text and a setting not what it may be.
// The station still starts, works without them and says so (status, audit); the rows stay as they
// were; a restart does not audit them again; a record put right is read again by the next start.
import { chmodSync, cpSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileSecretStore } from '../../../electron/station';
import { createSealer } from '../../../electron/station/sealing';
import { visitRecord } from '../../../electron/station/workflows/records/visit';
import { readFixture } from '../../support/data-folder';
import { openStation, tempDir, type StationHandle } from './harness';

const FIXTURE = path.resolve(import.meta.dirname, '../../fixtures/data-folders/2026-11-28-0854e29');
const { manifest } = readFixture(FIXTURE);
const dir = tempDir();
const database = path.join(dir.path, manifest.station.database);
const secrets = path.join(dir.path, manifest.station.secrets);
const nurse = manifest.staff.find((m) => m.role === 'nurse')!;
const story = (which: string) => manifest.workflows.find((w) => w.story === which)!.workflowId;
const [visit, consent, elective] = [story('visit-open'), story('consent-awaiting-sms-code'), story('elective-awaiting-doctor')];

const sealer = createSealer(Buffer.from((JSON.parse(readFileSync(path.join(FIXTURE, manifest.station.secrets), 'utf8')) as Record<string, string>)['idhini.journal-key']!, 'base64'));
const rowsBefore = new Map<string, string>();
/** The consent's record as the fixture holds it, to put back. */
let consentAsMade = '';

async function start(): Promise<StationHandle> {
  const s = await openStation({
    databasePath: database,
    // No exchange answers here: the station starts, unsigned, on what it holds.
    sandboxUrl: 'http://127.0.0.1:9',
    secrets: new FileSecretStore(secrets, { platform: process.platform }),
    signIn: false,
    extra: { clock: { now: () => Date.parse(manifest.stoppedAt) + 60_000 } },
  });
  await s.ok('station.unlock', { pin: nurse.pin });
  return s;
}

beforeAll(() => {
  cpSync(path.join(FIXTURE, manifest.station.folder), path.join(dir.path, manifest.station.folder), { recursive: true });
  chmodSync(secrets, 0o600);
  const db = new Database(database);
  const sealedOf = (id: string) => (db.prepare('SELECT sealed FROM workflows WHERE id = ?').get(id) as { sealed: string }).sealed;
  const reseal = (id: string, sealed: string) => db.prepare('UPDATE workflows SET sealed = ? WHERE id = ?').run(sealed, id);
  const record = (id: string) => sealer.open(sealedOf(id)) as Record<string, unknown>;
  consentAsMade = sealedOf(consent);
  // A newer Idhini's visit; an elective whose bytes were altered; a consent in a state no machine has.
  reseal(visit, sealer.seal({ version: 99, record: { ...record(visit), someday: true } }));
  const altered = sealedOf(elective);
  reseal(elective, `${altered.slice(0, 40)}${altered[40] === 'A' ? 'B' : 'A'}${altered.slice(41)}`);
  reseal(consent, sealer.seal({ ...record(consent), state: 'teleported' }));
  db.prepare("INSERT INTO settings (key, value) VALUES ('idleLockMinutes', '\"eleven\"')").run();
  db.prepare("UPDATE settings SET value = '42' WHERE key = 'memo.deviceId'").run();
  for (const id of [visit, elective, consent]) rowsBefore.set(id, sealedOf(id));
  db.close();
});

afterAll(() => dir.remove());

describe('records set aside', () => {
  let s: StationHandle;
  afterAll(async () => s?.station.stop());

  it('starts, without them, saying so in its status and in the audit', async () => {
    s = await start();
    const status = await s.ok('station.status', {});
    expect(status.setAside.count).toBe(4);
    expect(status.setAside.records).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ source: 'workflow', key: visit, kind: 'visit', reason: 'newer' }),
        expect.objectContaining({ source: 'workflow', key: elective, kind: 'elective', reason: 'unreadable' }),
        expect.objectContaining({ source: 'workflow', key: consent, kind: 'consent', reason: 'invalid' }),
        expect.objectContaining({ source: 'setting', key: 'idleLockMinutes', reason: 'invalid' }),
      ]),
    );
    // The setting falls back to its default; the device id, not text, is made anew (and the memo with it).
    expect((await s.ok('settings.get', {})).idleLockMinutes).toBe(10);
    expect((await s.ok('audit.read', { action: 'records.writtenAnew', page: 1, pageSize: 50 })).items.map((r) => r.summary)).toEqual(['something the station remembered written anew']);
    expect((await s.ok('work.queue', {})).items.map((i) => i.view.workflowId)).toEqual([]);
    const audit = await s.ok('audit.read', { action: 'records.setAside', page: 1, pageSize: 50 });
    // The station reads up to the visit record's current version, whichever a later change made it.
    expect(audit.items.map((r) => r.summary)).toContainEqual(expect.stringContaining(`a visit workflow set aside: a newer Idhini wrote it (version 99; this station reads up to ${visitRecord.current})`));
    expect(audit.items.map((r) => r.summary)).toContainEqual(expect.stringMatching(/^an elective workflow set aside: it cannot be opened with this station’s key/));
    expect(audit.items.map((r) => r.summary).join('\n')).toMatch(/a consent workflow set aside: it is not what its version says \(not version 1: state: invalid_value\)/);
    expect(audit.items.map((r) => r.summary)).toContain('something the station remembered set aside: it is not what its version says ((record): invalid_type)');
    expect(audit.total).toBe(5);
    expect(await s.ok('audit.verify', {})).toMatchObject({ intact: true });
  });

  it('keeps every row as it was: nothing deleted, nothing rewritten', async () => {
    await s.station.stop();
    const db = new Database(database, { readonly: true });
    for (const [id, sealed] of rowsBefore) expect((db.prepare('SELECT sealed FROM workflows WHERE id = ?').get(id) as { sealed: string }).sealed).toBe(sealed);
    expect((db.prepare("SELECT value FROM settings WHERE key = 'idleLockMinutes'").get() as { value: string }).value).toBe('"eleven"');
    db.close();
  });

  it('audits each once; one put right is read again at the next start', async () => {
    const db = new Database(database);
    db.prepare('UPDATE workflows SET sealed = ? WHERE id = ?').run(consentAsMade, consent);
    db.close();
    s = await start();
    const status = await s.ok('station.status', {});
    expect(status.setAside.records.map((r) => r.key).sort()).toEqual([elective, visit, 'idleLockMinutes'].sort());
    expect((await s.ok('audit.read', { action: 'records.setAside', page: 1, pageSize: 50 })).total).toBe(5);
    expect((await s.ok('audit.read', { action: 'records.readAgain', page: 1, pageSize: 50 })).items).toMatchObject([{ workflowId: consent, outcome: 'succeeded' }]);
    expect((await s.ok('work.queue', {})).items.map((i) => i.view.workflowId)).toEqual([consent]);
    expect(await s.ok('audit.verify', {})).toMatchObject({ intact: true });
  });
});
