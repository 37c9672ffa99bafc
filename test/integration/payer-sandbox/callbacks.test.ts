// Status callbacks: an endpoint and an operation registered through the client, the sandbox's
// deliveries received by a real HTTP endpoint of the test, each signature verified with the secret
// the registration returned (HMAC-SHA256 over "timestamp.body"), and a delivery retried after the
// endpoint first answers 500.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIOMETRIC, HOSPITAL, NID, patientId, presentFinger, refusal, useWorld } from './harness';

interface Received {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly answered: number;
}

/** A facility's callback receiver: records every POST and answers with the status `answer` picks. */
async function startReceiver(answer: (n: number) => number): Promise<{ url: string; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const status = answer(received.length + 1);
      received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), answered: status });
      response.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'try later');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** What a receiver must check before trusting a delivery. */
function verified(secret: string, r: Received): boolean {
  const timestamp = String(r.headers['x-exchange-timestamp'] ?? '');
  const given = Buffer.from(String(r.headers['x-exchange-signature'] ?? ''));
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(`${timestamp}.${r.body}`).digest('hex')}`);
  const fresh = Math.abs(Date.now() - Number(timestamp)) < 60_000;
  return fresh && given.length === expected.length && timingSafeEqual(given, expected);
}

async function until<T>(what: string, check: () => T | undefined): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = check();
    if (value !== undefined) return value;
    await sleep(10);
  }
  throw new Error(`timed out waiting for ${what}`);
}

const { w, codes } = useWorld({ callbackRetryBaseMs: 20 });
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeEach(async () => {
  // The receiver is down for the very first delivery, then answers.
  receiver = await startReceiver((n) => (n === 1 ? 500 : 204));
});
afterEach(async () => {
  await receiver.close();
});

describe('status callbacks', () => {
  it('are delivered signed for every state change of an authorization, and retried after a 500', async () => {
    const endpoint = await w.hospital.callbacks.createEndpoint({ tenant: HOSPITAL.code, name: 'ward station', base_url: `${receiver.url}/hooks`, entity_type: 'authorization', environment: 'sandbox' });
    expect(endpoint).toMatchObject({ baseUrl: `${receiver.url}/hooks`, entityType: 'authorization', environment: 'sandbox', authType: 'none', active: true, facilityCode: HOSPITAL.code });
    expect(endpoint.signingSecret).toBeTruthy();
    const listed = await w.hospital.callbacks.listEndpoints({ tenant: HOSPITAL.code, entity_type: 'authorization' });
    expect(listed).toMatchObject([{ id: endpoint.id, baseUrl: `${receiver.url}/hooks`, signingSecret: undefined }]);
    expect(await w.hospital.callbacks.listEndpoints({ tenant: HOSPITAL.code, entity_type: 'claim' })).toEqual([]);
    const operation = await w.hospital.callbacks.createOperation({ tenant: HOSPITAL.code, endpoint_id: endpoint.id, name: 'statuses', path: '/exchange-status' });
    expect(operation).toMatchObject({ action: 'status_changed', method: 'POST', path: '/exchange-status' });

    const patient = await patientId(w.hospital, NID.covered);
    const a = await w.hospital.consent.authorizeBiometric({ patient_id: patient, service_type: 'CAPITATION', interventions: [codes.capitation.code], ...BIOMETRIC });
    // Creation (null → PENDING): answered 500 first, then delivered again with the same event id.
    const [first, retry] = await until('the retried creation', () => (receiver.received.length >= 2 ? receiver.received : undefined));
    expect(first?.answered).toBe(500);
    expect(retry?.answered).toBe(204);
    expect(first?.headers['x-exchange-event-id']).toBe(retry?.headers['x-exchange-event-id']);
    expect([first?.headers['x-exchange-delivery-attempt'], retry?.headers['x-exchange-delivery-attempt']]).toEqual(['1', '2']);

    await presentFinger(w.raw, a.guid ?? '', patient);
    await until('the AUTHORIZED callback', () => (receiver.received.length >= 3 ? true : undefined));

    for (const r of receiver.received) {
      expect(r.path).toBe('/hooks/exchange-status');
      expect(r.headers['content-type']).toBe('application/json');
      expect(verified(endpoint.signingSecret ?? '', r), `signature of ${r.body}`).toBe(true);
      // A body changed in transit no longer verifies.
      expect(verified(endpoint.signingSecret ?? '', { ...r, body: r.body.replace('PENDING', 'AUTHORIZED') })).toBe(false);
    }
    const payloads = receiver.received.map((r) => JSON.parse(r.body) as Record<string, unknown>);
    expect(payloads.map((p) => [p.from_state, p.to_state])).toEqual([
      [null, 'PENDING'],
      [null, 'PENDING'],
      ['PENDING', 'AUTHORIZED'],
    ]);
    expect(payloads[2]).toMatchObject({ subject_guid: a.guid, entity_type: 'authorization', facility_fr_code: HOSPITAL.code, consent_token: a.token });
    expect(Number.isNaN(Date.parse(String(payloads[2]?.timestamp)))).toBe(false);

    // The sandbox's own record of the deliveries: two attempts for the first, then delivered.
    const events = await w.raw.control<{ payload: { to_state: string }; attempts: { status: number }[]; outcome: string }[]>('GET', '/sandbox/events');
    expect(events.map((e) => [e.payload.to_state, e.attempts.map((x) => x.status), e.outcome])).toEqual([
      ['PENDING', [500, 204], 'delivered'],
      ['AUTHORIZED', [204], 'delivered'],
    ]);
  });

  it('reach only endpoints with an operation, stop when the endpoint is deleted, and stay within the tenant', async () => {
    const silent = await w.hospital.callbacks.createEndpoint({ tenant: HOSPITAL.code, name: 'silent', base_url: `${receiver.url}/silent`, entity_type: 'authorization', environment: 'sandbox' });
    const renamed = await w.hospital.callbacks.updateEndpoint({ endpoint_id: silent.id, name: 'no operations yet' });
    expect(renamed).toMatchObject({ id: silent.id, name: 'no operations yet', signingSecret: undefined });
    // An endpoint of another entity type, with an operation, hears nothing of an authorization.
    const claims = await w.hospital.callbacks.createEndpoint({ tenant: HOSPITAL.code, name: 'claims', base_url: receiver.url, entity_type: 'claim', environment: 'sandbox' });
    await w.hospital.callbacks.createOperation({ tenant: HOSPITAL.code, endpoint_id: claims.id, name: 'claims', path: '/claims' });
    const patient = await patientId(w.hospital, NID.covered);
    await w.hospital.consent.authorizeBiometric({ patient_id: patient, service_type: 'CAPITATION', interventions: [codes.capitation.code], ...BIOMETRIC });
    await sleep(100);
    expect(receiver.received).toEqual([]);

    await w.hospital.callbacks.deleteEndpoint({ endpoint_id: silent.id });
    await w.hospital.callbacks.deleteEndpoint({ endpoint_id: claims.id });
    expect(await w.hospital.callbacks.listEndpoints({ tenant: HOSPITAL.code })).toEqual([]);
    // Another facility's endpoints are not the hospital's to register.
    await refusal(w.hospital.callbacks.createEndpoint({ tenant: 'FID-00-000002-0', name: 'x', base_url: `${receiver.url}/x`, entity_type: 'claim', environment: 'sandbox' }), {
      kind: 'forbidden',
      status: 403,
      code: 'FORBIDDEN',
    });
  });
});
