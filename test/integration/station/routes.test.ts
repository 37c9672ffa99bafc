// The route decision against the demo world at both facilities, the stale PENDING, expiry,
// cancel, wrong codes and 30000004's fallback, through the station core and the running sandbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FACILITIES, eventually, startWorld, stepOf, visitOpenedBy, type StationHandle, type World } from './harness';

let world: World;
let hospital: StationHandle;
let dispensary: StationHandle;
beforeAll(async () => {
  world = await startWorld();
  hospital = await world.station({ facility: 'hospital' });
  dispensary = await world.station({ facility: 'dispensary' });
});
afterAll(async () => {
  await world.close();
});

type Row = { id: string; covered: boolean; route?: string; reason?: string; sms?: boolean; choice?: boolean; phone?: boolean };

const hospitalRows: Row[] = [
  { id: '30000001', covered: true, route: 'fingerprint', reason: 'biometrics-enforced', sms: false },
  { id: '30000002', covered: true, route: 'fingerprint', reason: 'whitelisted', sms: true },
  { id: '30000003', covered: false },
  { id: '30000004', covered: true, route: 'fingerprint', reason: 'biometrics-enforced', sms: false },
  { id: '30000005', covered: true, route: 'fingerprint', reason: 'biometrics-enforced', sms: false, choice: true },
  { id: '30000006', covered: true, route: 'fingerprint', reason: 'no-phone', sms: false, phone: false },
];
const dispensaryRows: Row[] = [
  { id: '30000001', covered: true, route: 'fingerprint', reason: 'biometrics-not-enforced', sms: true },
  { id: '30000002', covered: true, route: 'fingerprint', reason: 'biometrics-not-enforced', sms: true },
  { id: '30000003', covered: false },
  { id: '30000004', covered: true, route: 'fingerprint', reason: 'biometrics-not-enforced', sms: true },
  { id: '30000005', covered: true, route: 'fingerprint', reason: 'biometrics-not-enforced', sms: true, choice: true },
  { id: '30000006', covered: true, route: 'fingerprint', reason: 'no-phone', sms: false, phone: false },
];

async function checkRow(s: StationHandle, row: Row): Promise<void> {
  const patient = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: row.id });
  expect(patient.covered, row.id).toBe(row.covered);
  expect(patient.maskedIdNumber).not.toContain(row.id);
  if (!row.covered) {
    expect(patient.reason).toBeTruthy();
    expect(patient.possibleSolution).toBeTruthy();
    expect((await s.refused('consent.begin', { patientRef: patient.patientRef })).code).toBe('NOT_COVERED');
    return;
  }
  expect(patient.hasPhone, row.id).toBe(row.phone ?? true);
  expect(patient.badges, row.id).toEqual({ smsCodeAllowed: row.sms, fingerprintRequired: !row.sms });
  if (row.choice === true) {
    expect(patient).toMatchObject({ schemeChoiceNeeded: true, chosenSchemeId: null });
    expect((await s.refused('consent.begin', { patientRef: patient.patientRef })).code).toBe('SCHEME_CHOICE_NEEDED');
    const shif = patient.schemes.find((scheme) => scheme.name === 'SOCIAL HEALTH INSURANCE FUND');
    const chosen = await s.ok('patient.chooseScheme', { patientRef: patient.patientRef, schemeId: shif?.schemeId ?? '' });
    expect(chosen).toMatchObject({ schemeChoiceNeeded: false, chosenSchemeId: shif?.schemeId });
  }
  const consent = await s.ok('consent.begin', { patientRef: patient.patientRef });
  expect(consent.verification.route, row.id).toMatchObject({ route: row.route, reason: row.reason, smsAllowed: row.sms, fingerprintAllowed: true });
  expect(consent.next.includes('consent.sendSms'), row.id).toBe(row.sms);
  if (row.sms === false) {
    const refusal = await s.refused('consent.sendSms', { workflowId: consent.workflowId });
    expect(refusal.code).toBe(row.phone === false ? 'NO_CONTACT' : 'BIOMETRICS_REQUIRED');
  }
}

describe('the route decision, each row of the demo world', () => {
  it.each(hospitalRows)('at the hospital (biometrics enforced): $id', async (row) => checkRow(hospital, row));
  it.each(dispensaryRows)('at the dispensary (not enforced): $id', async (row) => checkRow(dispensary, row));

  it('an unknown ID number is NOT_FOUND', async () => {
    expect((await hospital.refused('patient.lookUp', { idType: 'National ID', idNumber: '99999999' })).code).toBe('NOT_FOUND');
  });

  it('at the dispensary a patient the hospital must fingerprint consents by SMS code', async () => {
    const cr = await world.control.crIdOf('30000001');
    const patient = await dispensary.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000001' });
    const consent = await dispensary.ok('consent.begin', { patientRef: patient.patientRef });
    await dispensary.ok('consent.sendSms', { workflowId: consent.workflowId });
    const opened = await dispensary.ok('consent.confirmSms', { workflowId: consent.workflowId, code: await world.control.latestCode({ patient_id: cr }, 'consent') });
    expect(opened.state).toBe('visit-opened');
  });
});

describe('fingerprint requests', () => {
  it('a stale PENDING of this workflow is rejected before the SMS code is sent', async () => {
    const patient = await hospital.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000002' });
    const consent = await hospital.ok('consent.begin', { patientRef: patient.patientRef });
    const started = await hospital.ok('consent.startFingerprint', { workflowId: consent.workflowId });
    expect(stepOf(started)?.stage).toBe('awaiting-fingerprint');
    const pending = [...world.sandbox.context.state.authorizations.values()].filter((a) => a.status === 'PENDING');
    expect(pending).toHaveLength(1);
    const switched = await hospital.ok('consent.sendSms', { workflowId: consent.workflowId });
    expect(stepOf(switched)?.stage).toBe('sms-sent');
    expect(world.sandbox.context.state.authorizations.get(pending[0]!.guid)).toMatchObject({ status: 'REJECTED', reason: 'REJECTED_BY_FACILITY' });
  });

  it('a PENDING left by another workflow blocks the code at the exchange: the station rejects it and sends', async () => {
    const patient = await hospital.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000002' });
    const left = await hospital.ok('consent.begin', { patientRef: patient.patientRef });
    await hospital.ok('consent.startFingerprint', { workflowId: left.workflowId });
    const fresh = await hospital.ok('consent.begin', { patientRef: patient.patientRef });
    const sent = await hospital.ok('consent.sendSms', { workflowId: fresh.workflowId });
    expect(stepOf(sent)?.stage).toBe('sms-sent');
    const audit = await hospital.ok('audit.read', { workflowId: fresh.workflowId, action: 'consent.staleAuthorizationRejected' });
    expect(audit.total).toBe(1);
    await eventually(() => hospital.ok('workflow.get', { workflowId: left.workflowId }), (v) => stepOf(v)?.stage === 'rejected', 'the other workflow to see its request rejected');
  });

  it('expiry: the look-up sees EXPIRED after ten minutes of sandbox time; retry makes a fresh request', async () => {
    const patient = await hospital.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000001' });
    const consent = await hospital.ok('consent.begin', { patientRef: patient.patientRef });
    const first = await hospital.ok('consent.startFingerprint', { workflowId: consent.workflowId });
    const firstLink = stepOf(first)!.fingerprint!.link!;
    await world.control.advanceClock(11 * 60_000);
    const expired = await eventually(() => hospital.ok('workflow.get', { workflowId: consent.workflowId }), (v) => stepOf(v)?.stage === 'expired', 'expiry');
    expect(expired.lastError?.code).toBe('AUTHORIZATION_EXPIRED');
    expect(expired.next).toContain('consent.retry');
    const again = await hospital.ok('consent.retry', { workflowId: consent.workflowId });
    const link = stepOf(again)!.fingerprint!.link!;
    expect(stepOf(again)?.stage).toBe('awaiting-fingerprint');
    expect(link.handle).not.toBe(firstLink.handle);
    expect(link.url).not.toBe(firstLink.url);
  });

  it('cancel rejects the pending request at the exchange; a second cancel withdraws the consent', async () => {
    const patient = await hospital.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000001' });
    const consent = await hospital.ok('consent.begin', { patientRef: patient.patientRef });
    await hospital.ok('consent.startFingerprint', { workflowId: consent.workflowId });
    const pending = [...world.sandbox.context.state.authorizations.values()].filter((a) => a.status === 'PENDING').at(-1)!;
    const cancelled = await hospital.ok('consent.cancel', { workflowId: consent.workflowId });
    expect(stepOf(cancelled)?.stage).toBe('cancelled');
    expect(world.sandbox.context.state.authorizations.get(pending.guid)?.status).toBe('REJECTED');
    const withdrawn = await hospital.ok('consent.cancel', { workflowId: consent.workflowId });
    expect(withdrawn.state).toBe('cancelled');
  });

  it('three wrong codes offer the escape hatch', async () => {
    const patient = await hospital.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000002' });
    const consent = await hospital.ok('consent.begin', { patientRef: patient.patientRef });
    await hospital.ok('consent.sendSms', { workflowId: consent.workflowId });
    for (const left of [2, 1, 0]) {
      const refusal = await hospital.refused('consent.confirmSms', { workflowId: consent.workflowId, code: '000000' });
      expect(refusal).toMatchObject({ code: 'OTP_INVALID' });
      expect((await hospital.ok('workflow.get', { workflowId: consent.workflowId })).lastError?.details?.attemptsLeft).toBe(left);
    }
    const view = await hospital.ok('workflow.get', { workflowId: consent.workflowId });
    expect(stepOf(view)?.sms).toMatchObject({ failedAttempts: 3, escapeOffered: true });
    expect(view.next).toContain('consent.requestWhitelist');
    // No code is offered, or taken, after the third wrong one: the fingerprint or SHA's permission is the way on.
    expect(view.next).not.toContain('consent.confirmSms');
    expect(view.next).not.toContain('consent.sendSms');
    expect(view.next).toContain('consent.startFingerprint');
    expect(await hospital.refused('consent.confirmSms', { workflowId: consent.workflowId, code: '000000' })).toMatchObject({ code: 'WRONG_STATE' });

    // SHA allows the patient SMS codes: new codes may be tried, and the right one opens the visit.
    await hospital.ok('consent.requestWhitelist', { workflowId: consent.workflowId, reasonType: 'TECHNICAL_ISSUES' });
    const cr = await world.control.crIdOf('30000002');
    const request = [...world.sandbox.context.state.whitelistRequests.values()].find((w) => w.beneficiary_cr_id === cr);
    const approved = await fetch(`${world.sandbox.url}/sandbox/otp-whitelists/${request!.guid}/approval`, { method: 'POST' });
    expect(approved.ok).toBe(true);
    await expect.poll(async () => stepOf(await hospital.ok('workflow.get', { workflowId: consent.workflowId }))?.whitelist?.status, { timeout: 10_000 }).toBe('approved');
    const allowed = await hospital.ok('workflow.get', { workflowId: consent.workflowId });
    expect(allowed.next).toContain('consent.sendSms');
    expect(allowed.next).toContain('consent.confirmSms');
    await hospital.ok('consent.sendSms', { workflowId: consent.workflowId });
    const opened = await hospital.ok('consent.confirmSms', { workflowId: consent.workflowId, code: await world.control.latestCode({ patient_id: cr }, 'consent') });
    expect(opened.state).toBe('visit-opened');
  });
});

describe('30000004: fingerprints unusable', () => {
  it('falls back to an SMS code inside the window; after it, the whitelist request', async () => {
    const cr = await world.control.crIdOf('30000004');
    const patient = await hospital.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000004' });
    const consent = await hospital.ok('consent.begin', { patientRef: patient.patientRef });
    const fallback = await hospital.ok('consent.startFingerprint', { workflowId: consent.workflowId });
    const step = stepOf(fallback)!;
    expect(step.route).toMatchObject({ route: 'sms-fallback', reason: 'fingerprints-unusable', smsAllowed: true, fingerprintAllowed: false });
    expect(Date.parse(step.route.fallbackUntil!) - world.sandbox.context.clock.now()).toBeGreaterThan(14 * 60_000);
    expect(fallback.deadlines.map((d) => d.kind)).toContain('fallback-window');
    expect(fallback.lastError).toBeNull();
    await hospital.ok('consent.sendSms', { workflowId: consent.workflowId });
    await hospital.ok('consent.confirmSms', { workflowId: consent.workflowId, code: await world.control.latestCode({ patient_id: cr }, 'consent') });
    expect((await visitOpenedBy(hospital, consent.workflowId)).state).toBe('open');

    // A later consent of the same patient starts on the fallback while the window lasts …
    const later = await hospital.ok('consent.begin', { patientRef: patient.patientRef });
    expect(later.verification.route.route).toBe('sms-fallback');
    // … and is blocked once it has closed, with the whitelist request advised.
    await world.control.advanceClock(16 * 60_000);
    const closed = await hospital.ok('consent.begin', { patientRef: patient.patientRef });
    expect(closed.verification).toMatchObject({ stage: 'blocked', route: { route: 'blocked', reason: 'fallback-window-closed', whitelistAdvised: true } });
    expect((await hospital.refused('consent.sendSms', { workflowId: closed.workflowId })).code).toBe('FALLBACK_WINDOW_CLOSED');
    expect(closed.next).toContain('consent.requestWhitelist');
    const requested = await hospital.ok('consent.requestWhitelist', { workflowId: closed.workflowId, reasonType: 'BIOMETRIC_FAILURE' });
    expect(stepOf(requested)?.whitelist).toMatchObject({ status: 'pending', reasonType: 'BIOMETRIC_FAILURE' });
    const request = [...world.sandbox.context.state.whitelistRequests.values()].find((w) => w.beneficiary_cr_id === cr)!;
    // The reason in words (the nurse wrote none: the reason's own name), and this step's fingerprint attempts.
    expect(request).toMatchObject({ reason_type: 'BIOMETRIC_FAILURE', reason: 'Biometric failure', biometric_attempts: 0, facility: FACILITIES.hospital.code });
    await world.control.post(`/otp-whitelists/${request.guid}/approval`);
    const approved = await eventually(() => hospital.ok('workflow.get', { workflowId: closed.workflowId }), (v) => stepOf(v)?.whitelist?.status === 'approved', 'the whitelist approval');
    expect(stepOf(approved)?.route).toMatchObject({ route: 'sms', reason: 'whitelisted', smsAllowed: true });
    await hospital.ok('consent.sendSms', { workflowId: closed.workflowId });
    const opened = await hospital.ok('consent.confirmSms', { workflowId: closed.workflowId, code: await world.control.latestCode({ patient_id: cr }, 'consent') });
    expect(opened.state).toBe('visit-opened');
  });
});
