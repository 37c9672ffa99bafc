/* eslint-disable @typescript-eslint/no-explicit-any -- wire bodies are untyped JSON; the tests assert their shape */
// The ward network profile (each route's latency band, slow tails, the odd 503, seeded so runs
// repeat) and route selectors that name a query: decided by the injector itself for the
// distributions, over HTTP for what a trainer or a test sees.
import { describe, expect, it } from 'vitest';
import { FaultInjector } from '../../../electron/sandbox/faults';
import { createRng } from '../../../electron/sandbox/rng';
import { NID, crId, expectError, useHarness } from './harness';

const INTERVENTIONS = '/api/v1/patients/benefits/interventions';

function ward(seed?: string): FaultInjector {
  return new FaultInjector(() => createRng('faults'), { latencyMs: 0, failRate: 0, profile: 'ward', seed });
}

/** The profile's decision for one call, as the server hook asks for it (the concrete URL and the route's pattern). */
const decide = (f: FaultInjector, method: string, path: string, query = '') => f.decide(method, `${path}${query === '' ? '' : `?${query}`}`, path);

describe('the ward profile', () => {
  it('draws each route from its own band, with slow tails of 3–8 s and a 503 now and then, never on the token call', () => {
    const f = ward();
    const bands: [string, string, number, number][] = [
      ['GET', '/api/v1/patients/eligibility', 500, 1500],
      ['GET', INTERVENTIONS, 1000, 4000],
      ['POST', '/api/v1/claims/visit', 500, 2000],
      ['POST', '/api/v1/tenants/token', 300, 1000],
    ];
    for (const [method, path, min, max] of bands) {
      const decisions = Array.from({ length: 3000 }, (_, i) => decide(f, method, path, `patient_id=CR-${i % 7}&n=${i}`));
      const plain = decisions.map((d) => d.latencyMs).filter((ms) => ms <= max);
      const tails = decisions.map((d) => d.latencyMs).filter((ms) => ms > max);
      expect(Math.min(...plain), path).toBeGreaterThanOrEqual(min);
      for (const ms of tails) expect(ms, path).toBeGreaterThanOrEqual(min + 3000);
      expect(Math.max(...decisions.map((d) => d.latencyMs)), path).toBeLessThanOrEqual(max + 8000);
      // One call in thirty is a tail, one in fifty a 503 (wide bounds: 3000 draws).
      expect(tails.length / decisions.length, path).toBeGreaterThan(0.015);
      expect(tails.length / decisions.length, path).toBeLessThan(0.06);
      const failed = decisions.filter((d) => d.failure !== null);
      if (path === '/api/v1/tenants/token') expect(failed).toEqual([]);
      else {
        expect(failed.length / decisions.length, path).toBeGreaterThan(0.008);
        expect(failed.length / decisions.length, path).toBeLessThan(0.04);
        expect(failed[0]?.failure).toEqual({ status: 503, code: 'SERVICE_UNAVAILABLE', resetConnection: false, loseAnswer: false });
      }
      const mean = plain.reduce((a, b) => a + b, 0) / plain.length;
      expect(mean, path).toBeGreaterThan(min + (max - min) * 0.4);
      expect(mean, path).toBeLessThan(min + (max - min) * 0.6);
    }
  });

  it('repeats with the same seed, whatever order concurrent calls arrive in; another seed draws otherwise', () => {
    const calls = ['SB-02-01', 'SB-05-01', 'SB-07-02'].map((code) => `patient_id=CR-1&sub_benefit_code=${code}`);
    const inOrder = ward();
    const first = calls.map((q) => decide(inOrder, 'GET', INTERVENTIONS, q).latencyMs);
    const reversed = ward();
    const second = [...calls].reverse().map((q) => decide(reversed, 'GET', INTERVENTIONS, q).latencyMs).reverse();
    expect(second).toEqual(first);
    // The second call of the same list draws anew, and the same again in the next run.
    const again = calls.map((q) => decide(inOrder, 'GET', INTERVENTIONS, q).latencyMs);
    expect(again).not.toEqual(first);
    expect(calls.map((q) => decide(reversed, 'GET', INTERVENTIONS, q).latencyMs)).toEqual(again);
    const other = ward('another-run');
    expect(calls.map((q) => decide(other, 'GET', INTERVENTIONS, q).latencyMs)).not.toEqual(first);
  });

  it('gives way to a fixed rule, comes back on reset when the sandbox started with it, and records what it did', () => {
    const f = ward();
    f.apply({ latency_ms: 0, status: 503, reset_connection: false, lose_answer: false });
    expect(decide(f, 'GET', '/api/v1/patients/eligibility').latencyMs).toBe(0);
    f.reset();
    const d = decide(f, 'GET', '/api/v1/patients/eligibility', 'identification_number=30000001');
    expect(d.latencyMs).toBeGreaterThanOrEqual(500);
    expect(f.list().recent.at(-1)).toMatchObject({ method: 'GET', path: '/api/v1/patients/eligibility', latency_ms: d.latencyMs, failed_with: d.failure?.status ?? null });
    expect(f.list().global).toMatchObject({ profile: 'ward', seed: null });
  });
});

describe('faults over HTTP', () => {
  const h = useHarness();

  it('a route selector with a query holds one sub-benefit’s list, not the others', async () => {
    const id = await crId(h.hospital, NID.covered);
    await h.control.post('/sandbox/faults', { routes: [`GET ${INTERVENTIONS}?sub_benefit_code=SB-05-01`], count: 1, status: 502 });
    expect((await h.hospital.get(INTERVENTIONS, { patient_id: id, sub_benefit_code: 'SB-02-01' })).status).toBe(200);
    expectError(await h.hospital.get(INTERVENTIONS, { patient_id: id, sub_benefit_code: 'SB-05-01' }), 502, 'BAD_GATEWAY');
    expect((await h.hospital.get(INTERVENTIONS, { patient_id: id, sub_benefit_code: 'SB-05-01' })).status).toBe(200);
  });

  it('takes the ward profile with a seed, alone, and shows it with the calls it slowed', async () => {
    expectError(await h.control.post('/sandbox/faults', { profile: 'ward', latency_ms: 300 }), 400, 'VALIDATION_ERROR');
    expectError(await h.control.post('/sandbox/faults', { profile: 'ward', routes: ['GET /api/v1/patients'] }), 400, 'VALIDATION_ERROR');
    expectError(await h.control.post('/sandbox/faults', { profile: 'village' }), 400, 'VALIDATION_ERROR');
    expectError(await h.control.post('/sandbox/faults', { seed: 'x' }), 400, 'VALIDATION_ERROR');
    const rule = await h.control.post('/sandbox/faults', { profile: 'ward', seed: 'training-day-1' });
    expect(rule.body).toMatchObject({ profile: 'ward', seed: 'training-day-1', routes: null });
    const answer = await h.hospital.get('/api/v1/patients/eligibility', { identification_number: NID.covered, identification_type: 'National ID' });
    const { body } = await h.control.get('/sandbox/faults');
    const call = (body.recent as any[]).filter((r) => r.path === '/api/v1/patients/eligibility').at(-1);
    // The eligibility band's latency (that it is waited: faults-latency.timing.test.ts).
    expect(call.latency_ms).toBeGreaterThanOrEqual(500);
    expect(answer.status).toBe(call.failed_with ?? 200);
    expect(body.global).toMatchObject({ profile: 'ward', seed: 'training-day-1' });
  });
});
