// The client against every response fixture of test/fixtures/wire/: each names an operation of the
// client and its source; its body goes through that operation's response handling on the real
// client over HTTP (a stand-in exchange answering with it: the production decoding path, empty and
// text bodies included) and must be read; a copy without a field the entry's Read table marks
// Required must be refused as malformed_response naming that field. The machinery is proven first
// on made-up fixtures of the token endpoint, whose wire every source agrees on.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExchangeClient, ExchangeError, operations, type ExchangeClient, type OperationName } from '../../../electron/payer';
import { parseWireDoc, readWireDoc, type ReadRow } from '../../support/wire-doc';
import { fixtureAnswer, loadWireFixtures, namesTheField, requiredFieldsIn, type RequiredField, type WireFixture } from '../../support/wire-fixtures';
import { startWireRecorder, type Answer, type WireRecorder } from '../../support/wire-recorder';
import { withoutField } from '../../support/wire-shape';
import { requestExamples } from './helpers/wire-examples';

const TOKEN_PATH = '/api/v1/tenants/token';
/** The token the stand-in hands out while another operation's fixture is under test. */
const standInToken: Answer = { status: 201, json: { access_token: 'stand-in-token', expires_in: 3600, token_type: 'Bearer' } };

let recorder: WireRecorder;
let answering: { operation: string; answer: Answer } = { operation: 'none', answer: { status: 500 } };

beforeAll(async () => {
  recorder = await startWireRecorder({
    standIn: (request) => {
      if (request.path === TOKEN_PATH && answering.operation !== 'auth.token') return standInToken;
      return answering.answer;
    },
  });
});
afterAll(async () => {
  await recorder.close();
});

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** One call of the operation on a fresh client, the stand-in answering it with `answer`. */
async function readWithClient(operation: string, answer: Answer): Promise<Outcome> {
  answering = { operation, answer };
  const client = createExchangeClient({ baseUrl: recorder.url, credentials: { clientId: 'fixture-test', clientSecret: 'fixture-test-secret' }, retry: { attempts: 1 } });
  try {
    return { ok: true, value: await call(client, operation) };
  } catch (error) {
    return { ok: false, error };
  } finally {
    await client.close();
  }
}

function call(client: ExchangeClient, operation: string): Promise<unknown> {
  if (operation === 'auth.token') return client.auth.authenticate();
  const [group = '', method = ''] = operation.split('.');
  const fn = (client as unknown as Record<string, Record<string, ((input: unknown) => Promise<unknown>) | undefined> | undefined>)[group]?.[method];
  if (fn === undefined) throw new Error(`the client has no method ${operation}`);
  return fn(requestExamples[operation as OperationName]);
}

const describeError = (error: unknown) => (error instanceof ExchangeError ? `${error.kind} at "${error.field ?? ''}": ${error.message}` : String(error));

/** What must hold of one fixture; answers the failures, empty when it holds. */
async function holdFixture(fixture: Pick<WireFixture, 'operation' | 'status' | 'body'>, readRows: readonly Pick<ReadRow, 'names' | 'required'>[]): Promise<string[]> {
  const failures: string[] = [];
  const read = await readWithClient(fixture.operation, fixtureAnswer(fixture));
  if (!read.ok && read.error instanceof ExchangeError && read.error.kind === 'validation' && read.error.status === undefined) {
    // Refused before sending: the call never reached the answer under test.
    return [`the worked example of ${fixture.operation} (test/unit/payer/helpers/wire-examples.ts) is refused before sending: ${describeError(read.error)}`];
  }
  if (!read.ok) failures.push(`the client does not read it: ${describeError(read.error)}`);
  for (const field of requiredFieldsIn(fixture.body, readRows)) failures.push(...(await holdWithout(fixture, field)));
  return failures;
}

async function holdWithout(fixture: Pick<WireFixture, 'operation' | 'status' | 'body'>, field: RequiredField): Promise<string[]> {
  const outcome = await readWithClient(fixture.operation, fixtureAnswer({ ...fixture, body: withoutField(fixture.body, field.path) }));
  if (outcome.ok) return [`without \`${field.path}\` (Required in the Read table) the client still reads it: ${JSON.stringify(outcome.value)?.slice(0, 200)}`];
  const error = outcome.error;
  if (!(error instanceof ExchangeError) || error.kind !== 'malformed_response') return [`without \`${field.path}\`: expected malformed_response, got ${describeError(error)}`];
  if (!namesTheField(error.field, field)) return [`without \`${field.path}\`: malformed_response names "${error.field ?? ''}", not \`${field.path}\``];
  return [];
}

describe('the fixture machinery, on made-up fixtures of the token endpoint', () => {
  const tokenEntry = parseWireDoc(
    [
      '# Operations',
      '### `auth.token`',
      '`POST /api/v1/tenants/token` · body: form',
      '',
      '| Read | Type | Required | Evidence | Conf. |',
      '|---|---|---|---|---|',
      '| `access_token` | string | yes | R `docs/api/eclaims--auth.md` | docs |',
      '| `expires_in` | integer | no | R `docs/api/eclaims--auth.md` | docs |',
    ].join('\n'),
  ).byName.get('auth.token');
  const rows = tokenEntry?.read ?? [];
  const body = { access_token: 'T-1', expires_in: 3600, token_type: 'Bearer' };

  it('passes a fixture the client reads, and sees its copy without a Required field refused naming it', async () => {
    expect(requiredFieldsIn(body, rows)).toEqual([{ names: ['access_token'], path: 'access_token' }]);
    expect(await holdFixture({ operation: 'auth.token', status: 201, body }, rows)).toEqual([]);
  });

  it('fails a fixture the client cannot read', async () => {
    const failures = await holdFixture({ operation: 'auth.token', status: 201, body: { ...body, access_token: 5 } }, rows);
    expect(failures[0]).toMatch(/^the client does not read it: malformed_response at "access_token"/);
  });

  it('fails where the client reads a copy without a field the Read table marks Required', async () => {
    const strict = [...rows, { names: ['expires_in'], required: 'yes' }];
    expect(await holdFixture({ operation: 'auth.token', status: 201, body }, strict)).toEqual([expect.stringMatching(/^without `expires_in` \(Required in the Read table\) the client still reads it/)]);
  });

  it('finds Required fields in pages and bare arrays, and knows the error’s indices and aliases for them', () => {
    const page = { results: [{ token: 'a' }, { guid: 'g' }] };
    const [inPage] = requiredFieldsIn(page, [{ names: ['results[].token'], required: 'yes' }]);
    expect(inPage).toEqual({ names: ['results[].token'], path: 'results[].token' });
    expect(withoutField(page, 'results[].token')).toEqual({ results: [{}, { guid: 'g' }] });
    expect(namesTheField('results[0].token', inPage!)).toBe(true);
    expect(namesTheField('results[0]', inPage!)).toBe(false);
    const [bare] = requiredFieldsIn([{ id: 1 }], [{ names: ['id'], required: 'yes' }]);
    expect(bare?.path).toBe('[].id');
    expect(namesTheField('[0].id', bare!)).toBe(true);
    expect(namesTheField('consent_token', { names: ['authorization_code', 'consent_token'], path: 'authorization_code' })).toBe(true);
  });

  it('answers text and empty fixture bodies as text and as no body', () => {
    expect(fixtureAnswer({ operation: 'x.y', status: 200, body: 'Doctor removed' })).toEqual({ status: 200, text: 'Doctor removed', operation: 'x.y' });
    expect(fixtureAnswer({ operation: 'x.y', status: 204, body: null })).toEqual({ status: 204, operation: 'x.y' });
  });

  it('loads a folder of fixtures and names each file that is not one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idhini-wire-fixtures-'));
    try {
      const write = (file: string, value: unknown) => writeFileSync(join(dir, file), typeof value === 'string' ? value : JSON.stringify(value));
      const good = { operation: 'auth.token', status: 201, source: 'R docs/api/eclaims--auth.md, the token example', confidence: 'docs', body };
      write('auth.token.portal-example.json', good);
      write('auth.token.json', good);
      write('auth.nothing.x.json', { ...good, operation: 'auth.nothing' });
      write('auth.token.no-source.json', { ...good, source: 'seen somewhere' });
      write('auth.token.bad-status.json', { ...good, status: 401 });
      write('auth.token.no-body.json', { operation: 'auth.token', status: 201, source: good.source });
      write('auth.token.broken.json', '{');
      const { fixtures, problems } = loadWireFixtures(operations, dir);
      expect(fixtures.map((f) => [f.file, f.variant])).toEqual([['auth.token.portal-example.json', 'portal-example']]);
      expect(Object.fromEntries(problems.map((p) => [p.file, p.message.split(' ')[0]]))).toEqual({
        'auth.nothing.x.json': '"operation"',
        'auth.token.bad-status.json': '"status"',
        'auth.token.broken.json': 'not',
        'auth.token.json': 'the',
        'auth.token.no-body.json': 'no',
        'auth.token.no-source.json': '"source"',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// The real fixtures: none exist until the operation owners write them (issue 9).
describe('test/fixtures/wire', () => {
  const { fixtures, problems } = loadWireFixtures(operations);
  const doc = readWireDoc();

  it('holds the documented response fixtures', () => {
    expect(fixtures.length, 'no fixture in test/fixtures/wire/').toBeGreaterThan(0);
  });

  it('has only fixtures of the client’s operations, each with its source', () => {
    expect(problems.map((p) => `${p.file}: ${p.message}`)).toEqual([]);
  });

  describe.each(fixtures.map((f) => [f.file, f] as const))('%s', (_file, fixture) => {
    it('is read by the client, and refused as malformed_response naming each Required field taken out', async () => {
      const rows = doc.byName.get(fixture.operation)?.read;
      const failures = await holdFixture(fixture, rows ?? []);
      expect([...(rows === undefined ? [`docs/exchange-wire.md has no Read table for ${fixture.operation} to hold the fixture to`] : []), ...failures]).toEqual([]);
    });
  });
});
