// The staff who may sign in at this station, and the PIN guard. A PIN (or badge number) alone says
// who signs in, so the station keeps no names to pick from: it tries the PIN against every staff
// member's hash. Each hash is scrypt with its own salt, and its result keyed (HMAC-SHA256) with the
// station's PIN pepper, a secret kept in the secret store (the OS keystore under Electron), never in
// the database: a copied database gives no PIN, however many are tried, without the keystore too.
// The tries run together on the thread pool, so a ward's staff list costs a fraction of a second.
// Five wrong PINs in a row lock the station out for a minute — no PIN is even tried then — and the
// count survives a restart.
//
// The provisioning file's hashes are made on another machine (`npm run pin-hash`), where this
// station's pepper is not: they are plain scrypt, and keyed with the pepper as they arrive, which
// needs no PIN (the HMAC is over scrypt's result). Hashes an older station wrote without a pepper are
// keyed the same way at its first start. New PINs are at least NEW_PIN_MIN_LENGTH characters; one
// set before keeps working until it is changed, and is marked short once the station has seen it.
import { createHmac, randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { NEW_PIN_MIN_LENGTH } from '../contract';
import type { Db } from './db';
import type { SecretStore } from './deps';

const scrypt = promisify(scryptCallback) as (password: string, salt: Buffer, keylen: number, options: { N: number; r: number; p: number; maxmem: number }) => Promise<Buffer>;

export type StaffRole = 'nurse' | 'administrator';
export type StaffSource = 'station' | 'provisioned' | 'training';
/** Whether a PIN is shorter than new PINs may be; `unknown` until the station has seen it. */
export type PinLength = 'ok' | 'short' | 'unknown';

export interface StaffMember {
  readonly ref: string;
  readonly name: string;
  readonly role: StaffRole;
  readonly nationalId: string | null;
  readonly source: StaffSource;
  readonly pin: PinLength;
}

/** A staff member handed to the station by its provisioning: a PIN hash (the file) or a PIN (a launcher, tests). */
export interface ProvisionedStaff {
  readonly name: string;
  readonly role: StaffRole;
  readonly nationalId?: string | undefined;
  readonly pin?: string | undefined;
  readonly pinHash?: string | undefined;
}

// scrypt's cost: 2^14 × 8 × 128 bytes = 16 MiB and some tens of milliseconds a try on a ward PC.
const COST = { N: 16_384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_BYTES = 32;
/** The provisioning file's form, and what stations before the pepper stored. */
const HASH_FORMAT = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9_-]{16,})\$([A-Za-z0-9_-]{43})$/;
/** What the station stores: the same parts, scrypt's result keyed with the pepper. */
const PEPPERED_FORMAT = /^pscrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9_-]{16,})\$([A-Za-z0-9_-]{43})$/;

/** Where the PIN pepper lives in the secret store. */
export const PIN_PEPPER_KEY = 'idhini.pin-pepper';

/** `scrypt$N$r$p$salt$key` (salt and key base64url): the form the provisioning file carries, as `npm run pin-hash` prints it. */
export async function hashPin(pin: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(pin, salt, KEY_BYTES, COST);
  return `scrypt$${COST.N}$${COST.r}$${COST.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export function isPinHash(text: string): boolean {
  return HASH_FORMAT.test(text);
}

async function scryptOf(pin: string, parts: RegExpExecArray, length: number): Promise<Buffer> {
  const [, n, r, p, salt] = parts;
  return scrypt(pin, Buffer.from(salt!, 'base64url'), length, { N: Number(n), r: Number(r), p: Number(p), maxmem: COST.maxmem });
}

/** PIN hashes keyed with this station's pepper. */
export class PinHasher {
  constructor(private readonly pepper: Buffer) {}

  async hash(pin: string): Promise<string> {
    return this.keyed(await hashPin(pin));
  }

  /** A plain scrypt hash (the provisioning file's, an older station's) keyed with the pepper; a keyed one as it is. */
  keyed(stored: string): string {
    if (PEPPERED_FORMAT.test(stored)) return stored;
    const parts = HASH_FORMAT.exec(stored);
    if (parts === null) throw new RangeError('not a PIN hash');
    const [, n, r, p, salt, key] = parts;
    return `pscrypt$${n}$${r}$${p}$${salt}$${this.mac(Buffer.from(key!, 'base64url'))}`;
  }

  async matches(pin: string, stored: string): Promise<boolean> {
    const peppered = PEPPERED_FORMAT.exec(stored);
    if (peppered !== null) {
      const expected = Buffer.from(peppered[5]!, 'base64url');
      const actual = Buffer.from(this.mac(await scryptOf(pin, peppered, KEY_BYTES)), 'base64url');
      return actual.length === expected.length && timingSafeEqual(actual, expected);
    }
    const plain = HASH_FORMAT.exec(stored);
    if (plain === null) return false;
    return timingSafeEqual(await scryptOf(pin, plain, KEY_BYTES), Buffer.from(plain[5]!, 'base64url'));
  }

  private mac(key: Buffer): string {
    return createHmac('sha256', this.pepper).update(key).digest('base64url');
  }
}

/**
 * The pepper from the secret store, made on first use. `replaced` when the store had lost it while
 * the database holds hashes keyed with it: those can never match again.
 */
export async function loadPinHasher(secrets: SecretStore, db: Db): Promise<{ hasher: PinHasher; replaced: boolean }> {
  let encoded = await secrets.get(PIN_PEPPER_KEY);
  let replaced = false;
  if (encoded === undefined) {
    replaced = (db.prepare("SELECT COUNT(*) AS n FROM staff WHERE pin_hash LIKE 'pscrypt$%'").get() as { n: number }).n > 0;
    encoded = randomBytes(32).toString('base64');
    await secrets.set(PIN_PEPPER_KEY, encoded);
  }
  const pepper = Buffer.from(encoded, 'base64');
  if (pepper.length !== 32) throw new RangeError('The PIN pepper in the secret store is not 32 bytes.');
  return { hasher: new PinHasher(pepper), replaced };
}

/**
 * The staff registry on this station's pepper: hashes an older station stored without it keyed now,
 * and, when the pepper was lost, the staff added here (whose PINs can no longer match) removed:
 * `forgotten` says how many, for the log and the audit. Provisioned staff come back at every start.
 */
export async function openStaffRegistry(o: { db: Db; secrets: SecretStore; newRef: () => string; now: () => string }): Promise<{ registry: StaffRegistry; keyed: number; forgotten: number }> {
  const { hasher, replaced } = await loadPinHasher(o.secrets, o.db);
  const registry = new StaffRegistry(o.db, hasher, o.newRef, o.now);
  const forgotten = replaced ? registry.forgetUnmatchable() : 0;
  return { registry, keyed: registry.keyLegacyHashes(), forgotten };
}

interface Row {
  ref: string;
  name: string;
  role: StaffRole;
  national_id: string | null;
  pin_hash: string;
  source: StaffSource;
  pin_short: number | null;
}

const toMember = (row: Row): StaffMember => ({
  ref: row.ref,
  name: row.name,
  role: row.role,
  nationalId: row.national_id,
  source: row.source,
  pin: row.pin_short === null ? 'unknown' : row.pin_short === 1 ? 'short' : 'ok',
});

const shortness = (pin: string): number => (pin.length < NEW_PIN_MIN_LENGTH ? 1 : 0);

export class StaffRegistry {
  constructor(
    private readonly db: Db,
    private readonly hasher: PinHasher,
    private readonly newRef: () => string,
    private readonly now: () => string,
  ) {}

  all(): StaffMember[] {
    return (this.db.prepare('SELECT * FROM staff ORDER BY role DESC, name ASC').all() as Row[]).map(toMember);
  }

  get(ref: string): StaffMember | undefined {
    const row = this.db.prepare('SELECT * FROM staff WHERE ref = ?').get(ref) as Row | undefined;
    return row === undefined ? undefined : toMember(row);
  }

  get administratorExists(): boolean {
    return (this.db.prepare("SELECT COUNT(*) AS n FROM staff WHERE role = 'administrator'").get() as { n: number }).n > 0;
  }

  /** The staff member whose PIN this is, or null; a match also tells the station whether her PIN is short. */
  async findByPin(pin: string): Promise<StaffMember | null> {
    const rows = this.db.prepare('SELECT * FROM staff').all() as Row[];
    const matches = await Promise.all(rows.map((row) => this.hasher.matches(pin, row.pin_hash)));
    const index = matches.indexOf(true);
    if (index < 0) return null;
    const row = rows[index]!;
    if (row.pin_short !== shortness(pin)) {
      this.db.prepare('UPDATE staff SET pin_short = ? WHERE ref = ?').run(shortness(pin), row.ref);
      row.pin_short = shortness(pin);
    }
    return toMember(row);
  }

  /** Whether another staff member than `except` has this PIN. */
  async taken(pin: string, except?: string): Promise<boolean> {
    const rows = (this.db.prepare('SELECT ref, pin_hash FROM staff').all() as Pick<Row, 'ref' | 'pin_hash'>[]).filter((row) => row.ref !== except);
    return (await Promise.all(rows.map((row) => this.hasher.matches(pin, row.pin_hash)))).includes(true);
  }

  /** Whether this is the staff member's own PIN. */
  async isPinOf(ref: string, pin: string): Promise<boolean> {
    const row = this.db.prepare('SELECT pin_hash FROM staff WHERE ref = ?').get(ref) as Pick<Row, 'pin_hash'> | undefined;
    return row !== undefined && (await this.hasher.matches(pin, row.pin_hash));
  }

  /** Adds one (the caller has checked the PIN is nobody's). */
  async add(entry: { name: string; role: StaffRole; nationalId?: string | undefined; pin: string }, source: StaffSource): Promise<StaffMember> {
    return this.insert({ name: entry.name, role: entry.role, nationalId: entry.nationalId, pinHash: await this.hasher.hash(entry.pin), pinShort: shortness(entry.pin) }, source);
  }

  /** A new PIN for one (the caller has checked it is nobody else's). */
  async setPin(ref: string, pin: string): Promise<void> {
    this.db.prepare('UPDATE staff SET pin_hash = ?, pin_short = ? WHERE ref = ?').run(await this.hasher.hash(pin), shortness(pin), ref);
  }

  remove(ref: string): void {
    this.db.prepare("DELETE FROM staff WHERE ref = ? AND source = 'station'").run(ref);
  }

  /** Hashes an older station stored without the pepper, keyed now; answers how many. */
  keyLegacyHashes(): number {
    const rows = this.db.prepare("SELECT ref, pin_hash FROM staff WHERE pin_hash LIKE 'scrypt$%'").all() as Pick<Row, 'ref' | 'pin_hash'>[];
    const update = this.db.prepare('UPDATE staff SET pin_hash = ? WHERE ref = ?');
    this.db.transaction(() => {
      for (const row of rows) update.run(this.hasher.keyed(row.pin_hash), row.ref);
    })();
    return rows.length;
  }

  /** After the pepper was lost: the staff added here, whose PINs can no longer match, are removed; answers how many. */
  forgetUnmatchable(): number {
    return this.db.prepare("DELETE FROM staff WHERE source = 'station' AND pin_hash LIKE 'pscrypt$%'").run().changes;
  }

  /**
   * Replaces the staff of one source with these (the provisioning is read afresh at every start, so
   * someone taken off the list can no longer sign in). A file's hashes are keyed with the pepper as
   * they arrive, and keep what the station learnt of their length.
   */
  async replaceSource(source: Exclude<StaffSource, 'station'>, entries: readonly ProvisionedStaff[]): Promise<void> {
    const known = new Map((this.db.prepare('SELECT pin_hash, pin_short FROM staff WHERE source = ?').all(source) as Pick<Row, 'pin_hash' | 'pin_short'>[]).map((row) => [row.pin_hash, row.pin_short]));
    const hashed = await Promise.all(
      entries.map(async (e) => {
        if (e.pinHash !== undefined) {
          const pinHash = this.hasher.keyed(e.pinHash);
          return { ...e, pinHash, pinShort: known.get(pinHash) ?? null };
        }
        const pin = e.pin ?? '';
        return { ...e, pinHash: await this.hasher.hash(pin), pinShort: shortness(pin) };
      }),
    );
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM staff WHERE source = ?').run(source);
      for (const entry of hashed) this.insert(entry, source);
    })();
  }

  private insert(entry: { name: string; role: StaffRole; nationalId?: string | undefined; pinHash: string; pinShort: number | null }, source: StaffSource): StaffMember {
    const row: Row = { ref: this.newRef(), name: entry.name, role: entry.role, national_id: entry.nationalId ?? null, pin_hash: entry.pinHash, source, pin_short: entry.pinShort };
    this.db
      .prepare('INSERT INTO staff (ref, name, role, national_id, pin_hash, source, pin_short, created_at) VALUES (@ref, @name, @role, @national_id, @pin_hash, @source, @pin_short, @created_at)')
      .run({ ...row, created_at: this.now() });
    return toMember(row);
  }
}

/** Wrong PINs in a row before the station locks out, and for how long. */
export const PIN_TRIES = 5;
export const PIN_LOCKOUT_MS = 60_000;

export type PinGuardState = { open: true; attemptsLeft: number } | { open: false; retryAt: number };

/** The count of wrong PINs, kept in the database so that a restart does not reset it. */
export class PinGuard {
  constructor(
    private readonly db: Db,
    private readonly clock: () => number,
  ) {}

  state(): PinGuardState {
    const { failures, lockedUntil } = this.read();
    if (lockedUntil > this.clock()) return { open: false, retryAt: lockedUntil };
    return { open: true, attemptsLeft: PIN_TRIES - failures };
  }

  /** A wrong PIN: answers what is left, locking out at the fifth. */
  failed(): PinGuardState {
    const current = this.state();
    if (!current.open) return current;
    const failures = PIN_TRIES - current.attemptsLeft + 1;
    if (failures >= PIN_TRIES) {
      const retryAt = this.clock() + PIN_LOCKOUT_MS;
      this.write(0, retryAt);
      return { open: false, retryAt };
    }
    this.write(failures, 0);
    return { open: true, attemptsLeft: PIN_TRIES - failures };
  }

  succeeded(): void {
    this.write(0, 0);
  }

  private read(): { failures: number; lockedUntil: number } {
    const row = this.db.prepare('SELECT failures, locked_until FROM pin_guard WHERE id = 1').get() as { failures: number; locked_until: number } | undefined;
    return { failures: row?.failures ?? 0, lockedUntil: row?.locked_until ?? 0 };
  }

  private write(failures: number, lockedUntil: number): void {
    this.db
      .prepare('INSERT INTO pin_guard (id, failures, locked_until) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET failures = excluded.failures, locked_until = excluded.locked_until')
      .run(failures, lockedUntil);
  }
}
