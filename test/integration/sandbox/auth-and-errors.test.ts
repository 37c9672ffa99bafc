/* eslint-disable @typescript-eslint/no-explicit-any -- wire bodies are untyped JSON; the tests assert their shape */
// Authentication, tenant context and the error body of every route (docs/exchange-wire.md, Errors).
import { describe, expect, it } from 'vitest';
import { Client, DISPENSARY, HOSPITAL, NID, expectError, tokenFor, useHarness } from './harness';

const h = useHarness();

const patients = { identification_number: NID.covered, identification_type: 'National ID' };

describe('token endpoint', () => {
  it('answers 200 to a form-encoded request, as UAT answers R, whose client takes nothing else (R infrastructure/auth.py)', async () => {
    const r = await new Client(h.url).call('POST', '/api/v1/tenants/token', {
      form: { client_id: HOSPITAL.clientId, client_secret: HOSPITAL.secret, grant_type: 'client_credentials' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ expires_in: 3600, token_type: 'Bearer' });
    expect(typeof r.body.access_token).toBe('string');
  });

  it('answers 200 to a JSON request', async () => {
    const r = await new Client(h.url).post('/api/v1/tenants/token', { client_id: DISPENSARY.clientId, client_secret: DISPENSARY.secret });
    expect(r.status).toBe(200);
  });

  it('refuses a wrong secret with 401 INVALID_CLIENT and a missing field with 400 naming it', async () => {
    const c = new Client(h.url);
    expectError(await c.post('/api/v1/tenants/token', { client_id: HOSPITAL.clientId, client_secret: 'nope' }), 401, 'INVALID_CLIENT');
    const missing = await c.post('/api/v1/tenants/token', { client_id: HOSPITAL.clientId });
    expectError(missing, 400, 'VALIDATION_ERROR');
    expect(missing.body.details).toContainEqual(expect.objectContaining({ field: 'client_secret' }));
    expectError(await c.post('/api/v1/tenants/token', { client_id: 'a', client_secret: 'b', grant_type: 'password' }), 400, 'VALIDATION_ERROR');
  });
});

describe('tenant context', () => {
  it('answers 403 with the live body without a token, with an unknown token, or a malformed header', async () => {
    const variants: Record<string, string>[] = [{}, { authorization: 'Bearer nope' }, { authorization: 'Basic abc' }];
    for (const headers of variants) {
      const r = await new Client(h.url).get('/api/v1/patients', patients, { headers });
      expect(r.status).toBe(403);
      expect(r.body).toMatchObject({ error: 'Forbidden - Tenant context required', message: 'token missing required tenant_id claim' });
      expect(r.body.trace_id).toBe(r.headers.get('x-trace-id'));
    }
  });

  it('expires a token after an hour of sandbox time: 401 TOKEN_EXPIRED, and a new token works', async () => {
    expect((await h.hospital.get('/api/v1/patients', patients)).status).toBe(200);
    await h.control.post('/sandbox/clock', { advance_ms: 3600 * 1000 });
    expectError(await h.hospital.get('/api/v1/patients', patients), 401, 'TOKEN_EXPIRED');
    const fresh = new Client(h.url, await tokenFor(h.url, HOSPITAL));
    expect((await fresh.get('/api/v1/patients', patients)).status).toBe(200);
  });

  it("accepts the token's own X-Facility-Id and refuses another facility's with 403", async () => {
    const own = await h.hospital.get('/api/v1/patients', patients, { headers: { 'x-facility-id': HOSPITAL.code, 'x-facility-id-type': 'fr-code' } });
    expect(own.status).toBe(200);
    const other = await h.hospital.get('/api/v1/patients', patients, { headers: { 'x-facility-id': DISPENSARY.code } });
    expectError(other, 403, 'FORBIDDEN');
    expectError(await h.hospital.get('/api/v1/patients', patients, { headers: { 'x-facility-id': HOSPITAL.code, 'x-facility-id-type': 'kmhfl' } }), 400, 'VALIDATION_ERROR');
  });

  it('gives a service account (a token without a tenant) its tenant only through X-Facility-Id', async () => {
    const integrator = new Client(h.url, await tokenFor(h.url, { clientId: 'demo-integrator', secret: 'demo-integrator-secret' }));
    const without = await integrator.get('/api/v1/patients', patients);
    expect(without.status).toBe(403);
    expect(without.body.error).toBe('Forbidden - Tenant context required');
    const scoped = await integrator.get('/api/v1/patients/eligibility', patients, { headers: { 'x-facility-id': DISPENSARY.code, 'x-facility-id-type': 'fr-code' } });
    expect(scoped.status).toBe(200);
    expect(scoped.body.facilityBiometricsEnforced).toBe(false);
    expectError(await integrator.get('/api/v1/patients', patients, { headers: { 'x-facility-id': 'FID-99-999999-9' } }), 403, 'FORBIDDEN');
  });
});

describe('error bodies', () => {
  it('carries {error, message, trace_id} and the X-Trace-Id header on every kind of error', async () => {
    const cases = [
      await h.hospital.get('/api/v1/patients', { identification_number: NID.notFound, identification_type: 'National ID' }),
      await h.hospital.get('/api/v1/patients', { identification_number: NID.covered, identification_type: 'Passport' }),
      await h.hospital.get('/api/v1/no/such/route'),
      await h.hospital.call('POST', '/api/v1/claims/otp', { body: undefined, headers: { 'content-type': 'application/json' } }),
    ];
    expect(cases.map((c) => c.status)).toEqual([404, 400, 404, 400]);
    for (const c of cases) {
      expect(Object.keys(c.body)).toEqual(expect.arrayContaining(['error', 'message', 'trace_id']));
      expect(c.headers.get('x-trace-id')).toBe(c.body.trace_id);
    }
    expect(cases[1]?.body.details).toContainEqual(expect.objectContaining({ field: 'identification_type' }));
  });

  it('answers malformed JSON with 400 VALIDATION_ERROR and an unsupported body type with 415', async () => {
    const bad = await fetch(`${h.url}/api/v1/claims/otp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.hospital.token ?? ''}`, 'content-type': 'application/json' },
      body: '{"patient_id": ',
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error).toBe('VALIDATION_ERROR');
    const xml = await fetch(`${h.url}/api/v1/claims/otp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.hospital.token ?? ''}`, 'content-type': 'application/xml' },
      body: '<otp/>',
    });
    expect(xml.status).toBe(415);
  });

  it('sends a fresh trace id per request', async () => {
    const a = await h.hospital.get('/api/v1/patients', patients);
    const b = await h.hospital.get('/api/v1/patients', patients);
    expect(a.headers.get('x-trace-id')).not.toBe(b.headers.get('x-trace-id'));
  });
});
