/* eslint-disable @typescript-eslint/no-explicit-any -- wire bodies are untyped JSON; the tests assert their shape */
// Fault injection (per route, by count and rate, latency, dropped connections; never on
// /sandbox/*) and the rest of the control API: clock, reset, outbox, world, loopback guard.
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../../electron/sandbox/index';
import { isLoopback } from '../../../electron/sandbox/server';
import { BIOMETRIC, Client, HOSPITAL, NID, crId, expectError, startHarness, tokenFor, useHarness } from './harness';

const h = useHarness();

const patients = { identification_number: NID.covered, identification_type: 'National ID' };

describe('fault injection', () => {
  it('fails only the named route, `count` times, with the chosen status, without touching state', async () => {
    const id = await crId(h.hospital, NID.whitelisted);
    const rule = await h.control.post('/sandbox/faults', { latency_ms: 0, fail_rate: 1, status: 502, routes: ['POST /api/v1/claims/otp'], count: 2 });
    expect(rule.status).toBe(200);
    expect(rule.body).toMatchObject({ routes: ['POST /api/v1/claims/otp'], remaining: 2, status: 502 });
    const send = () => h.hospital.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: ['SHA-02-001'] });
    expectError(await send(), 502, 'BAD_GATEWAY');
    expect((await h.hospital.get('/api/v1/patients', patients)).status).toBe(200);
    expectError(await send(), 502, 'BAD_GATEWAY');
    expect((await h.control.get('/sandbox/sms', { patient_id: id })).body).toEqual([]);
    expect((await send()).status).toBe(200);
    expect((await h.control.get('/sandbox/sms', { patient_id: id })).body).toHaveLength(1);
  });

  it('matches a route by its pattern with {params}', async () => {
    await h.control.post('/sandbox/faults', { routes: ['POST /api/v1/claims/authorizations/{token}/reject'], count: 1, status: 503 });
    expectError(await h.hospital.post('/api/v1/claims/authorizations/ANY/reject'), 503, 'SERVICE_UNAVAILABLE');
    expectError(await h.hospital.post('/api/v1/claims/authorizations/ANY/reject'), 404, 'NOT_FOUND');
  });

  it('adds latency and fails at a rate globally; a request without routes replaces the rules; never on /sandbox/*', async () => {
    await h.control.post('/sandbox/faults', { latency_ms: 150, fail_rate: 1 });
    expectError(await h.hospital.get('/api/v1/patients', patients), 503, 'SERVICE_UNAVAILABLE');
    expect((await h.control.get('/sandbox/clock')).status).toBe(200);
    // What the rule did, call by call: the exchange call slowed and failed; the control call never met it.
    // (That the latency is really waited is measured in faults-latency.timing.test.ts.)
    const list = await h.control.get('/sandbox/faults');
    expect(list.body.global).toMatchObject({ latency_ms: 150, fail_rate: 1 });
    expect(list.body.recent.at(-1)).toMatchObject({ method: 'GET', path: '/api/v1/patients', latency_ms: 150, failed_with: 503 });
    expect(list.body.recent.filter((r: any) => String(r.path).startsWith('/sandbox'))).toEqual([]);
    await h.control.post('/sandbox/faults', { latency_ms: 0, fail_rate: 0 });
    expect((await h.hospital.get('/api/v1/patients', patients)).status).toBe(200);
  });

  it('drops the connection when asked (a network error for the client)', async () => {
    await h.control.post('/sandbox/faults', { routes: ['GET /api/v1/patients'], count: 1, reset_connection: true });
    await expect(fetch(`${h.url}/api/v1/patients?identification_number=1&identification_type=National%20ID`)).rejects.toThrow();
    expect((await h.hospital.get('/api/v1/patients', patients)).status).toBe(200);
  });

  it('loses the answer of a call that did its work (ours): the client sees the connection drop, the exchange has the SMS sent', async () => {
    const id = await crId(h.hospital, NID.whitelisted);
    await h.control.post('/sandbox/faults', { routes: ['POST /api/v1/claims/otp'], count: 1, lose_answer: true });
    await expect(h.hospital.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: ['SHA-02-001'] })).rejects.toThrow();
    // The work was done before the answer was lost: the patient has the code.
    expect((await h.control.get('/sandbox/sms', { patient_id: id })).body).toHaveLength(1);
    // Spent: the next call is answered.
    expect((await h.hospital.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: ['SHA-02-001'] })).status).toBe(200);
    expectError(await h.control.post('/sandbox/faults', { lose_answer: true, reset_connection: true, fail_rate: 1 }), 400, 'VALIDATION_ERROR');
  });

  it('validates fault requests and clears them', async () => {
    expectError(await h.control.post('/sandbox/faults', { fail_rate: 2 }), 400, 'VALIDATION_ERROR');
    expectError(await h.control.post('/sandbox/faults', { routes: ['claims/submit'] }), 400, 'VALIDATION_ERROR');
    expectError(await h.control.post('/sandbox/faults', { status: 200, fail_rate: 1 }), 400, 'VALIDATION_ERROR');
    await h.control.post('/sandbox/faults', { routes: ['GET /api/v1/patients'], fail_rate: 1 });
    expect((await h.control.call('DELETE', '/sandbox/faults')).status).toBe(204);
    expect((await h.hospital.get('/api/v1/patients', patients)).status).toBe(200);
  });

  it('applies the startup fail rate and latency, and reset restores them', async () => {
    const faulty = await startSandbox({ failRate: 1, seed: 'faults' });
    try {
      const r = await new Client(faulty.url).post('/api/v1/tenants/token', { client_id: HOSPITAL.clientId, client_secret: HOSPITAL.secret });
      expectError(r, 503, 'SERVICE_UNAVAILABLE');
      const control = new Client(faulty.url);
      await control.post('/sandbox/faults', { fail_rate: 0 });
      expect((await new Client(faulty.url).post('/api/v1/tenants/token', { client_id: HOSPITAL.clientId, client_secret: HOSPITAL.secret })).status).toBe(200);
      await control.post('/sandbox/reset');
      expect((await control.get('/sandbox/faults')).body.global.fail_rate).toBe(1);
    } finally {
      await faulty.close();
    }
  });
});

describe('control API', () => {
  it('lists the authorizations, newest first, by patient and status (ours)', async () => {
    const id = await crId(h.hospital, NID.covered);
    const first = await h.hospital.post('/api/v1/claims/authorize', { patient_id: id, interventions: ['SHA-02-001'], service_type: 'CAPITATION', ...BIOMETRIC });
    const second = await h.hospital.post('/api/v1/claims/authorize', { patient_id: id, interventions: ['SHA-02-001'], service_type: 'CAPITATION', ...BIOMETRIC });
    const listed = (await h.control.get('/sandbox/authorizations', { patient_id: id, status: 'pending' })).body as any[];
    expect(listed.map((a) => a.guid)).toEqual([second.body.guid, first.body.guid]);
    expect(listed[0]).toMatchObject({ status: 'PENDING', patient_id: id, method: 'biometric', interventions: ['SHA-02-001'] });
    expect((await h.control.get('/sandbox/authorizations', { status: 'AUTHORIZED' })).body).toEqual([]);
  });

  it('lists the prescriptions and takes a review word outside its own list (ours), which the preview then answers', async () => {
    const id = await crId(h.hospital, NID.covered);
    const [finger] = (await h.control.get(`/sandbox/patients/${id}/fingerprints`)).body as { template: string }[];
    const authorization = await h.hospital.post('/api/v1/claims/authorize', { patient_id: id, interventions: ['SHA-02-001'], service_type: 'CAPITATION', ...BIOMETRIC });
    await h.control.post(`/sandbox/authorizations/${authorization.body.guid}/fingerprint`, { template: finger?.template });
    const visit = await h.hospital.post('/api/v1/claims/visit', { patient_id: id, intervention_codes: ['SHA-02-001'], service_type: 'CAPITATION', auth_guid: authorization.body.guid });
    const token = visit.body.authorization_code as string;
    const item = { generic_concept_code: 'AMOX-500', dose_quantity: 1, dose_unit: 'capsule', frequency: 3, period_unit: 'day', duration: 5, duration_unit: 'days' };
    const rx = await h.hospital.post('/api/v1/prescriptions', { consent_token: token, intervention_code: 'SHA-02-001', items: [item] });
    expect(rx.status).toBe(200);
    const listed = (await h.control.get('/sandbox/prescriptions')).body as any[];
    expect(listed).toEqual([expect.objectContaining({ code: rx.body.code, consent_token: token, status: 'ACTIVE', doctor_review_status: 'NOT_REQUIRED' })]);
    expectError(await h.control.post(`/sandbox/prescriptions/${rx.body.code}/review`, { doctor_review_status: 'on hold' }), 400, 'VALIDATION_ERROR');
    expect((await h.control.post(`/sandbox/prescriptions/${rx.body.code}/review`, { doctor_review_status: 'ON_HOLD_PHARMACIST' })).status).toBe(200);
    expect((await h.hospital.get('/api/v1/prescriptions', { consent_token: token })).body).toMatchObject({ code: rx.body.code, doctorReviewStatus: 'ON_HOLD_PHARMACIST' });
  });

  it('moves the clock forward only', async () => {
    const before = await h.control.get('/sandbox/clock');
    const moved = await h.control.post('/sandbox/clock', { advance_ms: 3_600_000 });
    expect(moved.body.offset_ms).toBe(3_600_000);
    expect(Date.parse(moved.body.now) - Date.parse(before.body.now)).toBeGreaterThanOrEqual(3_600_000);
    expectError(await h.control.post('/sandbox/clock', { advance_ms: -1 }), 400, 'VALIDATION_ERROR');
    expectError(await h.control.post('/sandbox/clock', {}), 400, 'VALIDATION_ERROR');
  });

  it('expires PENDING authorizations on its own, by a periodic sweep, as sandbox time passes', async () => {
    const id = await crId(h.hospital, NID.covered);
    const pending = await h.hospital.post('/api/v1/claims/authorize', { patient_id: id, interventions: ['SHA-02-001'], service_type: 'CAPITATION', ...BIOMETRIC });
    // Move the clock without the control API (which sweeps at once); GET /sandbox/transitions reads without sweeping.
    h.sandbox.context.clock.advance(10 * 60 * 1000);
    const started = Date.now();
    let expired: any;
    while (expired === undefined && Date.now() - started < 3000) {
      const transitions = (await h.control.get('/sandbox/transitions')).body as any[];
      expired = transitions.find((t) => t.subject_guid === pending.body.guid && t.to_state === 'EXPIRED');
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(expired).toMatchObject({ entity_type: 'authorization', from_state: 'PENDING', to_state: 'EXPIRED' });
  });

  it('resets to the seeded world: claims, outbox, clock and events are gone; tokens still work', async () => {
    const id = await crId(h.dispensary, NID.covered);
    await h.dispensary.post('/api/v1/claims/otp', { patient_id: id, intervention_codes: ['SHA-02-001'] });
    await h.dispensary.post('/api/v1/claims/authorize', { patient_id: id, interventions: ['SHA-02-001'], service_type: 'CAPITATION', ...BIOMETRIC });
    await h.control.post('/sandbox/clock', { advance_ms: 60_000 });
    expect((await h.control.get('/sandbox/sms')).body).toHaveLength(1);
    const token = h.dispensary.token;
    const reset = await h.control.post('/sandbox/reset');
    expect(reset.status).toBe(200);
    expect((await h.control.get('/sandbox/sms')).body).toEqual([]);
    expect((await h.control.get('/sandbox/transitions')).body).toEqual([]);
    expect((await h.control.get('/sandbox/clock')).body.offset_ms).toBe(0);
    expect((await new Client(h.url, token).get('/api/v1/patients', patients)).status).toBe(200);
  });

  it('describes the demo world', async () => {
    const world = (await h.control.get('/sandbox/world')).body;
    expect(world.facilities.map((f: any) => f.client_id)).toEqual(expect.arrayContaining(['demo-hospital', 'demo-dispensary']));
    expect(world.patients.map((p: any) => p.identification_number)).toEqual(['30000001', '30000002', '30000003', '30000004', '30000005', '30000006']);
  });

  it('serves enrolled templates of 512 bytes, stable across runs', async () => {
    const id = await crId(h.hospital, NID.covered);
    const fingers = (await h.control.get(`/sandbox/patients/${id}/fingerprints`)).body as any[];
    expect(fingers.length).toBeGreaterThanOrEqual(2);
    for (const f of fingers) expect(Buffer.from(f.template, 'base64')).toHaveLength(512);
    const other = await startHarness();
    try {
      expect((await other.control.get(`/sandbox/patients/${id}/fingerprints`)).body).toEqual(fingers);
    } finally {
      await other.close();
    }
    expectError(await h.control.get('/sandbox/patients/CR0/fingerprints'), 404, 'NOT_FOUND');
    expectError(await h.control.post('/sandbox/authorizations/nope/fingerprint', { template: 'AAAA' }), 404, 'NOT_FOUND');
    expectError(await h.control.post('/sandbox/authorizations/nope/fingerprint', { template: '***' }), 400, 'VALIDATION_ERROR');
  });

  it('answers the control API without a token, and only to loopback callers', async () => {
    expect((await new Client(h.url).get('/sandbox/events')).status).toBe(200);
    const fake = (remoteAddress: string) => ({ socket: { remoteAddress } }) as Parameters<typeof isLoopback>[0];
    expect(isLoopback(fake('127.0.0.1'))).toBe(true);
    expect(isLoopback(fake('::1'))).toBe(true);
    expect(isLoopback(fake('::ffff:127.0.0.1'))).toBe(true);
    expect(isLoopback(fake('192.168.1.20'))).toBe(false);
    expect(isLoopback(fake('10.0.0.1'))).toBe(false);
  });

  it('keeps seeded runs reproducible', async () => {
    const runs: string[] = [];
    for (let i = 0; i < 2; i++) {
      const s = await startSandbox({ seed: 'same' });
      try {
        runs.push(await tokenFor(s.url, HOSPITAL));
      } finally {
        await s.close();
      }
    }
    expect(runs[0]).toBe(runs[1]);
  });
});
