// The upgrade chain every sealed record is read through (electron/station/versioned.ts): a record is
// read by the schema of the version it was kept in, then upgraded one step at a time; a record of a
// newer version, or one that is not what its version says, is answered as such (never cast), and
// what the answer says names where it failed, never what the record held.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { envelopeOf, unwrap, versioned } from '../../../electron/station/versioned';

// A record's life in three shapes: a name, then split in two, then a list of names.
const history = versioned(z.strictObject({ name: z.string() }))
  .then(z.strictObject({ given: z.string(), family: z.string() }), (v1) => {
    const [given = '', ...rest] = v1.name.split(' ');
    return { given, family: rest.join(' ') };
  })
  .then(z.strictObject({ names: z.array(z.string()).min(1) }), (v2) => ({ names: [v2.given, v2.family].filter((n) => n !== '') }));

describe('records read through their version and upgraded to the current one', () => {
  it('upgrades a record of each older version step by step, and reads the current one as it is', () => {
    expect(history.current).toBe(3);
    expect(history.read(1, { name: 'Amina Wekesa' })).toEqual({ ok: true, version: 1, value: { names: ['Amina', 'Wekesa'] } });
    expect(history.read(2, { given: 'Amina', family: '' })).toEqual({ ok: true, version: 2, value: { names: ['Amina'] } });
    expect(history.read(3, { names: ['Amina'] })).toEqual({ ok: true, version: 3, value: { names: ['Amina'] } });
  });

  it('answers a newer version as newer, and a record that is not its version as invalid, naming the place and never the value', () => {
    expect(history.read(4, { anything: 1 })).toMatchObject({ ok: false, reason: 'newer', detail: 'version 4; this station reads up to 3' });
    const wrong = history.read(2, { given: 'Wanjiku-Secret-30000001', family: 7 });
    expect(wrong).toMatchObject({ ok: false, reason: 'invalid' });
    if (wrong.ok) return;
    expect(wrong.detail).toContain('family');
    expect(wrong.detail).not.toContain('Wanjiku');
    expect(history.read(1, { name: 'x', extra: 'Wanjiku' })).toMatchObject({ ok: false, reason: 'invalid', detail: expect.stringContaining('extra') });
    expect(history.read(0, { name: 'x' })).toMatchObject({ ok: false, reason: 'invalid' });
  });

  it('names an upgrade step whose result is not the next version', () => {
    const broken = versioned(z.strictObject({ a: z.number() })).then(z.strictObject({ b: z.number() }), (v1) => ({ b: String(v1.a) as unknown as number }));
    expect(broken.read(1, { a: 1 })).toMatchObject({ ok: false, reason: 'invalid', detail: expect.stringContaining('upgraded to version 2') });
  });

  it('refuses to write a record that is not the current version (a bug, not data)', () => {
    expect(() => history.check({ names: [] })).toThrow(/not version 3/);
    expect(history.check({ names: ['Amina'] })).toEqual({ names: ['Amina'] });
  });

  it('keeps the version beside the record, and reads a record kept before versions as version 1', () => {
    expect(unwrap(envelopeOf(3, { names: ['a'] }))).toEqual({ version: 3, record: { names: ['a'] } });
    expect(unwrap({ id: 'wf_1', kind: 'consent' })).toEqual({ version: 1, record: { id: 'wf_1', kind: 'consent' } });
  });
});
