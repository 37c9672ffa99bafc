// Issue 20's defects as they were reproduced against the station core, through its bridge, each
// failing on the code before the fix. The shell's and the device service's own defects are tested
// where they live: 5 in test/unit/shell/switches.test.ts, 6 in
// test/integration/native-bridge/local-device-service.test.ts, 8 in test/unit/shell/link-requests.test.ts,
// and 2 in browser mode in test/integration/browser-host/idle-lock.test.ts.
import { createHmac, scrypt } from 'node:crypto';
import { chmod, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { memorySecretStore } from '../../../electron/station';
import { recordHash } from '../../../electron/station/audit';
import { hashPin } from '../../../electron/station/staff';
import { startTrainingStation } from '../../../scripts/station-web-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StationProvisioning } from '../../../electron/station/provisioning';
import { eventually, openStation, presentAtPage, startWorld, stepOf, type World } from './harness';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world.close();
});

const NURSE = { name: 'Amina Wekesa', role: 'nurse' as const, pin: '482100' };
const IT_OFFICER = { name: 'IT officer', role: 'administrator' as const, pin: '771199' };
const provisioning = (): StationProvisioning => ({ source: 'launcher', settings: {}, staff: [NURSE, IT_OFFICER] });

/** What a copied database gives someone who tries PINs the way a plain salted scrypt hash is checked. */
function scryptOf(pin: string, salt: string, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => scrypt(pin, Buffer.from(salt, 'base64url'), 32, { N: n, r, p, maxmem: 64 * 1024 * 1024 }, (error, key) => (error ? reject(error) : resolve(key))));
}

async function pinsFoundIn(hash: string, candidates: readonly string[], pepper?: Buffer): Promise<string[]> {
  const [, n, r, p, salt, key] = hash.split('$');
  const found: string[] = [];
  for (const pin of candidates) {
    const derived = await scryptOf(pin, salt!, Number(n), Number(r), Number(p));
    const tried = pepper === undefined ? derived.toString('base64url') : createHmac('sha256', pepper).update(derived).digest('base64url');
    if (tried === key) found.push(pin);
  }
  return found;
}

const CANDIDATES = ['1234', '4821', '482100', '771199', '000000'];

type Row = { seq: number; at: string; action: string; workflow_id: string | null; workflow_kind: string | null; outcome: string; error_code: string | null; summary: string; actor: string | null; previous_hash: string | null; hash: string };

/**
 * What someone with the database file does to the trail, as main's chain let him: the change made,
 * then every hash from there recomputed by the chain's rule (SHA-256 over the fields) and the head
 * row set to the new end.
 */
function rewriteTrail(databasePath: string, from: number, change: (db: Database.Database) => void): void {
  const db = new Database(databasePath);
  db.exec('DROP TRIGGER audit_no_update; DROP TRIGGER audit_no_delete;');
  change(db);
  const rows = db.prepare('SELECT * FROM audit ORDER BY seq').all() as Row[];
  let previous: string | null = rows.find((row) => row.seq === from - 1)?.hash ?? null;
  for (const row of rows.filter((r) => r.seq >= from)) {
    const hash = recordHash({ seq: row.seq, at: row.at, action: row.action, workflowId: row.workflow_id, workflowKind: row.workflow_kind as never, outcome: row.outcome as never, errorCode: row.error_code as never, summary: row.summary, actor: row.actor, previousHash: previous });
    db.prepare('UPDATE audit SET previous_hash = ?, hash = ? WHERE seq = ?').run(previous, hash, row.seq);
    previous = hash;
  }
  db.prepare('UPDATE audit_head SET seq = ?, hash = ? WHERE id = 1').run(rows.at(-1)!.seq, previous);
  db.close();
}

/** An exchange whose token endpoint answers `token` and whose every other route says 200 {}. */
async function tokenStandIn(token: Record<string, unknown>): Promise<{ url: string; calls: string[]; close(): Promise<void> }> {
  const calls: string[] = [];
  const server: Server = createServer((request, response) => {
    calls.push(`${request.method} ${request.url}`);
    request.resume();
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(request.url === '/api/v1/tenants/token' ? token : {}));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('issue 20, defect by defect (the station core)', () => {
  it('1 — at a station an administrator locked, every command but the status and the sign-in answers LOCKED: nobody adds an administrator with her role', async () => {
    const s = await world.station({ extra: { provisioning: provisioning() } });
    await s.ok('station.unlock', { pin: IT_OFFICER.pin });
    await s.ok('station.lock', {});
    const newAdministrator = { name: 'Intruder', role: 'administrator' as const, pin: '135790', administratorPin: IT_OFFICER.pin };
    expect((await s.refused('staff.add', newAdministrator)).code).toBe('LOCKED');
    for (const refused of [
      await s.refused('staff.list', {}),
      await s.refused('settings.get', {}),
      await s.refused('settings.update', { idleLockMinutes: 240 }),
      await s.refused('audit.read', {}),
      await s.refused('work.queue', {}),
      await s.refused('readers.state', {}),
      await s.refused('station.reportActivity', {}),
    ]) {
      expect(refused.code).toBe('LOCKED');
    }
    expect(await s.ok('station.status', {})).toMatchObject({ locked: true, staff: { name: IT_OFFICER.name } });
    // Signed in again as a nurse, she is no administrator; the administrator signed in now is.
    await s.ok('station.unlock', { pin: NURSE.pin });
    expect((await s.refused('staff.add', newAdministrator)).code).toBe('ADMINISTRATOR_REQUIRED');
    await s.ok('station.unlock', { pin: IT_OFFICER.pin });
    const records = (await s.ok('audit.read', { action: 'staff.add' })).items;
    expect(records).toEqual([]);
  });

  it('1 — adding an administrator asks for the administrator’s own PIN again; a wrong one counts towards the lockout', async () => {
    const s = await world.station({ extra: { provisioning: provisioning() } });
    await s.ok('station.unlock', { pin: IT_OFFICER.pin });
    const second = { name: 'Second administrator', role: 'administrator' as const, pin: '246802' };
    expect(await s.refused('staff.add', second)).toMatchObject({ code: 'VALIDATION', details: { field: 'administratorPin' } });
    expect(await s.refused('staff.add', { ...second, administratorPin: '000000' })).toMatchObject({ code: 'PIN_WRONG', details: { field: 'administratorPin', attemptsLeft: 4 } });
    expect(await s.ok('staff.add', { ...second, administratorPin: IT_OFFICER.pin })).toMatchObject({ role: 'administrator', pin: 'ok' });
    // A nurse needs no second PIN.
    expect(await s.ok('staff.add', { name: 'Chebet Rono', role: 'nurse', pin: '975310' })).toMatchObject({ role: 'nurse' });
  });

  it('1 — whether a PIN is taken is told only to an administrator signed in now, and each such answer is a wrong try of the five', async () => {
    const s = await world.station({ extra: { provisioning: provisioning() } });
    // A nurse, or anyone at the lock, learns nothing about the PIN she tries.
    await s.ok('station.unlock', { pin: NURSE.pin });
    expect((await s.refused('staff.add', { name: 'Guess', role: 'nurse', pin: IT_OFFICER.pin })).code).toBe('ADMINISTRATOR_REQUIRED');
    await s.ok('station.lock', {});
    expect((await s.refused('staff.add', { name: 'Guess', role: 'nurse', pin: IT_OFFICER.pin })).code).toBe('LOCKED');
    // The administrator is told, and every answer is counted with the lock's wrong PINs.
    await s.ok('station.unlock', { pin: IT_OFFICER.pin });
    expect(await s.refused('staff.add', { name: 'Guess', role: 'nurse', pin: NURSE.pin })).toMatchObject({ code: 'VALIDATION', details: { field: 'pin', attemptsLeft: 4 } });
    expect(await s.refused('station.unlock', { pin: '0000' })).toMatchObject({ code: 'PIN_WRONG', details: { attemptsLeft: 3 } });
    expect((await s.refused('staff.add', { name: 'Guess', role: 'nurse', pin: NURSE.pin })).details?.attemptsLeft).toBe(2);
    expect((await s.refused('staff.add', { name: 'Guess', role: 'nurse', pin: NURSE.pin })).details?.attemptsLeft).toBe(1);
    expect((await s.refused('staff.add', { name: 'Guess', role: 'nurse', pin: NURSE.pin })).code).toBe('PIN_LOCKED');
    // Locked out: no PIN is tried, not even a free one, not even the right one at the lock.
    expect((await s.refused('staff.add', { name: 'Free', role: 'nurse', pin: '864200' })).code).toBe('PIN_LOCKED');
    expect((await s.refused('station.unlock', { pin: IT_OFFICER.pin })).code).toBe('PIN_LOCKED');
    const refused = await s.ok('audit.read', { action: 'staff.add', outcome: 'failed' });
    expect(refused.items.map((r) => r.errorCode)).toEqual(['PIN_LOCKED', 'VALIDATION', 'VALIDATION', 'VALIDATION']);
  });

  it('1 — a locked station pushes no workflow news: the patient’s fingerprint that opens a visit behind the lock is told only after a sign-in', async () => {
    const s = await world.station({ extra: { provisioning: provisioning() } });
    const cr = await world.control.crIdOf('30000001');
    const patient = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000001' });
    const consent = await s.ok('consent.begin', { patientRef: patient.patientRef });
    const started = await s.ok('consent.startFingerprint', { workflowId: consent.workflowId });
    await s.ok('station.lock', {});
    const seenBefore = s.events.length;
    expect((await presentAtPage(stepOf(started)!.fingerprint!.link!.url, await world.control.enrolledTemplate(cr))).matched).toBe(true);
    await eventually(() => [...world.sandbox.context.state.claims.values()].filter((c) => c.patient_id === cr).length, (n) => n === 1, 'the visit opened behind the lock');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(s.events.slice(seenBefore).map((e) => e.type).filter((type) => !type.startsWith('station.'))).toEqual([]);
    await s.ok('station.unlock', { pin: '1234' });
    expect((await s.ok('workflow.get', { workflowId: consent.workflowId })).state).toBe('visit-opened');
  });

  it.each([
    ['a record edited, every hash after it recomputed', (db: Database.Database) => db.prepare("UPDATE audit SET summary = 'nothing happened' WHERE seq = 4").run(), 4],
    [
      'a record removed and the rest renumbered',
      (db: Database.Database) => {
        db.prepare('DELETE FROM audit WHERE seq = 4').run();
        db.prepare('UPDATE audit SET seq = seq - 1 WHERE seq > 4').run();
      },
      4,
    ],
  ])('3 — a trail rewritten in the database file (%s) fails audit.verify, naming the first bad record', { timeout: 60_000 }, async (_what, change, firstBad) => {
    const databasePath = join(world.dir.path, `rewritten-${firstBad}-${_what.length}.db`);
    const secrets = memorySecretStore();
    const first = await openStation({ databasePath, sandboxUrl: world.sandbox.url, secrets });
    await first.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000001' });
    await first.ok('station.lock', {});
    await first.ok('station.unlock', { pin: '1234' });
    expect((await first.ok('audit.verify', {})).intact).toBe(true);
    await first.station.stop();
    rewriteTrail(databasePath, firstBad, change);
    const again = await openStation({ databasePath, sandboxUrl: world.sandbox.url, secrets, signIn: false });
    try {
      expect(await again.ok('audit.verify', {})).toMatchObject({ intact: false, firstBrokenSeq: firstBad });
    } finally {
      await again.station.stop();
    }
  });

  it('3 — a trail shortened in the database file fails audit.verify at the first record gone, however it is chained', { timeout: 60_000 }, async () => {
    const databasePath = join(world.dir.path, 'shortened.db');
    const secrets = memorySecretStore();
    const first = await openStation({ databasePath, sandboxUrl: world.sandbox.url, secrets });
    await first.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000001' });
    await first.ok('station.lock', {});
    await first.ok('station.unlock', { pin: '1234' });
    const exported = await first.ok('audit.export', {});
    await first.station.stop();
    const total = exported.recordCount;
    // Cut the last three records off, the head row set back to the new end (every hash as it was).
    const db = new Database(databasePath);
    db.exec('DROP TRIGGER audit_no_delete;');
    const keep = (db.prepare('SELECT MAX(seq) AS n FROM audit').get() as { n: number }).n - 3;
    db.prepare('DELETE FROM audit WHERE seq > ?').run(keep);
    const last = db.prepare('SELECT seq, hash FROM audit WHERE seq = ?').get(keep) as { seq: number; hash: string };
    db.prepare('UPDATE audit_head SET seq = ?, hash = ? WHERE id = 1').run(last.seq, last.hash);
    db.close();
    expect(total).toBeGreaterThan(keep);
    const again = await openStation({ databasePath, sandboxUrl: world.sandbox.url, secrets, signIn: false });
    try {
      expect(await again.ok('audit.verify', {})).toMatchObject({ intact: false, firstBrokenSeq: keep + 1 });
    } finally {
      await again.station.stop();
    }
    // The export carried the head the keystore anchored: the whole trail ended there when it was made.
    const lines = exported.content.trim().split('\n').map((line) => JSON.parse(line) as { seq?: number; hash?: string; trail?: { head: { seq: number; hash: string } } });
    expect(lines.at(-1)?.trail?.head).toEqual({ seq: lines.at(-2)!.seq, hash: lines.at(-2)!.hash });
    expect(exported.head).toEqual(lines.at(-1)?.trail?.head);
  });

  it('4 — a copied database gives no PIN: every hash is keyed with the pepper in the secret store, those of an older station included', { timeout: 120_000 }, async () => {
    const secrets = memorySecretStore();
    const databasePath = join(world.dir.path, 'copied.db');
    // An older station's data: a PIN stored as plain salted scrypt, as main stored it.
    const older = await openStation({ databasePath, sandboxUrl: world.sandbox.url, secrets: memorySecretStore(), extra: { provisioning: provisioning() } });
    await older.station.stop();
    const legacy = new Database(databasePath);
    legacy
      .prepare("INSERT INTO staff (ref, name, role, national_id, pin_hash, source, created_at) VALUES ('st_older0001', 'Amina Wekesa', 'nurse', NULL, ?, 'station', '2026-01-01T00:00:00Z')")
      .run(await hashPin('4821'));
    legacy.close();
    const legacyFile = await hashPin('4821');
    expect(await pinsFoundIn(legacyFile, CANDIDATES)).toEqual(['4821']);

    // Opened by today's station (provisioned again from a file hash made elsewhere, npm run pin-hash).
    const file: StationProvisioning = { source: 'file', settings: {}, staff: [{ name: 'Filed nurse', role: 'nurse', pinHash: await hashPin('482100') }, IT_OFFICER] };
    const s = await openStation({ databasePath, sandboxUrl: world.sandbox.url, secrets, extra: { provisioning: file } });
    await s.station.stop();
    const copy = new Database(databasePath, { readonly: true });
    const rows = copy.prepare('SELECT name, pin_hash FROM staff').all() as { name: string; pin_hash: string }[];
    copy.close();
    expect(rows.map((r) => r.name)).toEqual(expect.arrayContaining(['Amina Wekesa', 'Filed nurse', 'IT officer']));
    for (const row of rows) expect(await pinsFoundIn(row.pin_hash, CANDIDATES), row.name).toEqual([]);
    // With the keystore's pepper as well (not in the copy), the station finds them: her old PIN still works.
    const pepper = Buffer.from((await secrets.get('idhini.pin-pepper'))!, 'base64');
    const found = await Promise.all(rows.map((row) => pinsFoundIn(row.pin_hash, CANDIDATES, pepper)));
    expect(found.flat().sort()).toEqual(['1234', '482100', '4821', '771199'].sort());
    const again = await openStation({ databasePath, sandboxUrl: world.sandbox.url, secrets, signIn: false, extra: { provisioning: file } });
    try {
      expect(await again.ok('station.unlock', { pin: '4821' })).toMatchObject({ staff: { name: 'Amina Wekesa' } });
      expect(await again.ok('station.unlock', { pin: '482100' })).toMatchObject({ staff: { name: 'Filed nurse' } });
    } finally {
      await again.station.stop();
    }
  });

  it('4 — the administrator is told whose PIN is short (seen at her sign-in); new PINs are 6 characters or more', { timeout: 60_000 }, async () => {
    const s = await world.station({ extra: { provisioning: { source: 'file', settings: {}, staff: [{ name: 'Short', role: 'nurse', pinHash: await hashPin('4821') }, IT_OFFICER] } } });
    await s.ok('station.unlock', { pin: IT_OFFICER.pin });
    const pinOf = async (name: string) => (await s.ok('staff.list', {})).items.find((m) => m.name === name)?.pin;
    expect(await pinOf('Short')).toBe('unknown');
    await s.ok('station.unlock', { pin: '4821' });
    await s.ok('station.unlock', { pin: IT_OFFICER.pin });
    expect(await pinOf('Short')).toBe('short');
    expect(await pinOf(IT_OFFICER.name)).toBe('ok');
    expect(await s.refused('staff.add', { name: 'Too short', role: 'nurse', pin: '12345' })).toMatchObject({ code: 'VALIDATION', details: { field: 'pin' } });
    const added = await s.ok('staff.add', { name: 'Chebet Rono', role: 'nurse', pin: '097531' });
    expect(added.pin).toBe('ok');
    expect((await s.ok('staff.setPin', { staffRef: added.staffRef, pin: '135791' })).items.find((m) => m.name === 'Chebet Rono')?.pin).toBe('ok');
    expect(await s.ok('station.unlock', { pin: '135791' })).toMatchObject({ staff: { name: 'Chebet Rono' } });
    expect((await s.refused('station.unlock', { pin: '097531' })).code).toBe('PIN_WRONG');
  });

  it('4 — a pepper lost from the keystore: the PINs added at the station cannot match any more, so those staff are removed and said so; the provisioned sign in', { timeout: 60_000 }, async () => {
    const databasePath = join(world.dir.path, 'pepper-lost.db');
    const secrets = memorySecretStore();
    const first = await openStation({ databasePath, sandboxUrl: world.sandbox.url, secrets, extra: { provisioning: provisioning() } });
    await first.ok('station.unlock', { pin: IT_OFFICER.pin });
    await first.ok('staff.add', { name: 'Chebet Rono', role: 'nurse', pin: '097531' });
    await first.station.stop();
    await secrets.delete('idhini.pin-pepper');
    const s = await openStation({ databasePath, sandboxUrl: world.sandbox.url, secrets, extra: { provisioning: provisioning() } });
    try {
      expect(await s.ok('station.unlock', { pin: IT_OFFICER.pin })).toMatchObject({ staff: { name: IT_OFFICER.name } });
      expect((await s.ok('staff.list', {})).items.map((m) => m.name)).not.toContain('Chebet Rono');
      expect((await s.ok('audit.read', { action: 'staff.pepperReplaced' })).items).toEqual([expect.objectContaining({ outcome: 'failed', summary: expect.stringContaining('1 staff added here removed') })]);
      expect(s.logs.some((line) => line.includes('the PIN pepper was missing'))).toBe(true);
    } finally {
      await s.station.stop();
    }
  });

  it('4 — the data folder and its files are made for the station’s user alone, an older open one tightened', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'idhini-issue-20-folder-'));
    const rendererDir = await mkdtemp(join(tmpdir(), 'idhini-issue-20-renderer-'));
    try {
      await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>Idhini</title>');
      await chmod(dataDir, 0o755);
      const running = await startTrainingStation({ port: 0, sandboxPort: 0, dataDir, rendererDir });
      try {
        const bridge = running.station.bridge;
        await bridge.invoke('patient.lookUp', { idType: 'National ID', idNumber: '30000001' });
        expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
        const files = await readdir(dataDir);
        expect(files).toEqual(expect.arrayContaining(['station.db', 'station.log', 'secrets.json']));
        for (const file of files) {
          const mode = (await stat(join(dataDir, file))).mode & 0o777;
          expect(mode & 0o077, `${file} is mode ${mode.toString(8)}`).toBe(0);
        }
      } finally {
        await running.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
      await rm(rendererDir, { recursive: true, force: true });
    }
  });

  it.each([
    ['a line break in the token', { access_token: 'eyJ.part\nX-Injected: 1', expires_in: 3600 }, 'access_token'],
    ['a negative lifetime', { access_token: 'eyJ.fine', expires_in: -1 }, 'expires_in'],
  ])('7 — an unusable token answer (%s) is refused at sign-in with its own error, and the station stays signed out', async (_what, token, field) => {
    const exchange = await tokenStandIn(token);
    try {
      const s = await openStation({ databasePath: join(world.dir.path, `token-${field}.db`), sandboxUrl: exchange.url, signIn: false });
      try {
        const refused = await s.refused('facility.signIn', { clientId: 'demo-hospital', clientSecret: 'demo-hospital-secret' });
        expect(refused).toMatchObject({ code: 'SIGN_IN_TOKEN_UNUSABLE', retryable: false, details: { field } });
        expect((await s.ok('station.status', {})).signedIn).toBe(false);
        expect((await s.ok('audit.read', { action: 'facility.signIn' })).items[0]).toMatchObject({ outcome: 'failed', errorCode: 'SIGN_IN_TOKEN_UNUSABLE' });
        expect(exchange.calls).toEqual(['POST /api/v1/tenants/token']);
      } finally {
        await s.station.stop();
      }
    } finally {
      await exchange.close();
    }
  });
});
