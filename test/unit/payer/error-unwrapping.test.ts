// Every way the exchange words an error becomes one ExchangeError (docs/exchange-wire.md, "Errors").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExchangeError} from '../../../electron/payer';
import { createExchangeClient, type ExchangeClient } from '../../../electron/payer';
import { errorFromResponse, isExpiredTokenError, parseRetryAfter } from '../../../electron/payer/error-body';
import { startScriptedExchange, type Answer, type ScriptedExchange } from './helpers/scripted-exchange';

function unwrap(status: number, body: unknown, headers: Record<string, string> = {}): ExchangeError {
  const bodyText = typeof body === 'string' ? body : JSON.stringify(body);
  return errorFromResponse({ status, headers, bodyText, operation: 'test.op' });
}

describe('errorFromResponse', () => {
  it('reads the documented body {error, message, trace_id, details}', () => {
    const e = unwrap(400, {
      error: 'VALIDATION_ERROR',
      message: 'invalid request',
      trace_id: 'tr-1',
      details: [{ field: 'discharge_reason', message: 'must be one of RECOVERED, REFERRED, ABSCONDED, OTHER' }],
    });
    expect(e).toMatchObject({
      kind: 'validation',
      status: 400,
      code: 'VALIDATION_ERROR',
      message: 'invalid request',
      traceId: 'tr-1',
      field: 'discharge_reason',
      operation: 'test.op',
    });
    expect(e.details).toEqual([{ field: 'discharge_reason', message: 'must be one of RECOVERED, REFERRED, ABSCONDED, OTHER' }]);
  });

  it("takes the live gateway's X-Request-Id as the trace id when the body and X-Trace-Id carry none", () => {
    // R WORKFLOWS §9: APISIX puts x-request-id on every answer; the body's trace_id wins when present.
    expect(unwrap(400, { error: 'Bad Request', message: 'missing patient_id' }, { 'x-request-id': 'req-7' })).toMatchObject({ traceId: 'req-7', message: 'Bad Request: missing patient_id' });
    expect(unwrap(400, { error: 'Bad Request', message: 'x', trace_id: 'tr-9' }, { 'x-request-id': 'req-7' })).toMatchObject({ traceId: 'tr-9' });
    expect(unwrap(500, 'upstream down', { 'x-trace-id': 'tr-s', 'x-request-id': 'req-8' })).toMatchObject({ traceId: 'tr-s' });
  });

  it('unwraps error holding a JSON-encoded {error, message}', () => {
    const e = unwrap(422, { error: JSON.stringify({ error: 'BIOMETRICS_REQUIRED', message: 'biometrics are enforced here' }), trace_id: 'tr-2' });
    expect(e).toMatchObject({ kind: 'rule_violation', code: 'BIOMETRICS_REQUIRED', message: 'biometrics are enforced here', traceId: 'tr-2' });
  });

  it('unwraps a doubly encoded error string', () => {
    const inner = JSON.stringify({ error: 'INVALID_OTP', message: 'the code is wrong' });
    const e = unwrap(422, { error: JSON.stringify({ error: inner }) });
    expect(e).toMatchObject({ code: 'INVALID_OTP', message: 'the code is wrong' });
  });

  it('reads a bare {field: ["msg"]} map as validation naming the first field', () => {
    const e = unwrap(400, { intervention_code: ['This field is required.'], quantity: ['Must be positive.', 'Must be an integer.'] });
    expect(e).toMatchObject({ kind: 'validation', field: 'intervention_code', code: undefined });
    expect(e.message).toBe('intervention_code: This field is required.; quantity: Must be positive.; Must be an integer.');
    expect(e.details).toHaveLength(2);
  });

  it('reads a validation failure answered 500 as validation', () => {
    expect(unwrap(500, { service_type: ['"DAYCASE" is not a valid choice.'] })).toMatchObject({ kind: 'validation', field: 'service_type', status: 500 });
    expect(unwrap(500, { error: 'VALIDATION_ERROR', message: 'bad' })).toMatchObject({ kind: 'validation' });
  });

  it('reads a message that is itself a field map or a list', () => {
    expect(unwrap(400, { error: 'Bad Request', message: { otp: ['required'] } })).toMatchObject({ kind: 'validation', field: 'otp' });
    expect(unwrap(400, { message: ['otp must be 6 digits', 'patient_id is required'] }).message).toBe('otp must be 6 digits; patient_id is required');
  });

  it('keeps a human error title with the message when error is not a code', () => {
    const e = unwrap(403, { error: 'Forbidden - Tenant context required', message: 'token missing required tenant_id claim' });
    expect(e).toMatchObject({ kind: 'forbidden', code: undefined, message: 'Forbidden - Tenant context required: token missing required tenant_id claim' });
  });

  it('keeps the details of rule and conflict codes', () => {
    const fallback = unwrap(422, {
      error: 'BIOMETRICS_NOT_FOUND_OTP_ALLOWED',
      message: 'fingerprints unusable; OTP allowed',
      details: [{ otp_allowed_until: '2025-01-01T10:15:00Z' }],
    });
    expect(fallback).toMatchObject({ kind: 'rule_violation', code: 'BIOMETRICS_NOT_FOUND_OTP_ALLOWED' });
    expect(fallback.details).toEqual([{ otp_allowed_until: '2025-01-01T10:15:00Z' }]);

    const pending = unwrap(409, { error: 'PENDING_AUTHORIZATION_EXISTS', message: 'reject it first', details: [{ guid: 'g', token: 't', expiry: 'x' }] });
    expect(pending).toMatchObject({ kind: 'conflict', code: 'PENDING_AUTHORIZATION_EXISTS', field: undefined });
    expect(pending.details?.[0]).toMatchObject({ guid: 'g', token: 't' });
  });

  it('serialises for logs without its details, which may hold a pending token', () => {
    const pending = unwrap(409, { error: 'PENDING_AUTHORIZATION_EXISTS', message: 'reject it first', details: [{ guid: 'g', token: 'SECRET-TOKEN' }] });
    expect(pending.details?.[0]?.token).toBe('SECRET-TOKEN');
    const logged = JSON.stringify(pending);
    expect(logged).not.toContain('SECRET-TOKEN');
    expect(JSON.parse(logged)).toMatchObject({ name: 'ExchangeError', kind: 'conflict', code: 'PENDING_AUTHORIZATION_EXISTS', status: 409 });
  });

  it('maps statuses to kinds', () => {
    const kinds = [400, 401, 403, 404, 408, 409, 413, 415, 422, 429, 500, 502, 503, 504, 302].map((s) => unwrap(s, { message: 'x' }).kind);
    expect(kinds).toEqual([
      'validation',
      'unauthorized',
      'forbidden',
      'not_found',
      'timeout',
      'conflict',
      'validation',
      'validation',
      'rule_violation',
      'server',
      'server',
      'server',
      'server',
      'server',
      'malformed_response',
    ]);
  });

  it('says a 500 or a gateway failure leaves the outcome unknown, a refusal does not', () => {
    expect(unwrap(500, {}).outcomeUnknown).toBe(true);
    expect(unwrap(502, {}).outcomeUnknown).toBe(true);
    expect(unwrap(504, {}).outcomeUnknown).toBe(true);
    expect(unwrap(503, {}).outcomeUnknown).toBe(false);
    expect(unwrap(422, {}).outcomeUnknown).toBe(false);
  });

  it('takes the trace id from X-Trace-Id when the body has none', () => {
    expect(unwrap(404, { error: 'NOT_FOUND', message: 'no such claim' }, { 'x-trace-id': 'hdr-1' }).traceId).toBe('hdr-1');
    expect(unwrap(404, { error: 'NOT_FOUND', trace_id: 'body-1' }, { 'x-trace-id': 'hdr-1' }).traceId).toBe('body-1');
  });

  it('reads an HTML error page by its title, never dumping it', () => {
    const page = '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>nginx</h1>' + 'x'.repeat(5000) + '</body></html>';
    const e = unwrap(502, page, { 'content-type': 'text/html' });
    expect(e).toMatchObject({ kind: 'server', message: 'HTTP 502: 502 Bad Gateway (HTML page)' });
    expect(unwrap(503, '<html><body>down</body></html>').message).toBe('HTTP 503 (HTML page)');
  });

  it('reads empty and plain-text bodies', () => {
    expect(unwrap(503, '')).toMatchObject({ kind: 'server', message: 'HTTP 503 with an empty body' });
    expect(unwrap(500, 'Internal Server Error')).toMatchObject({ kind: 'server', message: 'HTTP 500: Internal Server Error' });
    expect(unwrap(404, '"NOT_FOUND"')).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('parses Retry-After in seconds or as a date', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter(new Date(Date.UTC(2030, 0, 1, 0, 0, 10)).toUTCString(), Date.UTC(2030, 0, 1))).toBe(10_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(unwrap(503, {}, { 'retry-after': '2' }).retryAfterMs).toBe(2000);
  });

  it('tells an expired token from other refusals', () => {
    expect(isExpiredTokenError(unwrap(401, { error: 'TOKEN_EXPIRED', message: 'x' }))).toBe(true);
    expect(isExpiredTokenError(unwrap(401, { message: 'jwt expired' }))).toBe(true);
    expect(isExpiredTokenError(unwrap(403, { error: 'Forbidden', message: 'Access token expired' }))).toBe(true);
    expect(isExpiredTokenError(unwrap(401, { error: 'INVALID_CLIENT', message: 'wrong secret' }))).toBe(false);
    expect(isExpiredTokenError(unwrap(403, { error: 'Forbidden - Tenant context required', message: 'token missing required tenant_id claim' }))).toBe(false);
    expect(isExpiredTokenError(unwrap(422, { error: 'OTP_EXPIRED', message: 'the OTP expired' }))).toBe(false);
  });
});

describe('over HTTP', () => {
  let exchange: ScriptedExchange;
  let client: ExchangeClient;
  const answers: Record<string, Answer> = {
    nested: { status: 422, json: { error: '{"error":"NO_DOCTOR_ATTACHED","message":"attach the doctor first"}', trace_id: 'tr-n' } },
    html: { status: 502, text: '<html><head><title>Bad Gateway</title></head></html>', headers: { 'content-type': 'text/html' } },
    empty: { status: 503, text: '' },
    fieldMap500: { status: 500, json: { invoice_number: ['This field may not be blank.'] } },
  };
  let next: Answer = answers.nested as Answer;

  beforeAll(async () => {
    exchange = await startScriptedExchange({ routes: { 'POST /api/v1/claims/submit': () => next } });
    client = createExchangeClient({ baseUrl: exchange.url, credentials: { clientId: 'a', clientSecret: 'b' } });
  });
  afterAll(async () => {
    await client.close();
    await exchange.close();
  });

  const submit = () => client.claims.submit({ consent_token: 'CT', invoice_number: 'I', discharge_reason: 'OTHER', otp: '123456' });

  it.each([
    ['nested', { kind: 'rule_violation', code: 'NO_DOCTOR_ATTACHED', message: 'attach the doctor first', traceId: 'tr-n' }],
    ['html', { kind: 'server', status: 502, message: 'HTTP 502: Bad Gateway (HTML page)' }],
    ['empty', { kind: 'server', status: 503, message: 'HTTP 503 with an empty body' }],
    ['fieldMap500', { kind: 'validation', status: 500, field: 'invoice_number' }],
  ] as const)('%s', async (name, expected) => {
    next = answers[name] as Answer;
    await expect(submit()).rejects.toMatchObject({ ...expected, operation: 'claims.submit' });
  });
});
