/* eslint-disable @typescript-eslint/no-explicit-any -- wire bodies are untyped JSON; the tests assert their shape */
// The latency the sandbox's faults add, measured on the wall clock (the timing group: one file at
// a time, with nothing else of the suite beside it). Which calls a rule slows, and by how much it
// says, is checked without a clock in faults-and-control.test.ts and faults-profile.test.ts.
import { describe, expect, it } from 'vitest';
import { NID, expectError, useHarness } from './harness';

const h = useHarness();

describe('latency injected by the sandbox', () => {
  it('is waited before a globally failed call answers', async () => {
    await h.control.post('/sandbox/faults', { latency_ms: 150, fail_rate: 1 });
    const started = Date.now();
    expectError(await h.hospital.get('/api/v1/patients', { identification_number: NID.covered, identification_type: 'National ID' }), 503, 'SERVICE_UNAVAILABLE');
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('is waited as the ward profile drew it for the call', async () => {
    await h.control.post('/sandbox/faults', { profile: 'ward', seed: 'training-day-1' });
    const started = Date.now();
    await h.hospital.get('/api/v1/patients/eligibility', { identification_number: NID.covered, identification_type: 'National ID' });
    const took = Date.now() - started;
    const call = ((await h.control.get('/sandbox/faults')).body.recent as any[]).filter((r) => r.path === '/api/v1/patients/eligibility').at(-1);
    expect(call.latency_ms).toBeGreaterThanOrEqual(500);
    expect(took).toBeGreaterThanOrEqual(call.latency_ms - 5);
  });
});
