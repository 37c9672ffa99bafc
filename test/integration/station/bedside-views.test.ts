// What the bedside screens read from the core beyond the workflows: the patient in hand in full
// (from the eligibility answer), the ward's queue (how long each workflow has waited in its state,
// the doctor's and SHA's answers) and the activity record with the patient each entry concerns,
// masked — through the bridge, against the running sandbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, HERNIA_PREAUTH, presentAtPage, startWorld, stepOf, type World } from './harness';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world.close();
});

describe('the patient in hand', () => {
  it('comes in full from the eligibility answer, at eligibility already; this shift’s list and the views stay masked', async () => {
    const s = await world.station();
    const summary = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000001', answerAt: 'eligibility' });
    // The sandbox's demo world: Wanjiku Mumbi Kamau, female, born 14 March 1985.
    expect(summary.identity).toEqual({ fullName: 'Wanjiku Mumbi Kamau', sex: 'female', dateOfBirth: '1985-03-14', idNumberEnd: '0001' });
    expect(summary.maskedName).toBe('W*** M*** K***');
    expect((await s.ok('patient.details', { patientRef: summary.patientRef })).identity.fullName).toBe('Wanjiku Mumbi Kamau');
    expect(JSON.stringify(await s.ok('patient.recent', {}))).not.toContain('Wanjiku');
    const consent = await s.ok('consent.begin', { patientRef: summary.patientRef });
    expect(JSON.stringify(consent)).not.toContain('Wanjiku');
    expect(JSON.stringify(s.events)).not.toContain('Wanjiku');
    const male = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000002' });
    expect(male.identity).toMatchObject({ fullName: 'Otieno Juma Ochieng', sex: 'male', dateOfBirth: '1956-11-02' });
  });
});

describe('the ward’s queue', () => {
  it('says when each workflow came into its state and tells the doctor’s and SHA’s answers on a preauthorization', async () => {
    const s = await world.station();
    const patient = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000001', serviceType: 'INPATIENT' });
    const code = (await s.ok('benefits.interventions', { patientRef: patient.patientRef, scenario: 'elective-preauth', pageSize: 1 })).items[0]!.code;
    const elective = await s.ok('elective.begin', { patientRef: patient.patientRef, interventionCode: code });
    const queued = async () => (await s.ok('work.queue', { patientRef: patient.patientRef })).items.find((item) => item.view.workflowId === elective.workflowId)!;
    const begun = await queued();
    expect(begun.view.state).toBe('verifying');
    expect(begun.answer).toBeNull();

    const template = await world.control.enrolledTemplate(await world.control.crIdOf('30000001'));
    const started = await s.ok('consent.startFingerprint', { workflowId: elective.workflowId });
    await presentAtPage(stepOf(started)!.fingerprint!.link!.url, template);
    await eventually(() => s.ok('workflow.get', { workflowId: elective.workflowId }), (v) => v.state === 'verified', 'phase-one consent');
    await s.ok('elective.submitPreauth', { workflowId: elective.workflowId, ...HERNIA_PREAUTH });
    const waiting = await queued();
    expect(waiting.view.state).toBe('awaiting-doctor');
    expect(Date.parse(waiting.since)).toBeGreaterThanOrEqual(Date.parse(begun.since));
    // Polls change the view (checkedAt) but not the state: the wait is counted from the state.
    await s.ok('elective.refreshPreauth', { workflowId: elective.workflowId });
    expect((await queued()).since).toBe(waiting.since);

    // Two hours pass on the station's clock (the sandbox's), then the doctor approves.
    await world.control.advanceClock(2 * 3600_000);
    const reference = (await s.ok('workflow.get', { workflowId: elective.workflowId }));
    await world.control.post(`/preauths/${reference.kind === 'elective' ? reference.preauth?.reference : ''}/doctor-approval`);
    await eventually(() => s.ok('workflow.get', { workflowId: elective.workflowId }), (v) => v.state === 'awaiting-payer', 'the doctor’s approval');
    const approved = await queued();
    expect(approved.answer).toEqual({ by: 'doctor', about: 'preauth', outcome: 'approved', at: approved.since });
    expect(Date.parse(approved.since) - Date.parse(waiting.since)).toBeGreaterThanOrEqual(2 * 3600_000);

    // The longest waiting comes first.
    const consent = await s.ok('consent.begin', { patientRef: patient.patientRef });
    const order = (await s.ok('work.queue', {})).items.map((item) => item.view.workflowId);
    expect(order.indexOf(elective.workflowId)).toBeLessThan(order.indexOf(consent.workflowId));
    expect((await s.ok('work.queue', {})).items.every((item) => item.view.state !== 'cancelled')).toBe(true);
  });
});

describe('the activity record', () => {
  it('names the patient of each entry, masked: a workflow’s, and the one a look-up found', async () => {
    const s = await world.station();
    const patient = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000002' });
    const consent = await s.ok('consent.begin', { patientRef: patient.patientRef });
    await s.ok('station.lock', {});
    await s.ok('station.unlock', { pin: '1234' });
    const page = await s.ok('audit.read', { pageSize: 50 });
    const lookUp = page.items.find((r) => r.action === 'patient.lookUp' && r.summary.includes(patient.patientRef));
    expect(lookUp?.maskedPatient).toBe('O*** J*** O***');
    expect(page.items.find((r) => r.action === 'consent.created' && r.workflowId === consent.workflowId)?.maskedPatient).toBe('O*** J*** O***');
    expect(page.items.find((r) => r.action === 'station.lock')?.maskedPatient).toBeNull();
    // The export stays the hash-chained records as they are.
    const exported = await s.ok('audit.export', {});
    expect(exported.content).not.toContain('maskedPatient');
    expect((await s.ok('audit.verify', {})).intact).toBe(true);
  });
});
