// The wait before a retry of a read: exponential, capped, jittered, and Retry-After within bounds.
// The HTTP tests (client-transport.test.ts) only see lower bounds of the waits; here the jitter
// and the doubling are pinned down.
import { describe, expect, it } from 'vitest';
import { backoffDelay, retryDelay, type RetryPolicy } from '../../../electron/payer/retry';

const policy: RetryPolicy = { attempts: 5, baseDelayMs: 200, maxDelayMs: 1_000 };

describe('backoff', () => {
  it('doubles the step per retry up to maxDelayMs, half of it fixed and half random', () => {
    const low = [1, 2, 3, 4].map((n) => backoffDelay(n, policy, () => 0));
    const high = [1, 2, 3, 4].map((n) => backoffDelay(n, policy, () => 1));
    expect(low).toEqual([100, 200, 400, 500]);
    expect(high).toEqual([200, 400, 800, 1_000]);
  });

  it('jitters the waits the client actually uses, so stations do not retry in step', () => {
    const waits = Array.from({ length: 50 }, () => retryDelay(1, policy, undefined));
    for (const wait of waits) {
      expect(wait).toBeGreaterThanOrEqual(100);
      expect(wait).toBeLessThanOrEqual(200);
    }
    expect(new Set(waits).size).toBeGreaterThan(1);
  });

  it('takes a Retry-After within maxDelayMs as the wait, and gives up on a longer one', () => {
    expect(retryDelay(1, policy, 750)).toBe(750);
    expect(retryDelay(1, policy, 1_001)).toBeUndefined();
  });
});
