// The station's secret store in the Electron shell: values encrypted with safeStorage (DPAPI on
// Windows, the keychain on macOS, libsecret or kwallet on Linux) and kept, as ciphertext only, in
// one JSON file under the app's data folder. On Linux without a keyring Chromium falls back to
// 'basic_text', which "encrypts" with a hard-coded key: that would put the facility's client secret
// on disk in effect in plain text, so the store refuses to work there and says why.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SafeStorageApi } from './electron-api';

export class SecretStoreUnavailableError extends Error {
  override readonly name = 'SecretStoreUnavailableError';
}

export interface SafeStorageSecretStoreOptions {
  safeStorage: SafeStorageApi;
  /** process.platform */
  platform: string;
  /** The JSON file of ciphertexts, e.g. <userData>/secrets.json */
  file: string;
}

/** Structurally the station core's SecretStore (electron/station/deps.ts). */
export class SafeStorageSecretStore {
  readonly #options: SafeStorageSecretStoreOptions;
  #checked: Promise<void> | null = null;
  /** Serialises writes so two set() calls cannot interleave their read-modify-write. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: SafeStorageSecretStoreOptions) {
    this.#options = options;
  }

  /** Resolves when encryption is available and not the plain-text backend; rejects with why not. */
  ensureUsable(): Promise<void> {
    return (this.#checked ??= this.#check());
  }

  async get(key: string): Promise<string | undefined> {
    await this.ensureUsable();
    const stored = (await this.#read())[key];
    if (stored === undefined) return undefined;
    const { result, shouldReEncrypt } = await this.#options.safeStorage.decryptStringAsync(Buffer.from(stored, 'base64'));
    if (shouldReEncrypt) await this.set(key, result);
    return result;
  }

  async set(key: string, value: string): Promise<void> {
    await this.ensureUsable();
    const encrypted = (await this.#options.safeStorage.encryptStringAsync(value)).toString('base64');
    await this.#update((entries) => ({ ...entries, [key]: encrypted }));
  }

  async delete(key: string): Promise<void> {
    await this.#update((entries) => Object.fromEntries(Object.entries(entries).filter(([name]) => name !== key)));
  }

  async #check(): Promise<void> {
    const { safeStorage, platform } = this.#options;
    if (platform === 'linux') {
      const backend = safeStorage.getSelectedStorageBackend();
      if (backend === 'basic_text') {
        throw new SecretStoreUnavailableError(
          'No system keyring is available (safeStorage chose the plain-text backend). Install and unlock a keyring (GNOME Keyring or KWallet), then start Idhini again; the client secret is not stored without one.',
        );
      }
      if (backend === 'unknown') throw new SecretStoreUnavailableError('safeStorage was asked before the app was ready.');
    }
    if (!(await safeStorage.isAsyncEncryptionAvailable())) {
      throw new SecretStoreUnavailableError('The operating system offers no encryption for stored secrets (safeStorage unavailable).');
    }
  }

  async #read(): Promise<Record<string, string>> {
    let text: string;
    try {
      text = await readFile(this.#options.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw error;
    }
    const parsed: unknown = JSON.parse(text);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`${this.#options.file} is not a secret store file.`);
    return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  }

  #update(change: (entries: Record<string, string>) => Record<string, string>): Promise<void> {
    const next = this.#queue.then(async () => {
      const entries = change(await this.#read());
      const file = this.#options.file;
      await mkdir(path.dirname(file), { recursive: true });
      // Write beside, then rename: a crash leaves the old file or the new one, never half of one.
      const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        await writeFile(temporary, JSON.stringify(entries), { mode: 0o600 });
        await rename(temporary, file);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    });
    this.#queue = next.catch(() => undefined);
    return next;
  }
}
