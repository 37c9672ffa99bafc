import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SafeStorageSecretStore, SecretStoreUnavailableError } from '../../../electron/main/secret-store';
import type { SecretStore } from '../../../electron/station/deps';
import { FakeSafeStorage } from './fake-electron';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'idhini-secrets-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const storeWith = (safeStorage: FakeSafeStorage, platform = 'linux') => new SafeStorageSecretStore({ safeStorage, platform, file: path.join(dir, 'secrets.json') });

describe('safeStorage secret store', () => {
  it("is the station core's SecretStore", () => {
    const store: SecretStore = storeWith(new FakeSafeStorage());
    expect(store).toBeDefined();
  });

  it('keeps only ciphertext on disk and gives the value back', async () => {
    const store = storeWith(new FakeSafeStorage('gnome_libsecret'));
    await store.set('clientSecret', 'demo-hospital-secret');
    await store.set('other', 'x');
    const onDisk = await readFile(path.join(dir, 'secrets.json'), 'utf8');
    expect(onDisk).not.toContain('demo-hospital-secret');
    expect(await store.get('clientSecret')).toBe('demo-hospital-secret');
    await store.delete('clientSecret');
    expect(await store.get('clientSecret')).toBeUndefined();
    expect(await store.get('other')).toBe('x');
  });

  it("refuses Linux's plain-text backend (basic_text), saying what to do", async () => {
    const store = storeWith(new FakeSafeStorage('basic_text'));
    await expect(store.set('clientSecret', 'demo-hospital-secret')).rejects.toThrow(SecretStoreUnavailableError);
    await expect(store.get('clientSecret')).rejects.toThrow(/keyring/);
    await expect(readFile(path.join(dir, 'secrets.json'))).rejects.toThrow(/ENOENT/);
  });

  it('refuses a backend asked before ready, and an OS without encryption', async () => {
    await expect(storeWith(new FakeSafeStorage('unknown')).ensureUsable()).rejects.toThrow(SecretStoreUnavailableError);
    await expect(storeWith(new FakeSafeStorage('kwallet5', false)).ensureUsable()).rejects.toThrow(/unavailable/);
  });

  it('does not ask for the Linux backend on Windows, where DPAPI is used', async () => {
    const safeStorage = new FakeSafeStorage('basic_text');
    const store = storeWith(safeStorage, 'win32');
    await store.set('clientSecret', 's3cret');
    expect(await store.get('clientSecret')).toBe('s3cret');
  });

  it('does not lose a write when two happen at once', async () => {
    const store = storeWith(new FakeSafeStorage());
    await Promise.all([store.set('a', '1'), store.set('b', '2'), store.set('c', '3')]);
    expect([await store.get('a'), await store.get('b'), await store.get('c')]).toEqual(['1', '2', '3']);
  });
});
