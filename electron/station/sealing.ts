// The journal encrypts what it keeps of a patient's consent: consent tokens, authorization guids,
// SMS codes waiting to be spent, the patient's registry id and ID number. They must survive a crash
// (so they are on disk), but the SQLite file sits on a shared ward workstation, is backed up and
// can be copied; with the key in the OS keystore (the injected secret store: safeStorage under
// Electron) a copied file shows workflow states and masked names, nothing that opens a claim.
// AES-256-GCM: an edited row fails to open instead of yielding altered data.
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type { SecretStore } from './deps';

const KEY_NAME = 'idhini.journal-key';
const VERSION = 'v1';

export interface Sealer {
  seal(value: unknown): string;
  /** What was sealed, as it was sealed: for its reader to validate (never to cast). */
  open(sealed: string): unknown;
  /**
   * A keyed hash (HMAC-SHA256 under a key derived from the journal key): finds a row by a secret
   * without storing it. An ID number has few digits, so an unkeyed hash of it would be undone by
   * trying them all; without the key this cannot be.
   */
  keyedHash(text: string): string;
}

export class SealError extends Error {
  override readonly name = 'SealError';
}

/**
 * The journal key from the secret store, made on first use. When the store has lost it (a new OS
 * profile, a wiped keystore) while the journal holds sealed records, a new key is made so the
 * station can work, and `replaced` says that the old records can no longer be read.
 */
export async function loadSealer(secrets: SecretStore, journalHasRecords: boolean): Promise<Sealer & { replaced: boolean }> {
  let encoded = await secrets.get(KEY_NAME);
  let replaced = false;
  if (encoded === undefined) {
    replaced = journalHasRecords;
    encoded = randomBytes(32).toString('base64');
    await secrets.set(KEY_NAME, encoded);
  }
  const key = Buffer.from(encoded, 'base64');
  if (key.length !== 32) throw new SealError('The journal key in the secret store is not 32 bytes.');
  return { ...createSealer(key), replaced };
}

export function createSealer(key: Buffer): Sealer {
  const hashKey = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'idhini keyed hash v1', 32));
  return {
    keyedHash(text) {
      return createHmac('sha256', hashKey).update(text, 'utf8').digest('base64url');
    },
    seal(value) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
      return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
    },
    open(sealed) {
      const [version, payload] = sealed.split(':', 2);
      if (version !== VERSION || payload === undefined) throw new SealError('A journal record is not in a format this station knows.');
      const raw = Buffer.from(payload, 'base64url');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
        decipher.setAuthTag(raw.subarray(12, 28));
        const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
        return JSON.parse(text) as unknown;
      } catch {
        throw new SealError('A journal record could not be opened: it was altered, or the key is not the one it was sealed with.');
      }
    },
  };
}
