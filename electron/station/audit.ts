// This station's audit trail: append-only and hash-chained. Each record carries the previous
// record's hash and its own hash over every field, and a head row remembers the newest record, so
// `verify` finds an edited record (its hash no longer fits), a removed one (a gap, or the next
// record's previous hash no longer fits) and removed newest records (the head no longer fits).
// Records name workflows and actions; summaries never carry a secret or a patient's name (they
// are written by the core from fixed wording and pass the scrubber as well).
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { auditRecord, ErrorCode, WorkflowKind } from '../contract';
import type { Db } from './db';

export type AuditRecord = z.infer<typeof auditRecord>;
export type AuditOutcome = AuditRecord['outcome'];

export interface AuditEntry {
  readonly at: string;
  readonly action: string;
  readonly workflowId?: string | null;
  readonly workflowKind?: WorkflowKind | null;
  readonly outcome: AuditOutcome;
  readonly errorCode?: ErrorCode | null;
  readonly summary: string;
}

/** Who is signed in at the station when a record is written (null before anyone signed in). */
export type ActorOf = () => string | null;

export interface AuditFilters {
  readonly from?: string | undefined;
  readonly to?: string | undefined;
  readonly workflowId?: string | undefined;
  readonly action?: string | undefined;
  readonly outcome?: AuditOutcome | undefined;
  readonly actor?: string | undefined;
}

interface Row {
  seq: number;
  at: string;
  action: string;
  workflow_id: string | null;
  workflow_kind: string | null;
  outcome: string;
  error_code: string | null;
  summary: string;
  actor: string | null;
  previous_hash: string | null;
  hash: string;
}

/**
 * The hash of a record: SHA-256 over its fields in a fixed order, the previous hash included. The
 * actor (schema 3) is hashed only when there is one, so records written before it still verify.
 */
export function recordHash(r: Omit<AuditRecord, 'hash'>): string {
  const fields: unknown[] = [r.seq, r.at, r.action, r.workflowId, r.workflowKind, r.outcome, r.errorCode, r.summary, r.previousHash];
  if (r.actor !== null) fields.push(r.actor);
  return createHash('sha256').update(JSON.stringify(fields), 'utf8').digest('hex');
}

function toRecord(row: Row): AuditRecord {
  return {
    seq: row.seq,
    at: row.at,
    action: row.action,
    workflowId: row.workflow_id,
    workflowKind: row.workflow_kind as WorkflowKind | null,
    outcome: row.outcome as AuditOutcome,
    errorCode: row.error_code as ErrorCode | null,
    summary: row.summary,
    actor: row.actor,
    previousHash: row.previous_hash,
    hash: row.hash,
  };
}

export class AuditLog {
  private readonly insert;
  private readonly setHead;
  private readonly head;

  constructor(
    private readonly db: Db,
    private readonly scrub: (text: string) => string,
    private readonly actorOf: ActorOf = () => null,
  ) {
    this.insert = db.prepare(
      `INSERT INTO audit (seq, at, action, workflow_id, workflow_kind, outcome, error_code, summary, actor, previous_hash, hash)
       VALUES (@seq, @at, @action, @workflowId, @workflowKind, @outcome, @errorCode, @summary, @actor, @previousHash, @hash)`,
    );
    this.setHead = db.prepare('INSERT INTO audit_head (id, seq, hash) VALUES (1, @seq, @hash) ON CONFLICT (id) DO UPDATE SET seq = @seq, hash = @hash');
    this.head = db.prepare('SELECT seq, hash FROM audit_head WHERE id = 1');
  }

  /** Appends one record (inside the caller's transaction when there is one). */
  append(entry: AuditEntry): AuditRecord {
    return this.db.transaction(() => {
      const head = this.head.get() as { seq: number; hash: string } | undefined;
      const body: Omit<AuditRecord, 'hash'> = {
        seq: (head?.seq ?? 0) + 1,
        at: entry.at,
        action: entry.action.slice(0, 100),
        workflowId: entry.workflowId ?? null,
        workflowKind: entry.workflowKind ?? null,
        outcome: entry.outcome,
        errorCode: entry.errorCode ?? null,
        summary: this.scrub(entry.summary).slice(0, 500),
        actor: this.actorOf()?.slice(0, 200) ?? null,
        previousHash: head?.hash ?? null,
      };
      const record = { ...body, hash: recordHash(body) };
      this.insert.run(record);
      this.setHead.run({ seq: record.seq, hash: record.hash });
      return record;
    })();
  }

  read(filters: AuditFilters, page: number, pageSize: number): { items: AuditRecord[]; total: number } {
    const { where, params } = whereOf(filters);
    const total = (this.db.prepare(`SELECT COUNT(*) AS n FROM audit ${where}`).get(params) as { n: number }).n;
    const rows = this.db
      .prepare(`SELECT * FROM audit ${where} ORDER BY seq DESC LIMIT @limit OFFSET @offset`)
      .all({ ...params, limit: pageSize, offset: (page - 1) * pageSize }) as Row[];
    return { items: rows.map(toRecord), total };
  }

  /** The matching records, oldest first, one JSON object a line. */
  exportJsonLines(filters: AuditFilters): { content: string; count: number } {
    const { where, params } = whereOf(filters);
    const lines: string[] = [];
    for (const row of this.db.prepare(`SELECT * FROM audit ${where} ORDER BY seq ASC`).iterate(params) as Iterable<Row>) {
      lines.push(JSON.stringify(toRecord(row)));
    }
    return { content: lines.length === 0 ? '' : `${lines.join('\n')}\n`, count: lines.length };
  }

  /** Walks the chain from the first record; the first record that does not fit breaks it. */
  verify(): { intact: boolean; recordCount: number; firstBrokenSeq: number | null } {
    let expectedSeq = 1;
    let previousHash: string | null = null;
    let count = 0;
    for (const row of this.db.prepare('SELECT * FROM audit ORDER BY seq ASC').iterate() as Iterable<Row>) {
      count += 1;
      const record = toRecord(row);
      if (record.seq !== expectedSeq) return { intact: false, recordCount: count, firstBrokenSeq: expectedSeq };
      const { hash, ...body } = record;
      if (record.previousHash !== previousHash || recordHash(body) !== hash) {
        return { intact: false, recordCount: count, firstBrokenSeq: record.seq };
      }
      previousHash = hash;
      expectedSeq += 1;
    }
    const head = this.head.get() as { seq: number; hash: string } | undefined;
    const headFits = head === undefined ? count === 0 : head.seq === expectedSeq - 1 && head.hash === previousHash;
    if (!headFits) return { intact: false, recordCount: count, firstBrokenSeq: expectedSeq };
    return { intact: true, recordCount: count, firstBrokenSeq: null };
  }
}

// Timestamps are compared as instants: julianday() reads both Z and +03:00 offsets.
const filterClauses: Readonly<Record<keyof AuditFilters, string>> = {
  from: 'julianday(at) >= julianday(@from)',
  to: 'julianday(at) <= julianday(@to)',
  workflowId: 'workflow_id = @workflowId',
  action: 'substr(action, 1, length(@action)) = @action',
  outcome: 'outcome = @outcome',
  actor: 'actor = @actor',
};

function whereOf(filters: AuditFilters): { where: string; params: Record<string, string> } {
  const given = (Object.keys(filterClauses) as (keyof AuditFilters)[]).filter((key) => filters[key] !== undefined);
  const params = Object.fromEntries(given.map((key) => [key, filters[key]!]));
  return { where: given.length === 0 ? '' : `WHERE ${given.map((key) => filterClauses[key]).join(' AND ')}`, params };
}
