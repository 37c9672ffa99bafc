/* eslint-disable @typescript-eslint/no-explicit-any -- wire bodies are untyped JSON; the tests assert their shape */
// The backoff between deliveries of a status callback, measured on the wall clock (the timing
// group: one file at a time, with nothing else of the suite beside it).
import { describe, expect, it } from 'vitest';
import { until, useReceiver } from './callback-receiver';
import { BIOMETRIC, NID, crId, useHarness } from './harness';

const h = useHarness({ callbackRetryBaseMs: 20 });
const hooks = useReceiver(h);

describe('status callbacks to a failing endpoint', () => {
  it('wait the base delay, doubling, before each new attempt', async () => {
    await hooks.register('authorization');
    hooks.receiver.failures = 2;
    const id = await crId(h.hospital, NID.covered);
    await h.hospital.post('/api/v1/claims/authorize', { patient_id: id, interventions: ['SHA-02-001'], service_type: 'CAPITATION', ...BIOMETRIC });
    const event = await until('a delivered retry', async () => {
      const events = (await h.control.get('/sandbox/events')).body as any[];
      return events[0]?.outcome === 'delivered' ? events[0] : undefined;
    });
    const gaps = event.attempts.slice(1).map((a: any, i: number) => Date.parse(a.at) - Date.parse(event.attempts[i].at));
    // Base 20 ms, doubling: the waits before attempts 2 and 3 are at least 20 and 40 ms.
    expect(gaps[0]).toBeGreaterThanOrEqual(20);
    expect(gaps[1]).toBeGreaterThanOrEqual(40);
  });
});
