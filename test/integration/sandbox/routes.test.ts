/* eslint-disable @typescript-eslint/no-explicit-any -- wire bodies are untyped JSON; the tests assert their shape */
// Every operation the contract, the field notes and docs/exchange-wire.md name is answered by the
// sandbox: each method + path found in those documents reaches a route (anything but the
// route-not-found 404), and the retired singular /preauth/cancel does not.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const DOCS = [resolve(root, '../shared/spec/service-interface.md'), resolve(root, '../shared/spec/field-notes.md'), resolve(root, 'docs/exchange-wire.md')];
const RESOURCES = /^\/api\/v1\/(tenants|patients|claims|preauths|prescriptions|authorizations|facilities|professionals|clinical|benefits|shr)(\/|$)/;

/** `METHOD /path` pairs named in the documents, paths normalised under /api/v1 with {params}. */
function namedOperations(): { operations: Set<string>; bare: Set<string> } {
  const operations = new Set<string>();
  const bare = new Set<string>();
  for (const file of DOCS) {
    const text = readFileSync(file, 'utf8').replace(/\{[^}]*\}/g, '{p}').replace(/<[^>]*>/g, '');
    const normal = (path: string) => {
      const p = path.replace(/[.,;:)]+$/, '');
      return p.startsWith('/api/v1') ? p : `/api/v1${p}`;
    };
    const withMethod = /\b((?:GET|POST|PATCH|DELETE)(?:\s*\/\s*(?:GET|POST|PATCH|DELETE))*)\s*\|?\s*`?(\/[A-Za-z0-9_{}./-]+)/g;
    for (const m of text.matchAll(withMethod)) {
      const path = normal(m[2] ?? '');
      if (!RESOURCES.test(path)) continue;
      for (const method of (m[1] ?? '').split('/').map((x) => x.trim())) operations.add(`${method} ${path}`);
    }
    for (const m of text.matchAll(/\/api\/v1\/[A-Za-z0-9_{}./-]+/g)) bare.add(normal(m[0]));
  }
  return { operations, bare };
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const isRouteNotFound = (r: { status: number; body: any }) => r.status === 404 && Array.isArray(r.body?.details) && typeof r.body.details[0]?.route === 'string';

describe('every named operation', () => {
  const { operations, bare } = namedOperations();

  it('finds the whole interface in the documents', () => {
    expect(operations.size).toBeGreaterThanOrEqual(56);
    for (const op of ['POST /api/v1/claims/submit', 'GET /api/v1/shr/Observation', 'POST /api/v1/tenants/{p}/endpoints/{p}/operations', 'POST /api/v1/prescriptions/dispenses']) {
      expect(operations, op).toContain(op);
    }
  });

  it('reaches a route for each of them', async () => {
    const missing: string[] = [];
    for (const op of operations) {
      const [method = 'GET', path = '/'] = op.split(' ');
      const concrete = path.replace(/\{p\}/g, 'X1');
      const r = await h.hospital.call(method, concrete, method === 'GET' ? {} : { body: {} });
      if (isRouteNotFound(r) || r.status >= 500) missing.push(`${op} → ${r.status}`);
    }
    expect(missing).toEqual([]);
  });

  it('answers the singular dispense path the live service answered once [1x]', async () => {
    expect(isRouteNotFound(await h.hospital.post('/api/v1/prescriptions/dispense', {}))).toBe(false);
  });

  it('does not answer the retired singular /api/v1/preauth/cancel', async () => {
    expect(bare).toContain('/api/v1/preauth/cancel');
    for (const method of ['POST', 'GET', 'PATCH', 'DELETE']) {
      expect(isRouteNotFound(await h.hospital.call(method, '/api/v1/preauth/cancel', method === 'GET' ? {} : { body: {} }))).toBe(true);
    }
    expect(isRouteNotFound(await h.hospital.post('/api/v1/preauths/cancel', {}))).toBe(false);
  });

  it('covers every /api/v1 path the documents mention, whatever the method', async () => {
    const unanswered: string[] = [];
    for (const path of bare) {
      if (path === '/api/v1/preauth/cancel' || !RESOURCES.test(path)) continue;
      const concrete = path.replace(/\{p\}/g, 'X1');
      const answers = await Promise.all(['GET', 'POST', 'PATCH', 'DELETE'].map((m) => h.hospital.call(m, concrete, m === 'GET' ? {} : { body: {} })));
      if (answers.every(isRouteNotFound)) unanswered.push(path);
    }
    expect(unanswered).toEqual([]);
  });
});
