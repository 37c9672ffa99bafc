// The exchange failing mid-flow: a submit the exchange did but whose answer was lost on the way
// back (the connection cut after the sandbox answered), a submit that never arrived (too slow:
// the station gave up first), a submit refused by a 503, and a visit that never arrived. The
// station reconciles instead of re-sending blindly; the sandbox holds one visit and one submission.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExchangeClient, ExchangeError, type ExchangeClient, type ExchangeClientOptions } from '../../../electron/payer';
import { eventually, startWorld, visitOpenedBy, type StationHandle, type World } from './harness';

let world: World;
let s: StationHandle;
/** Set to make the next submit's answer vanish after the sandbox has done it. */
let loseNextSubmitAnswer = false;

function answerLosingClient(options: ExchangeClientOptions): ExchangeClient {
  const client = createExchangeClient(options);
  const submit: ExchangeClient['claims']['submit'] = async (input, callOptions) => {
    const answer = await client.claims.submit(input, callOptions);
    if (!loseNextSubmitAnswer) return answer;
    loseNextSubmitAnswer = false;
    throw new ExchangeError({ kind: 'network', operation: 'claims.submit', message: 'connection reset after the request was sent', outcomeUnknown: true });
  };
  return { ...client, claims: { ...client.claims, submit } };
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
    expect(refusal).toMatchObject({ code: 'EXCHANGE_TIMEOUT', details: { workflowId: consent.workflowId } });
    await world.control.post('/faults', { latency_ms: 0 });
    const opened = await eventually(() => s.ok('workflow.get', { workflowId: consent.workflowId }), (v) => v.state === 'visit-opened', 'the visit found open', 8000);
    expect(opened.kind === 'consent' && opened.visitWorkflowId).toMatch(/^wf_/);
    expect([...world.sandbox.context.state.claims.values()].filter((c) => c.patient_id === cr).length).toBe(before + 1);
  });
});
