// The token's life against the sandbox's clock (expiry, one replay, single-flight refresh), and the
// client's retry policy under the sandbox's injected faults: reads retried through 503s and dropped
// connections, state-changing calls never (the sandbox sees them once).
import { describe, expect, it } from 'vitest';
import type { ExchangeEvent } from '../../../electron/payer';
import { HOSPITAL, NID, advanceClock, outbox, patientId, refusal, useWorld } from './harness';

const { w, codes } = useWorld();

const id = { identification_number: NID.covered, identification_type: 'National ID' } as const;

interface FaultView {
  routes: string[] | null;
  injected: number;
  remaining: number | null;
}

/** The route rules the sandbox holds, with how many failures each has injected so far. */
async function faultRules(): Promise<FaultView[]> {
  return (await w.raw.control<{ routes: FaultView[] }>('GET', '/sandbox/faults')).routes;
}

function counting() {
  const events: ExchangeEvent[] = [];
  const client = w.client(HOSPITAL, { onEvent: (e) => events.push(e) });
  const tokenRequests = () => events.filter((e) => e.operation === 'auth.token').length;
  return { client, events, tokenRequests };
}

describe('the access token', () => {
  it('is replayed once after the sandbox clock passes its 3600 s, and the call succeeds', async () => {
    const { client, events, tokenRequests } = counting();
    await client.registry.findPatient(id);
    await client.eligibility.check(id);
    expect(tokenRequests()).toBe(1);

    await advanceClock(w.raw, 3601 * 1000);
    events.length = 0;
    expect((await client.eligibility.check(id)).covered).toBe(true);
    expect(events.map((e) => [e.operation, e.status, e.attempt, e.replay, e.errorCode])).toEqual([
      ['eligibility.check', 401, 1, false, 'TOKEN_EXPIRED'],
      ['auth.token', 200, 1, false, undefined],
      ['eligibility.check', 200, 2, true, undefined],
    ]);
    // The new token serves the next calls: no further token request.
    await client.registry.findPatient(id);
    expect(tokenRequests()).toBe(1);
  });

  it('is fetched once for many calls waiting on it, before and after an expiry', async () => {
    const patient = await patientId(w.hospital, NID.covered);
    const { client, tokenRequests } = counting();
    await Promise.all([client.registry.findPatient(id), client.eligibility.check(id), client.consent.contacts({ patient_id: patient })]);
    expect(tokenRequests()).toBe(1);
    await advanceClock(w.raw, 3601 * 1000);
    const answers = await Promise.all([client.registry.findPatient(id), client.eligibility.check(id), client.eligibility.check(id), client.registry.findPatient(id)]);
    expect(answers).toHaveLength(4);
    expect(tokenRequests()).toBe(2);
  });

  it('is replayed for a state-changing call too, since the sandbox refused it before acting', async () => {
    const { client, events } = counting();
    const patient = await patientId(client, NID.whitelisted);
    await advanceClock(w.raw, 3601 * 1000);
    await client.consent.sendOtp({ patient_id: patient, intervention_codes: [codes.capitation.code] });
    expect(events.filter((e) => e.operation === 'consent.sendOtp').map((e) => e.status)).toEqual([401, 200]);
    // Exactly one OTP went out: the refused attempt did nothing.
    expect((await outbox(w.raw, { patient_id: patient })).filter((m) => m.purpose === 'consent')).toHaveLength(1);
  });

  it('refuses wrong credentials as unauthorized, without a replay', async () => {
    const events: ExchangeEvent[] = [];
    const client = w.client({ clientId: HOSPITAL.clientId, clientSecret: 'not-the-secret' }, { onEvent: (e) => events.push(e) });
    await refusal(client.eligibility.check(id), { kind: 'unauthorized', status: 401, code: 'INVALID_CLIENT' });
    expect(events.map((e) => e.operation)).toEqual(['auth.token']);
  });
});

describe('injected faults', () => {
  it('retries a GET through two 503s and succeeds; the sandbox injected both', async () => {
    await w.raw.control('POST', '/sandbox/faults', { routes: ['GET /api/v1/patients/eligibility'], status: 503, count: 2, latency_ms: 1 });
    expect((await w.hospital.eligibility.check(id)).covered).toBe(true);
    expect(w.events.filter((e) => e.operation === 'eligibility.check').map((e) => [e.status, e.attempt])).toEqual([
      [503, 1],
      [503, 2],
      [200, 3],
    ]);
    expect(await faultRules()).toMatchObject([{ routes: ['GET /api/v1/patients/eligibility'], injected: 2, remaining: 0 }]);
  });

  it('retries a GET whose connection the sandbox drops', async () => {
    await w.raw.control('POST', '/sandbox/faults', { routes: ['GET /api/v1/patients'], count: 1, reset_connection: true, latency_ms: 1 });
    expect((await w.hospital.registry.findPatient(id)).id).toMatch(/^CR/);
    expect(w.events.filter((e) => e.operation === 'registry.findPatient').map((e) => e.errorKind ?? e.status)).toEqual(['network', 200]);
  });

  it('gives up on a GET that keeps failing after its three tries', async () => {
    await w.raw.control('POST', '/sandbox/faults', { routes: ['GET /api/v1/patients/eligibility'], status: 504, count: 5, latency_ms: 1 });
    const error = await refusal(w.hospital.eligibility.check(id), { kind: 'server', status: 504, code: 'GATEWAY_TIMEOUT' });
    expect(error.traceId).toBeTruthy();
    expect((await faultRules())[0]).toMatchObject({ injected: 3, remaining: 2 });
  });

  it('never retries a POST under a fault: the sandbox saw it once and nothing changed', async () => {
    const patient = await patientId(w.hospital, NID.whitelisted);
    await w.raw.control('POST', '/sandbox/faults', { routes: ['POST /api/v1/claims/otp'], status: 503, count: 2, latency_ms: 1 });
    const error = await refusal(w.hospital.consent.sendOtp({ patient_id: patient, intervention_codes: [codes.capitation.code] }), {
      kind: 'server',
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
    });
    expect(error.outcomeUnknown).toBe(false);
    expect(w.events.filter((e) => e.operation === 'consent.sendOtp')).toHaveLength(1);
    expect((await faultRules())[0]).toMatchObject({ routes: ['POST /api/v1/claims/otp'], injected: 1, remaining: 1 });
    expect(await outbox(w.raw, { patient_id: patient })).toEqual([]);
  });

  it('never retries a POST whose connection drops, and says its outcome is unknown', async () => {
    const patient = await patientId(w.hospital, NID.whitelisted);
    await w.raw.control('POST', '/sandbox/faults', { routes: ['POST /api/v1/claims/otp'], count: 3, reset_connection: true, latency_ms: 1 });
    const error = await refusal(w.hospital.consent.sendOtp({ patient_id: patient, intervention_codes: [codes.capitation.code] }), { kind: 'network', status: undefined });
    expect(error.outcomeUnknown).toBe(true);
    expect((await faultRules())[0]).toMatchObject({ injected: 1, remaining: 2 });
  });
});
