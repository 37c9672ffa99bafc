// Several services on one open visit through the station core against the running sandbox (issue
// 22): a ward stay takes a second service on the same claim and consent, bills it, takes it off
// (SHA deletes its lines) and puts it back; the last service is never taken off; an add whose
// answer was lost is found on the claim, never sent twice; one SHA already holds is taken as added.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExchangeClient, ExchangeError, type ExchangeClient, type ExchangeClientOptions } from '../../../electron/payer';
import { DOCTOR, eventually, startWorld, visitOpenedBy, type StationHandle, type World } from './harness';

let world: World;
let s: StationHandle;
/** Set to make the next add's answer vanish after the sandbox has added the service. */
let loseNextAddAnswer = false;

function answerLosingClient(options: ExchangeClientOptions): ExchangeClient {
  const client = createExchangeClient(options);
  const addIntervention: ExchangeClient['claims']['addIntervention'] = async (input, callOptions) => {
    const answer = await client.claims.addIntervention(input, callOptions);
    if (!loseNextAddAnswer) return answer;
    loseNextAddAnswer = false;
    throw new ExchangeError({ kind: 'network', operation: 'claims.addIntervention', message: 'connection reset after the request was sent', outcomeUnknown: true });
  };
  return { ...client, claims: { ...client.claims, addIntervention } };
}

beforeAll(async () => {
  world = await startWorld();
  s = await world.station({
    extra: {
      exchangeClientFactory: answerLosingClient,
      timing: { authorizationPollMs: 50, preauthPollMs: 100, smsResendCooldownMs: 100, reconcileRetryMs: 200, exchangeTimeoutMs: 5000 },
    },
  });
});
afterAll(async () => {
  await world.close();
});

const claimOf = (cr: string) => [...world.sandbox.context.state.claims.values()].filter((c) => c.patient_id === cr).at(-1)!;

/** An inpatient stay by SMS code, and the ward's services that need no preauthorization beside the one it opened for. */
async function admit(): Promise<{ visitId: string; cr: string; opened: string; ward: string[] }> {
  const cr = await world.control.crIdOf('30000002');
  const patient = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000002', serviceType: 'INPATIENT' });
  const consent = await s.ok('consent.begin', { patientRef: patient.patientRef });
  await s.ok('consent.sendSms', { workflowId: consent.workflowId });
  await s.ok('consent.confirmSms', { workflowId: consent.workflowId, code: await world.control.latestCode({ patient_id: cr }, 'consent') });
  const visit = await visitOpenedBy(s, consent.workflowId);
  const subBenefits = await s.ok('benefits.subBenefits', { patientRef: patient.patientRef });
  const ward = new Set<string>();
  for (const b of subBenefits.items) {
    const listed = await s.ok('benefits.interventions', { patientRef: patient.patientRef, subBenefitCode: b.code, pageSize: 1000 });
    for (const i of listed.items) {
      if (i.code !== visit.intervention.code && i.careSetting !== 'outpatient' && i.scenario === 'other' && !i.handling.needsPreauth) ward.add(i.code);
    }
  }
  expect(ward.size).toBeGreaterThanOrEqual(2);
  return { visitId: visit.workflowId, cr, opened: visit.intervention.code, ward: [...ward] };
}

describe('several services on one visit', () => {
  it('adds a service, bills it, takes it off (its lines deleted at SHA) and puts it back; the last one stays', async () => {
    const { visitId, cr, opened, ward } = await admit();
    const second = ward[0]!;
    const added = await s.ok('visit.addService', { workflowId: visitId, interventionCode: second });
    expect(added.services?.map((v) => [v.code, v.active])).toEqual([
      [opened, true],
      [second, true],
    ]);
    expect(added.next).toEqual(expect.arrayContaining(['visit.addService', 'visit.retireService']));
    expect(added.next).not.toContain('visit.restoreService');
    expect(claimOf(cr).interventions).toEqual([opened, second]);
    // Added again: said at once, nothing sent.
    expect(await s.refused('visit.addService', { workflowId: visitId, interventionCode: second })).toMatchObject({ code: 'VALIDATION', details: { field: 'interventionCode' } });
    // Not among the patient's benefits: refused before anything is sent.
    expect((await s.refused('visit.addService', { workflowId: visitId, interventionCode: 'SHA-99-999' })).code).toBe('INTERVENTION_NOT_ALLOWED');

    await s.ok('visit.attachDoctor', { workflowId: visitId, doctor: DOCTOR });
    const billed = await s.ok('visit.addLine', { workflowId: visitId, interventionCode: second, unitPriceKes: 2500, quantity: 1, diagnoses: [{ code: 'CA40.Z' }], description: 'Chest X-ray' });
    expect(billed.lines.filter((l) => l.interventionCode === second)).toHaveLength(1);

    const retired = await s.ok('visit.retireService', { workflowId: visitId, interventionCode: second });
    expect(retired.services?.map((v) => [v.code, v.active])).toEqual([
      [opened, true],
      [second, false],
    ]);
    expect(retired.lines.some((l) => l.interventionCode === second)).toBe(false);
    expect(retired.next).toContain('visit.restoreService');
    expect(retired.next).not.toContain('visit.retireService');
    expect(claimOf(cr).retired_interventions).toEqual([second]);
    expect(claimOf(cr).lines.some((l) => l.intervention_code === second)).toBe(false);
    // The last service standing: refused before anything is sent.
    const last = await s.refused('visit.retireService', { workflowId: visitId, interventionCode: opened });
    expect(last.code).toBe('WRONG_STATE');
    expect(claimOf(cr).interventions).toEqual([opened]);

    const restored = await s.ok('visit.restoreService', { workflowId: visitId, interventionCode: second });
    expect(restored.services?.every((v) => v.active)).toBe(true);
    expect(restored.lines.some((l) => l.interventionCode === second)).toBe(false);
    expect(claimOf(cr).interventions).toEqual([opened, second]);
    // The preview names both services.
    const preview = await s.ok('visit.preview', { workflowId: visitId });
    expect(preview.interventions.map((i) => i.code)).toEqual([opened, second]);
    await s.ok('visit.close', { workflowId: visitId, reason: 'OTHER_REASONS', explanation: 'test stay ended' });
  });

  it('an add whose answer was lost is found on the claim by the preview, never sent twice; one SHA already holds is taken as added', async () => {
    const { visitId, cr, opened, ward } = await admit();
    loseNextAddAnswer = true;
    const lost = await s.refused('visit.addService', { workflowId: visitId, interventionCode: ward[0]! });
    expect(lost.code).toBe('OUTCOME_UNKNOWN');
    const settled = await eventually(
      () => s.ok('workflow.get', { workflowId: visitId }),
      (v) => v.kind === 'visit' && v.services?.length === 2 && v.lastError === null,
      'the lost add found on the claim',
    );
    expect(settled.kind === 'visit' && settled.services?.map((v) => [v.code, v.active])).toEqual([
      [opened, true],
      [ward[0], true],
    ]);
    expect(claimOf(cr).interventions).toEqual([opened, ward[0]]);
    // Added at SHA by another station: the station's add is answered "already on the claim", and the visit shows it.
    claimOf(cr).interventions.push(ward[1]!);
    const taken = await s.ok('visit.addService', { workflowId: visitId, interventionCode: ward[1]! });
    expect(taken.services?.map((v) => v.code)).toEqual([opened, ward[0], ward[1]]);
    expect(taken.lastError).toBeNull();
    await s.ok('visit.close', { workflowId: visitId, reason: 'OTHER_REASONS', explanation: 'test stay ended' });
  });
});
