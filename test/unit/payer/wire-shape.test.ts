// The shape comparison the sandbox's answers are held to (test/support/wire-shape.ts), on made-up
// shapes: shared fields keep the fixtures' JSON types and nesting, unknown fields are named once.
import { describe, expect, it } from 'vitest';
import { parseType } from '../../support/wire-doc';
import { compareShape, kindsOfType, pathsOf } from '../../support/wire-shape';

const row = (name: string, type: string) => ({ names: [name], types: parseType(type) });

describe('pathsOf', () => {
  it('writes paths as the page does, with the kinds seen across array members', () => {
    const paths = pathsOf({ a: { b: 1 }, items: [{ c: 'x' }, { c: 2 }, { d: null }], tags: ['x'] });
    expect(Object.fromEntries([...paths].map(([p, k]) => [p, [...k].sort()]))).toEqual({
      '': ['object'],
      a: ['object'],
      'a.b': ['number'],
      items: ['array'],
      'items[]': ['object'],
      'items[].c': ['number', 'string'],
      'items[].d': ['null'],
      tags: ['array'],
      'tags[]': ['string'],
    });
  });

  it('names the members of a bare array from []', () => {
    expect([...pathsOf([{ id: 1 }]).keys()]).toEqual(['', '[]', '[].id']);
  });
});

describe('kindsOfType', () => {
  it('maps the page vocabulary to JSON kinds; json <type> travels as a string', () => {
    expect([...kindsOfType(parseType('date-time'))]).toEqual(['string']);
    expect([...kindsOfType(parseType('integer | string'))].sort()).toEqual(['number', 'string']);
    expect([...kindsOfType(parseType('object[]'))]).toEqual(['array']);
    expect([...kindsOfType(parseType('json object[]'))]).toEqual(['string']);
  });
});

describe('compareShape', () => {
  const fixture = { token: 'T-1', expiry: 120, sha: { embedExpiry: 120, requestUrl: 'https://x' }, lines: [{ id: 1, amount: 10.5 }] };

  it('accepts an answer with the fixture’s fields, types and nesting, whatever the values', () => {
    expect(compareShape({ token: 'other', expiry: 5, sha: { embedExpiry: 0, requestUrl: 'y' }, lines: [] }, [fixture], [])).toEqual([]);
    expect(compareShape({ token: 'T' }, [fixture], []), 'fields may be left out').toEqual([]);
  });

  it('names a shared field of another JSON type', () => {
    expect(compareShape({ ...fixture, sha: { embedExpiry: '2025-01-01T00:00:00Z', requestUrl: 'y' } }, [fixture], [])).toEqual([
      { kind: 'type', path: 'sha.embedExpiry', message: '`sha.embedExpiry` is string where the fixtures have number' },
    ]);
  });

  it('names a field nested elsewhere than in the fixture', () => {
    const problems = compareShape({ token: 'T', embedExpiry: 120 }, [fixture], []);
    expect(problems).toEqual([{ kind: 'unknown-field', path: 'embedExpiry', message: '`embedExpiry` is in no fixture of the operation and no row of its Read table' }]);
  });

  it('checks the members of arrays against every member of the fixtures', () => {
    expect(compareShape({ lines: [{ id: 2 }, { id: '3' }] }, [fixture], [])).toEqual([
      { kind: 'type', path: 'lines[].id', message: '`lines[].id` is string where the fixtures have number' },
    ]);
    expect(compareShape({ lines: { id: 1 } }, [fixture], [])).toEqual([{ kind: 'type', path: 'lines', message: '`lines` is object where the fixtures have array' }]);
  });

  it('names an unknown field once, not each of its members', () => {
    expect(compareShape({ token: 'T', extra: { a: 1, b: [{ c: 1 }] } }, [fixture], []).map((p) => p.path)).toEqual(['extra']);
  });

  it('allows a field only the Read table names, of a kind its Type allows', () => {
    const rows = [row('status', 'string'), row('lines[].code', 'string | integer')];
    expect(compareShape({ status: 'AUTHORIZED', lines: [{ id: 1, code: 7 }] }, [fixture], rows)).toEqual([]);
    expect(compareShape({ status: 3 }, [fixture], rows)).toEqual([{ kind: 'type', path: 'status', message: '`status` is number where the Read table says string' }]);
  });

  it('reads the members of a `string[]` or `object[]` row where the fixtures hold an empty list', () => {
    const rows = [row('interventions', 'string[]'), row('lines', 'object[]'), row('lines[].id', 'integer')];
    expect(compareShape({ interventions: ['SHA-01'], lines: [{ id: 1 }] }, [{ interventions: [], lines: [] }], rows)).toEqual([]);
    expect(compareShape({ interventions: [7] }, [{ interventions: [] }], rows)).toEqual([
      { kind: 'type', path: 'interventions[]', message: '`interventions[]` is number where the Read table says string' },
    ]);
  });

  it('takes every fixture of the operation: camelCase and snake_case variants alike', () => {
    const camel = { interventionCode: 'X', results: [{ token: 'T' }] };
    const snake = { intervention_code: 'X' };
    expect(compareShape({ intervention_code: 'Y', results: [] }, [camel, snake], [])).toEqual([]);
    expect(compareShape({ intervention_code: 1 }, [camel, snake], [])).toHaveLength(1);
  });

  it('lets null stand for any type, on either side', () => {
    expect(compareShape({ token: null }, [fixture], [])).toEqual([]);
    expect(compareShape({ reason: 'expired' }, [{ reason: null }], [])).toEqual([]);
  });

  it('holds the answer’s own kind to the fixtures’: a page where they show a bare array', () => {
    expect(compareShape({ results: [] }, [[{ id: 1 }]], [])).toEqual([{ kind: 'type', path: '', message: 'the answer is object where the fixtures are array' }]);
    expect(compareShape([{ id: 2, name: 'n' }], [[{ id: 1 }]], [row('name', 'string')]), 'bare-array members may be named without []').toEqual([]);
  });
});
