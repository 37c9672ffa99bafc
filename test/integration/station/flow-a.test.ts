// Flow A, the elective inpatient preauth, both phases, through the station core against the
// running sandbox (the doctor's and the payer's approvals through its control API).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StationHandle } from './harness';
import { eventually, HERNIA_NOTES, HERNIA_PREAUTH, presentAtPage, startWorld, stepOf, SURGEON, type World } from './harness';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world.close();
});

const preauthRequest = { ...HERNIA_PREAUTH, clinicalNotes: HERNIA_NOTES };

async function electiveCode(s: StationHandle, patientRef: string): Promise<string> {
  const page = await s.ok('benefits.interventions', { patientRef, scenario: 'elective-preauth', pageSize: 5 });
  expect(page.items[0]?.handling).toMatchObject({ startsWith: 'elective', needsPreauth: true, serviceType: 'INPATIENT', closeBy: 'discharge' });
  return page.items[0]!.code;
}

async function approveAll(s: StationHandle, workflowId: string): Promise<void> {
  const view = await s.ok('workflow.get', { workflowId });
  const reference = view.kind === 'elective' ? view.preauth?.reference : undefined;
  expect(reference).toBeTruthy();
  await world.control.post(`/preauths/${reference}/doctor-approval`);
  await eventually(() => s.ok('workflow.get', { workflowId }), (v) => v.state === 'awaiting-payer', 'the doctor’s approval to be seen');
  await world.control.post(`/preauths/${reference}/payer-approval`);
  await eventually(() => s.ok('workflow.get', { workflowId }), (v) => v.state === 'finalised', 'the preauth to be finalised');
}

describe('flow A, elective inpatient preauth', () => {
  it('phase one by fingerprint; on the day the visit opens with no new authorization; discharge by fingerprint', async () => {
    const s = await world.station();
    const cr = await world.control.crIdOf('30000001');
    const template = await world.control.enrolledTemplate(cr);
    const patient = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000001', serviceType: 'INPATIENT' });
    const code = await electiveCode(s, patient.patientRef);
    const elective = await s.ok('elective.begin', { patientRef: patient.patientRef, interventionCode: code });
    expect(elective).toMatchObject({ state: 'verifying', phase: 'pre-visit', verification: { purpose: 'pre-visit', route: { route: 'fingerprint' } } });
    const started = await s.ok('consent.startFingerprint', { workflowId: elective.workflowId });
    await presentAtPage(stepOf(started)!.fingerprint!.link!.url, template);
    await eventually(() => s.ok('workflow.get', { workflowId: elective.workflowId }), (v) => v.state === 'verified', 'phase-one consent');
    const sent = await s.ok('elective.submitPreauth', { workflowId: elective.workflowId, ...preauthRequest });
    expect(sent).toMatchObject({ state: 'awaiting-doctor', preauth: { status: 'PENDING_DOCTOR_APPROVAL', doctorStep: 'waiting', payerStep: 'not-started', requestedAmountKes: 65_000 } });
    // What went on the wire: the multipart preauth of the live exchange.
    const stored = [...world.sandbox.context.state.preauths.values()].at(-1);
    expect(stored).toMatchObject({ items: [65_000], diagnoses: [{ code: 'DD51' }], notification_email: 'claims@hospital.example', details: { clinical_indications: 'Reducible right inguinal hernia' } });
    expect(stored?.doctor).toMatchObject({ registration_number: 'A23456' });
    expect(Date.parse(stored?.service_end ?? '') - Date.parse(stored?.service_start ?? '')).toBe(3 * 24 * 3600_000 - 1000);
    expect(sent.next).toContain('elective.resendDoctorRequest');
    await s.ok('elective.resendDoctorRequest', { workflowId: elective.workflowId });
    // A visit before the payer approves is refused.
    expect((await s.refused('visit.open', { workflowId: elective.workflowId })).code).toBe('PREAUTH_NOT_FINALISED');
    await approveAll(s, elective.workflowId);
    const finalised = await s.ok('workflow.get', { workflowId: elective.workflowId });
    expect(finalised).toMatchObject({ phase: 'visit-day', preauth: { status: 'FINALISED', doctorStep: 'approved', payerStep: 'approved' }, next: expect.arrayContaining(['visit.open']) });

    const authorizationsBefore = world.sandbox.context.state.authorizations.size;
    const visit = await s.ok('visit.open', { workflowId: elective.workflowId, doctor: SURGEON });
    expect(visit).toMatchObject({ state: 'open', serviceType: 'INPATIENT', closeBy: 'discharge', fromWorkflowId: elective.workflowId });
    expect(world.sandbox.context.state.authorizations.size).toBe(authorizationsBefore);
    expect(await s.ok('workflow.get', { workflowId: elective.workflowId })).toMatchObject({ state: 'visit-opened', visitWorkflowId: visit.workflowId });

    await s.ok('visit.addLine', { workflowId: visit.workflowId, unitPriceKes: 60_000, quantity: 1, diagnoses: [{ code: 'DD51' }] });
    const discharge = await s.ok('discharge.begin', { workflowId: visit.workflowId });
    expect(discharge.reasons).toContain('DECEASED');
    const awaiting = await s.ok('consent.startFingerprint', { workflowId: discharge.workflowId });
    await presentAtPage(stepOf(awaiting)!.fingerprint!.link!.url, template);
    await eventually(() => s.ok('workflow.get', { workflowId: discharge.workflowId }), (v) => v.state === 'ready', 'the discharge authorization');
    const done = await s.ok('discharge.dischargeInpatient', { workflowId: discharge.workflowId, reason: 'RECOVERED', notes: 'Wound clean' });
    expect(done).toMatchObject({ state: 'discharged', claimStatus: 'SUBMITTED' });
    expect(await s.ok('workflow.get', { workflowId: visit.workflowId })).toMatchObject({ state: 'closed' });
  });

  it('phase one by SMS code with the preauth given early; on the day a fresh code opens the visit; partial discharge then finalisation', async () => {
    const s = await world.station();
    const cr = await world.control.crIdOf('30000002');
    const patient = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000002', serviceType: 'INPATIENT' });
    const code = await electiveCode(s, patient.patientRef);
    const elective = await s.ok('elective.begin', { patientRef: patient.patientRef, interventionCode: code });
    // Given before consent: kept, and sent as soon as consent is in.
    const early = await s.ok('elective.submitPreauth', { workflowId: elective.workflowId, ...preauthRequest });
    expect(early).toMatchObject({ state: 'verifying', preauth: null });
    await s.ok('consent.sendSms', { workflowId: elective.workflowId });
    const consentCode = await world.control.latestCode({ patient_id: cr }, 'consent');
    const afterCode = await s.ok('consent.confirmSms', { workflowId: elective.workflowId, code: consentCode });
    expect(afterCode).toMatchObject({ state: 'awaiting-doctor', preauth: { status: 'PENDING_DOCTOR_APPROVAL' } });
    // Phase one spent the code on the pre-visit OTP authorize, with the interventions and service type it requires.
    const previsit = [...world.sandbox.context.state.authorizations.values()].find((a) => a.patient_id === cr && a.phase === 'pre_visit');
    expect(previsit?.request).toMatchObject({ patient_id: cr, interventions: [code], service_type: 'INPATIENT' });
    expect(previsit?.request).not.toHaveProperty('intervention_codes');
    await approveAll(s, elective.workflowId);

    const finalised = await s.ok('workflow.get', { workflowId: elective.workflowId });
    expect(finalised.next).toContain('consent.sendSms');
    expect(finalised.next).not.toContain('visit.open');
    expect(stepOf(finalised)).toMatchObject({ purpose: 'visit-day', route: { route: 'sms', fingerprintAllowed: false } });
    const daySent = await s.ok('consent.sendSms', { workflowId: elective.workflowId });
    expect(daySent.state).toBe('visit-day-verifying');
    const dayCode = await world.control.latestCode({ patient_id: cr }, 'consent');
    const opened = await s.ok('consent.confirmSms', { workflowId: elective.workflowId, code: dayCode });
    expect(opened).toMatchObject({ kind: 'elective', state: 'visit-opened' });
    const visitId = opened.kind === 'elective' ? opened.visitWorkflowId! : '';
    await s.ok('visit.attachDoctor', { workflowId: visitId, doctor: SURGEON });
    await s.ok('visit.addLine', { workflowId: visitId, unitPriceKes: 30_000, quantity: 1, diagnoses: [{ code: 'DD51' }] });

    const discharge = await s.ok('discharge.begin', { workflowId: visitId });
    await s.ok('consent.sendSms', { workflowId: discharge.workflowId });
    await s.ok('consent.confirmSms', { workflowId: discharge.workflowId, code: await world.control.latestCode({ patient_id: cr }, 'discharge') });
    const partial = await s.ok('discharge.dischargeInpatient', { workflowId: discharge.workflowId, reason: 'RECOVERED', partial: true });
    expect(partial).toMatchObject({ state: 'partially-discharged', verification: { stage: 'ready' } });
    expect(partial.partialDischarges).toHaveLength(1);
    // Finalising needs the patient's visit-end consent again.
    expect((await s.refused('discharge.submit', { workflowId: discharge.workflowId, reason: 'RECOVERED' })).code).toBe('WRONG_STATE');
    await s.ok('consent.sendSms', { workflowId: discharge.workflowId });
    const again = await s.ok('consent.confirmSms', { workflowId: discharge.workflowId, code: await world.control.latestCode({ patient_id: cr }, 'discharge') });
    expect(again.next).toEqual(expect.arrayContaining(['discharge.submit', 'discharge.dischargeInpatient']));
    expect((await s.refused('discharge.submit', { workflowId: discharge.workflowId, reason: 'DECEASED' as 'OTHER' })).code).toBe('VALIDATION');
    const final = await s.ok('discharge.submit', { workflowId: discharge.workflowId, reason: 'RECOVERED' });
    expect(final).toMatchObject({ state: 'submitted' });
    const claim = [...world.sandbox.context.state.claims.values()].find((c) => c.patient_id === cr && c.service_type === 'INPATIENT');
    expect(claim).toMatchObject({ discharge_status: 'FULL', workflow_state: 'SUBMITTED' });
    expect(claim?.partial_discharges).toHaveLength(1);
  });
});
