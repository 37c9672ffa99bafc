// docs/exchange-wire.md is the evidence file of the client: every operation of the client has an
// entry in the form the page's "How to read an entry" fixes, with its evidence. The reader itself
// (test/support/wire-doc.ts) is proven first on a sample page whose good entries pass and whose bad
// entries each give exactly their kind of problem; then the real page is held to the same rules.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { operations } from '../../../electron/payer';
import { checkWireDoc, citationsOf, formatDocProblems, parseType, parseWireDoc, problemKinds, readWireDoc, tableCells, type DocProblemKind } from '../../support/wire-doc';

const samplePath = resolve(import.meta.dirname, '../../fixtures/wire-doc/sample.md');
const sample = parseWireDoc(readFileSync(samplePath, 'utf8'));

/** The operations the sample page is held to: each `bad.<kind>` entry breaks exactly its kind. */
const sampleOperations = [
  { name: 'good.json', method: 'POST', path: '/api/v1/things/{thing_id}/visits' },
  { name: 'good.multipart', method: 'POST', path: '/api/v1/things/lines' },
  { name: 'good.get', method: 'GET', path: '/api/v1/things' },
  { name: 'good.form', method: 'POST', path: '/api/v1/things/token' },
  { name: 'bad.placeholder', method: 'GET', path: '/api/v1/bad/placeholder' },
  { name: 'bad.requestLine', method: 'GET', path: '/api/v1/bad/request-line' },
  { name: 'bad.methodPath', method: 'POST', path: '/api/v1/bad/method-path' },
  { name: 'bad.noSentTable', method: 'GET', path: '/api/v1/bad/no-sent' },
  { name: 'bad.noReadTable', method: 'GET', path: '/api/v1/bad/no-read' },
  { name: 'bad.in', method: 'POST', path: '/api/v1/bad/in' },
  { name: 'bad.type', method: 'POST', path: '/api/v1/bad/type' },
  { name: 'bad.required', method: 'POST', path: '/api/v1/bad/required' },
  { name: 'bad.conf', method: 'POST', path: '/api/v1/bad/conf' },
  { name: 'bad.emptyEvidence', method: 'POST', path: '/api/v1/bad/empty-evidence' },
  { name: 'bad.citation', method: 'POST', path: '/api/v1/bad/citation' },
  { name: 'bad.unevidencedRequired', method: 'POST', path: '/api/v1/bad/unevidenced' },
  { name: 'bad.pathParameter', method: 'POST', path: '/api/v1/bad/{token}/reject' },
  { name: 'bad.rowShape', method: 'POST', path: '/api/v1/bad/row-shape' },
  { name: 'bad.duplicateEntry', method: 'GET', path: '/api/v1/bad/duplicate' },
  { name: 'bad.missingEntry', method: 'GET', path: '/api/v1/bad/missing' },
];

const expectedKind: Record<string, DocProblemKind> = {
  'bad.placeholder': 'placeholder',
  'bad.requestLine': 'request-line',
  'bad.methodPath': 'method-path',
  'bad.noSentTable': 'no-sent-table',
  'bad.noReadTable': 'no-read-table',
  'bad.in': 'in',
  'bad.type': 'type',
  'bad.required': 'required',
  'bad.conf': 'conf',
  'bad.emptyEvidence': 'empty-evidence',
  'bad.citation': 'citation',
  'bad.unevidencedRequired': 'unevidenced-required',
  'bad.pathParameter': 'path-parameter',
  'bad.rowShape': 'row-shape',
  'bad.unknownOperation': 'unknown-operation',
  'bad.duplicateEntry': 'duplicate-entry',
  'bad.missingEntry': 'missing-entry',
};

describe('the wire-doc reader, on test/fixtures/wire-doc/sample.md', () => {
  const problems = checkWireDoc(sample, sampleOperations);
  const kindsOf = (operation: string) => problems.filter((p) => p.operation === operation).map((p) => p.kind);

  it('reads only the entries under "# Operations", not fenced examples or other sections', () => {
    const names = sample.entries.map((e) => e.name);
    expect(names).not.toContain('bad.fenced');
    expect(names).not.toContain('bad.outsideOperations');
    expect(names).not.toContain('bad.afterOperations');
    expect(names.slice(0, 4)).toEqual(['good.json', 'good.multipart', 'good.get', 'good.form']);
  });

  it('reads an entry whole: request line, encoding, Sent and Read rows with their cells', () => {
    const entry = sample.byName.get('good.json');
    expect(entry).toMatchObject({ method: 'POST', path: '/api/v1/things/{thing_id}/visits', body: 'json', placeholder: false });
    expect(entry?.sent?.map((r) => r.names[0])).toEqual([
      'thing_id',
      'patient_id',
      'intervention_codes',
      'service_type',
      'otp',
      'visit_date',
      'doctor',
      'doctor.identification_number',
      'doctor.is_primary',
      'amount',
    ]);
    expect(entry?.sent?.[1]).toMatchObject({ in: 'body', type: 'string', required: 'yes', conf: '2+' });
    expect(entry?.sent?.[1]?.evidence).toEqual(['A `packages/hie-saf/src/cc/visit/visit.service.ts`', 'R `src/sha_claim/adapters/wire/requests.py` `open_visit()`']);
    expect(entry?.sent?.[9]?.types).toEqual([
      { json: false, base: 'number' },
      { json: false, base: 'string' },
    ]);
    expect(entry?.read?.[0]?.names).toEqual(['consent_token', 'authorization_code']);
    expect(sample.byName.get('good.multipart')?.sent?.find((r) => r.names[0] === 'diagnoses')?.types).toEqual([{ json: true, base: 'string[]' }]);
  });

  it('finds no problem in the good entries', () => {
    const good = problems.filter((p) => p.operation.startsWith('good.'));
    expect(good, formatDocProblems(good)).toEqual([]);
  });

  it.each(Object.entries(expectedKind))('%s gives exactly one problem, of kind %s', (operation, kind) => {
    expect(kindsOf(operation)).toEqual([kind]);
  });

  it('has a bad entry for every kind of problem it knows', () => {
    expect(new Set(Object.values(expectedKind))).toEqual(new Set(problemKinds));
  });

  it('names the operation, the line and the cell in its messages', () => {
    const conf = problems.find((p) => p.kind === 'conf');
    expect(conf?.message).toContain('Sent row `patient_id`');
    expect(conf?.message).toContain('"high"');
    expect(conf?.line).toBe(readFileSync(samplePath, 'utf8').split('\n').findIndex((l) => l.includes('| high |')) + 1);
    expect(formatDocProblems(problems)).toMatch(/^bad\.placeholder\n {2}- \[placeholder\] line \d+: /m);
  });

  it('splits cells on unescaped pipes, citations on semicolons outside quotes, types on alternatives', () => {
    expect(tableCells('| `a` | string \\| integer | yes |')).toEqual(['`a`', 'string | integer', 'yes']);
    expect(citationsOf('FN "Consent; SMS" ; R `x.md`')).toEqual(['FN "Consent; SMS"', 'R `x.md`']);
    expect(parseType('json object[]')).toEqual([{ json: true, base: 'object[]' }]);
    expect(parseType('string | text')).toEqual([]);
    expect(parseType('')).toEqual([]);
  });
});

// The real page: fails until every operation's entry is written (issue 9).
describe('docs/exchange-wire.md', () => {
  const doc = readWireDoc();
  const problems = checkWireDoc(doc, operations);

  it.each(operations.map((op) => [op.name, op] as const))('%s has a complete entry with its evidence', (name) => {
    const own = problems.filter((p) => p.operation === name);
    expect(own, formatDocProblems(own)).toEqual([]);
  });

  it('has no entry for an operation the client does not have, and none twice', () => {
    const names = new Set<string>(operations.map((op) => op.name));
    const strays = problems.filter((p) => !names.has(p.operation) || p.kind === 'duplicate-entry');
    expect(strays, formatDocProblems(strays)).toEqual([]);
  });
});
