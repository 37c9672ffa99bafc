// Property tests: every response schema, fed random and mutated payloads, yields a typed value or
// an ExchangeError of kind malformed_response naming a path, never another exception. Error
// bodies always become an ExchangeError; request validation never throws.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExchangeError, exchangeErrorKinds, operationGroups, type OperationName } from '../../../electron/payer';
import { errorFromResponse } from '../../../electron/payer/error-body';
import { decodeResponse } from '../../../electron/payer/executor';
import type { Operation } from '../../../electron/payer/operation';
import { requestExamples, responseExamples } from './helpers/wire-examples';

type AnyOperation = Operation<unknown, unknown> & { name: OperationName };
const allOperations = Object.values(operationGroups).flatMap((group) => Object.values(group)) as unknown as AnyOperation[];
const byName = new Map(allOperations.map((op) => [op.name, op]));
/** Operations are drawn by name so a counterexample prints the name, not the schema. */
const operationName = fc.constantFrom(...allOperations.map((op) => op.name));
function opNamed(name: OperationName): AnyOperation {
  const op = byName.get(name);
  if (op === undefined) throw new Error(`no operation ${name}`);
  return op;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: ExchangeError };

/** Decodes a 200 answer; anything thrown other than malformed_response fails the property. */
function decode(op: AnyOperation, bodyText: string): Outcome {
  try {
    return { ok: true, value: decodeResponse(op as Operation<never, unknown>, { status: 200, headers: {}, bodyText }) };
  } catch (error) {
    if (!(error instanceof ExchangeError)) throw new Error(`${op.name} threw a non-ExchangeError: ${String(error)}`, { cause: error });
    expect(error.kind).toBe('malformed_response');
    expect(error.operation).toBe(op.name);
    expect(typeof error.field).toBe('string');
    expect(error.message.length).toBeGreaterThan(0);
    return { ok: false, error };
  }
}

/** A domain value: plain data, finite numbers, no holes, serialisable. */
function expectPlainData(value: unknown, at = '$'): void {
  if (value === null || value === undefined || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    expect(Number.isFinite(value), `${at} is not finite`).toBe(true);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      expect(v, `${at}[${i}] is undefined`).not.toBeUndefined();
      expectPlainData(v, `${at}[${i}]`);
    });
    return;
  }
  expect(typeof value, `${at} is a ${typeof value}`).toBe('object');
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) expectPlainData(v, `${at}.${k}`);
}

function checkBody(op: AnyOperation, bodyText: string): void {
  const first = decode(op, bodyText);
  if (first.ok) {
    expectPlainData(first.value);
    // Reading is a pure function of the body.
    expect(decode(op, bodyText)).toEqual(first);
  }
}

// ---------------------------------------------------------------- mutation of valid examples

type Path = (string | number)[];

function pathsOf(value: unknown, prefix: Path = []): Path[] {
  const here: Path[] = [prefix];
  // File contents are one value, not a list of bytes to edit.
  if (ArrayBuffer.isView(value)) return here;
  if (Array.isArray(value)) return here.concat(...value.map((v, i) => pathsOf(v, [...prefix, i])));
  if (typeof value === 'object' && value !== null) {
    return here.concat(...Object.entries(value).map(([k, v]) => pathsOf(v, [...prefix, k])));
  }
  return here;
}

const mutationKinds = ['drop', 'replace', 'null', 'addKey', 'retype', 'wrap', 'unwrapResults'] as const;
type Mutation = { at: number; kind: (typeof mutationKinds)[number]; junk: unknown; key: string };

function retype(value: unknown): unknown {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return /^\d+$/.test(value) ? Number(value) : value.length === 0 ? 0 : { value };
  if (typeof value === 'boolean') return value ? 'true' : 0;
  if (Array.isArray(value)) return value[0] ?? {};
  if (value === null) return [];
  return [value];
}

/** Applies one mutation at one node (chosen by index among all nodes) of a deep copy. */
function mutate(value: unknown, m: Mutation): unknown {
  const root: { v: unknown } = { v: structuredClone(value) };
  const paths = pathsOf(root.v).map((p) => ['v', ...p] as Path);
  const path = paths[m.at % paths.length] ?? ['v'];
  const parentPath = path.slice(0, -1);
  const key = path[path.length - 1] as string | number;
  let parent: unknown = root;
  for (const k of parentPath) parent = (parent as Record<string | number, unknown>)[k];
  const container = parent as Record<string | number, unknown>;
  const current = container[key];
  switch (m.kind) {
    case 'drop':
      if (Array.isArray(container)) container.splice(key as number, 1);
      else delete container[key];
      break;
    case 'replace':
      container[key] = m.junk;
      break;
    case 'null':
      container[key] = null;
      break;
    case 'addKey':
      if (typeof current === 'object' && current !== null && !Array.isArray(current)) (current as Record<string, unknown>)[m.key] = m.junk;
      else container[key] = { [m.key]: m.junk };
      break;
    case 'retype':
      container[key] = retype(current);
      break;
    case 'wrap':
      container[key] = [current];
      break;
    case 'unwrapResults':
      container[key] = typeof current === 'object' && current !== null && 'results' in current ? (current as { results: unknown }).results : { results: current };
      break;
  }
  return root.v;
}

const json = fc.jsonValue({ maxDepth: 3 });
const mutation: fc.Arbitrary<Mutation> = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom(...mutationKinds),
  junk: json,
  key: fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('__proto__', 'constructor', 'results', 'status', 'error')),
});

describe('examples', () => {
  it('exist for every operation and decode to typed values', () => {
    for (const op of allOperations) {
      const examples = responseExamples[op.name];
      expect(examples.length, op.name).toBeGreaterThan(0);
      for (const example of examples) {
        const outcome = decode(op, JSON.stringify(example));
        expect(outcome.ok, `${op.name}: ${outcome.ok ? '' : outcome.error.message}`).toBe(true);
      }
    }
  });

  it('include a valid request for every operation', () => {
    for (const op of allOperations) {
      const prepared = op.prepare(requestExamples[op.name]);
      expect(prepared.ok, `${op.name}: ${prepared.ok ? '' : prepared.issues.message}`).toBe(true);
    }
  });
});

describe('response schemas under random and mutated payloads', () => {
  it('read any JSON as a typed value or malformed_response', () => {
    fc.assert(
      fc.property(operationName, json, (name, body) => {
        checkBody(opNamed(name), JSON.stringify(body));
      }),
      { numRuns: 3000 },
    );
  });

  it('read any text, empty or not JSON, the same way', () => {
    fc.assert(
      fc.property(operationName, fc.oneof(fc.string(), fc.constantFrom('', ' ', '<html></html>', '{', '[]', 'null', '"x"', '1e999', '{"__proto__":{"a":1}}', '{"data":1e999}')), (name, text) => {
        checkBody(opNamed(name), text);
      }),
      { numRuns: 2000 },
    );
  });

  it('read mutated valid examples (fields dropped, retyped, nulled, junk added) the same way', () => {
    const cases = allOperations.flatMap((op) => responseExamples[op.name].map((_, index) => ({ name: op.name, index })));
    fc.assert(
      fc.property(fc.constantFrom(...cases), fc.array(mutation, { minLength: 1, maxLength: 4 }), ({ name, index }, mutations) => {
        const mutated = mutations.reduce<unknown>((value, m) => mutate(value, m), responseExamples[name][index]);
        checkBody(opNamed(name), JSON.stringify(mutated) ?? '');
      }),
      { numRuns: 5000 },
    );
  });

  it('never lets a dropped required identifier through as a value', () => {
    // A visit without its consent token, a patient without id: the answer is refused, not guessed.
    expect(decode(opNamed('claims.createVisit'), '{"workflow_state":"DRAFT"}').ok).toBe(false);
    expect(decode(opNamed('registry.findPatient'), '{"identification_number":"1"}').ok).toBe(false);
  });
});

describe('error bodies under random payloads', () => {
  it('always become an ExchangeError with a known kind and a message', () => {
    const body = fc.oneof(
      json.map((v) => JSON.stringify(v)),
      fc.string(),
      json.map((v) => JSON.stringify({ error: JSON.stringify(v), message: v })),
      fc.dictionary(fc.string({ maxLength: 8 }), fc.array(fc.string(), { maxLength: 3 })).map((v) => JSON.stringify(v)),
    );
    fc.assert(
      fc.property(fc.integer({ min: 300, max: 599 }), body, fc.option(fc.string(), { nil: undefined }), (status, bodyText, retryAfter) => {
        const error = errorFromResponse({ status, headers: { 'retry-after': retryAfter }, bodyText, operation: 'prop.test' });
        expect(error).toBeInstanceOf(ExchangeError);
        expect(exchangeErrorKinds).toContain(error.kind);
        expect(error.status).toBe(status);
        expect(error.operation).toBe('prop.test');
        expect(error.message.length).toBeGreaterThan(0);
        if (error.retryAfterMs !== undefined) expect(Number.isFinite(error.retryAfterMs)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('request schemas under random input', () => {
  it('refuse or encode anything, never throw, and encode only serialisable bodies', () => {
    fc.assert(
      fc.property(operationName, fc.anything({ maxDepth: 2 }), (name, input) => {
        const prepared = opNamed(name).prepare(input);
        if (prepared.ok && prepared.request.body?.kind === 'json') expect(() => JSON.stringify(prepared.request.body)).not.toThrow();
      }),
      { numRuns: 2000 },
    );
  });

  it('refuse mutated valid requests with a named field, or accept them', () => {
    fc.assert(
      fc.property(operationName, fc.array(mutation, { minLength: 1, maxLength: 3 }), (name, mutations) => {
        // structuredClone (in mutate) keeps the Uint8Array file contents intact.
        const mutated = mutations.reduce<unknown>((value, m) => mutate(value, m), requestExamples[name]);
        const prepared = opNamed(name).prepare(mutated);
        if (!prepared.ok) expect(prepared.issues.issues.length).toBeGreaterThan(0);
      }),
      { numRuns: 3000 },
    );
  });
});
