// The request checker (test/support/wire-check.ts) against the good entries of the sample page
// (test/fixtures/wire-doc/sample.md): made-up requests that fit pass; each way of breaking an entry
// is named with its row and the page's line.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkRequest, formatRequestCheck, identifyOperation, isRfc3339, matchTemplate } from '../../support/wire-check';
import { parseWireDoc } from '../../support/wire-doc';
import type { DecodedBody, RecordedRequest } from '../../support/wire-recorder';

const doc = parseWireDoc(readFileSync(resolve(import.meta.dirname, '../../fixtures/wire-doc/sample.md'), 'utf8'));

function request(method: string, path: string, body: DecodedBody = { encoding: 'none' }, query: Record<string, string[]> = {}, headers: Record<string, string> = {}): RecordedRequest {
  return { method, path, query, headers, body };
}

const json = (value: unknown): DecodedBody => ({ encoding: 'json', value });
const multipart = (fields: Record<string, string[]>, files: { field: string; fileName?: string }[] = []): DecodedBody => ({
  encoding: 'multipart',
  fields,
  files: files.map((f) => ({ field: f.field, fileName: f.fileName ?? 'lab.pdf', contentType: 'application/pdf', size: 5 })),
});

const visit = { patient_id: 'CR1', intervention_codes: ['SHA-01'], service_type: 'OUTPATIENT', otp: '1234', doctor: { identification_number: 'A1', is_primary: true } };
const visitPath = '/api/v1/things/T-1/visits';
const line = {
  consent_token: ['CT-1'],
  unit_price: ['1500.00'],
  quantity: ['2'],
  charge_date: ['2025-07-01'],
  diagnoses: ['["CA40","DB10"]'],
  attachments: ['[{"document_title":"Lab","file_field_name":"attachments_0_file_blob"}]'],
};

const messages = (r: RecordedRequest) => checkRequest(r, doc).problems.map((p) => p.message);

describe('checkRequest', () => {
  it('passes requests that fit their entry: JSON, multipart with JSON parts and files, query, form', () => {
    expect(messages(request('POST', visitPath, json(visit)))).toEqual([]);
    expect(messages(request('POST', visitPath, json({ ...visit, visit_date: '2025-07-01T08:30:00+03:00', amount: '12.50' })))).toEqual([]);
    expect(messages(request('POST', '/api/v1/things/lines', multipart(line, [{ field: 'attachments_0_file_blob' }])))).toEqual([]);
    expect(messages(request('GET', '/api/v1/things', undefined, { patient_id: ['CR1'], page: ['2'] }, { 'x-consent-token': 'CT-1' }))).toEqual([]);
    expect(messages(request('POST', '/api/v1/things/token', { encoding: 'form', fields: { client_id: ['c'], grant_type: ['client_credentials'] } }))).toEqual([]);
  });

  it('names a field that is not a Sent row, at any depth, and in every place a field travels', () => {
    expect(messages(request('POST', visitPath, json({ ...visit, intervention_code: 'SHA-01' })))).toEqual(['body `intervention_code` is not a Sent row of the entry']);
    expect(messages(request('POST', visitPath, json({ ...visit, doctor: { identification_number: 'A1', regulator: 'KMPDC' } })))).toEqual(['body `doctor.regulator` is not a Sent row of the entry']);
    expect(messages(request('GET', '/api/v1/things', undefined, { patient_id: ['CR1'], search: ['x'] }))).toEqual(['query `search` is not a Sent row of the entry']);
    expect(messages(request('POST', '/api/v1/things/lines', multipart({ ...line, scheme: ['SHIF'] })))).toEqual(['body `scheme` is not a Sent row of the entry']);
    expect(messages(request('POST', '/api/v1/things/lines', multipart(line, [{ field: 'file' }])))).toEqual(['file part `file` (lab.pdf) is not a Sent row of the entry']);
    const nested = { ...line, attachments: ['[{"document_title":"Lab","file_field_name":"f","document_type":"LAB"}]'] };
    expect(messages(request('POST', '/api/v1/things/lines', multipart(nested)))).toEqual(['body `attachments[].document_type` is not a Sent row of the entry']);
  });

  it('names a `yes` row that is missing, at the top and inside every member of an array', () => {
    const { intervention_codes: _dropped, ...withoutCodes } = visit;
    expect(messages(request('POST', visitPath, json(withoutCodes)))).toEqual(['`intervention_codes` (body, string[], yes) is missing']);
    expect(messages(request('POST', visitPath, json({ ...visit, doctor: { is_primary: false } })))).toEqual(['`doctor.identification_number` (body, string, yes) is missing from `doctor`']);
    const noTitle = { ...line, attachments: ['[{"document_title":"Lab","file_field_name":"a"},{"file_field_name":"b"}]'] };
    expect(messages(request('POST', '/api/v1/things/lines', multipart(noTitle)))).toEqual(['`attachments[].document_title` (body, string, yes) is missing from `attachments[]`']);
    expect(messages(request('GET', '/api/v1/things', undefined, { page: ['1'] }))).toEqual(['`patient_id` (query, string, yes) is missing from the query']);
  });

  it('reads types as the page defines them, in JSON and in text parts', () => {
    expect(messages(request('POST', visitPath, json({ ...visit, intervention_codes: 'SHA-01' })))).toEqual(['body `intervention_codes` "SHA-01" is not string[]']);
    expect(messages(request('POST', visitPath, json({ ...visit, visit_date: '2025-07-01' })))).toEqual(['body `visit_date` "2025-07-01" is not date-time']);
    expect(messages(request('POST', visitPath, json({ ...visit, doctor: { identification_number: 7 } })))).toEqual(['body `doctor.identification_number` 7 is not string']);
    // A multipart `json string[]` part must hold a JSON array of strings, not diagnosis objects.
    expect(messages(request('POST', '/api/v1/things/lines', multipart({ ...line, diagnoses: ['[{"code":"CA40"}]'] })))).toEqual(['body `diagnoses` "[{\\"code\\":\\"CA40\\"}]" is not json string[]']);
    expect(messages(request('POST', '/api/v1/things/lines', multipart({ ...line, diagnoses: ['CA40'] })))).toEqual(['body `diagnoses` "CA40" is not json string[]']);
    expect(messages(request('POST', '/api/v1/things/lines', multipart({ ...line, quantity: ['2.5'], charge_date: ['01/07/2025'] })))).toEqual([
      'body `quantity` "2.5" is not integer',
      'body `charge_date` "01/07/2025" is not date',
    ]);
    expect(messages(request('GET', '/api/v1/things', undefined, { patient_id: ['CR1'], page: ['first'] }))).toEqual(['query `page` "first" is not integer']);
  });

  it('matches `{n}` part names and holds the body encoding to the entry', () => {
    expect(messages(request('POST', '/api/v1/things/lines', multipart(line, [{ field: 'attachments_12_file_blob' }])))).toEqual([]);
    expect(messages(request('POST', '/api/v1/things/lines', json({ consent_token: 'CT-1' })))[0]).toBe('the body is json, the entry says body: multipart');
    expect(messages(request('POST', visitPath, { encoding: 'other', contentType: 'text/plain', problem: 'content type text/plain' }))[0]).toBe(
      'the body is text/plain (content type text/plain), the entry says body: json',
    );
  });

  it('says when no entry has the method and path, or the entry is not written', () => {
    expect(checkRequest(request('DELETE', visitPath), doc)).toMatchObject({ operation: undefined, problems: [{ message: `no entry of docs/exchange-wire.md has DELETE ${visitPath}` }] });
    expect(messages(request('GET', '/api/v1/bad/placeholder'))).toEqual(['the entry of bad.placeholder is not written yet (placeholder): nothing to hold the request to']);
  });

  it('formats each problem with the request, the entry and the row’s line in the page', () => {
    const check = checkRequest(request('POST', visitPath, json({ ...visit, visit_date: 'today' })), doc);
    const rowLine = readFileSync(resolve(import.meta.dirname, '../../fixtures/wire-doc/sample.md'), 'utf8')
      .split('\n')
      .findIndex((l) => l.startsWith('| `visit_date`')) + 1;
    expect(formatRequestCheck(check, 4)).toBe(`#4 POST ${visitPath} → good.json\n  - [row \`visit_date\`, docs/exchange-wire.md line ${rowLine}] body \`visit_date\` "today" is not date-time`);
  });
});

describe('identifyOperation', () => {
  const ops = [
    { name: 'one.otp', method: 'POST', path: '/api/v1/things/token' },
    { name: 'good.form', method: 'POST', path: '/api/v1/things/token' },
    { name: 'good.json', method: 'POST', path: '/api/v1/things/{thing_id}/visits' },
  ];

  it('takes the only operation of the method and path', () => {
    expect(identifyOperation(request('POST', visitPath, json({})), ops, doc)).toBe('good.json');
    expect(identifyOperation(request('GET', visitPath), ops, doc)).toBeUndefined();
  });

  it('tells operations of one path apart by the entry the body fits', () => {
    // one.otp has no entry: good.form's entry fits, so it wins over the table's order.
    expect(identifyOperation(request('POST', '/api/v1/things/token', { encoding: 'form', fields: { client_id: ['c'] } }), ops, doc)).toBe('good.form');
  });
});

describe('entries that share a path', () => {
  const shared = parseWireDoc(
    [
      '# Operations',
      '### `x.otp`',
      '`POST /api/v1/claims/authorize` · body: json',
      '',
      '| Sent | In | Type | Required | Evidence | Conf. |',
      '|---|---|---|---|---|---|',
      '| `otp` | body | string | yes | R `docs/api/a.md` | docs |',
      '| `interventions` | body | string[] | yes | R `docs/api/a.md` | docs |',
      '',
      '| Read | Type | Required | Evidence | Conf. |',
      '|---|---|---|---|---|',
      '### `x.unwritten`',
      '`POST /api/v1/claims/authorize`',
      '',
      '_Entry to be written from the sources (issue 9)._',
    ].join('\n'),
  );
  const ops = [
    { name: 'x.unwritten', method: 'POST', path: '/api/v1/claims/authorize' },
    { name: 'x.otp', method: 'POST', path: '/api/v1/claims/authorize' },
  ];
  const old = request('POST', '/api/v1/claims/authorize', json({ otp: '1234', intervention_codes: ['SHA-01'] }));

  it('holds a request that fits none to the written entry, not to one still a placeholder', () => {
    const check = checkRequest(old, shared);
    expect(check.operation).toBe('x.otp');
    expect(check.problems.map((p) => p.message)).toEqual(['body `intervention_codes` is not a Sent row of the entry', '`interventions` (body, string[], yes) is missing']);
    expect(formatRequestCheck(check).split('\n')[0]).toBe('POST /api/v1/claims/authorize → x.otp (the best fit of x.otp, x.unwritten)');
    expect(identifyOperation(old, ops, shared)).toBe('x.otp');
  });
});

describe('types of the wire', () => {
  it('knows an RFC 3339 date-time and a template’s values', () => {
    expect(isRfc3339('2025-07-01T08:30:00Z')).toBe(true);
    expect(isRfc3339('2025-07-01T08:30:00.123+03:00')).toBe(true);
    expect(isRfc3339('2025-02-30T08:30:00Z')).toBe(false);
    expect(isRfc3339('2025-07-01 08:30')).toBe(false);
    expect(matchTemplate('/api/v1/claims/authorizations/{token}/reject', '/api/v1/claims/authorizations/AT%2F1/reject')).toEqual({ token: 'AT/1' });
    expect(matchTemplate('/api/v1/claims/authorizations/{token}/reject', '/api/v1/claims/authorizations')).toBeNull();
  });
});
