// The exchange failing mid-flow: a submit the exchange did but whose answer was lost on the way
// back (the connection cut after the sandbox answered), a submit that never arrived (too slow:
// the station gave up first), a submit refused by a 503, a visit that never arrived, and billing
// lines whose answer was lost or unreadable. The station reconciles against the claim preview (its
// lines in invoices[].lines) instead of re-sending blindly; the sandbox holds one visit, one
// submission and each line once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExchangeClient, ExchangeError, type ExchangeClient, type ExchangeClientOptions } from '../../../electron/payer';
import { eventually, startWorld, visitOpenedBy, type StationHandle, type World } from './harness';

let world: World;
let s: StationHandle;
/** Set to make the next submit's answer vanish after the sandbox has done it. */
let loseNextSubmitAnswer = false;
/** Set to make the next billing line's answer vanish, or come back unreadable, after the sandbox has added the line. */
let spoilNextLineAnswer: 'lost' | 'unreadable' | null = null;

function answerLosingClient(options: ExchangeClientOptions): ExchangeClient {
  const client = createExchangeClient(options);
  const submit: ExchangeClient['claims']['submit'] = async (input, callOptions) => {
    const answer = await client.claims.submit(input, callOptions);
    if (!loseNextSubmitAnswer) return answer;
    loseNextSubmitAnswer = false;
    throw new ExchangeError({ kind: 'network', operation: 'claims.submit', message: 'connection reset after the request was sent', outcomeUnknown: true });
  };
  const addBilling: ExchangeClient['claims']['addBilling'] = async (input, callOptions) => {
    const answer = await client.claims.addBilling(input, callOptions);
    const spoil = spoilNextLineAnswer;
    spoilNextLineAnswer = null;
    if (spoil === 'lost') throw new ExchangeError({ kind: 'network', operation: 'claims.addBilling', message: 'connection reset after the request was sent', outcomeUnknown: true });
    if (spoil === 'unreadable') throw new ExchangeError({ kind: 'malformed_response', operation: 'claims.addBilling', status: 200, field: 'id', message: 'unexpected answer at id: expected text', outcomeUnknown: true });
    return answer;
  };
  return { ...client, claims: { ...client.claims, submit, addBilling } };
}

beforeAll(async () => {
  world = await startWorld();
  // Calls give up after 1.5 s; reconciliation first waits 300 ms for a slow request to land.
  s = await world.station({
    extra: {
      exchangeClientFactory: answerLosingClient,
      timing: { authorizationPollMs: 50, preauthPollMs: 100, smsResendCooldownMs: 100, reconcileRetryMs: 300, exchangeTimeoutMs: 1500 },
    },
  });
});
afterAll(async () => {
  await world.close();
});

async function openVisitBySms(nationalId: string): Promise<{ visitId: string; cr: string }> {
  const cr = await world.control.crIdOf(nationalId);
  const patient = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: nationalId });
  const consent = await s.ok('consent.begin', { patientRef: patient.patientRef });
  await s.ok('consent.sendSms', { workflowId: consent.workflowId });
  await s.ok('consent.confirmSms', { workflowId: consent.workflowId, code: await world.control.latestCode({ patient_id: cr }, 'consent') });
  const visit = await visitOpenedBy(s, consent.workflowId);
  await s.ok('visit.addLine', { workflowId: visit.workflowId, unitPriceKes: 900, quantity: 1, diagnoses: [{ code: 'CA40.0' }] });
  return { visitId: visit.workflowId, cr };
}

async function readyToSubmit(visitId: string, cr: string): Promise<string> {
  const discharge = await s.ok('discharge.begin', { workflowId: visitId });
  await s.ok('consent.sendSms', { workflowId: discharge.workflowId });
  await s.ok('consent.confirmSms', { workflowId: discharge.workflowId, code: await world.control.latestCode({ patient_id: cr }, 'discharge') });
  return discharge.workflowId;
}

/** Closes the patient's open claim at the exchange, as a facility abandoning it would: the next consent opens a new one. */
async function closeAtExchange(cr: string): Promise<void> {
  const claim = [...world.sandbox.context.state.claims.values()].filter((c) => c.patient_id === cr).at(-1);
  const client = createExchangeClient({ baseUrl: world.sandbox.url, credentials: { clientId: 'demo-hospital', clientSecret: 'demo-hospital-secret' } });
  try {
    await client.claims.close({ consent_token: claim!.consent_token, cancel_reason_type: 'NO_SERVICE_GIVEN', cancel_reason_text: 'test over' });
  } finally {
    await client.close();
  }
}

/** The lines of the patient's newest claim at the exchange. */
const exchangeLines = (cr: string) => [...world.sandbox.context.state.claims.values()].filter((c) => c.patient_id === cr).at(-1)?.lines ?? [];

/** Submissions of the patient's newest claim. */
const submissions = (cr: string) => {
  const newest = [...world.sandbox.context.state.claims.values()].filter((c) => c.patient_id === cr).at(-1);
  return world.sandbox.context.transitions.filter((t) => t.entity_type === 'claim' && t.to_state === 'SUBMITTED' && t.consent_token === newest?.consent_token).length;
};

describe('lost answers', () => {
  it('a submit the exchange did but whose answer was lost is found submitted by the preview, not sent again', async () => {
    const { visitId, cr } = await openVisitBySms('30000002');
    const dischargeId = await readyToSubmit(visitId, cr);
    loseNextSubmitAnswer = true;
    const answer = await s.ok('discharge.submit', { workflowId: dischargeId, reason: 'RECOVERED' });
    expect(answer).toMatchObject({ state: 'reconciling', lastError: null });
    const settled = await eventually(() => s.ok('workflow.get', { workflowId: dischargeId }), (v) => v.state === 'submitted', 'reconciliation', 8000);
    expect(settled.kind === 'discharge' && settled.claimStatus).toBe('SUBMITTED');
    expect(submissions(cr)).toBe(1);
    expect((await s.ok('audit.read', { workflowId: dischargeId, action: 'reconcile.claims.submit' })).total).toBe(1);
    expect((await s.ok('workflow.get', { workflowId: visitId })).state).toBe('closed');
  });

  it('a submit that never arrived (the station gave up first) goes back to the nurse, and is sent once when she presses again', async () => {
    const { visitId, cr } = await openVisitBySms('30000002');
    const dischargeId = await readyToSubmit(visitId, cr);
    await world.control.post('/faults', { routes: ['POST /api/v1/claims/submit'], latency_ms: 3000 });
    expect(await s.ok('discharge.submit', { workflowId: dischargeId, reason: 'RECOVERED' })).toMatchObject({ state: 'reconciling' });
    await world.control.post('/faults', { latency_ms: 0 });
    const back = await eventually(() => s.ok('workflow.get', { workflowId: dischargeId }), (v) => v.state === 'ready', 'reconciliation', 8000);
    expect(back.lastError?.code).toBe('EXCHANGE_TIMEOUT');
    expect(submissions(cr)).toBe(0);
    expect((await s.ok('discharge.submit', { workflowId: dischargeId, reason: 'RECOVERED' })).state).toBe('submitted');
    expect(submissions(cr)).toBe(1);
  });

  it('a submit refused by a 503 goes back to the nurse; submitted once on the second press', async () => {
    const { visitId, cr } = await openVisitBySms('30000002');
    const dischargeId = await readyToSubmit(visitId, cr);
    await world.control.post('/faults', { routes: ['POST /api/v1/claims/submit'], fail_rate: 1, status: 503, count: 1 });
    const refusal = await s.refused('discharge.submit', { workflowId: dischargeId, reason: 'RECOVERED' });
    expect(refusal).toMatchObject({ code: 'EXCHANGE_UNREACHABLE', retryable: true });
    expect(await s.ok('workflow.get', { workflowId: dischargeId })).toMatchObject({ state: 'ready', lastError: { code: 'EXCHANGE_UNREACHABLE' } });
    expect((await s.ok('discharge.submit', { workflowId: dischargeId, reason: 'RECOVERED' })).state).toBe('submitted');
    expect(submissions(cr)).toBe(1);
  });

  it('a visit whose answer was lost is opened once: the re-post with the same code answers with the open visit', async () => {
    const cr = await world.control.crIdOf('30000002');
    const before = [...world.sandbox.context.state.claims.values()].filter((c) => c.patient_id === cr).length;
    const patient = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000002' });
    const consent = await s.ok('consent.begin', { patientRef: patient.patientRef });
    await s.ok('consent.sendSms', { workflowId: consent.workflowId });
    // Confirm posts the visit with the code; its answer is too slow and given up on.
    await world.control.post('/faults', { routes: ['POST /api/v1/claims/visit'], latency_ms: 3000 });
    const refusal = await s.refused('consent.confirmSms', { workflowId: consent.workflowId, code: await world.control.latestCode({ patient_id: cr }, 'consent') });
    expect(refusal).toMatchObject({ code: 'OUTCOME_UNKNOWN', retryable: true, details: { workflowId: consent.workflowId } });
    await world.control.post('/faults', { latency_ms: 0 });
    const opened = await eventually(() => s.ok('workflow.get', { workflowId: consent.workflowId }), (v) => v.state === 'visit-opened', 'the visit found open', 8000);
    expect(opened.kind === 'consent' && opened.visitWorkflowId).toMatch(/^wf_/);
    expect([...world.sandbox.context.state.claims.values()].filter((c) => c.patient_id === cr).length).toBe(before + 1);
  });

  it('a line whose answer was lost is found in the preview’s invoices[].lines: kept once, the station’s own, never sent again', async () => {
    const { visitId, cr } = await openVisitBySms('30000002');
    spoilNextLineAnswer = 'lost';
    // The command itself looks the line up in the preview: found, it answers with it (issue 11, defects 1 and 9).
    const answered = await s.ok('visit.addLine', { workflowId: visitId, unitPriceKes: 450, quantity: 2, diagnoses: [{ code: 'MD12' }] });
    expect(answered.kind === 'visit' && answered.lines.map((l) => [l.unitPriceKes, l.automatic])).toEqual([
      [900, false],
      [450, false],
    ]);
    const settled = await eventually(
      () => s.ok('workflow.get', { workflowId: visitId }),
      (v) => v.kind === 'visit' && v.lines.length === 2 && v.lines.every((l) => !l.automatic),
      'the lost line reconciled from the preview',
      8000,
    );
    expect(settled.kind === 'visit' && settled.lines.map((l) => [l.unitPriceKes, l.quantity, l.automatic])).toEqual([
      [900, 1, false],
      [450, 2, false],
    ]);
    expect(settled.kind === 'visit' && settled.totalKes).toBe(1800);
    expect(settled.lastError).toBeNull();
    expect(exchangeLines(cr).map((l) => l.unit_price)).toEqual([900, 450]);
    expect((await s.ok('audit.read', { workflowId: visitId, action: 'reconcile.claims.addBilling' })).total).toBe(1);
    // A later preview keeps both lines: it reads them from the invoices, and the lost one stays removable.
    const preview = await s.ok('visit.preview', { workflowId: visitId });
    expect(preview.lines).toHaveLength(2);
    expect((await s.ok('workflow.get', { workflowId: visitId })).next).toContain('visit.removeLine');
    await closeAtExchange(cr);
  });

  it('a line that never reached the exchange goes back to the nurse; nothing is sent again behind her back', async () => {
    const { visitId, cr } = await openVisitBySms('30000002');
    await world.control.post('/faults', { routes: ['POST /api/v1/claims/lines'], status: 504, count: 1 });
    // Told at once that SHA did not confirm it (never an empty success), then what the preview shows.
    expect(await s.refused('visit.addLine', { workflowId: visitId, unitPriceKes: 450, quantity: 1, diagnoses: [{ code: 'MD12' }] })).toMatchObject({ code: 'OUTCOME_UNKNOWN', retryable: true });
    const back = await eventually(() => s.ok('workflow.get', { workflowId: visitId }), (v) => v.lastError !== null, 'reconciliation', 8000);
    expect(back.lastError).toMatchObject({ code: 'EXCHANGE_TIMEOUT', message: 'A billing line did not reach the exchange: add it again.' });
    expect(back.kind === 'visit' && back.lines).toHaveLength(1);
    expect(exchangeLines(cr)).toHaveLength(1);
    await closeAtExchange(cr);
  });

  it('a line answered in a form the client cannot read is looked up in the preview, not added twice', async () => {
    const { visitId, cr } = await openVisitBySms('30000002');
    spoilNextLineAnswer = 'unreadable';
    const view = await s.ok('visit.addLine', { workflowId: visitId, unitPriceKes: 300, quantity: 1, diagnoses: [{ code: 'MD12' }] });
    expect(view.kind === 'visit' && view.lines.map((l) => [l.unitPriceKes, l.automatic])).toEqual([
      [900, false],
      [300, false],
    ]);
    expect(view.lastError).toBeNull();
    expect(exchangeLines(cr)).toHaveLength(2);
    expect((await s.ok('audit.read', { workflowId: visitId, action: 'reconcile.claims.addBilling' })).total).toBe(1);
    await closeAtExchange(cr);
  });

  it('a referral whose answer was lost keeps its destination once the preview shows it submitted, and is sent once', async () => {
    const { visitId, cr } = await openVisitBySms('30000002');
    const dischargeId = await readyToSubmit(visitId, cr);
    loseNextSubmitAnswer = true;
    const answer = await s.ok('discharge.submit', { workflowId: dischargeId, reason: 'REFERRED', referredTo: 'FID-00-000005-0' });
    expect(answer).toMatchObject({ state: 'reconciling', referredTo: null });
    const settled = await eventually(() => s.ok('workflow.get', { workflowId: dischargeId }), (v) => v.state === 'submitted', 'reconciliation', 8000);
    expect(settled).toMatchObject({ referredTo: { code: 'FID-00-000005-0', name: 'Mlima County Referral Hospital' } });
    expect(submissions(cr)).toBe(1);
  });
});
