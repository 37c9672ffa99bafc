// The response fixtures of test/fixtures/wire/ (one documented response variant per file, written
// from the portal documentation or a peer's tests: names, types and nesting are the source's, the
// values ours) and the stand-in exchange that answers with them, operation by operation.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { identifyOperation } from './wire-check';
import { citationsOf, isCitation, type OperationLike, type ReadRow, type WireDoc } from './wire-doc';
import type { Answer, RecordedRequest, StandIn } from './wire-recorder';
import { isJsonObject, valuesAt } from './wire-shape';

export const WIRE_FIXTURES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../fixtures/wire');

export interface WireFixture {
  /** The file's name, e.g. `consent.authorizeBiometric.portal-example.json`. */
  readonly file: string;
  /** The client's operation, e.g. `consent.authorizeBiometric`. */
  readonly operation: string;
  /** The file name's variant part, e.g. `portal-example`. */
  readonly variant: string;
  readonly status: number;
  readonly source: string;
  readonly confidence: string;
  /** JSON; a string is a text body (a bare sentence), null an empty body. */
  readonly body: unknown;
}

export interface FixtureProblem {
  readonly file: string;
  readonly message: string;
}

/**
 * Every fixture of a folder, and what is wrong with the files that are not fixtures of the client:
 * a name not `<operation>.<variant>.json` of its own operation, an operation the client lacks, no
 * source citing where the shape was seen, a status outside 2xx, no body.
 */
export function loadWireFixtures(operations: readonly OperationLike[], dir = WIRE_FIXTURES_DIR): { fixtures: WireFixture[]; problems: FixtureProblem[] } {
  const fixtures: WireFixture[] = [];
  const problems: FixtureProblem[] = [];
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  } catch {
    return { fixtures, problems: [{ file: dir, message: 'the fixtures folder does not exist' }] };
  }
  const names = new Set(operations.map((op) => op.name));
  for (const file of files) {
    const problem = (message: string) => problems.push({ file, message });
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(join(dir, file), 'utf8')) as unknown;
    } catch (error) {
      problem(`not JSON: ${(error as Error).message}`);
      continue;
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      problem('not an object {operation, status, source, confidence, body}');
      continue;
    }
    const f = parsed as Record<string, unknown>;
    const operation = typeof f.operation === 'string' ? f.operation : '';
    const before = problems.length;
    if (!names.has(operation)) problem(`"operation" ${JSON.stringify(f.operation)} is not an operation of the client (electron/payer/operations.ts)`);
    const variant = file.startsWith(`${operation}.`) ? file.slice(operation.length + 1, -'.json'.length) : '';
    if (variant === '' || variant.includes('/')) problem(`the file name must be ${operation || '<operation>'}.<variant>.json`);
    const source = typeof f.source === 'string' ? f.source.trim() : '';
    const [firstCitation] = citationsOf(source);
    if (firstCitation === undefined || !isCitation(firstCitation) || /^none\b/.test(firstCitation)) {
      problem(`"source" must cite where the shape was seen (A, R, K, V, FN, WE or C and a path), found ${JSON.stringify(f.source)}`);
    }
    if (typeof f.status !== 'number' || !Number.isInteger(f.status) || f.status < 200 || f.status > 299) problem(`"status" must be a 2xx status, found ${JSON.stringify(f.status)}`);
    if (!('body' in f)) problem('no "body"');
    if (problems.length > before) continue;
    fixtures.push({ file, operation, variant, status: f.status as number, source, confidence: typeof f.confidence === 'string' ? f.confidence : '', body: f.body });
  }
  return { fixtures, problems };
}

/** The fixtures of each operation, in file order. */
export function fixturesByOperation(fixtures: readonly WireFixture[]): Map<string, WireFixture[]> {
  const by = new Map<string, WireFixture[]>();
  for (const f of fixtures) by.set(f.operation, [...(by.get(f.operation) ?? []), f]);
  return by;
}

/** The answer a fixture stands for: JSON, a text body for a string, an empty body for null. */
export function fixtureAnswer(fixture: Pick<WireFixture, 'status' | 'body' | 'operation'>): Answer {
  if (fixture.body === null) return { status: fixture.status, operation: fixture.operation };
  if (typeof fixture.body === 'string') return { status: fixture.status, text: fixture.body, operation: fixture.operation };
  return { status: fixture.status, json: fixture.body, operation: fixture.operation };
}

/** An answer the stand-in gives where no fixture of an operation exists, with the doc entry it follows. */
export interface StandInOnlyAnswer {
  readonly status: number;
  readonly body: unknown;
  /** Where in docs/exchange-wire.md its shape comes from, e.g. `docs/exchange-wire.md#claimssubmit, Read table`. */
  readonly entry: string;
}

export interface FixtureStandInOptions {
  readonly operations: readonly OperationLike[];
  readonly doc: WireDoc;
  readonly fixtures: readonly WireFixture[];
  /** Answers for operations that have no fixture; where a fixture exists it answers instead (see shadowedStandInAnswers). */
  readonly standInOnly?: Readonly<Record<string, StandInOnlyAnswer>>;
  /** Which of an operation's fixtures answers (default: the first by file name). */
  readonly choose?: Readonly<Record<string, (fixtures: readonly WireFixture[], request: RecordedRequest) => WireFixture | undefined>>;
}

/** The operations whose stand-in-only answers shadow a fixture (a fixture came since): drop those answers. */
export function shadowedStandInAnswers(fixtures: readonly WireFixture[], standInOnly: Readonly<Record<string, StandInOnlyAnswer>>): string[] {
  const withFixtures = new Set(fixtures.map((f) => f.operation));
  return Object.keys(standInOnly).filter((op) => withFixtures.has(op));
}

/**
 * A stand-in exchange: each request is taken for an operation of the client (method, path, and for
 * shared paths the entry its body fits) and answered with that operation's fixture (the one
 * `choose` picks), else its stand-in-only answer, else 501 STAND_IN_HAS_NO_ANSWER naming the
 * operation.
 */
export function fixtureStandIn(options: FixtureStandInOptions): StandIn {
  const by = fixturesByOperation(options.fixtures);
  return (request) => {
    const operation = identifyOperation(request, options.operations, options.doc);
    const noAnswer = (message: string): Answer => ({ status: 501, json: { error: 'STAND_IN_HAS_NO_ANSWER', message, trace_id: 'stand-in' }, operation });
    if (operation === undefined) return noAnswer(`no operation of the client is ${request.method} ${request.path}`);
    const own = by.get(operation);
    if (own !== undefined) {
      const chosen = options.choose?.[operation]?.(own, request) ?? (options.choose?.[operation] === undefined ? own[0] : undefined);
      if (chosen === undefined) return noAnswer(`no fixture of ${operation} fits what this test needs (${own.map((f) => f.file).join(', ')})`);
      return fixtureAnswer(chosen);
    }
    const only = options.standInOnly?.[operation];
    if (only !== undefined) return fixtureAnswer({ status: only.status, body: only.body, operation });
    return noAnswer(`no fixture and no stand-in answer for ${operation}`);
  };
}

/** A Read row's field found in a fixture's body: the copy without it must be refused naming it. */
export interface RequiredField {
  /** The row's names (aliases), as the page writes them. */
  readonly names: readonly string[];
  /** Where it was found in this body, e.g. `results[].token` or `[].id`. */
  readonly path: string;
}

/** The fields the Read rows mark `yes` that occur in `body`, each once. */
export function requiredFieldsIn(body: unknown, readRows: readonly Pick<ReadRow, 'names' | 'required'>[]): RequiredField[] {
  const found: RequiredField[] = [];
  for (const row of readRows) {
    if (row.required !== 'yes') continue;
    const paths = row.names.flatMap((n) => (Array.isArray(body) && !n.startsWith('[]') ? [n, `[].${n}`] : [n]));
    const path = paths.find((p) => {
      const cut = p.lastIndexOf('.');
      const key = cut < 0 ? p : p.slice(cut + 1);
      const parents = cut < 0 ? [body] : valuesAt(body, p.slice(0, cut));
      return parents.some((parent) => isJsonObject(parent) && key in parent);
    });
    if (path !== undefined && !found.some((f) => f.path === path)) found.push({ names: row.names, path });
  }
  return found;
}

/** Whether a malformed_response's `field` (e.g. `results[0].token`) names the field: the path or one of its aliases. */
export function namesTheField(errorField: string | undefined, field: RequiredField): boolean {
  if (errorField === undefined) return false;
  const normalized = errorField.replace(/\[\d+\]/g, '[]');
  return [field.path, ...field.names].some((name) => normalized === name || normalized === `[].${name}`);
}
