import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditCommands } from '../../../electron/contract';
import { AuditLog, recordHash } from '../../../electron/station/audit';
import { openDatabase, type Db } from '../../../electron/station/db';

let dir: string;
let db: Db;
let log: AuditLog;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'idhini-audit-'));
  db = openDatabase(join(dir, 'station.db'));
  log = new AuditLog(db, (t) => t.replace('CT-SECRET', '[secret]'));
  for (let i = 1; i <= 5; i += 1) {
    log.append({ at: `2025-03-04T09:0${i}:00.000Z`, action: i % 2 === 0 ? 'exchange.claims.submit' : 'consent.verified', outcome: 'succeeded', summary: `step ${i}`, workflowId: 'wf_abcdef01', workflowKind: 'consent' });
  }
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
    expect(log.verify()).toMatchObject({ intact: false, firstBrokenSeq: 4 });
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
