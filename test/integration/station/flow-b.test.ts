// Flow B (outpatient capitation) through the station core against the running sandbox: by SMS code
// (the code sent, then spent by the visit itself: no authorize) and by fingerprint (the page's time
// limit from the authorization's expiry), from the ID number to a submitted claim, counting the
// nurse's actions. The capitation intervention goes out as service_type CAPITATION.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCTOR, eventually, presentAtPage, startWorld, stepOf, type World } from './harness';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world.close();
});

describe('flow B, outpatient capitation', () => {
  it('by SMS code: look-up, consent, visit, line, visit-end code, submit', async () => {
    const s = await world.station();
    const cr = await world.control.crIdOf('30000002');
    // Nurse: types the ID number (1), presses Look up (2).
    const patient = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000002' });
    expect(patient.covered).toBe(true);
    expect(patient.maskedName).toBe('O*** J*** O***');
    expect(patient.badges).toEqual({ smsCodeAllowed: true, fingerprintRequired: false });
    expect(patient.suggestedIntervention).toMatchObject({ scenario: 'capitation' });
    // The renderer begins consent with the defaults (no nurse action); the route is decided.
    const consent = await s.ok('consent.begin', { patientRef: patient.patientRef });
    expect(consent.verification.route).toMatchObject({ route: 'fingerprint', reason: 'whitelisted', smsAllowed: true });
    expect(consent.next).toContain('consent.sendSms');
    // Nurse: "Verify by SMS code" (3) — to the main contact by default.
    const sent = await s.ok('consent.sendSms', { workflowId: consent.workflowId });
    expect(stepOf(sent)?.stage).toBe('sms-sent');
    expect(stepOf(sent)?.sms?.sentTo).toMatch(/\*/);
    const code = await world.control.latestCode({ patient_id: cr }, 'consent');
    // Nurse: types the code (4), presses Confirm (5): the visit posted with the code is the consent.
    const opened = await s.ok('consent.confirmSms', { workflowId: consent.workflowId, code });
    expect(opened).toMatchObject({ kind: 'consent', state: 'visit-opened' });
    if (opened.kind !== 'consent' || opened.visitWorkflowId === null) throw new Error('no visit');
    // Nurse: Open visit (6) shows it.
    const visit = await s.ok('workflow.get', { workflowId: opened.visitWorkflowId });
    expect(visit).toMatchObject({ kind: 'visit', state: 'open', closeBy: 'submit', serviceType: 'OUTPATIENT' });
    if (visit.kind !== 'visit') throw new Error('not a visit');
    expect(visit.visitNumber).toMatch(/^VN-/);
    // On the wire: POST /claims/otp, then the visit with the code, as CAPITATION; no authorize at all.
    const [claim] = [...world.sandbox.context.state.claims.values()].filter((c) => c.patient_id === cr);
    expect(claim).toMatchObject({ service_type: 'CAPITATION', opened_with: { otp: code, auth_guid: null } });
    const calls = await s.ok('audit.read', { workflowId: consent.workflowId, page: 1, pageSize: 100 });
    const operations = calls.items.filter((r) => r.outcome === 'started').map((r) => r.action);
    expect([...operations].sort()).toEqual(['exchange.claims.createVisit', 'exchange.consent.sendOtp']);
    await s.ok('visit.attachDoctor', { workflowId: visit.workflowId, doctor: DOCTOR });
    const withLine = await s.ok('visit.addLine', { workflowId: visit.workflowId, unitPriceKes: 900, quantity: 1, diagnoses: [{ code: 'CA40.0' }] });
    expect(withLine.lines).toHaveLength(1);
    expect(withLine.lines[0]).toMatchObject({ unitPriceKes: 900, automatic: false });
    const preview = await s.ok('visit.preview', { workflowId: visit.workflowId });
    expect(preview).toMatchObject({ claimStatus: 'DRAFT', totalKes: 900, doctor: DOCTOR });

    const discharge = await s.ok('discharge.begin', { workflowId: visit.workflowId });
    expect(discharge).toMatchObject({ state: 'verifying', closeBy: 'submit' });
    expect(discharge.reasons).not.toContain('DECEASED');
    await s.ok('consent.sendSms', { workflowId: discharge.workflowId });
    const dischargeCode = await world.control.latestCode({ patient_id: cr }, 'discharge');
    const ready = await s.ok('consent.confirmSms', { workflowId: discharge.workflowId, code: dischargeCode });
    expect(ready).toMatchObject({ state: 'ready', next: expect.arrayContaining(['discharge.submit']) });
    const submitted = await s.ok('discharge.submit', { workflowId: discharge.workflowId, reason: 'RECOVERED' });
    expect(submitted).toMatchObject({ state: 'submitted', claimStatus: 'SUBMITTED' });
    const closed = await s.ok('workflow.get', { workflowId: visit.workflowId });
    expect(closed).toMatchObject({ state: 'closed' });
    expect(JSON.stringify(s.events)).not.toContain(code);
  });

  it('by SMS code, a wrong code is counted where the visit refuses it; the right one then opens the visit', async () => {
    const s = await world.station();
    const cr = await world.control.crIdOf('30000002');
    const patient = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000002' });
    const consent = await s.ok('consent.begin', { patientRef: patient.patientRef });
    await s.ok('consent.sendSms', { workflowId: consent.workflowId });
    const code = await world.control.latestCode({ patient_id: cr }, 'consent');
    const wrong = code === '000000' ? '111111' : '000000';
    const claimsOf = () => [...world.sandbox.context.state.claims.values()].filter((c) => c.patient_id === cr).length;
    const before = claimsOf();
    const refused = await s.refused('consent.confirmSms', { workflowId: consent.workflowId, code: wrong });
    expect(refused).toMatchObject({ code: 'OTP_INVALID', details: { attemptsLeft: 2 } });
    const back = await s.ok('workflow.get', { workflowId: consent.workflowId });
    expect(back).toMatchObject({ kind: 'consent', state: 'verifying' });
    expect(stepOf(back)).toMatchObject({ stage: 'sms-sent', sms: { failedAttempts: 1 } });
    expect(back.next).toContain('consent.confirmSms');
    expect(claimsOf()).toBe(before);
    const opened = await s.ok('consent.confirmSms', { workflowId: consent.workflowId, code });
    expect(opened).toMatchObject({ state: 'visit-opened', lastError: null });
  });

  it('by fingerprint: the authorization link, the patient at the page, the look-up, then the visit', async () => {
    const s = await world.station();
    const cr = await world.control.crIdOf('30000001');
    const template = await world.control.enrolledTemplate(cr);
    const patient = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000001' });
    expect(patient.badges).toEqual({ smsCodeAllowed: false, fingerprintRequired: true });
    const consent = await s.ok('consent.begin', { patientRef: patient.patientRef });
    expect(consent.verification.route).toMatchObject({ route: 'fingerprint', reason: 'biometrics-enforced', smsAllowed: false });
    expect(consent.next).not.toContain('consent.sendSms');
    const started = await s.ok('consent.startFingerprint', { workflowId: consent.workflowId });
    const link = stepOf(started)?.fingerprint?.link;
    expect(link?.handle).toMatch(/^lk_/);
    expect(started.deadlines.map((d) => d.kind)).toContain('link-expiry');
    // The page's time limit is the authorization's own expiry (ten minutes), not embedExpiry (120 seconds, a number).
    const [authorization] = [...world.sandbox.context.state.authorizations.values()].filter((a) => a.patient_id === cr && a.status === 'PENDING');
    expect(authorization?.service_type).toBe('CAPITATION');
    expect(Date.parse(link!.expiresAt)).toBe(authorization!.expires_at);
    expect(Date.parse(link!.expiresAt) - world.sandbox.context.clock.now()).toBeGreaterThan(9 * 60_000);
    // The look-up does not take the link for expired.
    expect(stepOf(await s.ok('workflow.get', { workflowId: consent.workflowId }))?.stage).toBe('awaiting-fingerprint');
    expect((await presentAtPage(link!.url, template)).matched).toBe(true);
    // The page says it is done: the look-up goes out at once, and the exchange's AUTHORIZED opens the visit in the same step.
    const checked = await s.ok('consent.checkFingerprint', { workflowId: consent.workflowId });
    expect(checked).toMatchObject({ state: 'visit-opened', verification: { stage: 'verified' } });
    const opened = [...world.sandbox.context.state.claims.values()].filter((c) => c.patient_id === cr);
    expect(opened).toHaveLength(1);
    // "Open visit" answers the visit already open, with the doctor named now.
    const visit = await s.ok('visit.open', { workflowId: consent.workflowId, doctor: DOCTOR });
    expect(visit).toMatchObject({ state: 'open', workflowId: 'visitWorkflowId' in checked ? checked.visitWorkflowId : null, doctor: DOCTOR });
    expect([...world.sandbox.context.state.claims.values()].filter((c) => c.patient_id === cr)).toHaveLength(1);
    await s.ok('visit.addLine', { workflowId: visit.workflowId, unitPriceKes: 900, quantity: 2, diagnoses: [{ code: 'CA40.0' }] });

    const discharge = await s.ok('discharge.begin', { workflowId: visit.workflowId });
    const awaiting = await s.ok('consent.startFingerprint', { workflowId: discharge.workflowId });
    // The visit-end authorize is the live twelve-field body naming the patient (no consent_token).
    const visitEnd = [...world.sandbox.context.state.authorizations.values()].find((a) => a.patient_id === cr && a.phase === 'discharge');
    expect(visitEnd?.request).toMatchObject({ patient_id: cr, service_type: 'CAPITATION', is_biometrics_discharge_authorization: true, authorizing_device_os: 'windows' });
    expect(visitEnd?.request).not.toHaveProperty('consent_token');
    expect((await presentAtPage(stepOf(awaiting)!.fingerprint!.link!.url, template)).matched).toBe(true);
    await eventually(() => s.ok('workflow.get', { workflowId: discharge.workflowId }), (v) => v.state === 'ready', 'the discharge authorization');
    const submitted = await s.ok('discharge.submit', { workflowId: discharge.workflowId, reason: 'RECOVERED' });
    expect(submitted.state).toBe('submitted');
    const claims = [...world.sandbox.context.state.claims.values()].filter((c) => c.patient_id === cr);
    expect(claims).toHaveLength(1);
    expect(claims[0]!.workflow_state).toBe('SUBMITTED');
  });
});
