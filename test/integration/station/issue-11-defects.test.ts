// Issue 11's numbered defects, each as the fault campaign met it, through the station's bridge with
// the fault proxy between the station and a fresh sandbox. Each fails on the code before the fix.
// (Defect 10, the calls in flight, is test/integration/browser-host/busy.test.ts.)
import { afterEach, describe, expect, it } from 'vitest';
import type { CommandInput, CommandName, CommandOutput } from '../../../electron/contract';
import { faultMatrix, faultyWorld, type FaultyWorld } from './fault-matrix';
import { DOCTOR, eventually, stepOf } from './harness';

const matrix = faultMatrix();
let world: FaultyWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function ok<N extends CommandName>(w: FaultyWorld, name: N, input: CommandInput<N>): Promise<CommandOutput<N>> {
  return w.s.ok(name, input);
}

/** Flow B by SMS code up to an open visit with its doctor. */
async function openVisit(w: FaultyWorld): Promise<{ visitId: string; cr: string }> {
  const cr = await w.control.crIdOf('30000002');
  const patient = await ok(w, 'patient.lookUp', { idType: 'National ID', idNumber: '30000002' });
  const consent = await ok(w, 'consent.begin', { patientRef: patient.patientRef });
  await ok(w, 'consent.sendSms', { workflowId: consent.workflowId });
  await ok(w, 'consent.confirmSms', { workflowId: consent.workflowId, code: await w.control.latestCode({ patient_id: cr }, 'consent') });
  const opened = await ok(w, 'workflow.get', { workflowId: consent.workflowId });
  const visitId = opened.kind === 'consent' ? opened.visitWorkflowId! : '';
  await ok(w, 'visit.attachDoctor', { workflowId: visitId, doctor: DOCTOR });
  return { visitId, cr };
}

const linesAtExchange = (w: FaultyWorld, cr: string) => [...w.sandbox.context.state.claims.values()].filter((c) => c.patient_id === cr).flatMap((c) => c.lines);

describe('issue 11, defect by defect', () => {
  it('1 — a lost answer on add line: the line is found on the claim at once and billed once, even when the nurse adds it again', async () => {
    world = await faultyWorld('defect-1');
    const { visitId, cr } = await openVisit(world);
    world.proxy.arm({ kind: 'POST /api/v1/claims/lines', occurrence: 1, fault: 'lost' });
    const answered = await ok(world, 'visit.addLine', { workflowId: visitId, unitPriceKes: 900, quantity: 1, diagnoses: [{ code: 'CA40.0' }] });
    expect(answered.kind === 'visit' && answered.lines.map((l) => [l.unitPriceKes, l.automatic])).toEqual([[900, false]]);
    expect(answered.lastError).toBeNull();
    expect(linesAtExchange(world, cr)).toHaveLength(1);
  });

  it('2 — a malformed 2xx on a write is not a refusal: the submit the exchange did is found submitted, never sent twice', async () => {
    const result = await matrix.run('B-sms', { kind: 'POST /api/v1/claims/submit', occurrence: 1, fault: 'malformed' });
    expect(result).toMatchObject({ completed: true, lost: [], duplicated: [] });
    expect(result.seen.map((s) => s.code)).not.toContain('EXCHANGE_ERROR');
  });

  it('3 — an emergency submit answered unreadably is settled by the preview, never left reconciling with nothing to do', async () => {
    const result = await matrix.run('C', { kind: 'POST /api/v1/claims/submit', occurrence: 1, fault: 'malformed' });
    expect(result).toMatchObject({ completed: true, lost: [], duplicated: [], silent: [] });
  });

  it.each(['reset', 'timeout', 'lost'] as const)('4 — %s on the emergency create: never INTERNAL, and no orphan workflow left waiting', async (fault) => {
    const result = await matrix.run('C', { kind: 'POST /api/v1/claims/emergency', occurrence: 1, fault });
    expect(result.seen.map((s) => s.code)).not.toContain('INTERNAL');
    expect(result.duplicated).toEqual([]);
    expect(result.silent).toEqual([]);
    expect(result.completed || result.actionable !== null).toBe(true);
  });

  it('5 — a lost answer on the OTP authorize: the same code refused as used is not the nurse’s wrong code; she is told the consent may exist', async () => {
    world = await faultyWorld('defect-5');
    const cr = await world.control.crIdOf('30000002');
    const patient = await ok(world, 'patient.lookUp', { idType: 'National ID', idNumber: '30000002', serviceType: 'INPATIENT' });
    const elective = (await ok(world, 'benefits.interventions', { patientRef: patient.patientRef, scenario: 'elective-preauth', pageSize: 5 })).items[0]!;
    const begun = await ok(world, 'elective.begin', { patientRef: patient.patientRef, interventionCode: elective.code });
    await ok(world, 'consent.sendSms', { workflowId: begun.workflowId });
    const code = await world.control.latestCode({ patient_id: cr }, 'consent');
    world.proxy.arm({ kind: 'POST /api/v1/claims/authorize', occurrence: 1, fault: 'lost' });
    expect(await world.s.refused('consent.confirmSms', { workflowId: begun.workflowId, code })).toMatchObject({ code: 'OUTCOME_UNKNOWN' });
    // The same code again: SHA spent it; the station says so instead of counting a wrong code.
    expect(await world.s.refused('consent.confirmSms', { workflowId: begun.workflowId, code })).toMatchObject({ code: 'OUTCOME_UNKNOWN' });
    const view = await ok(world, 'workflow.get', { workflowId: begun.workflowId });
    expect(stepOf(view)?.sms?.failedAttempts).toBe(0);
    expect(view.lastError?.message).toMatch(/may have accepted it/);
  });

  it('6 — a 503 on the emergency create keeps nothing half-made: no workflow, and the same create sent again makes one claim', async () => {
    const result = await matrix.run('C', { kind: 'POST /api/v1/claims/emergency', occurrence: 1, fault: '503' });
    expect(result).toMatchObject({ completed: true, lost: [], duplicated: [] });
    expect(result.seen).toContainEqual(expect.objectContaining({ command: 'emergency.create', code: 'EXCHANGE_UNREACHABLE', retryable: true }));
  });

  it.each(['lost', 'malformed'] as const)('7 — a %s answer to the fingerprint authorize: the station says the request may be open and offers to start again', async (fault) => {
    world = await faultyWorld(`defect-7-${fault}`);
    const patient = await ok(world, 'patient.lookUp', { idType: 'National ID', idNumber: '30000001' });
    const consent = await ok(world, 'consent.begin', { patientRef: patient.patientRef });
    world.proxy.arm({ kind: 'POST /api/v1/claims/authorize', occurrence: 1, fault });
    expect(await world.s.refused('consent.startFingerprint', { workflowId: consent.workflowId })).toMatchObject({ code: 'OUTCOME_UNKNOWN' });
    const view = await ok(world, 'workflow.get', { workflowId: consent.workflowId });
    expect(view.lastError).toMatchObject({ code: 'OUTCOME_UNKNOWN' });
    expect(view.next).toContain('consent.startFingerprint');
    // Never read back as "the station stopped before the exchange answered": the station did not stop.
    expect((await ok(world, 'audit.read', { workflowId: consent.workflowId, action: 'reconcile.consent.authorizeBiometric' })).items[0]?.summary).toMatch(/answer was lost or unreadable/);
  });

  it('8 — a malformed answer to a read is worth trying again, and trying again works', async () => {
    const result = await matrix.run('B-sms', { kind: 'GET /api/v1/patients/eligibility', occurrence: 1, fault: 'malformed' });
    expect(result.completed).toBe(true);
    expect(result.seen[0]).toMatchObject({ command: 'patient.lookUp', code: 'EXCHANGE_UNREADABLE', retryable: true });
  });

  it.each(['reset', 'timeout'] as const)('9 — %s on add line: the nurse is told at once that SHA has not confirmed it, then what the claim shows', async (fault) => {
    world = await faultyWorld(`defect-9-${fault}`);
    const { visitId, cr } = await openVisit(world);
    world.proxy.arm({ kind: 'POST /api/v1/claims/lines', occurrence: 1, fault });
    const outcome = await world.s.station.bridge.invoke('visit.addLine', { workflowId: visitId, unitPriceKes: 900, quantity: 1, diagnoses: [{ code: 'CA40.0' }] });
    // Never "ok" with nothing: the line found on the claim already (a request slower than the
    // deadline that landed), or OUTCOME_UNKNOWN while the station looks.
    if (outcome.ok) expect(outcome.value.kind === 'visit' && outcome.value.lines.filter((l) => !l.automatic)).toHaveLength(1);
    else expect(outcome.error).toMatchObject({ code: 'OUTCOME_UNKNOWN', retryable: true });
    // Settled by the preview: the line reached SHA after all (a request slower than the deadline), kept once.
    const settled = await eventually(
      () => ok(world!, 'workflow.get', { workflowId: visitId }),
      (v) => v.kind === 'visit' && (v.lines.some((l) => !l.automatic) || v.lastError?.code === 'EXCHANGE_TIMEOUT'),
      'the line settled',
      5000,
    );
    const atExchange = linesAtExchange(world, cr).length;
    expect(atExchange).toBeLessThanOrEqual(1);
    expect(settled.kind === 'visit' && settled.lines.filter((l) => !l.automatic).length).toBe(atExchange);
  });
});
