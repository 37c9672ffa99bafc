// A member covered under two schemes (30000005) through the station core and the running sandbox:
// the nurse chooses the scheme at the look-up, but the exchange takes the cover only with a consent
// token (POST /authorizations/covers {consent_token, principal_cr_id, policy_number}, R and K), so
// the station sets it on the claim as the visit opens, and the claim then submits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCTOR, startWorld, type World } from './harness';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world.close();
});

describe('covers: a member under two schemes', () => {
  it('records the choice without calling the exchange, sets it on the claim when the visit opens, and submits', async () => {
    const s = await world.station({ facility: 'dispensary' });
    const cr = await world.control.crIdOf('30000005');
    const patient = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000005' });
    expect(patient).toMatchObject({ schemeChoiceNeeded: true, chosenSchemeId: null });
    expect((await s.refused('consent.begin', { patientRef: patient.patientRef })).code).toBe('SCHEME_CHOICE_NEEDED');
    const pomsf = patient.schemes.find((scheme) => /PUBLIC OFFICERS/.test(scheme.name));
    expect(pomsf?.covered).toBe(true);
    expect((await s.refused('patient.chooseScheme', { patientRef: patient.patientRef, schemeId: 'NO-SUCH' })).code).toBe('NOT_FOUND');
    const chosen = await s.ok('patient.chooseScheme', { patientRef: patient.patientRef, schemeId: pomsf?.schemeId ?? '' });
    expect(chosen).toMatchObject({ schemeChoiceNeeded: false, chosenSchemeId: pomsf?.schemeId });

    const consent = await s.ok('consent.begin', { patientRef: patient.patientRef });
    await s.ok('consent.sendSms', { workflowId: consent.workflowId });
    // The confirmed code opens the visit (the visit is the consent); the doctor is attached after.
    const opened = await s.ok('consent.confirmSms', { workflowId: consent.workflowId, code: await world.control.latestCode({ patient_id: cr }, 'consent') });
    if (opened.kind !== 'consent' || opened.visitWorkflowId === null) throw new Error('the confirmed code opened no visit');
    const visit = await s.ok('visit.attachDoctor', { workflowId: opened.visitWorkflowId, doctor: DOCTOR });
    expect(visit).toMatchObject({ kind: 'visit', state: 'open', lastError: null });
    await s.ok('visit.addLine', { workflowId: visit.workflowId, unitPriceKes: 900, quantity: 1, diagnoses: [{ code: 'CA40.0' }] });

    const discharge = await s.ok('discharge.begin', { workflowId: visit.workflowId });
    await s.ok('consent.sendSms', { workflowId: discharge.workflowId });
    await s.ok('consent.confirmSms', { workflowId: discharge.workflowId, code: await world.control.latestCode({ patient_id: cr }, 'discharge') });
    // Without the cover the sandbox refuses the submit with COVER_NOT_SET.
    const submitted = await s.ok('discharge.submit', { workflowId: discharge.workflowId, reason: 'RECOVERED' });
    expect(submitted).toMatchObject({ state: 'submitted', claimStatus: 'SUBMITTED' });
    // The principal's CR number and the policy never reach the renderer's views or the logs.
    expect(JSON.stringify(s.events)).not.toContain(cr);
    expect(s.logs.join('\n')).not.toContain('POMSF-6427810-01');
  });
});
