/* eslint-disable @typescript-eslint/no-explicit-any -- wire bodies are untyped JSON; the tests assert their shape */
// Every operation the contract, the field notes and docs/exchange-wire.md name is answered by the
// sandbox: each method + path found in those documents reaches a route (anything but the
// route-not-found 404), and the retired singular /preauth/cancel does not. The contract's paths and
// the field notes' table are read with the same helper the client's contract-path test uses
// (test/unit/payer/helpers/contract-paths.ts), so client and sandbox are held to one list.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { extractApiPaths, extractTableEndpoints, retiredPaths, type NamedEndpoint } from '../../unit/payer/helpers/contract-paths';
import { readSharedSpec } from '../../support/shared-spec';
import { useHarness } from './harness';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const contract = readSharedSpec('service-interface.md');
const fieldNotes = readSharedSpec('field-notes.md');
const wireDoc = readFileSync(resolve(root, 'docs/exchange-wire.md'), 'utf8');
const METHODS = ['GET', 'POST', 'PATCH', 'DELETE'] as const;
const retired = new Set(retiredPaths.map((r) => r.path));

const contractEndpoints = extractApiPaths(contract).filter((e) => !retired.has(e.path));
const fieldNotesEndpoints = extractTableEndpoints(fieldNotes, '## Operations the contract names without paths', '/api/v1');

/**
 * docs/exchange-wire.md writes paths relative to /api/v1 in prose ("`PATCH / DELETE
 * /tenants/endpoints/{id}`"): `METHOD /path` pairs of the resources it documents.
 */
function wireDocOperations(): Set<string> {
  const resources = /^\/api\/v1\/(tenants|patients|claims|preauths|prescriptions|authorizations|facilities|professionals|clinical|benefits|shr)(\/|$)/;
  const text = wireDoc.replace(/\{[^}]*\}/g, '{p}').replace(/<[^>]*>/g, '');
  const operations = new Set<string>();
  const withMethod = /\b((?:GET|POST|PATCH|DELETE)(?:\s*\/\s*(?:GET|POST|PATCH|DELETE))*)\s*\|?\s*`?(\/[A-Za-z0-9_{}./-]+)/g;
  for (const m of text.matchAll(withMethod)) {
    const bare = (m[2] ?? '').replace(/[.,;:)]+$/, '');
    const path = bare.startsWith('/api/v1') ? bare : `/api/v1${bare}`;
    if (!resources.test(path)) continue;
    for (const method of (m[1] ?? '').split('/').map((x) => x.trim())) operations.add(`${method} ${path}`);
  }
  return operations;
}

const h = useHarness({}, { resetEachTest: false });

const isRouteNotFound = (r: { status: number; body: any }) => r.status === 404 && Array.isArray(r.body?.details) && typeof r.body.details[0]?.route === 'string';
const concrete = (path: string) => path.replace(/\{[^}]*\}/g, 'X1');
const call = (method: string, path: string) => h.hospital.call(method, concrete(path), method === 'GET' ? {} : { body: {} });

/** Endpoints no named method of which reaches a route (or, with no method named, no method at all). */
async function unanswered(endpoints: readonly NamedEndpoint[]): Promise<string[]> {
  const missing: string[] = [];
  for (const endpoint of endpoints) {
    if (endpoint.methods.length === 0) {
      const answers = await Promise.all(METHODS.map((m) => call(m, endpoint.path)));
      if (answers.every(isRouteNotFound)) missing.push(`${endpoint.path} (any method)`);
      continue;
    }
    for (const method of endpoint.methods) {
      const r = await call(method, endpoint.path);
      if (isRouteNotFound(r) || r.status >= 500) missing.push(`${method} ${endpoint.path} → ${r.status}`);
    }
  }
  return missing;
}

describe('the contract (service-interface.md)', () => {
  it('names the whole interface, the retired path among it', () => {
    const named = extractApiPaths(contract);
    expect(named.length).toBeGreaterThanOrEqual(25);
    expect(named.map((e) => e.path)).toContain('/api/v1/preauth/cancel');
    expect(contractEndpoints).toHaveLength(named.length - retiredPaths.length);
  });

  it('has every /api/v1 path it names answered by the sandbox, with the methods it gives', async () => {
    expect(await unanswered(contractEndpoints)).toEqual([]);
  });

  it.each(retiredPaths.map((r) => [r.path, r.reason] as const))('does not have the retired %s answered (%s)', async (path) => {
    for (const method of METHODS) expect(isRouteNotFound(await call(method, path)), `${method} ${path}`).toBe(true);
    expect(isRouteNotFound(await call('POST', '/api/v1/preauths/cancel'))).toBe(false);
  });
});

/**
 * Routes the contract's change list retires (service-interface.md, Versioning, "Changes recorded":
 * the emergency-transport claim endpoint withdrawn, generic file-upload endpoints withdrawn, the
 * next-of-kin endpoint retired, draft /clinical/* endpoints retired in favour of /shr/*). Peers
 * still build some of them (R requests.py upload(), download_link(), add_next_of_kin(),
 * open_emt_claim(); V docs/dha/hie-changelog.md lists the /clinical/* drafts): none is answered. The
 * terminology concept search at /api/v1/clinical/concepts is no draft (field notes' table) and stays.
 */
const retiredByChangeList = [
  ['POST', '/api/v1/claims/emt'],
  ['POST', '/api/v1/uploads'],
  ['GET', '/api/v1/uploads/F-1'],
  ['POST', '/api/v1/patients/next-of-kin/contacts'],
  ['GET', '/clinical/service-requests'],
  ['GET', '/api/v1/clinical/service-requests'],
  ['POST', '/clinical/fhir/bundle'],
  ['GET', '/clinical/document-references'],
  ['POST', '/clinical/medication-dispenses'],
] as const;

describe("the contract's change list", () => {
  it.each(retiredByChangeList)('leaves the retired %s %s unanswered', async (method, path) => {
    expect(isRouteNotFound(await call(method, path))).toBe(true);
  });

  it('keeps the concept search, which the field notes name', async () => {
    expect(isRouteNotFound(await call('GET', '/api/v1/clinical/concepts'))).toBe(false);
  });
});

describe("the field notes' table of operations without contract paths", () => {
  it('has every row answered, with its methods', async () => {
    expect(fieldNotesEndpoints.length).toBeGreaterThanOrEqual(25);
    expect(await unanswered(fieldNotesEndpoints)).toEqual([]);
  });

  it('answers the singular dispense path UAT answers (R create_dispense()), and the documented plural', async () => {
    expect(isRouteNotFound(await h.hospital.post('/api/v1/prescriptions/dispense', {}))).toBe(false);
    expect(isRouteNotFound(await h.hospital.post('/api/v1/prescriptions/dispenses', {}))).toBe(false);
  });
});

describe('docs/exchange-wire.md', () => {
  const operations = wireDocOperations();

  it('finds the operations it documents', () => {
    expect(operations.size).toBeGreaterThanOrEqual(40);
    for (const op of ['POST /api/v1/claims/submit', 'GET /api/v1/shr/Observation', 'POST /api/v1/tenants/{p}/endpoints/{p}/operations', 'DELETE /api/v1/tenants/endpoints/{p}']) {
      expect(operations, op).toContain(op);
    }
  });

  it('has each of them answered', async () => {
    const missing: string[] = [];
    for (const op of operations) {
      const [method = 'GET', path = '/'] = op.split(' ');
      const r = await call(method, path);
      if (isRouteNotFound(r) || r.status >= 500) missing.push(`${op} → ${r.status}`);
    }
    expect(missing).toEqual([]);
  });
});
