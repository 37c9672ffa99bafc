// This station's audit trail: append-only and hash-chained. Each record carries the previous
// record's hash and its own over every field — an HMAC under the chain's key, which lives in the
// secret store, never in the database (audit-chain.ts) — and a head row remembers the newest record,
// anchored in the secret store as well. So `verify` finds an edited record (its MAC no longer fits,
// and nobody without the key can make one that does), a removed or renumbered one (a gap, or a MAC
// over the seq), and removed newest records (the head, and the anchor, no longer fit); it names the
// first bad record. Records of an older station, chained before the key existed, are checked by the
// old rule (SHA-256) up to the chain's `keyedFrom`. Records name workflows and actions; summaries
// never carry a secret or a patient's name (they are written by the core from fixed wording and
// pass the scrubber as well).
import { createHash, createHmac } from 'node:crypto';
import type { z } from 'zod';
import type { auditRecord, ErrorCode, WorkflowKind } from '../contract';
import type { AuditHead, AuditKeys, ChainOpening } from './audit-chain';
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
 * The hash of a record: over its fields in a fixed order, the previous hash included — HMAC-SHA256
 * under the chain's key, or (for records before `keyedFrom`, and with no key) SHA-256 as older
 * stations wrote it. The actor (schema 3) is hashed only when there is one, so records written
 * before it still verify.
 */
export function recordHash(r: Omit<AuditRecord, 'hash'>, key?: Buffer): string {
  const fields: unknown[] = [r.seq, r.at, r.action, r.workflowId, r.workflowKind, r.outcome, r.errorCode, r.summary, r.previousHash];
  if (r.actor !== null) fields.push(r.actor);
  const text = JSON.stringify(fields);
  return (key === undefined ? createHash('sha256') : createHmac('sha256', key)).update(text, 'utf8').digest('hex');
}

/** What the log needs of its chain (audit-chain.ts): the key, the anchored head, and word of every record added. */
export interface ChainKeeper {
  readonly keys: AuditKeys;
  readonly anchor: { readonly head: AuditHead | null; readonly brokenAt: number | null };
  noteAppended(): void;
  /** Anchors the committed head now and waits for it. */
  checkpoint(): Promise<void>;
}

export interface VerifyResult {
  intact: boolean;
  recordCount: number;
  firstBrokenSeq: number | null;
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
  private readonly headRow;

  constructor(
    private readonly db: Db,
    private readonly scrub: (text: string) => string,
    private readonly chain: ChainKeeper,
    private readonly actorOf: ActorOf = () => null,
  ) {
    this.insert = db.prepare(
      `INSERT INTO audit (seq, at, action, workflow_id, workflow_kind, outcome, error_code, summary, actor, previous_hash, hash)
       VALUES (@seq, @at, @action, @workflowId, @workflowKind, @outcome, @errorCode, @summary, @actor, @previousHash, @hash)`,
    );
    this.setHead = db.prepare('INSERT INTO audit_head (id, seq, hash) VALUES (1, @seq, @hash) ON CONFLICT (id) DO UPDATE SET seq = @seq, hash = @hash');
    this.headRow = db.prepare('SELECT seq, hash FROM audit_head WHERE id = 1');
  }

  /** Appends one record (inside the caller's transaction when there is one). */
  append(entry: AuditEntry): AuditRecord {
    return this.db.transaction(() => {
      const head = this.head();
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
      const record = { ...body, hash: this.hashOf(body) };
      this.insert.run(record);
      this.setHead.run({ seq: record.seq, hash: record.hash });
      this.chain.noteAppended();
      return record;
    })();
  }

  /** A checkpoint: the committed head anchored in the secret store (before a verify, an export, a stop). */
  checkpoint(): Promise<void> {
    return this.chain.checkpoint();
  }

  /** The head as the secret store holds it (after a checkpoint: the newest record's). */
  anchoredHead(): AuditHead | null {
    return this.chain.anchor.head;
  }

  /** The first record chained with the key. */
  get keyedFrom(): number {
    return this.chain.keys.keyedFrom;
  }

  /** The newest record's seq and hash, as the database has it. */
  head(): AuditHead | null {
    return (this.headRow.get() as AuditHead | undefined) ?? null;
  }

  private hashOf(body: Omit<AuditRecord, 'hash'>): string {
    const { key, keyedFrom } = this.chain.keys;
    return recordHash(body, body.seq >= keyedFrom ? key : undefined);
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

  /**
   * Walks the chain from the first record, each by its rule (the old one before `keyedFrom`, the
   * key's from there), then holds the head row and the anchored head to it; the first record that
   * does not fit — edited, missing, renumbered, or cut from the end — is named. A start that found
   * the anchor no longer fitting (records cut while stopped) keeps the trail broken from there.
   */
  verify(): VerifyResult {
    const { head: anchor, brokenAt } = this.chain.anchor;
    let expectedSeq = 1;
    let previousHash: string | null = null;
    let count = 0;
    let anchorFits = anchor === null;
    let first: number | null = null;
    for (const row of this.db.prepare('SELECT * FROM audit ORDER BY seq ASC').iterate() as Iterable<Row>) {
      count += 1;
      const record = toRecord(row);
      if (record.seq !== expectedSeq) {
        first = expectedSeq;
        break;
      }
      const { hash, ...body } = record;
      if (record.previousHash !== previousHash || this.hashOf(body) !== hash) {
        first = record.seq;
        break;
      }
      if (anchor !== null && record.seq === anchor.seq) anchorFits = record.hash === anchor.hash;
      previousHash = hash;
      expectedSeq += 1;
    }
    if (first === null) {
      const head = this.head();
      const headFits = head === null ? count === 0 : head.seq === expectedSeq - 1 && head.hash === previousHash;
      if (!headFits) first = expectedSeq;
      // Fewer records than the keystore saw: the first of those gone; a different one there: that one.
      else if (anchor !== null && anchor.seq >= expectedSeq) first = expectedSeq;
      else if (!anchorFits && anchor !== null) first = anchor.seq;
    }
    const broken = [first, brokenAt].filter((seq): seq is number => seq !== null);
    const firstBrokenSeq = broken.length === 0 ? null : Math.min(...broken);
    return { intact: firstBrokenSeq === null, recordCount: count, firstBrokenSeq };
  }
}

/** Whether a trail verifies by the old rule throughout (no key): an older station's, before its first start with a key. */
export function legacyTrailIntact(db: Db): boolean {
  const oldRule: ChainKeeper = {
    keys: { key: Buffer.alloc(32), keyedFrom: Number.MAX_SAFE_INTEGER },
    anchor: { head: null, brokenAt: null },
    noteAppended: () => undefined,
    checkpoint: async () => undefined,
  };
  return new AuditLog(db, (text) => text, oldRule).verify().intact;
}

/** What the chain's opening found, told in the log and the trail itself (fixed wording). */
export function recordChainOpening(audit: AuditLog, opening: ChainOpening, at: string, log: { info(o: object, m: string): void; error(o: object, m: string): void }): void {
  switch (opening.kind) {
    case 'kept':
    case 'new':
      return;
    case 'carried-over':
      log.info({ keyedFrom: opening.keyedFrom }, 'audit trail of an older station carried over: checked by the old rule, keyed from here on');
      audit.append({ at, action: 'audit.chainKeyed', outcome: 'succeeded', summary: `records before ${opening.keyedFrom} chained without a key, checked by the old rule; keyed from ${opening.keyedFrom}` });
      return;
    case 'key-missing':
      log.error({ keyedFrom: opening.keyedFrom }, 'the audit chain key was missing from the secret store and the trail does not verify without it: a new key from here on');
      audit.append({ at, action: 'audit.keyReplaced', outcome: 'failed', errorCode: 'INTERNAL', summary: `audit key missing; records before ${opening.keyedFrom} can no longer be verified` });
      return;
    case 'head-lost':
      log.error({ brokenAt: opening.brokenAt }, 'the audit trail was cut while the station was stopped: its anchored head is gone');
      audit.append({ at, action: 'audit.headLost', outcome: 'failed', errorCode: 'INTERNAL', summary: `records from ${opening.brokenAt} are not as the station left them` });
      return;
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
