// The staff who may sign in at this station, and the PIN guard. A PIN (or badge number) alone says
// who signs in, so the station keeps no names to pick from: it tries the PIN against every staff
// member's hash. Each hash is scrypt with its own salt (a copied database gives no PIN without
// trying each one against each salt, slowly); the tries run together on the thread pool, so a ward's
// staff list costs a fraction of a second. Five wrong PINs in a row lock the station out for a
// minute — no PIN is even tried then — and the count survives a restart.
import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import type { Db } from './db';

const scrypt = promisify(scryptCallback) as (password: string, salt: Buffer, keylen: number, options: { N: number; r: number; p: number; maxmem: number }) => Promise<Buffer>;

export type StaffRole = 'nurse' | 'administrator';
export type StaffSource = 'station' | 'provisioned' | 'training';

export interface StaffMember {
  readonly ref: string;
  readonly name: string;
  readonly role: StaffRole;
  readonly nationalId: string | null;
  readonly source: StaffSource;
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
const HASH_FORMAT = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9_-]{16,})\$([A-Za-z0-9_-]{32,})$/;

/** `scrypt$N$r$p$salt$key` (salt and key base64url): the form the provisioning file carries too. */
export async function hashPin(pin: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(pin, salt, KEY_BYTES, COST);
  return `scrypt$${COST.N}$${COST.r}$${COST.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export function isPinHash(text: string): boolean {
  return HASH_FORMAT.test(text);
}

export async function pinMatches(pin: string, stored: string): Promise<boolean> {
  const parts = HASH_FORMAT.exec(stored);
  if (parts === null) return false;
  const [, n, r, p, salt, key] = parts;
  const expected = Buffer.from(key!, 'base64url');
  const actual = await scrypt(pin, Buffer.from(salt!, 'base64url'), expected.length, { N: Number(n), r: Number(r), p: Number(p), maxmem: COST.maxmem });
  return timingSafeEqual(actual, expected);
}

interface Row {
  ref: string;
  name: string;
  role: StaffRole;
  national_id: string | null;
  pin_hash: string;
  source: StaffSource;
}

const toMember = (row: Row): StaffMember => ({ ref: row.ref, name: row.name, role: row.role, nationalId: row.national_id, source: row.source });

export class StaffRegistry {
  constructor(
    private readonly db: Db,
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

  /** The staff member whose PIN this is, or null. */
  async findByPin(pin: string): Promise<StaffMember | null> {
    const rows = this.db.prepare('SELECT * FROM staff').all() as Row[];
    const matches = await Promise.all(rows.map((row) => pinMatches(pin, row.pin_hash)));
    const index = matches.indexOf(true);
    return index < 0 ? null : toMember(rows[index]!);
  }

  /** Adds one; refuses (answers null) a PIN another staff member already has. */
  async add(entry: { name: string; role: StaffRole; nationalId?: string | undefined; pin: string }, source: StaffSource): Promise<StaffMember | null> {
    if ((await this.findByPin(entry.pin)) !== null) return null;
    return this.insert({ name: entry.name, role: entry.role, nationalId: entry.nationalId, pinHash: await hashPin(entry.pin) }, source);
  }

  remove(ref: string): void {
    this.db.prepare("DELETE FROM staff WHERE ref = ? AND source = 'station'").run(ref);
  }

  /**
   * Replaces the staff of one source with these (the provisioning is read afresh at every start, so
   * someone taken off the list can no longer sign in). Entries already hashed keep their hash.
   */
  async replaceSource(source: Exclude<StaffSource, 'station'>, entries: readonly ProvisionedStaff[]): Promise<void> {
    const hashed = await Promise.all(entries.map(async (e) => ({ ...e, pinHash: e.pinHash ?? (await hashPin(e.pin ?? '')) })));
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM staff WHERE source = ?').run(source);
      for (const entry of hashed) this.insert(entry, source);
    })();
  }

  private insert(entry: { name: string; role: StaffRole; nationalId?: string | undefined; pinHash: string }, source: StaffSource): StaffMember {
    const row: Row = { ref: this.newRef(), name: entry.name, role: entry.role, national_id: entry.nationalId ?? null, pin_hash: entry.pinHash, source };
    this.db.prepare('INSERT INTO staff (ref, name, role, national_id, pin_hash, source, created_at) VALUES (@ref, @name, @role, @national_id, @pin_hash, @source, @created_at)').run({ ...row, created_at: this.now() });
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
