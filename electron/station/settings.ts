// Station settings, persisted in the station database. The client secret is not a setting: it
// goes to the injected secret store on facility.signIn and never comes back out of the core. It is
// stored with the origin of the exchange that accepted it, and handed out only while the exchange
// URL still has that origin: no change of settings, however made, sends it anywhere else.
import { z } from 'zod';
import { stationSettings, type StationSettings } from '../contract';
import type { Db } from './db';
import type { SecretStore } from './deps';
import type { Quarantine } from './quarantine';
import { issuesOf } from './versioned';

type Stored = Omit<StationSettings, 'credentialsStored' | 'missing' | 'provisioned'>;

export const CLIENT_SECRET_KEY = 'idhini.client-secret';

export const defaultSettings: Stored = {
  exchangeBaseUrl: null,
  trainingMode: false,
  clientId: null,
  facilityCode: null,
  facilityName: null,
  agentNationalId: null,
  allowedLinkOrigins: [],
  language: 'en',
  idleLockMinutes: 10,
  reader: { source: 'auto', readerId: null },
  defaultServiceType: 'OUTPATIENT',
  stationRole: 'ward',
  terminology: { medicines: null, diagnoses: null },
  scannerFolder: null,
};

const storedKeys = Object.keys(defaultSettings) as (keyof Stored)[];

/** Each setting as the contract says it may be: a row read back is held to it, never cast. */
const storedSettings = stationSettings.omit({ credentialsStored: true, missing: true, provisioned: true });

/** What a row holds when its text is not JSON at all. */
const NOT_JSON = Symbol('not JSON');

/** The settings the station cannot work without, in the order a first-run screen asks for them. */
const required = ['exchangeBaseUrl', 'clientId', 'facilityCode', 'facilityName', 'agentNationalId'] as const;

/** The origin of an exchange base URL, or null. */
export function exchangeOriginOf(baseUrl: string | null): string | null {
  return baseUrl !== null && URL.canParse(baseUrl) ? new URL(baseUrl).origin : null;
}

export class SettingsStore {
  private current: Stored;
  /** The settings the provisioning file fixes (read-only to the station window). */
  provisioned: readonly (keyof Stored)[] = [];
  private readonly upsert;
  private readonly selectMemo;

  /**
   * Reads every setting through the contract's schema. A row that is not what the setting may be is
   * set aside (kept, audited): the station goes on with that setting's default, and says so.
   */
  constructor(
    private readonly db: Db,
    private readonly secrets: SecretStore,
    private readonly quarantine: Quarantine,
  ) {
    this.upsert = db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
    this.selectMemo = db.prepare('SELECT value FROM settings WHERE key = ?');
    const rows = db.prepare("SELECT key, value FROM settings WHERE key NOT LIKE 'memo.%'").all() as { key: string; value: string }[];
    const stored: Record<string, unknown> = { ...defaultSettings };
    for (const row of rows) if ((storedKeys as string[]).includes(row.key)) stored[row.key] = jsonOrMark(row.value);
    let read = storedSettings.safeParse(stored);
    const failed = new Set(read.success ? [] : read.error.issues.map((issue) => String(issue.path[0])));
    if (!read.success) {
      for (const key of failed) {
        const one = storedSettings.shape[key as keyof Stored].safeParse(stored[key]);
        quarantine.hold('setting', key, null, { reason: 'invalid', detail: one.success ? 'not what the setting may be' : issuesOf(one.error) });
        stored[key] = defaultSettings[key as keyof Stored];
      }
      read = storedSettings.safeParse(stored);
      if (!read.success) throw new Error(`The station's default settings do not pass their own schema: ${issuesOf(read.error)}`);
    }
    for (const row of rows) if (!failed.has(row.key)) quarantine.release('setting', row.key, null);
    this.current = read.data;
  }

  get isEmpty(): boolean {
    return (this.db.prepare("SELECT COUNT(*) AS n FROM settings WHERE key NOT LIKE 'memo.%'").get() as { n: number }).n === 0;
  }

  get values(): Stored {
    return this.current;
  }

  /** Changes only the fields given (already validated against the contract). */
  update(changes: Partial<Stored>): void {
    const next: Record<string, unknown> = { ...this.current };
    this.db.transaction(() => {
      for (const [key, value] of Object.entries(changes)) {
        if (value === undefined || !(storedKeys as string[]).includes(key)) continue;
        next[key] = value;
        this.upsert.run(key, JSON.stringify(value));
      }
    })();
    this.current = next as Stored;
  }

  /** The stored client secret, while the exchange URL has the origin that accepted it; else none. */
  async clientSecret(): Promise<string | undefined> {
    const stored = await this.secrets.get(CLIENT_SECRET_KEY);
    if (stored === undefined) return undefined;
    const bound = boundSecret.safeParse(safeJson(stored));
    const origin = exchangeOriginOf(this.current.exchangeBaseUrl);
    return bound.success && origin !== null && bound.data.origin === origin ? bound.data.secret : undefined;
  }

  /** Keeps the secret the exchange at the current URL accepted, bound to that exchange's origin. */
  async storeClientSecret(secret: string): Promise<void> {
    const origin = exchangeOriginOf(this.current.exchangeBaseUrl);
    if (origin === null) throw new Error('A client secret is stored only for an exchange URL.');
    await this.secrets.set(CLIENT_SECRET_KEY, JSON.stringify({ origin, secret }));
  }

  async forgetClientSecret(): Promise<void> {
    await this.secrets.delete(CLIENT_SECRET_KEY);
  }

  async view(): Promise<StationSettings> {
    const credentialsStored = (await this.clientSecret()) !== undefined;
    const missing = required.filter((key) => (key === 'clientId' ? this.current.clientId === null || !credentialsStored : this.current[key] === null));
    return { ...this.current, credentialsStored, missing: [...missing], provisioned: [...this.provisioned] };
  }

  /**
   * Small things the station remembers between shifts (the ward's usual intervention): text, read
   * back as text. One that is not is set aside (kept until remembered anew) and forgotten meanwhile.
   */
  memo(key: string): string | undefined {
    const row = this.selectMemo.get(`memo.${key}`) as { value: string } | undefined;
    if (row === undefined) return undefined;
    const read = z.string().safeParse(jsonOrMark(row.value));
    if (read.success) return read.data;
    this.quarantine.hold('memo', key, null, { reason: 'invalid', detail: issuesOf(read.error) });
    return undefined;
  }

  remember(key: string, value: string): void {
    this.upsert.run(`memo.${key}`, JSON.stringify(value));
    this.quarantine.release('memo', key, null, 'written anew');
  }
}

const boundSecret = z.strictObject({ origin: z.string().min(1), secret: z.string().min(1) });

function jsonOrMark(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
