// The bearer token: single flight, refresh before expiry, exactly one replay on expiry, headers.
import { describe, expect, it } from 'vitest';
import { createExchangeClient, ExchangeError } from '../../../electron/payer';
import { useScriptedClient } from './helpers/scripted-client';
import { exchangeError } from './helpers/scripted-exchange';

const patient = { status: 200, json: { id: 'CR123', identification_number: '30000001', identification_type: 'National ID' } };
const lookup = { identification_number: '30000001', identification_type: 'National ID' } as const;

const setup = useScriptedClient({ attempts: 3, baseDelayMs: 5, maxDelayMs: 50 });

describe('token', () => {
  it('asks for it form-encoded with client credentials and sends it as a bearer', async () => {
    const { exchange, client } = await setup({ routes: { 'GET /api/v1/patients': () => patient } });
    await expect(client.registry.findPatient(lookup)).resolves.toEqual({
      id: 'CR123',
      identificationNumber: '30000001',
      identificationType: 'National ID',
    });
    const [tokenRequest] = exchange.tokenRequests;
    expect(tokenRequest?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(tokenRequest?.text))).toEqual({
      client_id: 'demo-hospital',
      client_secret: 'demo-hospital-secret',
      grant_type: 'client_credentials',
    });
    expect(exchange.requests[0]?.headers.authorization).toBe('Bearer token-1');
    expect(exchange.requests[0]?.query.get('identification_type')).toBe('National ID');
  });

  it('accepts 200 as well as 201 from the token endpoint', async () => {
    const { exchange, client } = await setup({
      token: () => ({ status: 200, json: { access_token: 'ok-200', expires_in: '3600', token_type: 'Bearer' } }),
      routes: { 'GET /api/v1/patients': () => patient },
    });
    await client.registry.findPatient(lookup);
    expect(exchange.requests[0]?.headers.authorization).toBe('Bearer ok-200');
  });

  it('is fetched once for many concurrent calls (single flight)', async () => {
    const { exchange, client } = await setup({
      token: (_r, n) => ({ status: 201, delayMs: 50, json: { access_token: `token-${n}`, expires_in: 3600, token_type: 'Bearer' } }),
      routes: { 'GET /api/v1/patients': () => patient },
    });
    await Promise.all(Array.from({ length: 12 }, () => client.registry.findPatient(lookup)));
    expect(exchange.tokenRequests).toHaveLength(1);
    expect(exchange.requests).toHaveLength(12);
    expect(new Set(exchange.requests.map((r) => r.headers.authorization))).toEqual(new Set(['Bearer token-1']));
  });

  it('is reused while it has lifetime left and refreshed before it expires', async () => {
    let now = 1_000_000;
    const { exchange, client } = await setup(
      {
        token: (_r, n) => ({ status: 201, json: { access_token: `token-${n}`, expires_in: 600, token_type: 'Bearer' } }),
        routes: { 'GET /api/v1/patients': () => patient },
      },
      { now: () => now, tokenRefreshMarginMs: 60_000 },
    );
    await client.registry.findPatient(lookup);
    now += 500_000; // 100 s left: more than the 60 s margin
    await client.registry.findPatient(lookup);
    expect(exchange.tokenRequests).toHaveLength(1);
    now += 45_000; // 55 s left: inside the margin, still valid, replaced before use
    await client.registry.findPatient(lookup);
    expect(exchange.tokenRequests).toHaveLength(2);
    expect(exchange.requests.map((r) => r.headers.authorization)).toEqual(['Bearer token-1', 'Bearer token-1', 'Bearer token-2']);
  });

  it('replays a call exactly once after 401 TOKEN_EXPIRED, with a new token', async () => {
    const { exchange, client } = await setup({
      routes: {
        'GET /api/v1/patients': (_r, n) => (n === 1 ? exchangeError(401, 'TOKEN_EXPIRED', 'the token has expired') : patient),
      },
    });
    await expect(client.registry.findPatient(lookup)).resolves.toMatchObject({ id: 'CR123' });
    expect(exchange.tokenRequests).toHaveLength(2);
    expect(exchange.requests.map((r) => r.headers.authorization)).toEqual(['Bearer token-1', 'Bearer token-2']);
  });

  it('replays a state-changing call too: the exchange refused it before acting', async () => {
    const { exchange, client } = await setup({
      routes: {
        'POST /api/v1/claims/preview': () => ({ status: 200, json: { consent_token: 'CT-1' } }),
        'POST /api/v1/claims/otp': (_r, n) =>
          n === 1
            ? { status: 403, json: { error: 'Forbidden', message: 'Token expired, please re-authenticate' } }
            : { status: 200, json: { message: 'sent', contact: '+254714***898', expires_in: 300 } },
      },
    });
    await expect(client.consent.sendOtp({ patient_id: 'CR1', intervention_codes: ['SHA-02-001'] })).resolves.toEqual({
      message: 'sent',
      contact: '+254714***898',
      expiresInSeconds: 300,
    });
    expect(exchange.to('POST /api/v1/claims/otp')).toHaveLength(2);
  });

  it('does not loop when the replay is refused as expired again', async () => {
    const { exchange, client } = await setup({
      routes: { 'GET /api/v1/patients': () => exchangeError(401, 'TOKEN_EXPIRED', 'the token has expired') },
    });
    const error = await client.registry.findPatient(lookup).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExchangeError);
    expect(error).toMatchObject({ kind: 'unauthorized', status: 401, code: 'TOKEN_EXPIRED', operation: 'registry.findPatient' });
    expect(exchange.requests).toHaveLength(2);
    expect(exchange.tokenRequests).toHaveLength(2);
  });

  it('does not replay a 403 without a tenant context: that is not expiry', async () => {
    const { exchange, client } = await setup({
      routes: {
        'GET /api/v1/patients': () => ({
          status: 403,
          json: { error: 'Forbidden - Tenant context required', message: 'token missing required tenant_id claim' },
        }),
      },
    });
    await expect(client.registry.findPatient(lookup)).rejects.toMatchObject({
      kind: 'forbidden',
      status: 403,
      code: undefined,
      message: 'Forbidden - Tenant context required: token missing required tenant_id claim',
    });
    expect(exchange.requests).toHaveLength(1);
    expect(exchange.tokenRequests).toHaveLength(1);
  });

  // Issue 20, defect 7: a token with a line break, or a lifetime below zero, was taken as a sign-in
  // and every later call then failed as "the exchange cannot be reached".
  it.each([
    ['a line break in the token', { access_token: 'eyJhbGci.part\r\nX-Injected: 1', expires_in: 3600 }, 'access_token'],
    ['a space in the token', { access_token: 'two words', expires_in: 3600 }, 'access_token'],
    ['an empty token', { access_token: '', expires_in: 3600 }, 'access_token'],
    ['a negative lifetime', { access_token: 'token-ok', expires_in: -60 }, 'expires_in'],
    ['a lifetime of zero', { access_token: 'token-ok', expires_in: '0' }, 'expires_in'],
  ])('refuses an answer it cannot use (%s) as malformed, naming the field, and sends nothing with it', async (_what, json, field) => {
    const { exchange, client } = await setup({ token: () => ({ status: 201, json }), routes: { 'GET /api/v1/patients': () => patient } });
    await expect(client.auth.authenticate()).rejects.toMatchObject({ kind: 'malformed_response', operation: 'auth.token', field });
    await expect(client.registry.findPatient(lookup)).rejects.toMatchObject({ kind: 'malformed_response', operation: 'auth.token', field });
    expect(exchange.requests).toHaveLength(0);
  });

  it('still assumes a short lifetime when the answer gives none', async () => {
    let now = 1_000_000;
    const { exchange, client } = await setup(
      { token: (_r, n) => ({ status: 201, json: { access_token: `token-${n}` } }), routes: { 'GET /api/v1/patients': () => patient } },
      { now: () => now, tokenRefreshMarginMs: 60_000 },
    );
    await client.registry.findPatient(lookup);
    now += 200_000; // 100 s left of the assumed 300: outside the margin
    await client.registry.findPatient(lookup);
    expect(exchange.tokenRequests).toHaveLength(1);
    now += 60_000;
    await client.registry.findPatient(lookup);
    expect(exchange.tokenRequests).toHaveLength(2);
  });

  it('reports wrong credentials as unauthorized from auth.token, without calling the operation', async () => {
    const { exchange, client } = await setup({
      token: () => exchangeError(401, 'INVALID_CLIENT', 'wrong client_id or client_secret'),
      routes: { 'GET /api/v1/patients': () => patient },
    });
    await expect(client.registry.findPatient(lookup)).rejects.toMatchObject({
      kind: 'unauthorized',
      code: 'INVALID_CLIENT',
      operation: 'auth.token',
    });
    await expect(client.auth.authenticate()).rejects.toMatchObject({ code: 'INVALID_CLIENT' });
    expect(exchange.requests).toHaveLength(0);
    expect(exchange.tokenRequests).toHaveLength(2);
  });

  it('sends the facility headers when configured, and none otherwise', async () => {
    const { exchange, client } = await setup(
      { routes: { 'GET /api/v1/patients': () => patient } },
      { facility: { id: 'FID-00-000004-0', idType: 'fr-code' } },
    );
    await client.registry.findPatient(lookup);
    expect(exchange.requests[0]?.headers['x-facility-id']).toBe('FID-00-000004-0');
    expect(exchange.requests[0]?.headers['x-facility-id-type']).toBe('fr-code');
    expect(exchange.tokenRequests[0]?.headers['x-facility-id']).toBeUndefined();

    const bare = createExchangeClient({ baseUrl: exchange.url, credentials: { clientId: 'a', clientSecret: 'b' } });
    await bare.registry.findPatient(lookup);
    await bare.close();
    expect(exchange.requests[1]?.headers['x-facility-id']).toBeUndefined();
    expect(exchange.requests[1]?.headers['x-facility-id-type']).toBeUndefined();
  });

  it('defaults the facility id type to fr-code', async () => {
    const { exchange, client } = await setup({ routes: { 'GET /api/v1/patients': () => patient } }, { facility: { id: 'FID-00-000002-0' } });
    await client.registry.findPatient(lookup);
    expect(exchange.requests[0]?.headers['x-facility-id-type']).toBe('fr-code');
  });

  it('authenticate() fetches a fresh token now', async () => {
    const { exchange, client } = await setup({});
    await client.auth.authenticate();
    await client.auth.authenticate();
    expect(exchange.tokenRequests).toHaveLength(2);
  });
});
