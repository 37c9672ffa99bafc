// Retries, deadlines, aborts, keep-alive and telemetry, against a real HTTP server.
import { describe, expect, it } from 'vitest';
import { createExchangeClient, ExchangeError, type ExchangeEvent } from '../../../electron/payer';
import { useScriptedClient } from './helpers/scripted-client';
import { exchangeError } from './helpers/scripted-exchange';

const eligibilityAnswer = {
  status: 200,
  json: { statusCode: '10', memberCrNumber: 'CR1', fullName: 'Wanjiku Kamau', schemes: [{ schemeName: 'SHIF', coverage: { status: 1 } }] },
};
const eligibilityQuery = { identification_number: '30000001', identification_type: 'National ID' } as const;
const submitInput = {
  consent_token: 'CT-1',
  invoice_number: 'INV-1',
  discharge_reason: 'RECOVERED',
  otp: '123456',
} as const;

const setup = useScriptedClient({ attempts: 3, baseDelayMs: 40, maxDelayMs: 400 });

/**
 * Whether the promise settles before a timer of `ms`, set now, fires. Timers fire in the order they
 * fall due, so this orders two events in this process without reading the clock: the answer is the
 * same on a quiet machine and a busy one.
 */
function settlesBefore(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const settled = promise.then(
    () => true,
    () => true,
  );
  return Promise.race([settled, late]).finally(() => clearTimeout(timer));
}

async function failure(promise: Promise<unknown>): Promise<ExchangeError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ExchangeError)) throw new Error(`expected an ExchangeError, got ${String(error)}`);
  return error;
}

describe('retries', () => {
  it('gives up after the configured number of tries with the last answer', async () => {
    const { exchange, client } = await setup({
      routes: { 'GET /api/v1/patients/eligibility': () => exchangeError(502, 'BAD_GATEWAY', 'upstream down') },
    });
    const error = await failure(client.eligibility.check(eligibilityQuery));
    expect(error).toMatchObject({ kind: 'server', status: 502, code: 'BAD_GATEWAY', outcomeUnknown: true });
    expect(exchange.requests).toHaveLength(3);
  });

  it('retries a GET whose connection was dropped', async () => {
    const { exchange, client } = await setup({
      routes: { 'GET /api/v1/patients/eligibility': (_r, n) => (n === 1 ? { drop: true } : eligibilityAnswer) },
    });
    await expect(client.eligibility.check(eligibilityQuery)).resolves.toMatchObject({ crNumber: 'CR1' });
    expect(exchange.requests).toHaveLength(2);
  });

  it('retries a read-only POST (claims/preview) declared safe to repeat', async () => {
    const { exchange, client } = await setup({
      routes: {
        'POST /api/v1/claims/preview': (_r, n) =>
          n === 1
            ? exchangeError(504, 'GATEWAY_TIMEOUT', 'slow')
            : { status: 200, json: { authorization_code: 'CT-1', workflow_state: 'draft', invoices: [], claim_diagnoses: [], claim_attachments: [], total_claim_amount: 0 } },
      },
    });
    await expect(client.claims.preview({ consent_token: 'CT-1' })).resolves.toMatchObject({ consentToken: 'CT-1', workflowState: 'DRAFT' });
    expect(exchange.requests).toHaveLength(2);
  });

  it('never retries a state-changing POST on 503', async () => {
    const { exchange, client } = await setup({
      routes: { 'POST /api/v1/claims/submit': () => exchangeError(503, 'SERVICE_UNAVAILABLE', 'try later') },
    });
    const error = await failure(client.claims.submit(submitInput));
    expect(error).toMatchObject({ kind: 'server', status: 503, operation: 'claims.submit' });
    expect(exchange.requests).toHaveLength(1);
  });

  it('never retries a state-changing POST whose connection dropped, and says the outcome is unknown', async () => {
    const { exchange, client } = await setup({ routes: { 'POST /api/v1/claims/submit': () => ({ drop: true }) } });
    const error = await failure(client.claims.submit(submitInput));
    expect(error.kind).toBe('network');
    expect(error.outcomeUnknown).toBe(true);
    expect(exchange.requests).toHaveLength(1);
  });

  it('does not retry a 500 or a 4xx even for a read', async () => {
    const { exchange, client } = await setup({
      routes: { 'GET /api/v1/patients/eligibility': () => exchangeError(500, 'INTERNAL', 'boom') },
    });
    await expect(client.eligibility.check(eligibilityQuery)).rejects.toMatchObject({ kind: 'server', status: 500 });
    expect(exchange.requests).toHaveLength(1);
  });

  it('gives up at once when Retry-After asks for longer than it would wait', async () => {
    const { exchange, client } = await setup({
      routes: {
        'GET /api/v1/patients/eligibility': () => ({ status: 503, headers: { 'retry-after': '120' }, json: { error: 'SERVICE_UNAVAILABLE', message: 'maintenance' } }),
      },
    });
    const error = await failure(client.eligibility.check(eligibilityQuery));
    expect(error).toMatchObject({ kind: 'server', retryAfterMs: 120_000 });
    expect(exchange.requests).toHaveLength(1);
  });

  it('reports a refused connection as network, known not to have been sent', async () => {
    const { exchange } = await setup({});
    const url = exchange.url;
    await exchange.close();
    const offline = createExchangeClient({
      baseUrl: url,
      credentials: { clientId: 'a', clientSecret: 'b' },
      retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 5 },
    });
    const error = await failure(offline.registry.findPatient({ identification_number: '1', identification_type: 'National ID' }));
    await offline.close();
    expect(error.kind).toBe('network');
    expect(error.outcomeUnknown).toBe(false);
  });
});

describe('deadlines and aborts', () => {
  it('times out a call that gets no answer (kind timeout)', async () => {
    const { client } = await setup({ routes: { 'GET /api/v1/patients/eligibility': () => ({ hang: true }) } });
    const error = await failure(client.eligibility.check(eligibilityQuery, { timeoutMs: 150 }));
    // The call's own deadline, not the client's 20 s default, ended it.
    expect(error).toMatchObject({ kind: 'timeout', operation: 'eligibility.check', outcomeUnknown: true, message: 'no answer within 150 ms' });
  });

  it('bounds the whole call, retries included, by one deadline', async () => {
    const { exchange, client } = await setup(
      { routes: { 'GET /api/v1/patients/eligibility': () => exchangeError(503, 'SERVICE_UNAVAILABLE', 'x') } },
      { retry: { attempts: 10, baseDelayMs: 100, maxDelayMs: 100 } },
    );
    const error = await failure(client.eligibility.check(eligibilityQuery, { timeoutMs: 250 }));
    // It stops retrying when the next wait cannot end before the deadline.
    expect(['server', 'timeout']).toContain(error.kind);
    expect(exchange.requests.length).toBeLessThan(5);
  });

  it('applies the client-wide default timeout', async () => {
    const { client } = await setup({ routes: { 'POST /api/v1/claims/preview': () => ({ hang: true }) } }, { timeoutMs: 120 });
    await expect(client.claims.preview({ consent_token: 'CT' })).rejects.toMatchObject({ kind: 'timeout' });
  });

  it('rejects with kind aborted when the caller aborts in flight, and does not retry', async () => {
    const { exchange, client } = await setup({ routes: { 'GET /api/v1/patients/eligibility': () => ({ hang: true }) } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('nurse cancelled')), 80);
    const error = await failure(client.eligibility.check(eligibilityQuery, { signal: controller.signal }));
    expect(error).toMatchObject({ kind: 'aborted', message: 'aborted by the caller', outcomeUnknown: true });
    expect(exchange.requests).toHaveLength(1);
  });

  it('sends nothing when the signal is already aborted', async () => {
    const { exchange, client } = await setup({ routes: { 'POST /api/v1/claims/submit': () => ({ status: 200, json: {} }) } });
    const error = await failure(client.claims.submit(submitInput, { signal: AbortSignal.abort() }));
    expect(error).toMatchObject({ kind: 'aborted', outcomeUnknown: false });
    expect(exchange.requests).toHaveLength(0);
    expect(exchange.tokenRequests).toHaveLength(0);
  });

  it('sends nothing, and says so, when aborted before the call while a token is held', async () => {
    const { exchange, client } = await setup({ routes: { 'GET /api/v1/patients/eligibility': () => eligibilityAnswer } });
    await client.eligibility.check(eligibilityQuery);
    const error = await failure(client.claims.submit(submitInput, { signal: AbortSignal.abort() }));
    expect(error).toMatchObject({ kind: 'aborted', outcomeUnknown: false });
    expect(exchange.to('POST /api/v1/claims/submit')).toHaveLength(0);
  });

  it('lets one caller abort while waiting for the shared token without spoiling it for others', async () => {
    const { exchange, client } = await setup({
      token: (_r, n) => ({ status: 201, delayMs: 150, json: { access_token: `token-${n}`, expires_in: 3600 } }),
      routes: { 'GET /api/v1/patients/eligibility': () => eligibilityAnswer },
    });
    const controller = new AbortController();
    const aborted = client.eligibility.check(eligibilityQuery, { signal: controller.signal });
    const patient = client.eligibility.check(eligibilityQuery);
    setTimeout(() => controller.abort(), 30);
    await expect(aborted).rejects.toMatchObject({ kind: 'aborted' });
    await expect(patient).resolves.toMatchObject({ covered: true });
    expect(exchange.tokenRequests).toHaveLength(1);
    expect(exchange.requests).toHaveLength(1);
  });

  it('times out the call with the earliest deadline while a later one is still under way', async () => {
    const { client } = await setup({
      routes: {
        'GET /api/v1/patients/eligibility': () => ({ ...eligibilityAnswer, delayMs: 300 }),
        'POST /api/v1/claims/preview': () => ({ hang: true }),
      },
    });
    await client.auth.authenticate();
    const finished: string[] = [];
    const slow = client.eligibility.check(eligibilityQuery, { timeoutMs: 5_000 }).finally(() => finished.push('slow'));
    await expect(client.claims.preview({ consent_token: 'CT' }, { timeoutMs: 100 })).rejects.toMatchObject({ kind: 'timeout', message: 'no answer within 100 ms' });
    // Its 100 ms came before the exchange's 300 ms answer to the other: the later deadline did not hold it up.
    expect(finished).toEqual([]);
    await expect(slow).resolves.toMatchObject({ covered: true });
  });

  it('keeps every deadline after earlier ones have fired', async () => {
    const { client } = await setup({ routes: { 'POST /api/v1/claims/preview': () => ({ hang: true }) } });
    for (const timeoutMs of [120, 60, 90]) {
      await expect(client.claims.preview({ consent_token: 'CT' }, { timeoutMs })).rejects.toMatchObject({ kind: 'timeout', message: `no answer within ${timeoutMs} ms` });
    }
  });

  it('aborts a retry wait as soon as the caller aborts', async () => {
    const { client } = await setup(
      { routes: { 'GET /api/v1/patients/eligibility': () => exchangeError(503, 'SERVICE_UNAVAILABLE', 'x') } },
      { retry: { attempts: 3, baseDelayMs: 5_000, maxDelayMs: 5_000 }, timeoutMs: 20_000 },
    );
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const call = client.eligibility.check(eligibilityQuery, { signal: controller.signal });
    // Settled before the 5 s wait would have ended on its own: the abort cut it short.
    expect(await settlesBefore(call, 4_000)).toBe(true);
    await expect(call).rejects.toMatchObject({ kind: 'aborted' });
  });
});

describe('connections, base URL and closing', () => {
  it('reuses one keep-alive connection for sequential calls', async () => {
    const { exchange, client } = await setup({ routes: { 'GET /api/v1/patients/eligibility': () => eligibilityAnswer } });
    await client.eligibility.check(eligibilityQuery);
    const afterFirstCall = exchange.connections();
    for (let i = 0; i < 5; i += 1) await client.eligibility.check(eligibilityQuery);
    expect(exchange.connections()).toBe(afterFirstCall);
    expect(afterFirstCall).toBeLessThanOrEqual(2);
  });

  it('keeps a path prefix of the base URL', async () => {
    const { exchange } = await setup({ routes: { 'GET /gateway/api/v1/patients/eligibility': () => eligibilityAnswer } });
    const prefixed = createExchangeClient({ baseUrl: `${exchange.url}/gateway/`, credentials: { clientId: 'a', clientSecret: 'b' } });
    // The token endpoint lives under the prefix too; the scripted server answers it only at the root.
    await expect(prefixed.eligibility.check(eligibilityQuery)).rejects.toMatchObject({ operation: 'auth.token', kind: 'not_found' });
    await prefixed.close();
    expect(exchange.requests.map((r) => r.path)).toEqual(['/gateway/api/v1/tenants/token']);
  });

  it('refuses an answer larger than maxResponseBytes as malformed, and stays usable', async () => {
    const { client } = await setup(
      {
        routes: {
          'GET /api/v1/patients/eligibility': (_r, n) =>
            n === 1 ? { status: 200, json: { ...eligibilityAnswer.json, padding: 'x'.repeat(64 * 1024) } } : eligibilityAnswer,
        },
      },
      { maxResponseBytes: 16 * 1024 },
    );
    await expect(client.eligibility.check(eligibilityQuery)).rejects.toMatchObject({ kind: 'malformed_response', message: /larger than the client accepts/ });
    await expect(client.eligibility.check(eligibilityQuery)).resolves.toMatchObject({ covered: true });
  });

  it('a write answered 2xx unreadably has an unknown outcome (the exchange did it), a read stays a plain malformed answer', async () => {
    const { client } = await setup({
      routes: {
        'POST /api/v1/claims/submit': () => ({ status: 200, text: '<html>gateway page</html>', headers: { 'content-type': 'text/html' } }),
        'GET /api/v1/patients/eligibility': () => ({ status: 200, text: '<html>gateway page</html>', headers: { 'content-type': 'text/html' } }),
      },
    });
    const write = await failure(client.claims.submit(submitInput));
    expect(write).toMatchObject({ kind: 'malformed_response', operation: 'claims.submit', outcomeUnknown: true });
    const read = await failure(client.eligibility.check(eligibilityQuery));
    expect(read).toMatchObject({ kind: 'malformed_response', operation: 'eligibility.check', outcomeUnknown: false });
  });

  it('refuses calls after close()', async () => {
    const { client } = await setup({});
    await client.close();
    await expect(client.eligibility.check(eligibilityQuery)).rejects.toMatchObject({ kind: 'network', message: /closed/ });
  });

  it('refuses a base URL that is not http(s)', () => {
    expect(() => createExchangeClient({ baseUrl: 'ftp://x', credentials: { clientId: 'a', clientSecret: 'b' } })).toThrow(/baseUrl/);
    expect(() => createExchangeClient({ baseUrl: 'not a url', credentials: { clientId: 'a', clientSecret: 'b' } })).toThrow(/baseUrl/);
  });
});

describe('telemetry', () => {
  it('reports every attempt with template paths and no secrets, tokens, OTPs or names', async () => {
    const events: ExchangeEvent[] = [];
    const { client } = await setup(
      {
        token: (_r, n) => ({ status: 201, json: { access_token: `SECRET-TOKEN-${n}`, expires_in: 3600 } }),
        routes: {
          'GET /api/v1/patients/eligibility': () => ({ ...eligibilityAnswer, headers: { 'x-trace-id': 'trace-abc' } }),
          'POST /api/v1/claims/authorizations/CONSENT-TOKEN-9/reject': (_r, n) =>
            n === 1 ? exchangeError(401, 'TOKEN_EXPIRED', 'expired') : { status: 200, json: { message: 'rejected' } },
          'POST /api/v1/claims/submit': () => exchangeError(422, 'NO_DOCTOR_ATTACHED', 'attach a doctor first'),
        },
      },
      { onEvent: (e) => events.push(e), credentials: { clientId: 'demo-hospital', clientSecret: 'CLIENT-SECRET' } },
    );
    await client.eligibility.check(eligibilityQuery);
    await client.consent.rejectAuthorization({ token: 'CONSENT-TOKEN-9' });
    await client.claims.submit({ ...submitInput, otp: '654321' }).catch(() => undefined);

    expect(events.map((e) => [e.operation, e.path, e.status, e.attempt, e.replay, e.outcome])).toEqual([
      ['auth.token', '/api/v1/tenants/token', 201, 1, false, 'ok'],
      ['eligibility.check', '/api/v1/patients/eligibility', 200, 1, false, 'ok'],
      ['consent.rejectAuthorization', '/api/v1/claims/authorizations/{token}/reject', 401, 1, false, 'error'],
      ['auth.token', '/api/v1/tenants/token', 201, 1, false, 'ok'],
      ['consent.rejectAuthorization', '/api/v1/claims/authorizations/{token}/reject', 200, 2, true, 'ok'],
      ['claims.submit', '/api/v1/claims/submit', 422, 1, false, 'error'],
    ]);
    expect(events[1]).toMatchObject({ method: 'GET', traceId: 'trace-abc', errorKind: undefined });
    expect(events[5]).toMatchObject({ errorKind: 'rule_violation', errorCode: 'NO_DOCTOR_ATTACHED' });
    for (const e of events) expect(e.durationMs).toBeGreaterThanOrEqual(0);
    const logged = JSON.stringify(events);
    for (const secret of ['SECRET-TOKEN', 'CLIENT-SECRET', 'CONSENT-TOKEN-9', '654321', 'Wanjiku', '30000001', 'CT-1']) {
      expect(logged).not.toContain(secret);
    }
  });

  it('keeps calling the exchange when the listener throws', async () => {
    const { client } = await setup(
      { routes: { 'GET /api/v1/patients/eligibility': () => eligibilityAnswer } },
      {
        onEvent: () => {
          throw new Error('logger broke');
        },
      },
    );
    await expect(client.eligibility.check(eligibilityQuery)).resolves.toMatchObject({ covered: true });
  });
});
