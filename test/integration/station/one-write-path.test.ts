// Issue 21's two defects of the write path, each as an independent fault campaign met it, through
// the station's bridge with the fault proxy between the station and a fresh sandbox. Both failed on
// the code before the single write path: an unknown outcome was decided again at each call site,
// and these two sites decided it wrong.
import { afterEach, describe, expect, it } from 'vitest';
import type { CommandInput, CommandName, CommandOutput } from '../../../electron/contract';
import { faultyWorld, type FaultyWorld } from './fault-matrix';
import { DOCTOR, eventually, stepOf } from './harness';

let world: FaultyWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function ok<N extends CommandName>(w: FaultyWorld, name: N, input: CommandInput<N>): Promise<CommandOutput<N>> {
  return w.s.ok(name, input);
}

/** The fingerprint requests SHA holds PENDING for the patient. */
const pendingAtExchange = (w: FaultyWorld, cr: string) => [...w.sandbox.context.state.authorizations.values()].filter((a) => a.patient_id === cr && a.status === 'PENDING');

/** Flow B by SMS code up to an open visit with its doctor (30000002: whitelisted, so fingerprint and SMS are both offered). */
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

describe('a fingerprint authorize whose answer never came leaves no request PENDING at SHA', () => {
  it.each(['lost', 'malformed'] as const)('consent, %s answer: the stray request is found in the facility’s list and rejected in the same command', async (fault) => {
    world = await faultyWorld(`stray-pending-${fault}`);
    const cr = await world.control.crIdOf('30000001');
    const patient = await ok(world, 'patient.lookUp', { idType: 'National ID', idNumber: '30000001' });
    const consent = await ok(world, 'consent.begin', { patientRef: patient.patientRef });
    world.proxy.arm({ kind: 'POST /api/v1/claims/authorize', occurrence: 1, fault });
    expect(await world.s.refused('consent.startFingerprint', { workflowId: consent.workflowId })).toMatchObject({ code: 'OUTCOME_UNKNOWN' });
    expect(world.proxy.fired).toBe(true);
    // SHA made the request (the answer alone was spoiled); nothing of it is left open.
    expect([...world.sandbox.context.state.authorizations.values()].filter((a) => a.patient_id === cr)).toHaveLength(1);
    expect(pendingAtExchange(world, cr)).toEqual([]);
    const view = await ok(world, 'workflow.get', { workflowId: consent.workflowId });
    expect(view.next).toContain('consent.startFingerprint');
    // Starting again makes one request, the only one open.
    const again = await ok(world, 'consent.startFingerprint', { workflowId: consent.workflowId });
    expect(stepOf(again)?.fingerprint?.link).not.toBeNull();
    expect(pendingAtExchange(world, cr)).toHaveLength(1);
  });

  it('consent, no answer before the deadline: the request SHA makes afterwards is found and rejected once the grace period is over', async () => {
    world = await faultyWorld('stray-pending-timeout');
    const cr = await world.control.crIdOf('30000001');
    const patient = await ok(world, 'patient.lookUp', { idType: 'National ID', idNumber: '30000001' });
    const consent = await ok(world, 'consent.begin', { patientRef: patient.patientRef });
    world.proxy.arm({ kind: 'POST /api/v1/claims/authorize', occurrence: 1, fault: 'timeout' });
    expect(await world.s.refused('consent.startFingerprint', { workflowId: consent.workflowId })).toMatchObject({ code: 'OUTCOME_UNKNOWN' });
    await eventually(() => [...world!.sandbox.context.state.authorizations.values()].filter((a) => a.patient_id === cr), (all) => all.length === 1, 'the late request at SHA');
    await eventually(() => pendingAtExchange(world!, cr), (pending) => pending.length === 0, 'the late request rejected');
    const view = await eventually(() => ok(world!, 'workflow.get', { workflowId: consent.workflowId }), (v) => (v.next as readonly string[]).includes('consent.startFingerprint'), 'start again offered');
    expect(view.lastError?.code).toBe('OUTCOME_UNKNOWN');
  });

  it('visit end, lost answer: the discharge authorization SHA made is rejected in the same command', async () => {
    world = await faultyWorld('stray-pending-visit-end');
    const { visitId, cr } = await openVisit(world);
    const discharge = await ok(world, 'discharge.begin', { workflowId: visitId });
    expect(discharge.next).toContain('consent.startFingerprint');
    world.proxy.arm({ kind: 'POST /api/v1/claims/authorize', occurrence: 1, fault: 'lost' });
    expect(await world.s.refused('consent.startFingerprint', { workflowId: discharge.workflowId })).toMatchObject({ code: 'OUTCOME_UNKNOWN' });
    expect(world.proxy.fired).toBe(true);
    expect(pendingAtExchange(world, cr)).toEqual([]);
    expect((await ok(world, 'workflow.get', { workflowId: discharge.workflowId })).next).toContain('consent.startFingerprint');
  });
});

describe('an emergency patient identified by SMS code whose answer was lost', () => {
  it('is looked up on the claim in the same command: identified, and no second code asked of the patient', async () => {
    world = await faultyWorld('emergency-identify-lost');
    const cr = await world.control.crIdOf('30000002');
    const protocols = await ok(world, 'emergency.protocols', { interventionCode: 'SHA-01-001' });
    const created = await ok(world, 'emergency.create', {
      interventionCode: 'SHA-01-001',
      protocolCode: protocols.items[0]!.protocolCode,
      doctor: { identificationType: 'registration_number', identificationNumber: 'A34567', regulationBody: 'KMPDC' },
      modeOfArrival: 'AMBULANCE',
      broughtBy: 'PARAMEDICS',
      referenceNumber: 'AMB-IDENTIFY-1',
      notes: 'Found unconscious',
    });
    const patient = await ok(world, 'patient.lookUp', { idType: 'National ID', idNumber: '30000002' });
    await ok(world, 'emergency.identify', { workflowId: created.workflowId, patientRef: patient.patientRef });
    const codes = (await world.control.get<unknown[]>(`/sms?patient_id=${encodeURIComponent(cr)}`)).length;
    const code = await world.control.latestCode({ patient_id: cr }, 'consent');
    world.proxy.arm({ kind: 'POST /api/v1/claims/emergency', occurrence: 1, fault: 'lost' });
    const answered = await world.s.station.bridge.invoke('consent.confirmSms', { workflowId: created.workflowId, code });
    expect(world.proxy.fired).toBe(true);
    // SHA has the patient on the claim: the station says so now, without waiting and without another code.
    const claim = [...world.sandbox.context.state.claims.values()].find((c) => c.emergency?.reference_number === 'AMB-IDENTIFY-1');
    expect(claim?.patient_id).toBe(cr);
    expect(answered.ok).toBe(true);
    const view = await ok(world, 'workflow.get', { workflowId: created.workflowId });
    expect(view).toMatchObject({ state: 'open-identified', patient: { patientRef: patient.patientRef } });
    expect(view.next).toContain('emergency.submit');
    expect(await world.control.get<unknown[]>(`/sms?patient_id=${encodeURIComponent(cr)}`)).toHaveLength(codes);
  });
});
