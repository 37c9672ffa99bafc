// Lost answers on the elective and emergency paths. A preauth the exchange made but whose answer
// was lost is found by the look-up (the live camelCase page), so the station follows it instead of
// making a second; one that never arrived is found absent (the look-up's 404) and sent once. An
// emergency claim whose creation went unanswered cannot be looked up: nothing is sent behind the
// nurse's back, she checks and sends it again herself; a lost protocol is settled by the preview.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExchangeClient, ExchangeError, type CallOptions, type ExchangeClient, type ExchangeClientOptions } from '../../../electron/payer';
import { eventually, presentAtPage, startWorld, stepOf, SURGEON, type StationHandle, type World } from './harness';

let world: World;
let s: StationHandle;
/** The next answers of these operations vanish after the sandbox has acted on them. */
const lose = new Set<'preauth.create' | 'emergency.createClaim' | 'emergency.addProtocol'>();

function lost(operation: string): ExchangeError {
  return new ExchangeError({ kind: 'network', operation, message: 'connection reset after the request was sent', outcomeUnknown: true });
}

function answerLosingClient(options: ExchangeClientOptions): ExchangeClient {
  const client = createExchangeClient(options);
  const losing =
    <I, O>(name: 'preauth.create' | 'emergency.createClaim' | 'emergency.addProtocol', call: (input: I, o?: CallOptions) => Promise<O>) =>
    async (input: I, o?: CallOptions): Promise<O> => {
      const answer = await call(input, o);
      if (!lose.delete(name)) return answer;
      throw lost(name);
    };
  return {
    ...client,
    preauth: { ...client.preauth, create: losing('preauth.create', client.preauth.create) },
    emergency: {
      ...client.emergency,
      createClaim: losing('emergency.createClaim', client.emergency.createClaim),
      addProtocol: losing('emergency.addProtocol', client.emergency.addProtocol),
    },
  };
}

beforeAll(async () => {
  world = await startWorld();
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

const preauthRequest = {
  serviceStart: '2030-01-15',
  serviceEnd: '2030-01-16',
  requestedAmountKes: 65_000,
  diagnoses: [{ code: 'DD51' }],
  doctor: SURGEON,
  notificationEmail: 'claims@hospital.example',
};

/** Phase one by fingerprint for 30000001: the elective workflow, verified. */
async function consentedElective(): Promise<string> {
  const cr = await world.control.crIdOf('30000001');
  const patient = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000001', serviceType: 'INPATIENT' });
  const code = (await s.ok('benefits.interventions', { patientRef: patient.patientRef, scenario: 'elective-preauth', pageSize: 1 })).items[0]!.code;
  const elective = await s.ok('elective.begin', { patientRef: patient.patientRef, interventionCode: code });
  const started = await s.ok('consent.startFingerprint', { workflowId: elective.workflowId });
  await presentAtPage(stepOf(started)!.fingerprint!.link!.url, await world.control.enrolledTemplate(cr));
  await eventually(() => s.ok('workflow.get', { workflowId: elective.workflowId }), (v) => v.state === 'verified', 'phase-one consent');
  return elective.workflowId;
}

describe('lost preauth answers', () => {
  it('a preauth the exchange made is found by the camelCase look-up and followed, not made twice', async () => {
    const workflowId = await consentedElective();
    const before = world.sandbox.context.state.preauths.size;
    lose.add('preauth.create');
    const answer = await s.ok('elective.submitPreauth', { workflowId, ...preauthRequest });
    expect(answer.state).toBe('reconciling');
    const settled = await eventually(() => s.ok('workflow.get', { workflowId }), (v) => v.state === 'awaiting-doctor', 'reconciliation', 8000);
    expect(settled.kind === 'elective' && settled.preauth).toMatchObject({ status: 'PENDING_DOCTOR_APPROVAL', reference: String([...world.sandbox.context.state.preauths.values()].at(-1)?.id) });
    expect(world.sandbox.context.state.preauths.size).toBe(before + 1);
    expect((await s.ok('audit.read', { workflowId, action: 'reconcile.preauth.create' })).total).toBe(1);
    // The doctor approves: the poll (the same look-up) follows it.
    const reference = settled.kind === 'elective' ? settled.preauth?.reference : undefined;
    await world.control.post(`/preauths/${reference}/doctor-approval`);
    await eventually(() => s.ok('workflow.get', { workflowId }), (v) => v.state === 'awaiting-payer', 'the doctor’s approval to be seen');
    expect(world.sandbox.context.state.preauths.size).toBe(before + 1);
  });

  it('a preauth that never arrived is found absent (404 from the look-up) and sent once', async () => {
    const workflowId = await consentedElective();
    const before = world.sandbox.context.state.preauths.size;
    await world.control.post('/faults', { routes: ['POST /api/v1/preauths'], latency_ms: 3000 });
    const answer = await s.ok('elective.submitPreauth', { workflowId, ...preauthRequest });
    expect(answer.state).toBe('reconciling');
    await world.control.post('/faults', { latency_ms: 0 });
    await eventually(() => s.ok('workflow.get', { workflowId }), (v) => v.state === 'awaiting-doctor', 'reconciliation', 10_000);
    expect(world.sandbox.context.state.preauths.size).toBe(before + 1);
  });
});

describe('lost emergency answers', () => {
  const doctor = { identificationType: 'registration_number', identificationNumber: 'A34567', regulationBody: 'KMPDC' };
  const emergencyInput = async (referenceNumber: string) => {
    const [protocol] = (await s.ok('emergency.protocols', { interventionCode: 'SHA-01-001' })).items;
    return { interventionCode: 'SHA-01-001', protocolCode: protocol!.protocolCode, doctor, modeOfArrival: 'AMBULANCE' as const, broughtBy: 'PARAMEDICS' as const, referenceNumber, notes: 'Found unconscious' };
  };
  const claimsOf = (reference: string) => [...world.sandbox.context.state.claims.values()].filter((c) => c.emergency?.reference_number === reference);

  it('an emergency claim whose creation went unanswered is not sent again until the nurse says so', async () => {
    lose.add('emergency.createClaim');
    const created = await s.ok('emergency.create', await emergencyInput('AMB-LOST-1'));
    expect(created).toMatchObject({ state: 'unconfirmed', next: ['emergency.resendClaim'], protocolAdded: false, doctorApproval: 'not-requested', lastError: { code: 'OUTCOME_UNKNOWN' } });
    expect(created.lastError?.message).toContain('AMB-LOST-1');
    expect(claimsOf('AMB-LOST-1')).toHaveLength(1);
    // Nothing is re-sent behind her back: well past the reconciliation delay it is unconfirmed still.
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect((await s.ok('workflow.get', { workflowId: created.workflowId })).state).toBe('unconfirmed');
    expect(claimsOf('AMB-LOST-1')).toHaveLength(1);
    // She sends it again: the exchange answers with the claim of that reference (the sandbox's reading).
    const resent = await s.ok('emergency.resendClaim', { workflowId: created.workflowId });
    expect(resent).toMatchObject({ state: 'open-unidentified', protocolAdded: true, doctorApproval: 'requested', lastError: null });
    expect(claimsOf('AMB-LOST-1')).toHaveLength(1);
    expect(claimsOf('AMB-LOST-1')[0]?.lines).toHaveLength(1);
  });

  it('a protocol added at the exchange whose answer was lost is found on the claim by the preview in the same command, not added twice', async () => {
    lose.add('emergency.addProtocol');
    const created = await s.ok('emergency.create', await emergencyInput('AMB-LOST-2'));
    // Looked up at once (its policy): the create answers with the protocol on the claim, and goes on to the doctor.
    expect(created).toMatchObject({ state: 'open-unidentified', protocolAdded: true, doctorApproval: 'requested', lastError: null });
    expect(created.next).not.toContain('emergency.addProtocol');
    expect(claimsOf('AMB-LOST-2')[0]?.lines).toHaveLength(1);
    expect((await s.ok('audit.read', { workflowId: created.workflowId, action: 'reconcile.emergency.addProtocol' })).total).toBe(1);
  });
});
