// Every path the contract names, and every operation of the field notes' table, has an operation
// in the client's table (with the method the text gives it), and the table itself is consistent.
import { describe, expect, it } from 'vitest';
import { operationGroups, operations } from '../../../electron/payer';
import { readSharedSpec } from '../../support/shared-spec';
import { blankPlaceholders, extractApiPaths, extractTableEndpoints, retiredPaths, type NamedEndpoint } from './helpers/contract-paths';

const contract = readSharedSpec('service-interface.md');
const fieldNotes = readSharedSpec('field-notes.md');
const retired = new Set(retiredPaths.map((r) => r.path));

function operationsFor(endpoint: NamedEndpoint) {
  return operations.filter((op) => blankPlaceholders(op.path) === blankPlaceholders(endpoint.path));
}

describe('contract coverage', () => {
  const named = extractApiPaths(contract);

  it('finds the paths the contract names', () => {
    const paths = named.map((e) => e.path);
    expect(paths.length).toBeGreaterThanOrEqual(25);
    expect(paths).toContain('/api/v1/tenants/token');
    expect(paths).toContain('/api/v1/prescriptions/dispenses');
    expect(paths).toContain('/api/v1/preauth/cancel');
    expect(paths.every((p) => !/[.,;]$/.test(p))).toBe(true);
    expect(named.find((e) => e.path === '/api/v1/claims/otp/discharge')?.methods).toEqual(['POST']);
  });

  it.each(extractApiPaths(contract).filter((e) => !retired.has(e.path)).map((e) => [e.path, e] as const))(
    'has an operation for %s',
    (_path, endpoint) => {
      const matching = operationsFor(endpoint);
      expect(matching.length, `no operation for ${endpoint.path}`).toBeGreaterThan(0);
      for (const method of endpoint.methods) {
        expect(matching.map((op) => op.method), `${method} ${endpoint.path}`).toContain(method);
      }
    },
  );

  it.each(retiredPaths.map((r) => [r.path, r.reason] as const))('offers no operation for the retired %s (%s)', (path) => {
    expect(operations.filter((op) => op.path === path)).toEqual([]);
  });
});

describe("field notes' operations without contract paths", () => {
  const table = extractTableEndpoints(fieldNotes, '## Operations the contract names without paths', '/api/v1');

  it('finds the rows of the table', () => {
    expect(table.length).toBeGreaterThanOrEqual(25);
    expect(table.find((e) => e.path === '/api/v1/tenants/{tenant or facility code}/endpoints')?.methods).toEqual(['GET', 'POST']);
  });

  it.each(extractTableEndpoints(fieldNotes, '## Operations the contract names without paths', '/api/v1').map((e) => [`${e.methods.join('/')} ${e.path}`, e] as const))(
    'has an operation for %s',
    (_label, endpoint) => {
      const matching = operationsFor(endpoint);
      expect(matching.length, `no operation for ${endpoint.path}`).toBeGreaterThan(0);
      for (const method of endpoint.methods) expect(matching.map((op) => op.method)).toContain(method);
    },
  );
});

describe('the operation table', () => {
  it('names every operation group.method, uniquely', () => {
    const names = operations.map((op) => op.name);
    expect(new Set(names).size).toBe(names.length);
    for (const [group, table] of Object.entries(operationGroups)) {
      for (const [key, op] of Object.entries(table)) expect(op.name).toBe(`${group}.${key}`);
    }
  });

  it('declares every GET safe to repeat, and the writes that change state unsafe', () => {
    for (const op of operations) if (op.method === 'GET') expect(op.safeToRepeat, op.name).toBe(true);
    const readOnlyPosts = operations.filter((op) => op.method !== 'GET' && op.safeToRepeat).map((op) => op.name);
    expect(readOnlyPosts.sort()).toEqual(['auth.token', 'claims.preview', 'eligibility.resolvePmfTariffs']);
  });

  it('keeps every template under /api/v1 with well-formed placeholders', () => {
    for (const op of operations) expect(op.path).toMatch(/^\/api\/v1(\/([A-Za-z0-9_.:-]+|\{[a-z_]+\}))+$/);
  });

  it('covers the live operations the brief names: look-up, reject, whitelist, callbacks', () => {
    const byName = new Map<string, string>(operations.map((op) => [op.name, `${op.method} ${op.path}`]));
    expect(Object.fromEntries(['consent.getAuthorization', 'consent.rejectAuthorization', 'consent.requestOtpWhitelist', 'consent.otpWhitelistStatus', 'callbacks.listEndpoints', 'callbacks.createEndpoint', 'callbacks.updateEndpoint', 'callbacks.deleteEndpoint', 'callbacks.createOperation'].map((n) => [n, byName.get(n)]))).toEqual({
      'consent.getAuthorization': 'GET /api/v1/claims/authorizations',
      'consent.rejectAuthorization': 'POST /api/v1/claims/authorizations/{token}/reject',
      'consent.requestOtpWhitelist': 'POST /api/v1/patients/otp-whitelists',
      'consent.otpWhitelistStatus': 'GET /api/v1/patients/otp-whitelists/callback',
      'callbacks.listEndpoints': 'GET /api/v1/tenants/{tenant}/endpoints',
      'callbacks.createEndpoint': 'POST /api/v1/tenants/{tenant}/endpoints',
      'callbacks.updateEndpoint': 'PATCH /api/v1/tenants/endpoints/{endpoint_id}',
      'callbacks.deleteEndpoint': 'DELETE /api/v1/tenants/endpoints/{endpoint_id}',
      'callbacks.createOperation': 'POST /api/v1/tenants/{tenant}/endpoints/{endpoint_id}/operations',
    });
  });
});
