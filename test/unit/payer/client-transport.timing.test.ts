// The client's retry waits measured on the wall clock (the timing group: one file at a time, with
// nothing else of the suite beside it). How long each wait should be is pinned without a clock in
// retry.test.ts; here the client is seen to wait that long before it asks again.
import { describe, expect, it } from 'vitest';
import { useScriptedClient } from './helpers/scripted-client';
import { exchangeError } from './helpers/scripted-exchange';

const eligibilityAnswer = {
  status: 200,
  json: { statusCode: '10', memberCrNumber: 'CR1', fullName: 'Wanjiku Kamau', schemes: [{ schemeName: 'SHIF', coverage: { status: 1 } }] },
};
const eligibilityQuery = { identification_number: '30000001', identification_type: 'National ID' } as const;

const setup = useScriptedClient({ attempts: 3, baseDelayMs: 40, maxDelayMs: 400 });

describe('retry waits', () => {
  it('retries a GET on 503 with growing, jittered waits, then succeeds', async () => {
    const { exchange, client } = await setup({
      routes: {
        'GET /api/v1/patients/eligibility': (_r, n) => (n < 3 ? exchangeError(503, 'SERVICE_UNAVAILABLE', 'try later') : eligibilityAnswer),
      },
    });
    await expect(client.eligibility.check(eligibilityQuery)).resolves.toMatchObject({ found: true, covered: true });
    const times = exchange.requests.map((r) => r.receivedAt);
    expect(times).toHaveLength(3);
    // Equal jitter: the first wait is at least half of 40 ms, the second at least half of 80 ms.
    expect((times[1] ?? 0) - (times[0] ?? 0)).toBeGreaterThanOrEqual(18);
    expect((times[2] ?? 0) - (times[1] ?? 0)).toBeGreaterThanOrEqual(38);
  });

  it('honours Retry-After when it is within the longest wait', async () => {
    const { exchange, client } = await setup({
      routes: {
        'GET /api/v1/patients/eligibility': (_r, n) =>
          n === 1 ? { status: 503, headers: { 'retry-after': '0.2' }, json: { error: 'SERVICE_UNAVAILABLE', message: 'busy' } } : eligibilityAnswer,
      },
    });
    await client.eligibility.check(eligibilityQuery);
    const [first, second] = exchange.requests;
    expect((second?.receivedAt ?? 0) - (first?.receivedAt ?? 0)).toBeGreaterThanOrEqual(190);
  });
});
