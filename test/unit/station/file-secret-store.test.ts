// Browser mode's key store (issue 11): the journal key and the client secret survive a restart, in
// a file only its user may read — 0600 on POSIX, an ACL granting the user alone on Windows.
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileSecretStore, windowsOwnerOnlyArgs } from '../../../electron/station';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'idhini-keys-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const posix = process.platform !== 'win32';

describe('file secret store', () => {
  it('keeps what it is given across instances (a restart), and forgets what is deleted', async () => {
    const file = join(dir, 'data', 'secrets.json');
    const first = new FileSecretStore(file, { platform: process.platform });
    await first.set('idhini.journal-key', 'a2V5');
    await first.set('client-secret', 's3cret');
    await first.delete('client-secret');
    const again = new FileSecretStore(file, { platform: process.platform });
    expect(await again.get('idhini.journal-key')).toBe('a2V5');
    expect(await again.get('client-secret')).toBeUndefined();
  });

  it.runIf(posix)('writes the file readable by its owner only', async () => {
    const file = join(dir, 'secrets.json');
    await new FileSecretStore(file, { platform: process.platform }).set('k', 'v');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it.runIf(posix)('a file found readable by others is tightened, and said so', async () => {
    const file = join(dir, 'secrets.json');
    writeFileSync(file, JSON.stringify({ k: 'v' }));
    chmodSync(file, 0o644);
    const warnings: string[] = [];
    expect(await new FileSecretStore(file, { platform: process.platform, warn: (m) => warnings.push(m) }).get('k')).toBe('v');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(warnings).toEqual([expect.stringContaining('readable by its owner only')]);
  });

  it('on Windows, replaces the file’s ACL by one granting the user alone, before a secret is written', async () => {
    const file = join(dir, 'secrets.json');
    const runs: { program: string; args: readonly string[]; contents: string }[] = [];
    const store = new FileSecretStore(file, {
      platform: 'win32',
      run: async (program, args) => {
        const { readFileSync } = await import('node:fs');
        runs.push({ program, args, contents: readFileSync(args[0]!, 'utf8') });
      },
    });
    await store.set('k', 'v');
    expect(runs).toHaveLength(1);
    expect(runs[0]!.program).toBe('icacls');
    expect(runs[0]!.args.slice(1)).toEqual(windowsOwnerOnlyArgs('x', userInfo().username).slice(1));
    expect(runs[0]!.contents, 'nothing written before the ACL').toBe('');
    // Reading an existing file checks it once as well.
    expect(await new FileSecretStore(file, { platform: 'win32', run: async (program, args) => void runs.push({ program, args, contents: '' }) }).get('k')).toBe('v');
    expect(runs).toHaveLength(2);
  });

  it('refuses a file that is not a secret store', async () => {
    const file = join(dir, 'secrets.json');
    writeFileSync(file, '[1, 2]', { mode: 0o600 });
    await expect(new FileSecretStore(file, { platform: process.platform }).get('k')).rejects.toThrow(/not a secret store file/);
  });
});
