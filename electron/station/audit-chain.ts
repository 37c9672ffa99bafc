// What keeps the audit trail honest outside its database: the chain's key and its anchored head,
// one entry of the secret store (the OS keystore under Electron, browser mode's key store
// otherwise). Someone with the database file alone can neither forge a record (each is an
// HMAC-SHA256 under the key) nor cut records off its end (the head the keystore holds is past
// them), nor renumber (the seq is under the MAC).
//
// The head is anchored at every checkpoint: after records are added (one write at a time, the newest
// head each time, read from the database once committed, never from a transaction that might still
// roll back), before the trail is verified or exported, and when the station stops. A crash may leave
// the anchor behind the newest records by the last instant's: those few could be cut unseen.
//
// A trail chained before the key existed (an older station's data folder) is carried over: at the
// first start with the key, every record up to the head then is checked by the old rule (SHA-256,
// no key) and marked so (`keyedFrom`: the first keyed record); from there on each record is keyed,
// and the first keyed record's MAC covers the last old record's hash, so the old records cannot be
// rewritten either. At every start the anchor is compared with the database before anything is
// added: a head that no longer fits (records cut while the station was stopped) is remembered in
// the keystore as where the trail broke, since new records would otherwise paper over it.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Db } from './db';
import type { SecretStore } from './deps';

/** Where the chain's key and anchor live in the secret store. */
export const AUDIT_CHAIN_KEY = 'idhini.audit-chain';

const head = z.strictObject({ seq: z.number().int().min(1), hash: z.string().regex(/^[0-9a-f]{64}$/) });
export type AuditHead = z.infer<typeof head>;

/** The stored entry, read through its versioned schema (never cast). */
const storedChain = z.strictObject({
  version: z.literal(1),
  key: z.string().regex(/^[A-Za-z0-9+/]{43}=$/, 'must be 32 bytes in base64'),
  /** The first record chained with the key; those before it were chained by the old rule. */
  keyedFrom: z.number().int().min(1),
  /** The newest committed record when last anchored. */
  anchor: head.nullable(),
  /** Where the trail was found broken at a start (records cut while stopped): reported by every verify. */
  brokenAt: z.number().int().min(1).nullable(),
});
type StoredChain = z.infer<typeof storedChain>;

export class AuditChainError extends Error {
  override readonly name = 'AuditChainError';
}

export interface AuditKeys {
  readonly key: Buffer;
  readonly keyedFrom: number;
}

/** What the start found, for the log and the audit. */
export type ChainOpening =
  | { readonly kind: 'kept' }
  | { readonly kind: 'new' }
  /** An older trail, intact by the old rule, keyed from `keyedFrom`. */
  | { readonly kind: 'carried-over'; readonly keyedFrom: number }
  /** No key in the store, and the trail does not verify by the old rule: a lost keystore, or an altered file. */
  | { readonly kind: 'key-missing'; readonly keyedFrom: number }
  /** The anchored head no longer fits the database: records cut while the station was stopped. */
  | { readonly kind: 'head-lost'; readonly brokenAt: number };

function databaseHead(db: Db): AuditHead | null {
  const row = db.prepare('SELECT seq, hash FROM audit_head WHERE id = 1').get() as AuditHead | undefined;
  return row ?? null;
}

/**
 * The chain's key and anchor, for a trail read and written from now on. `legacyIntact` walks the
 * trail by the old rule (for a carried-over trail).
 */
export class AuditChain {
  #stored: StoredChain;
  #writing: Promise<void> | null = null;
  #again = false;

  private constructor(
    private readonly db: Db,
    private readonly secrets: SecretStore,
    stored: StoredChain,
    private readonly onWriteFailed: (error: unknown) => void,
  ) {
    this.#stored = stored;
  }

  static async open(o: { db: Db; secrets: SecretStore; legacyIntact: () => boolean; onWriteFailed: (error: unknown) => void }): Promise<{ chain: AuditChain; opening: ChainOpening }> {
    const text = await o.secrets.get(AUDIT_CHAIN_KEY);
    const current = databaseHead(o.db);
    if (text === undefined) {
      const keyedFrom = (current?.seq ?? 0) + 1;
      const stored: StoredChain = { version: 1, key: randomBytes(32).toString('base64'), keyedFrom, anchor: current, brokenAt: null };
      await o.secrets.set(AUDIT_CHAIN_KEY, JSON.stringify(stored));
      const chain = new AuditChain(o.db, o.secrets, stored, o.onWriteFailed);
      if (current === null) return { chain, opening: { kind: 'new' } };
      return { chain, opening: o.legacyIntact() ? { kind: 'carried-over', keyedFrom } : { kind: 'key-missing', keyedFrom } };
    }
    let stored: StoredChain;
    try {
      stored = storedChain.parse(JSON.parse(text));
    } catch (error) {
      throw new AuditChainError(`The audit chain's entry in the secret store cannot be read: ${error instanceof Error ? error.message : String(error)}`);
    }
    const chain = new AuditChain(o.db, o.secrets, stored, o.onWriteFailed);
    const brokenAt = chain.#anchorMisfit();
    if (brokenAt === null) return { chain, opening: { kind: 'kept' } };
    chain.#stored = { ...stored, brokenAt: Math.min(brokenAt, stored.brokenAt ?? brokenAt) };
    await o.secrets.set(AUDIT_CHAIN_KEY, JSON.stringify(chain.#stored));
    return { chain, opening: { kind: 'head-lost', brokenAt: chain.#stored.brokenAt! } };
  }

  get keys(): AuditKeys {
    return { key: Buffer.from(this.#stored.key, 'base64'), keyedFrom: this.#stored.keyedFrom };
  }

  /** The head as the keystore has it, and where a start found the trail broken. */
  get anchor(): { readonly head: AuditHead | null; readonly brokenAt: number | null } {
    return { head: this.#stored.anchor, brokenAt: this.#stored.brokenAt };
  }

  /** Records were added: the committed head is anchored soon (one write at a time; the newest wins). */
  noteAppended(): void {
    if (this.#writing !== null) {
      this.#again = true;
      return;
    }
    // After the caller's transaction: setImmediate runs once the synchronous work that appended is done.
    this.#writing = new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.#write());
  }

  /** Anchors the committed head now, and waits for every write under way (a checkpoint). */
  async checkpoint(): Promise<void> {
    while (this.#writing !== null) await this.#writing;
    if (this.#needsWrite()) {
      this.#writing = this.#write();
      await this.#writing;
    }
  }

  #needsWrite(): boolean {
    // A station stopping closes its database after its last checkpoint: a write that comes later has nothing to add.
    if (!this.db.open) return false;
    const current = databaseHead(this.db);
    return current !== null && (this.#stored.anchor === null || current.seq !== this.#stored.anchor.seq || current.hash !== this.#stored.anchor.hash);
  }

  async #write(): Promise<void> {
    try {
      do {
        this.#again = false;
        if (!this.#needsWrite()) continue;
        // The anchor moves forward only over the records it already vouched for: records cut under a
        // running station (the file edited beside it) stay counted as broken.
        const misfit = this.#anchorMisfit();
        const brokenAt = misfit === null ? this.#stored.brokenAt : Math.min(misfit, this.#stored.brokenAt ?? misfit);
        const next: StoredChain = { ...this.#stored, anchor: databaseHead(this.db), brokenAt };
        await this.secrets.set(AUDIT_CHAIN_KEY, JSON.stringify(next));
        this.#stored = next;
      } while (this.#again);
    } catch (error) {
      this.onWriteFailed(error);
    } finally {
      this.#writing = null;
    }
  }

  /** The first record the database no longer holds as anchored (the first one missing up to the anchor, or the anchor's own); null when it fits. */
  #anchorMisfit(): number | null {
    const anchor = this.#stored.anchor;
    if (anchor === null) return null;
    const row = this.db.prepare('SELECT hash FROM audit WHERE seq = ?').get(anchor.seq) as { hash: string } | undefined;
    if (row !== undefined) return row.hash === anchor.hash ? null : anchor.seq;
    let expected = 1;
    for (const { seq } of this.db.prepare('SELECT seq FROM audit WHERE seq <= ? ORDER BY seq').iterate(anchor.seq) as Iterable<{ seq: number }>) {
      if (seq !== expected) break;
      expected += 1;
    }
    return expected;
  }
}
