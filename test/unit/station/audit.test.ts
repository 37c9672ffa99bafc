// The audit trail (issue 20, defect 3): on main the hash chain had no key, so someone with the
// database file edited a record and recomputed the hashes, or removed one and renumbered, and
// audit.verify answered intact. Each record is now an HMAC under a key kept in the secret store, and
// the head is anchored there too; an older station's trail is carried over.
import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditCommands } from '../../../electron/contract';
import { AuditLog, legacyTrailIntact, recordHash } from '../../../electron/station/audit';
import { AUDIT_CHAIN_KEY, AuditChain, type ChainOpening } from '../../../electron/station/audit-chain';
import { openDatabase, type Db } from '../../../electron/station/db';
import { memorySecretStore, type SecretStore } from '../../../electron/station';

let dir: string;
let db: Db;
let log: AuditLog;
let secrets: SecretStore;

const scrub = (t: string) => t.replace('CT-SECRET', '[secret]');

/** The trail as the station opens it: its chain from the secret store, then the log on it. */
async function openLog(store: SecretStore = secrets): Promise<{ log: AuditLog; opening: ChainOpening }> {
  const { chain, opening } = await AuditChain.open({ db, secrets: store, legacyIntact: () => legacyTrailIntact(db), onWriteFailed: (error) => { throw error; } });
  return { log: new AuditLog(db, scrub, chain), opening };
}

function appendSteps(target: AuditLog, from: number, to: number): void {
  for (let i = from; i <= to; i += 1) {
    target.append({ at: `2025-03-04T09:0${i % 10}:00.000Z`, action: i % 2 === 0 ? 'exchange.claims.submit' : 'consent.verified', outcome: 'succeeded', summary: `step ${i}`, workflowId: 'wf_abcdef01', workflowKind: 'consent' });
  }
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'idhini-audit-'));
  db = openDatabase(join(dir, 'station.db'));
  secrets = memorySecretStore();
  log = (await openLog()).log;
  appendSteps(log, 1, 5);
  await log.checkpoint();
});

afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What someone with the file in hand can do: the station's own triggers refuse it. */
function tamper(sql: string, ...params: unknown[]): void {
  db.exec('DROP TRIGGER audit_no_update; DROP TRIGGER audit_no_delete;');
  db.prepare(sql).run(...params);
}

describe('the audit log', () => {
  it('chains each record to the previous one and verifies intact', () => {
    const { items } = log.read({}, 1, 10);
    expect(items.map((r) => r.seq)).toEqual([5, 4, 3, 2, 1]);
    expect(items[4]?.previousHash).toBeNull();
    expect(items[0]?.previousHash).toBe(items[1]?.hash);
    expect(log.verify()).toEqual({ intact: true, recordCount: 5, firstBrokenSeq: null });
    // As audit.read answers them: each record with its patient, masked, added when read (views/activity.ts).
    const entries = items.map((record) => ({ ...record, maskedPatient: null }));
    expect(auditCommands['audit.read'].output.safeParse({ items: entries, page: 1, pageSize: 10, total: 5, totalPages: 1 }).success).toBe(true);
  });

  it('refuses edits and removals through SQL while its triggers stand', () => {
    expect(() => db.prepare("UPDATE audit SET summary = 'x' WHERE seq = 2").run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM audit WHERE seq = 2').run()).toThrow(/append-only/);
  });

  it('detects an edited record', () => {
    tamper("UPDATE audit SET summary = 'nothing happened' WHERE seq = 3");
    expect(log.verify()).toMatchObject({ intact: false, firstBrokenSeq: 3 });
  });

  it('detects an edited record whose own hash was recomputed, by the record after it', () => {
    const third = log.read({}, 1, 10).items.find((r) => r.seq === 3)!;
    const { hash: _old, ...body } = { ...third, summary: 'nothing happened' };
    tamper('UPDATE audit SET summary = ?, hash = ? WHERE seq = 3', body.summary, recordHash(body));
    expect(log.verify()).toMatchObject({ intact: false, firstBrokenSeq: 3 });
  });

  it('detects a record rewritten with every hash after it recomputed: without the key nobody makes a MAC that fits', () => {
    const records = log.exportJsonLines({}).content.trim().split('\n').map((line) => JSON.parse(line) as Parameters<typeof recordHash>[0] & { hash: string });
    db.exec('DROP TRIGGER audit_no_update; DROP TRIGGER audit_no_delete;');
    let previous: string | null = null;
    for (const record of records) {
      const { hash: _old, ...rest } = record;
      const body = { ...rest, summary: record.seq === 2 ? 'nothing happened' : record.summary, previousHash: previous };
      // The attacker's best: SHA-256 as main chained it, or an HMAC under a key of his own.
      const forged = recordHash(body, Buffer.alloc(32, 7));
      db.prepare('UPDATE audit SET summary = ?, previous_hash = ?, hash = ? WHERE seq = ?').run(body.summary, previous, forged, record.seq);
      previous = forged;
    }
    db.prepare('UPDATE audit_head SET hash = ? WHERE id = 1').run(previous);
    expect(log.verify()).toMatchObject({ intact: false, firstBrokenSeq: 1 });
  });

  it('detects a record removed and the rest renumbered, hashes and head recomputed', () => {
    db.exec('DROP TRIGGER audit_no_update; DROP TRIGGER audit_no_delete;');
    db.prepare('DELETE FROM audit WHERE seq = 2').run();
    const rows = db.prepare('SELECT * FROM audit ORDER BY seq').all() as { seq: number }[];
    let previous: string | null = null;
    rows.forEach((row, index) => {
      const record = log.read({}, 1, 10).items.find((r) => r.seq === row.seq)!;
      const { hash: _h, ...body } = { ...record, seq: index + 1, previousHash: previous };
      const rehashed = createHash('sha256').update(JSON.stringify([body.seq, body.at, body.action, body.workflowId, body.workflowKind, body.outcome, body.errorCode, body.summary, body.previousHash]), 'utf8').digest('hex');
      db.prepare('UPDATE audit SET seq = ?, previous_hash = ?, hash = ? WHERE seq = ?').run(index + 1, previous, rehashed, row.seq);
      previous = rehashed;
    });
    db.prepare('UPDATE audit_head SET seq = ?, hash = ? WHERE id = 1').run(rows.length, previous);
    expect(log.verify()).toMatchObject({ intact: false, firstBrokenSeq: 1 });
  });

  it('detects the newest records cut off with the head row set back, by the head anchored in the secret store', () => {
    const fourth = log.read({}, 1, 10).items.find((r) => r.seq === 4)!;
    tamper('DELETE FROM audit WHERE seq = 5');
    db.prepare('UPDATE audit_head SET seq = 4, hash = ? WHERE id = 1').run(fourth.hash);
    expect(log.verify()).toMatchObject({ intact: false, firstBrokenSeq: 5 });
  });

  it('keeps a trail cut while the station was stopped broken, though new records follow', async () => {
    const third = log.read({}, 1, 10).items.find((r) => r.seq === 3)!;
    tamper('DELETE FROM audit WHERE seq > 3');
    db.prepare('UPDATE audit_head SET seq = 3, hash = ? WHERE id = 1').run(third.hash);
    const reopened = await openLog();
    expect(reopened.opening).toEqual({ kind: 'head-lost', brokenAt: 4 });
    appendSteps(reopened.log, 14, 17);
    await reopened.log.checkpoint();
    expect(reopened.log.verify()).toMatchObject({ intact: false, firstBrokenSeq: 4 });
    // And at every later start.
    expect((await openLog()).log.verify()).toMatchObject({ intact: false, firstBrokenSeq: 4 });
  });

  it('keeps the anchor from moving over records cut under a running station', async () => {
    const third = log.read({}, 1, 10).items.find((r) => r.seq === 3)!;
    tamper('DELETE FROM audit WHERE seq > 3');
    db.prepare('UPDATE audit_head SET seq = 3, hash = ? WHERE id = 1').run(third.hash);
    // The station goes on writing after the cut: other records take the seqs of those gone.
    appendSteps(log, 14, 16);
    await log.checkpoint();
    expect(log.verify()).toMatchObject({ intact: false, firstBrokenSeq: 5 });
  });

  it('keeps the key and the anchored head in the secret store, never in the database', async () => {
    const stored = JSON.parse((await secrets.get(AUDIT_CHAIN_KEY))!) as { key: string; keyedFrom: number; anchor: { seq: number; hash: string } };
    const newest = log.read({}, 1, 1).items[0]!;
    expect(stored).toMatchObject({ keyedFrom: 1, anchor: { seq: 5, hash: newest.hash } });
    const { hash, ...body } = newest;
    expect(createHmac('sha256', Buffer.from(stored.key, 'base64')).update(JSON.stringify([body.seq, body.at, body.action, body.workflowId, body.workflowKind, body.outcome, body.errorCode, body.summary, body.previousHash]), 'utf8').digest('hex')).toBe(hash);
    const everything = JSON.stringify(db.prepare('SELECT * FROM audit').all()) + JSON.stringify(db.prepare('SELECT * FROM settings').all());
    expect(everything).not.toContain(stored.key);
  });

  it('carries an older station’s trail over: checked by the old rule up to the mark, keyed from there, and rewriting the old part breaks it', async () => {
    // An older station wrote five records chained by SHA-256 alone (no key in its secret store).
    const older = mkdtempSync(join(tmpdir(), 'idhini-audit-older-'));
    const oldDb = openDatabase(join(older, 'station.db'));
    try {
      const insert = oldDb.prepare('INSERT INTO audit (seq, at, action, workflow_id, workflow_kind, outcome, error_code, summary, actor, previous_hash, hash) VALUES (?, ?, ?, NULL, NULL, ?, NULL, ?, NULL, ?, ?)');
      let previous: string | null = null;
      for (let seq = 1; seq <= 5; seq += 1) {
        const body = { seq, at: '2025-03-04T09:00:00.000Z', action: 'station.start', workflowId: null, workflowKind: null, outcome: 'succeeded' as const, errorCode: null, summary: `old ${seq}`, actor: null, previousHash: previous };
        const hash = recordHash(body);
        insert.run(seq, body.at, body.action, body.outcome, body.summary, previous, hash);
        previous = hash;
      }
      oldDb.prepare('INSERT INTO audit_head (id, seq, hash) VALUES (1, 5, ?)').run(previous);
      db.close();
      db = oldDb;
      const store = memorySecretStore();
      const carried = await openLog(store);
      expect(carried.opening).toEqual({ kind: 'carried-over', keyedFrom: 6 });
      appendSteps(carried.log, 6, 8);
      await carried.log.checkpoint();
      expect(carried.log.verify()).toEqual({ intact: true, recordCount: 8, firstBrokenSeq: null });
      // The old records are pinned by the first keyed one: rewriting them by the old rule breaks the chain at the mark.
      db.exec('DROP TRIGGER audit_no_update; DROP TRIGGER audit_no_delete;');
      const two = carried.log.read({}, 1, 10).items.find((r) => r.seq === 2)!;
      let previous2: string | null = two.previousHash;
      for (let seq = 2; seq <= 5; seq += 1) {
        const record = carried.log.read({}, 1, 10).items.find((r) => r.seq === seq)!;
        const { hash: _h, ...body } = { ...record, summary: seq === 2 ? 'nothing happened' : record.summary, previousHash: previous2 };
        const hash = recordHash(body);
        db.prepare('UPDATE audit SET summary = ?, previous_hash = ?, hash = ? WHERE seq = ?').run(body.summary, previous2, hash, seq);
        previous2 = hash;
      }
      expect(carried.log.verify()).toMatchObject({ intact: false, firstBrokenSeq: 6 });
    } finally {
      rmSync(older, { recursive: true, force: true });
    }
  });

  it('says so when the key is gone from the secret store and the trail does not verify without it', async () => {
    const reopened = await openLog(memorySecretStore());
    expect(reopened.opening).toEqual({ kind: 'key-missing', keyedFrom: 6 });
    appendSteps(reopened.log, 6, 6);
    expect(reopened.log.verify()).toMatchObject({ intact: false, firstBrokenSeq: 1 });
  });

  it('detects a removed record in the middle', () => {
    tamper('DELETE FROM audit WHERE seq = 2');
    expect(log.verify()).toMatchObject({ intact: false, firstBrokenSeq: 2 });
  });

  it('detects removed newest records by the head', () => {
    tamper('DELETE FROM audit WHERE seq = 5');
    expect(log.verify()).toMatchObject({ intact: false, firstBrokenSeq: 5 });
  });

  it('filters by action prefix, outcome and time, and exports JSON Lines oldest first', () => {
    expect(log.read({ action: 'exchange.' }, 1, 10).total).toBe(2);
    expect(log.read({ from: '2025-03-04T12:03:00+03:00' }, 1, 10).items.map((r) => r.seq)).toEqual([5, 4, 3]);
    const exported = log.exportJsonLines({ action: 'consent.' });
    expect(exported.count).toBe(3);
    const lines = exported.content.trim().split('\n').map((l) => JSON.parse(l) as { seq: number });
    expect(lines.map((l) => l.seq)).toEqual([1, 3, 5]);
  });

  it('passes summaries through the scrubber', () => {
    const record = log.append({ at: '2025-03-04T10:00:00.000Z', action: 'x.y', outcome: 'failed', summary: 'token CT-SECRET leaked' });
    expect(record.summary).toBe('token [secret] leaked');
    expect(log.verify().intact).toBe(true);
  });
});
