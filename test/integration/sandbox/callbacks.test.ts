/* eslint-disable @typescript-eslint/no-explicit-any -- wire bodies are untyped JSON; the tests assert their shape */
// Status callbacks: registration in R's shapes (an endpoint per entity type, operations), signed
// delivery of every state change to a real HTTP endpoint, retries with backoff, and the record in
// GET /sandbox/events.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { until, useReceiver } from './callback-receiver';
import { BIOMETRIC, DISPENSARY, HOSPITAL, NID, PREAUTH_DOCTOR, authorizeByFingerprint, createPreauth, crId, expectError, openVisit, useHarness } from './harness';

const h = useHarness({ callbackRetryBaseMs: 20 });
const hooks = useReceiver(h);
const register = hooks.register;

describe('status callbacks', () => {
  it('delivers every state change of an authorization and a claim, each to its entity type, signed with the endpoint secret', async () => {
    const secrets = [await register('authorization'), await register('claim')].map((e) => e.signing_secret);
    const id = await crId(h.hospital, NID.covered);
    const visit = await openVisit(h, h.hospital, id, 'SHA-02-001', 'CAPITATION');
    const changes = await until('three callbacks', async () => (hooks.receiver.received.length >= 3 ? hooks.receiver.received : undefined));
    // Deliveries run concurrently: the order of arrival is not guaranteed, the set is.
    expect(changes).toHaveLength(3);
    expect(changes.map((c) => [c.body.entity_type, c.body.from_state, c.body.to_state])).toEqual(
      expect.arrayContaining([
        ['authorization', null, 'PENDING'],
        ['authorization', 'PENDING', 'AUTHORIZED'],
        ['claim', null, 'DRAFT'],
      ]),
    );
    const claim = changes.find((c) => c.body.entity_type === 'claim');
    expect(claim?.path).toBe('/hooks/exchange');
    expect(claim?.body).toMatchObject({ facility_fr_code: HOSPITAL.code, consent_token: visit.consent_token, subject_guid: visit.id });
    expect(Date.parse(claim?.body.timestamp)).not.toBeNaN();
    for (const c of changes) {
      const timestamp = String(c.headers['x-exchange-timestamp']);
      expect(Math.abs(Number(timestamp) - Date.now())).toBeLessThan(60_000);
      const secret = secrets[c.body.entity_type === 'authorization' ? 0 : 1] ?? '';
      const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${c.raw}`).digest('hex')}`;
      expect(c.headers['x-exchange-signature']).toBe(expected);
      expect(c.headers['content-type']).toBe('application/json');
      // The headers registered on the endpoint go with every delivery.
      expect(c.headers['x-station']).toBe('ward-3');
    }
    const events = (await h.control.get('/sandbox/events')).body as any[];
    expect(events).toHaveLength(3);
    expect(events.every((e) => e.outcome === 'delivered' && e.attempts.length === 1 && e.attempts[0].status === 204)).toBe(true);
  });

  it('delivers preauth changes to a preauth endpoint', async () => {
    await register('preauth');
    await register('authorization');
    const id = await crId(h.hospital, NID.covered);
    const a = await authorizeByFingerprint(h, h.hospital, id, ['SHA-08-001'], 'INPATIENT');
    const p = { body: await createPreauth(h.hospital, a.token, 'SHA-08-001', { doctors: [{ ...PREAUTH_DOCTOR, identification_number: 'A23456', is_primary: true }] }) };
    await h.control.post(`/sandbox/preauths/${p.body.id}/doctor-approval`);
    await h.control.post(`/sandbox/preauths/${p.body.id}/payer-approval`);
    const preauth = await until('preauth and authorization callbacks', async () => {
      const seen = hooks.receiver.received.map((c) => `${c.body.entity_type}:${c.body.from_state}>${c.body.to_state}`);
      return seen.includes('authorization:AUTHORIZED_PENDING_VISIT>AUTHORIZED') ? seen : undefined;
    });
    expect(preauth).toEqual(
      expect.arrayContaining([
        'preauth:null>PENDING_DOCTOR_APPROVAL',
        'preauth:PENDING_DOCTOR_APPROVAL>ACTIVE',
        'preauth:ACTIVE>FINALISED',
        'authorization:PENDING>AUTHORIZED_PENDING_VISIT',
      ]),
    );
  });

  it('retries a failing endpoint with backoff, then succeeds; every attempt is recorded', async () => {
    await register('authorization');
    hooks.receiver.failures = 2;
    const id = await crId(h.hospital, NID.covered);
    await h.hospital.post('/api/v1/claims/authorize', { patient_id: id, interventions: ['SHA-02-001'], service_type: 'CAPITATION', ...BIOMETRIC });
    const event = await until('a delivered retry', async () => {
      const events = (await h.control.get('/sandbox/events')).body as any[];
      return events[0]?.outcome === 'delivered' ? events[0] : undefined;
    });
    expect(event.attempts.map((a: any) => a.status)).toEqual([500, 500, 204]);
    expect(hooks.receiver.received).toHaveLength(3);
    expect(new Set(hooks.receiver.received.map((r) => r.headers['x-exchange-event-id'])).size).toBe(1);
    expect(hooks.receiver.received.map((r) => r.headers['x-exchange-delivery-attempt'])).toEqual(['1', '2', '3']);
    // How long it waited between them: callbacks-retry.timing.test.ts.
  });

  it('gives up after five attempts, and records network errors', async () => {
    await register('authorization');
    hooks.receiver.failures = 100;
    const id = await crId(h.hospital, NID.covered);
    await h.hospital.post('/api/v1/claims/authorize', { patient_id: id, interventions: ['SHA-02-001'], service_type: 'CAPITATION', ...BIOMETRIC });
    const failed = await until('a failed delivery', async () => {
      const events = (await h.control.get('/sandbox/events')).body as any[];
      return events[0]?.outcome === 'failed' ? events[0] : undefined;
    });
    expect(failed.attempts).toHaveLength(5);
    await hooks.receiver.stop();
    await h.hospital.post('/api/v1/claims/authorize', { patient_id: id, interventions: ['SHA-02-001'], service_type: 'CAPITATION', ...BIOMETRIC });
    const unreachable = await until('a network error', async () => {
      const events = (await h.control.get('/sandbox/events')).body as any[];
      return events[1]?.attempts.length > 0 ? events[1] : undefined;
    });
    expect(unreachable.attempts[0]).toMatchObject({ status: null });
    expect(unreachable.attempts[0].error).toBeTruthy();
    await hooks.receiver.start();
  });

  it("sends nothing to an endpoint without an operation, nor to another tenant's endpoint, nor to another entity type's", async () => {
    await register('authorization', h.hospital, HOSPITAL.code, false);
    await register('authorization', h.dispensary, DISPENSARY.code, true);
    await register('claim', h.hospital, HOSPITAL.code, true);
    const id = await crId(h.hospital, NID.covered);
    await h.hospital.post('/api/v1/claims/authorize', { patient_id: id, interventions: ['SHA-02-001'], service_type: 'CAPITATION', ...BIOMETRIC });
    await new Promise((r) => setTimeout(r, 150));
    expect(hooks.receiver.received).toEqual([]);
    expect((await h.control.get('/sandbox/events')).body).toEqual([]);
    expect((await h.control.get('/sandbox/transitions')).body).toHaveLength(1);
  });

  it('lists, updates, deactivates and deletes endpoints, only for their own tenant', async () => {
    const endpoint = await register('authorization');
    await register('claim');
    const list = await h.hospital.get(`/api/v1/tenants/${HOSPITAL.code}/endpoints`);
    // A bare array (R), filtered by entity_type when asked.
    expect(list.body).toHaveLength(2);
    const byType = await h.hospital.get(`/api/v1/tenants/${HOSPITAL.code}/endpoints`, { entity_type: 'authorization' });
    expect(byType.body).toHaveLength(1);
    expect(byType.body[0]).toMatchObject({ endpoint_id: endpoint.endpoint_id, base_url: hooks.receiver.url, entity_type: 'authorization', environment: 'sandbox', auth_type: 'none', is_active: true });
    expect(byType.body[0].signing_secret).toBeUndefined();
    expectError(await h.hospital.get(`/api/v1/tenants/${DISPENSARY.code}/endpoints`), 403, 'FORBIDDEN');
    expectError(await h.dispensary.call('PATCH', `/api/v1/tenants/endpoints/${endpoint.endpoint_id}`, { body: { is_active: false } }), 404, 'NOT_FOUND');
    expectError(await h.hospital.call('PATCH', `/api/v1/tenants/endpoints/${endpoint.endpoint_id}`, { body: {} }), 400, 'VALIDATION_ERROR');
    expectError(await h.hospital.call('PATCH', `/api/v1/tenants/endpoints/${endpoint.endpoint_id}`, { body: { auth_type: 'api_key' } }), 400, 'VALIDATION_ERROR');
    expect((await h.hospital.call('PATCH', `/api/v1/tenants/endpoints/${endpoint.endpoint_id}`, { body: { is_active: false } })).body.is_active).toBe(false);
    const id = await crId(h.hospital, NID.covered);
    await h.hospital.post('/api/v1/claims/authorize', { patient_id: id, interventions: ['SHA-02-001'], service_type: 'CAPITATION', ...BIOMETRIC });
    await new Promise((r) => setTimeout(r, 100));
    expect(hooks.receiver.received).toEqual([]);
    expect((await h.hospital.call('DELETE', `/api/v1/tenants/endpoints/${endpoint.endpoint_id}`)).status).toBe(204);
    expect((await h.hospital.get(`/api/v1/tenants/${HOSPITAL.code}/endpoints`)).body).toHaveLength(1);
    const endpointBody = { name: 'x', base_url: hooks.receiver.url, entity_type: 'claim', environment: 'sandbox' };
    expectError(await h.hospital.post(`/api/v1/tenants/${HOSPITAL.code}/endpoints`, { ...endpointBody, base_url: 'ftp://x' }), 400, 'VALIDATION_ERROR');
    expectError(await h.hospital.post(`/api/v1/tenants/${HOSPITAL.code}/endpoints`, { ...endpointBody, environment: 'prod' }), 400, 'VALIDATION_ERROR');
    expectError(await h.hospital.post(`/api/v1/tenants/${HOSPITAL.code}/endpoints`, { ...endpointBody, auth_type: 'api_key' }), 400, 'VALIDATION_ERROR');
    expectError(await h.hospital.post(`/api/v1/tenants/${HOSPITAL.code}/endpoints`, { url: hooks.receiver.url, name: 'our old reading' }), 400, 'VALIDATION_ERROR');
    expect((await h.hospital.post(`/api/v1/tenants/${HOSPITAL.code}/endpoints`, { ...endpointBody, auth_type: 'api_key', secret_ref: 'hie-ref-1' })).status).toBe(201);
  });

  it('validates operations: action status_changed, method POST, JSON, path or path_url_override; lists and deletes them', async () => {
    const endpoint = await register('claim', h.hospital, HOSPITAL.code, false);
    const path = `/api/v1/tenants/${HOSPITAL.code}/endpoints/${endpoint.endpoint_id}/operations`;
    const op = { name: 'x', action: 'status_changed', method: 'POST', path: '/x', request_content_type: 'application/json' };
    expectError(await h.hospital.post(path, { ...op, action: 'created' }), 400, 'VALIDATION_ERROR');
    expectError(await h.hospital.post(path, { ...op, method: 'DELETE' }), 400, 'VALIDATION_ERROR');
    expectError(await h.hospital.post(path, { ...op, path: 'x' }), 400, 'VALIDATION_ERROR');
    const { path: _path, ...noPath } = op;
    expectError(await h.hospital.post(path, noPath), 400, 'VALIDATION_ERROR');
    const created = await h.hospital.post(path, op);
    expect(created.status).toBe(201);
    const overridden = await h.hospital.post(path, { ...noPath, name: 'elsewhere', path_url_override: `${hooks.receiver.url}/elsewhere` });
    expect(overridden.body).toMatchObject({ path_url_override: `${hooks.receiver.url}/elsewhere` });
    expect((await h.hospital.get(path)).body).toHaveLength(2);
    expect((await h.hospital.call('DELETE', `/api/v1/tenants/endpoints/operations/${created.body.operation_id}`)).status).toBe(204);
    expectError(await h.dispensary.call('DELETE', `/api/v1/tenants/endpoints/operations/${overridden.body.operation_id}`), 404, 'NOT_FOUND');
    expect((await h.hospital.get(path)).body).toMatchObject([{ name: 'elsewhere' }]);
  });

  it('delivers to the path_url_override in place of base_url and path', async () => {
    const endpoint = await register('authorization', h.hospital, HOSPITAL.code, false);
    await h.hospital.post(`/api/v1/tenants/${HOSPITAL.code}/endpoints/${endpoint.endpoint_id}/operations`, {
      name: 'override',
      action: 'status_changed',
      method: 'POST',
      path_url_override: `${hooks.receiver.url}/other/place`,
    });
    const id = await crId(h.hospital, NID.covered);
    await h.hospital.post('/api/v1/claims/authorize', { patient_id: id, interventions: ['SHA-02-001'], service_type: 'CAPITATION', ...BIOMETRIC });
    const [first] = await until('a delivery', async () => (hooks.receiver.received.length > 0 ? hooks.receiver.received : undefined));
    expect(first?.path).toBe('/other/place');
  });
});
