// The secret store of browser mode, where no OS keystore is at hand: one JSON file that only the
// user the station runs as may read. It keeps the journal key and the facility's client secret
// across a restart — a crash included — so the station opens its journal again and continues every
// workflow, as it does under Electron with safeStorage.
//
// It is weaker than the OS keystore: the secrets are in the file as they are, protected by the
// file's permissions alone, so anyone who can act as that user (or an administrator, or a backup of
// the profile) can read them, and with them the journal. The README says so; Electron keeps using
// safeStorage.
//
// Readable only by the user, on every system: on POSIX the file is written 0600 (a file found
// readable by others is tightened, and said so); on Windows, where Node's mode bits do nothing, the
// file's ACL is replaced by one granting the current user alone (icacls, inheritance removed).
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { SecretStore } from './deps';
import { keepToOwner, OWNER_ONLY_FILE_MODE, OWNER_ONLY_FOLDER_MODE, type OwnerOnlyOptions } from './owner-only';

export type FileSecretStoreOptions = OwnerOnlyOptions;

export class FileSecretStore implements SecretStore {
  #queue: Promise<unknown> = Promise.resolve();
  #checked = false;

  constructor(
    private readonly file: string,
    private readonly o: FileSecretStoreOptions,
  ) {}

  async get(key: string): Promise<string | undefined> {
    await this.#queue;
    return (await this.#read())[key];
  }

  set(key: string, value: string): Promise<void> {
    return this.#update((entries) => ({ ...entries, [key]: value }));
  }

  delete(key: string): Promise<void> {
    return this.#update((entries) => Object.fromEntries(Object.entries(entries).filter(([name]) => name !== key)));
  }

  async #read(): Promise<Record<string, string>> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw error;
    }
    if (!this.#checked) {
      this.#checked = true;
      await this.#keepToUser(this.file, true);
    }
    const parsed: unknown = JSON.parse(text);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`${this.file} is not a secret store file.`);
    return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  }

  #update(change: (entries: Record<string, string>) => Record<string, string>): Promise<void> {
    const next = this.#queue.then(async () => {
      const entries = change(await this.#read());
      await mkdir(path.dirname(this.file), { recursive: true, mode: OWNER_ONLY_FOLDER_MODE });
      // Written beside, kept to its user before a secret is in it, flushed, then renamed over the
      // old one: a crash leaves the old file or the new one, never half of one.
      const temporary = `${this.file}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        const handle = await open(temporary, 'wx', OWNER_ONLY_FILE_MODE);
        try {
          await this.#keepToUser(temporary, false);
          await handle.writeFile(JSON.stringify(entries), 'utf8');
          await handle.sync();
        } finally {
          await handle.close();
        }
        await rename(temporary, this.file);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    });
    this.#queue = next.catch(() => undefined);
    return next;
  }

  async #keepToUser(file: string, existing: boolean): Promise<void> {
    await keepToOwner(file, 'file', { ...this.o, existing });
  }
}
