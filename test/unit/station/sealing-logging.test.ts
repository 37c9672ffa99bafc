import { describe, expect, it } from 'vitest';
import { memorySecretStore } from '../../../electron/station/deps';
import { createStationLogger, Scrubber } from '../../../electron/station/logging';
import { loadSealer, SealError } from '../../../electron/station/sealing';

describe('the journal seal', () => {
  it('round-trips, makes the key once, and refuses an altered record', async () => {
    const secrets = memorySecretStore();
    const sealer = await loadSealer(secrets, false);
    const sealed = sealer.seal({ consentToken: 'CT123456789' });
    expect(sealed).not.toContain('CT123456789');
    const again = await loadSealer(secrets, true);
    expect(again.replaced).toBe(false);
    expect(again.open(sealed)).toEqual({ consentToken: 'CT123456789' });
    // One bit of the ciphertext flipped (not the base64 padding bits, which decode to nothing).
    const bytes = Buffer.from(sealed.slice(3), 'base64url');
    bytes[bytes.length - 1]! ^= 0x01;
    const flipped = `v1:${bytes.toString('base64url')}`;
    expect(() => sealer.open(flipped)).toThrow(SealError);
  });

  it('makes a new key when the store lost it, and says the earlier records are unreadable', async () => {
    const secrets = memorySecretStore();
    const old = await loadSealer(secrets, false);
    expect(old.replaced).toBe(false);
    const sealed = old.seal({ a: 1 });
    await secrets.delete('idhini.journal-key');
    const fresh = await loadSealer(secrets, true);
    expect(fresh.replaced).toBe(true);
    expect(() => fresh.open(sealed)).toThrow(SealError);
  });
});

describe('the keyed hash', () => {
  it('is stable under one journal key, differs under another, and shows nothing of its input', async () => {
    const sealer = await loadSealer(memorySecretStore(), false);
    const hash = sealer.keyedHash('patient-ref\nFID-00-000004-0\nNational ID\n30000001');
    expect(sealer.keyedHash('patient-ref\nFID-00-000004-0\nNational ID\n30000001')).toBe(hash);
    expect(sealer.keyedHash('patient-ref\nFID-00-000004-0\nNational ID\n30000002')).not.toBe(hash);
    expect((await loadSealer(memorySecretStore(), false)).keyedHash('patient-ref\nFID-00-000004-0\nNational ID\n30000001')).not.toBe(hash);
    expect(hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(hash).not.toContain('30000001');
  });
});

describe('the station logger', () => {
  function capture() {
    const lines: string[] = [];
    const { log, scrubber } = createStationLogger({ destination: { write: (l: string) => lines.push(l) }, level: 'debug' });
    return { lines, log, scrubber };
  }

  it('censors secret keys at any of the first three levels', () => {
    const { lines, log } = capture();
    log.info({ token: 'abc', nested: { otp: '123456', deeper: { consent_token: 'zzz' } }, operation: 'claims.submit' }, 'hello');
    const line = lines.join('');
    expect(line).not.toMatch(/abc|123456|zzz/);
    expect(line).toContain('claims.submit');
  });

  it('scrubs registered values wherever they appear, message and errors included', () => {
    const { lines, log, scrubber } = capture();
    scrubber.add('demo-hospital-secret');
    scrubber.add('CTJ6K2ABCDEF1234');
    scrubber.addName('Wanjiku Mumbi Kamau');
    log.warn({ detail: 'sent CTJ6K2ABCDEF1234 for wanjiku', err: new Error('secret demo-hospital-secret') }, 'patient Wanjiku Mumbi Kamau seen');
    const line = lines.join('');
    for (const value of ['demo-hospital-secret', 'CTJ6K2ABCDEF1234', 'Wanjiku', 'wanjiku', 'Mumbi', 'Kamau']) expect(line).not.toContain(value);
    expect(line).toContain('[patient]');
  });

  it('writes one component per line: the core’s, or the child’s own instead of it', () => {
    const { lines, log } = capture();
    const components = (line: string) => [...line.matchAll(/"component":"([^"]*)"/g)].map((m) => m[1]);
    log.info('core line');
    const shell = log.child({ component: 'shell' });
    shell.info('shell line');
    shell.child({ phase: 'boot' }).info('shell boot line');
    log.child({ workflowId: 'wf_1' }).info('core child line');
    log.info({ component: 'audit' }, 'component in the line itself');
    expect(lines.map(components)).toEqual([['station'], ['shell'], ['shell'], ['station'], ['audit']]);
    expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(['core line', 'shell line', 'shell boot line', 'core child line', 'component in the line itself']);
  });

  it('ignores values too short to scrub safely', () => {
    const scrubber = new Scrubber();
    scrubber.add('1');
    scrubber.add('ab');
    expect(scrubber.scrub('a1b ab')).toBe('a1b ab');
  });
});
