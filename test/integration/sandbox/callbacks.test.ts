/* eslint-disable @typescript-eslint/no-explicit-any -- wire bodies are untyped JSON; the tests assert their shape */
// Status callbacks: registration in R's shapes (an endpoint per entity type, operations), signed
// delivery of every state change to a real HTTP endpoint, retries with backoff, and the record in
// GET /sandbox/events.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIOMETRIC, DISPENSARY, HOSPITAL, NID, PREAUTH_DOCTOR, authorizeByFingerprint, createPreauth, crId, expectError, openVisit, useHarness } from './harness';

interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  raw: string;
  body: any;
}

/** A receiver that fails the first `failures` deliveries with 500, then answers 204. */
class Receiver {
  readonly received: Received[] = [];
  failures = 0;
  private server: Server | null = null;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        this.received.push({ path: req.url ?? '', headers: req.headers, raw, body: JSON.parse(raw) });
        if (this.failures > 0) {
          this.failures -= 1;
          res.writeHead(500).end('not now');
        } else {
          res.writeHead(204).end();
        }
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 5000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const h = useHarness({ callbackRetryBaseMs: 20 });
let receiver: Receiver;
beforeEach(async () => {
  receiver = new Receiver();
  await receiver.start();
});
afterEach(async () => {
  await receiver.stop();
});

type EntityType = 'claim' | 'preauth' | 'authorization';

/** Registers an endpoint for one entity type (one per type per facility) and, by default, its operation. */
async function register(entityType: EntityType, client = h.hospital, code: string = HOSPITAL.code, withOperation = true) {
  const endpoint = await client.post(`/api/v1/tenants/${code}/endpoints`, {
    name: `ward station ${entityType}`,
    base_url: receiver.url,
    entity_type: entityType,
    environment: 'sandbox',
    auth_type: 'none',
    headers: { 'x-station': 'ward-3' },
  });
  expect(endpoint.status).toBe(201);
  if (withOperation) {
    const op = await client.post(`/api/v1/tenants/${code}/endpoints/${endpoint.body.endpoint_id}/operations`, {
      name: 'status',
      action: 'status_changed',
      method: 'POST',
      path: '/hooks/exchange',
      request_content_type: 'application/json',
    });
    expect(op.status).toBe(201);
    expect(op.body).toMatchObject({ operation_id: expect.any(String), path: '/hooks/exchange', is_active: true });
  }
  return endpoint.body as { endpoint_id: string; base_url: string; signing_secret: string };
}

describe('status callbacks', () => {
  it('delivers every state change of an authorization and a claim, each to its entity type, signed with the endpoint secret', async () => {
    const secrets = [await register('authorization'), await register('claim')].map((e) => e.signing_secret);
    const id = await crId(h.hospital, NID.covered);
    const visit = await openVisit(h, h.hospital, id, 'SHA-02-001', 'CAPITATION');
    const changes = await until('three callbacks', async () => (receiver.received.length >= 3 ? receiver.received : undefined));
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
      const seen = receiver.received.map((c) => `${c.body.entity_type}:${c.body.from_state}>${c.body.to_state}`);
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
    receiver.failures = 2;
    const id = await crId(h.hospital, NID.covered);
    await h.hospital.post('/api/v1/claims/authorize', { patient_id: id, interventions: ['SHA-02-001'], service_type: 'CAPITATION', ...BIOMETRIC });
    const event = await until('a delivered retry', async () => {
      const events = (await h.control.get('/sandbox/events')).body as any[];
      return events[0]?.outcome === 'delivered' ? events[0] : undefined;
    });
    expect(event.attempts.map((a: any) => a.status)).toEqual([500, 500, 204]);
    expect(receiver.received).toHaveLength(3);
    expect(new Set(receiver.received.map((r) => r.headers['x-exchange-event-id'])).size).toBe(1);
    expect(receiver.received.map((r) => r.headers['x-exchange-delivery-attempt'])).toEqual(['1', '2', '3']);
    const gaps = event.attempts.slice(1).map((a: any, i: number) => Date.parse(a.at) - Date.parse(event.attempts[i].at));
    // Base 20 ms, doubling: the waits before attempts 2 and 3 are at least 20 and 40 ms.
    expect(gaps[0]).toBeGreaterThanOrEqual(20);
    expect(gaps[1]).toBeGreaterThanOrEqual(40);
  });

  it('gives up after five attempts, and records network errors', async () => {
    await register('authorization');
    receiver.failures = 100;
    const id = await crId(h.hospital, NID.covered);
    await h.hospital.post('/api/v1/claims/authorize', { patient_id: id, interventions: ['SHA-02-001'], service_type: 'CAPITATION', ...BIOMETRIC });
    const failed = await until('a failed delivery', async () => {
      const events = (await h.control.get('/sandbox/events')).body as any[];
      return events[0]?.outcome === 'failed' ? events[0] : undefined;
    });
    expect(failed.attempts).toHaveLength(5);
    await receiver.stop();
    await h.hospital.post('/api/v1/claims/authorize', { patient_id: id, interventions: ['SHA-02-001'], service_type: 'CAPITATION', ...BIOMETRIC });
    const unreachable = await until('a network error', async () => {
      const events = (await h.control.get('/sandbox/events')).body as any[];
      return events[1]?.attempts.length > 0 ? events[1] : undefined;
    });
    expect(unreachable.attempts[0]).toMatchObject({ status: null });
    expect(unreachable.attempts[0].error).toBeTruthy();
    await receiver.start();
  });

  it("sends nothing to an endpoint without an operation, nor to another tenant's endpoint, nor to another entity type's", async () => {
    await register('authorization', h.hospital, HOSPITAL.code, false);
    await register('authorization', h.dispensary, DISPENSARY.code, true);
    await register('claim', h.hospital, HOSPITAL.code, true);
    const id = await crId(h.hospital, NID.covered);
    await h.hospital.post('/api/v1/claims/authorize', { patient_id: id, interventions: ['SHA-02-001'], service_type: 'CAPITATION', ...BIOMETRIC });
    await new Promise((r) => setTimeout(r, 150));
    expect(receiver.received).toEqual([]);
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
    expect(byType.body[0]).toMatchObject({ endpoint_id: endpoint.endpoint_id, base_url: receiver.url, entity_type: 'authorization', environment: 'sandbox', auth_type: 'none', is_active: true });
    expect(byType.body[0].signing_secret).toBeUndefined();
    expectError(await h.hospital.get(`/api/v1/tenants/${DISPENSARY.code}/endpoints`), 403, 'FORBIDDEN');
    expectError(await h.dispensary.call('PATCH', `/api/v1/tenants/endpoints/${endpoint.endpoint_id}`, { body: { is_active: false } }), 404, 'NOT_FOUND');
    expectError(await h.hospital.call('PATCH', `/api/v1/tenants/endpoints/${endpoint.endpoint_id}`, { body: {} }), 400, 'VALIDATION_ERROR');
    expectError(await h.hospital.call('PATCH', `/api/v1/tenants/endpoints/${endpoint.endpoint_id}`, { body: { auth_type: 'api_key' } }), 400, 'VALIDATION_ERROR');
    expect((await h.hospital.call('PATCH', `/api/v1/tenants/endpoints/${endpoint.endpoint_id}`, { body: { is_active: false } })).body.is_active).toBe(false);
    const id = await crId(h.hospital, NID.covered);
    await h.hospital.post('/api/v1/claims/authorize', { patient_id: id, interventions: ['SHA-02-001'], service_type: 'CAPITATION', ...BIOMETRIC });
    await new Promise((r) => setTimeout(r, 100));
    expect(receiver.received).toEqual([]);
    expect((await h.hospital.call('DELETE', `/api/v1/tenants/endpoints/${endpoint.endpoint_id}`)).status).toBe(204);
    expect((await h.hospital.get(`/api/v1/tenants/${HOSPITAL.code}/endpoints`)).body).toHaveLength(1);
    const endpointBody = { name: 'x', base_url: receiver.url, entity_type: 'claim', environment: 'sandbox' };
    expectError(await h.hospital.post(`/api/v1/tenants/${HOSPITAL.code}/endpoints`, { ...endpointBody, base_url: 'ftp://x' }), 400, 'VALIDATION_ERROR');
    expectError(await h.hospital.post(`/api/v1/tenants/${HOSPITAL.code}/endpoints`, { ...endpointBody, environment: 'prod' }), 400, 'VALIDATION_ERROR');
    expectError(await h.hospital.post(`/api/v1/tenants/${HOSPITAL.code}/endpoints`, { ...endpointBody, auth_type: 'api_key' }), 400, 'VALIDATION_ERROR');
    expectError(await h.hospital.post(`/api/v1/tenants/${HOSPITAL.code}/endpoints`, { url: receiver.url, name: 'our old reading' }), 400, 'VALIDATION_ERROR');
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
    const overridden = await h.hospital.post(path, { ...noPath, name: 'elsewhere', path_url_override: `${receiver.url}/elsewhere` });
    expect(overridden.body).toMatchObject({ path_url_override: `${receiver.url}/elsewhere` });
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
      path_url_override: `${receiver.url}/other/place`,
    });
    const id = await crId(h.hospital, NID.covered);
    await h.hospital.post('/api/v1/claims/authorize', { patient_id: id, interventions: ['SHA-02-001'], service_type: 'CAPITATION', ...BIOMETRIC });
    const [first] = await until('a delivery', async () => (receiver.received.length > 0 ? receiver.received : undefined));
    expect(first?.path).toBe('/other/place');
  });
});
