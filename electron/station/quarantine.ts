// Records the station could not read back, set aside: a workflow sealed under a key it no longer
// has, one written by a newer Idhini (after a downgrade), one altered or not what its version says,
// a setting or memo that is not what it should be. Nothing is deleted and nothing is guessed: the
// record stays where it was, the station works without it and says so (station.status, in the
// nurse's words on every screen and the IT officer's in Settings), and each one is audited when it
// is first found. Every start reads them again, so a record a later station (or a key put back)
// can read comes back by itself.
import { workflowKind } from '../contract';
import type { AuditEntry } from './audit';
import type { Db } from './db';
import type { Unread } from './versioned';

/** Where a record set aside lives: a workflow row, a journal call (its workflow is set aside with it), a looked-up patient, a setting, a memo. */
export type RecordSource = 'workflow' | 'patient' | 'setting' | 'memo';

/** Why: sealed with another key or altered (`unreadable`), a newer station's (`newer`), not what its version says (`invalid`). */
export type SetAsideReason = 'unreadable' | Unread['reason'];

export interface SetAside {
  readonly source: RecordSource;
  /** The row's id or key (a workflow id, a patient ref, a setting's name): never a secret. */
  readonly key: string;
  /** The workflow's kind, where known. */
  readonly kind: string | null;
  readonly reason: SetAsideReason;
  /** Where it failed (paths and versions), never what it held. */
  readonly detail: string;
  readonly foundAt: string;
}

export interface QuarantineOptions {
  readonly db: Db;
  readonly nowIso: () => string;
  /** Writes the audit record of a record newly set aside, or one read again. */
  readonly audit: (entry: Omit<AuditEntry, 'at'>) => void;
}

const REASON_WORDS: Record<SetAsideReason, string> = {
  unreadable: 'it cannot be opened with this station’s key (sealed under another, or altered)',
  newer: 'a newer Idhini wrote it',
  invalid: 'it is not what its version says',
};

export class Quarantine {
  private readonly select;
  private readonly upsert;
  private readonly remove;

  constructor(private readonly o: QuarantineOptions) {
    this.select = o.db.prepare('SELECT source, key, kind, reason, detail, found_at FROM quarantine WHERE source = ? AND key = ?');
    this.upsert = o.db.prepare(
      'INSERT INTO quarantine (source, key, kind, reason, detail, found_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (source, key) DO UPDATE SET reason = excluded.reason, detail = excluded.detail, kind = excluded.kind',
    );
    this.remove = o.db.prepare('DELETE FROM quarantine WHERE source = ? AND key = ?');
  }

  /** Sets a record aside; audited when it is new here, or its reason changed. */
  hold(source: RecordSource, key: string, kind: string | null, unread: { reason: SetAsideReason; detail: string }): void {
    const known = this.select.get(source, key) as { reason: string; detail: string } | undefined;
    if (known !== undefined && known.reason === unread.reason && known.detail === unread.detail) return;
    this.upsert.run(source, key, kind, unread.reason, unread.detail.slice(0, 500), this.o.nowIso());
    this.o.audit({
      action: 'records.setAside',
      outcome: 'failed',
      ...about(source, key, kind),
      summary: `${describe(source, kind)} set aside: ${REASON_WORDS[unread.reason]} (${unread.detail.slice(0, 300)})`,
    });
  }

  /**
   * A record set aside earlier that reads now (a newer station's after the upgrade, a key put back),
   * or that the station has written anew (a memo remembered again).
   */
  release(source: RecordSource, key: string, kind: string | null, how: 'read again' | 'written anew' = 'read again'): void {
    if (this.select.get(source, key) === undefined) return;
    this.remove.run(source, key);
    this.o.audit({
      action: how === 'read again' ? 'records.readAgain' : 'records.writtenAnew',
      outcome: 'succeeded',
      ...about(source, key, kind),
      summary: `${describe(source, kind)} ${how}`,
    });
  }

  /**
   * After a pass over every record of a source: entries whose record was not met are gone (a
   * look-up past its day, a workflow ended long ago) and leave the register without a word.
   */
  keepOnly(source: RecordSource, keys: ReadonlySet<string>): void {
    for (const entry of this.list()) if (entry.source === source && !keys.has(entry.key)) this.remove.run(source, entry.key);
  }

  list(): SetAside[] {
    const rows = this.o.db.prepare('SELECT source, key, kind, reason, detail, found_at FROM quarantine ORDER BY found_at, source, key').all() as {
      source: RecordSource;
      key: string;
      kind: string | null;
      reason: SetAsideReason;
      detail: string;
      found_at: string;
    }[];
    return rows.map((r) => ({ source: r.source, key: r.key, kind: r.kind, reason: r.reason, detail: r.detail, foundAt: r.found_at }));
  }
}

/** The workflow an audit record names, where the record set aside is one (of a kind this station knows). */
function about(source: RecordSource, key: string, kind: string | null): Pick<AuditEntry, 'workflowId' | 'workflowKind'> {
  if (source !== 'workflow') return {};
  const known = workflowKind.safeParse(kind);
  return { workflowId: key, workflowKind: known.success ? known.data : null };
}

function describe(source: RecordSource, kind: string | null): string {
  switch (source) {
    case 'workflow':
      return kind === null ? 'a workflow' : `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} workflow`;
    case 'patient':
      return 'a looked-up patient';
    case 'setting':
      return 'a setting';
    case 'memo':
      return 'something the station remembered';
  }
}
