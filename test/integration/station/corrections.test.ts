// Issue 14's corrections through the station core against the running sandbox: a wrong visit
// closed with its reason; the doctor changed (removed, then the new one added; a refused new one
// leaves the previous doctor attached); a diagnosis removed and a line edited; an emergency given a
// second protocol and another doctor inside its 24 hours; a preauth whose doctor request failed
// resent instead of ended, a clarification shown with the payer's note, a diagnosis removed before
// the doctor approves, and a cancelled FINALISED preauth offering no visit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCTOR, eventually, startWorld, SURGEON, type StationHandle, type World } from './harness';

let world: World;
let s: StationHandle;
beforeAll(async () => {
  world = await startWorld();
  s = await world.station();
});
afterAll(async () => {
  await world.close();
});

const OTHER_DOCTOR = { identificationType: 'registration_number', identificationNumber: 'A34567', regulationBody: 'KMPDC' };
const UNKNOWN_DOCTOR = { identificationType: 'registration_number', identificationNumber: 'Z99999', regulationBody: 'KMPDC' };
const claimOf = (cr: string) => [...world.sandbox.context.state.claims.values()].filter((c) => c.patient_id === cr).at(-1)!;

/** An outpatient visit by SMS code for the whitelisted patient, with the doctor attached and one line. */
async function openVisit(): Promise<{ visitId: string; cr: string }> {
  const cr = await world.control.crIdOf('30000002');
  const patient = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000002', serviceType: 'OUTPATIENT' });
  const consent = await s.ok('consent.begin', { patientRef: patient.patientRef });
  await s.ok('consent.sendSms', { workflowId: consent.workflowId });
  const opened = await s.ok('consent.confirmSms', { workflowId: consent.workflowId, code: await world.control.latestCode({ patient_id: cr }, 'consent') });
  if (opened.kind !== 'consent' || opened.visitWorkflowId === null) throw new Error('no visit');
  await s.ok('visit.attachDoctor', { workflowId: opened.visitWorkflowId, doctor: DOCTOR });
  await s.ok('visit.addLine', { workflowId: opened.visitWorkflowId, unitPriceKes: 500, quantity: 2, diagnoses: [{ code: 'CA40' }, { code: 'MD12' }], description: 'Chest X-ray' });
  return { visitId: opened.visitWorkflowId, cr };
}

describe('visit corrections', () => {
  it('the doctor changed: the old one removed at SHA, then the new one added — no DOCTOR_ALREADY_ATTACHED', async () => {
    const { visitId, cr } = await openVisit();
    expect(claimOf(cr).doctor?.registration_number).toBe('A12345');
    const changed = await s.ok('visit.attachDoctor', { workflowId: visitId, doctor: OTHER_DOCTOR });
    expect(changed).toMatchObject({ doctor: OTHER_DOCTOR, lastError: null });
    expect(claimOf(cr).doctor?.registration_number).toBe('A34567');
    // A doctor SHA refuses: the refusal stands, and the previous doctor is on the claim again.
    const refused = await s.refused('visit.attachDoctor', { workflowId: visitId, doctor: UNKNOWN_DOCTOR });
    expect(refused.code).toBe('DOCTOR_NOT_FOUND');
    expect(claimOf(cr).doctor?.registration_number).toBe('A34567');
    const after = await s.ok('workflow.get', { workflowId: visitId });
    expect(after).toMatchObject({ doctor: OTHER_DOCTOR, lastError: { code: 'DOCTOR_NOT_FOUND' } });
    // SHA lost the doctor the station knows of (removed elsewhere): the change still goes through.
    claimOf(cr).doctor = null;
    const again = await s.ok('visit.attachDoctor', { workflowId: visitId, doctor: DOCTOR });
    expect(again).toMatchObject({ doctor: DOCTOR, lastError: null });
    expect(claimOf(cr).doctor?.registration_number).toBe('A12345');
    await s.ok('visit.close', { workflowId: visitId, reason: 'NO_SERVICE_GIVEN', explanation: 'test visit ended' });
  });

  it('a diagnosis removed and a line edited on the claim at SHA', async () => {
    const { visitId, cr } = await openVisit();
    const view = await s.ok('workflow.get', { workflowId: visitId });
    if (view.kind !== 'visit') throw new Error('not a visit');
    expect(view.next).toEqual(expect.arrayContaining(['visit.removeDiagnosis', 'visit.editLine', 'visit.close', 'visit.switchIntervention']));
    const line = view.lines.find((l) => !l.automatic)!;
    const removed = await s.ok('visit.removeDiagnosis', { workflowId: visitId, code: 'MD12' });
    expect(removed.lines.find((l) => l.lineId === line.lineId)?.diagnoses.map((d) => d.code)).toEqual(['CA40']);
    expect(claimOf(cr).diagnoses.map((d) => d.code)).not.toContain('MD12');
    expect((await s.refused('visit.removeDiagnosis', { workflowId: visitId, code: 'MD12' })).code).toBe('NOT_FOUND');
    // Added back without a new line: the claim holds it for the visit's intervention, and its lines show it.
    const added = await s.ok('visit.addDiagnosis', { workflowId: visitId, code: 'MD12' });
    expect(added.lines.find((l) => l.lineId === line.lineId)?.diagnoses.map((d) => d.code)).toEqual(['CA40', 'MD12']);
    expect(claimOf(cr).diagnoses.map((d) => d.code)).toContain('MD12');
    expect(added.lines.length).toBe(view.lines.length);
    const edited = await s.ok('visit.editLine', { workflowId: visitId, lineId: line.lineId, quantity: 3 });
    expect(edited.lines.find((l) => l.lineId === line.lineId)).toMatchObject({ quantity: 3, amountKes: 1500 });
    expect(claimOf(cr).lines.find((l) => l.line_guid === line.lineId)?.quantity).toBe(3);
    expect((await s.refused('visit.editLine', { workflowId: visitId, lineId: line.lineId })).code).toBe('VALIDATION');
    await s.ok('visit.close', { workflowId: visitId, reason: 'OTHER_REASONS', explanation: 'test visit ended' });
  });

  it('a ward transfer: the intervention switched keeping the lines for the days billed; without the days it is refused before anything is sent', async () => {
    const cr = await world.control.crIdOf('30000002');
    const patient = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000002', serviceType: 'INPATIENT' });
    const consent = await s.ok('consent.begin', { patientRef: patient.patientRef });
    await s.ok('consent.sendSms', { workflowId: consent.workflowId });
    const opened = await s.ok('consent.confirmSms', { workflowId: consent.workflowId, code: await world.control.latestCode({ patient_id: cr }, 'consent') });
    if (opened.kind !== 'consent' || opened.visitWorkflowId === null) throw new Error('no visit');
    const visitId = opened.visitWorkflowId;
    const visit = await eventually(() => s.ok('workflow.get', { workflowId: visitId }), (v) => v.kind === 'visit' && v.lines.length > 0, 'the per-diem day line');
    if (visit.kind !== 'visit') throw new Error('not a visit');
    const from = visit.intervention.code;
    const to = from === 'SHA-04-002' ? 'SHA-04-003' : 'SHA-04-002';
    expect((await s.refused('visit.switchIntervention', { workflowId: visitId, interventionCode: to, keepLines: true })).code).toBe('VALIDATION');
    const switched = await s.ok('visit.switchIntervention', { workflowId: visitId, interventionCode: to, keepLines: true, billFrom: '2030-01-15', billTo: '2030-01-16' });
    expect(switched).toMatchObject({ intervention: { code: to }, lastError: null });
    expect(switched.lines.length).toBe(visit.lines.length);
    expect(switched.lines.every((l) => l.interventionCode === to)).toBe(true);
    expect(claimOf(cr).interventions).toEqual([to]);
    expect((await s.refused('visit.switchIntervention', { workflowId: visitId, interventionCode: 'SHA-99-999', keepLines: false })).code).toBe('INTERVENTION_NOT_ALLOWED');
    await s.ok('visit.close', { workflowId: visitId, reason: 'OTHER_REASONS', explanation: 'test visit ended' });
  });

  it('a wrong visit closed with its reason: final, nothing more offered, and SHA refuses changes to it', async () => {
    const { visitId, cr } = await openVisit();
    const closed = await s.ok('visit.close', { workflowId: visitId, reason: 'WRONG_PATIENT', explanation: 'Opened for the wrong patient at reception' });
    expect(closed).toMatchObject({ state: 'closed', claimStatus: 'CLOSED', next: [], lastError: null });
    expect(claimOf(cr)).toMatchObject({ workflow_state: 'CLOSED', closed: { reason_type: 'WRONG_PATIENT', reason_text: 'Opened for the wrong patient at reception' } });
    expect((await s.refused('visit.close', { workflowId: visitId, reason: 'WRONG_PATIENT', explanation: 'again' })).code).toBe('WRONG_STATE');
    // The reason type is audited; the nurse's words (which may name the patient) are not.
    const audit = await s.ok('audit.read', { workflowId: visitId });
    const summaries = audit.items.map((e) => e.summary).join(' | ');
    expect(summaries).toContain('WRONG_PATIENT');
    expect(summaries).not.toContain('reception');
    expect((await s.refused('visit.close', { workflowId: visitId, reason: 'WRONG_PATIENT', explanation: ' ' })).code).toBe('VALIDATION');
  });
});

describe('a correction whose answer is lost', () => {
  it('the closing unanswered: OUTCOME_UNKNOWN, the claim preview settles it, and it is sent again only by the nurse', async () => {
    const { visitId, cr } = await openVisit();
    await world.control.post('/faults', { routes: ['POST /api/v1/claims/close'], count: 1, reset_connection: true });
    expect((await s.refused('visit.close', { workflowId: visitId, reason: 'WRONG_PATIENT', explanation: 'Wrong patient' })).code).toBe('OUTCOME_UNKNOWN');
    // The call never reached SHA: the preview shows the claim a draft, the visit stays open, nothing re-sent.
    const settled = await eventually(() => s.ok('workflow.get', { workflowId: visitId }), (v) => v.lastError?.code === 'EXCHANGE_TIMEOUT', 'the closing reconciled');
    expect(settled).toMatchObject({ state: 'open', claimStatus: 'DRAFT' });
    expect(settled.next).toContain('visit.close');
    expect(claimOf(cr).workflow_state).toBe('DRAFT');
    const closed = await s.ok('visit.close', { workflowId: visitId, reason: 'WRONG_PATIENT', explanation: 'Wrong patient' });
    expect(closed).toMatchObject({ state: 'closed', claimStatus: 'CLOSED' });
  });
});

describe('AUTHORIZED_MULTISESSION', () => {
  it('a consent the payer made multi-session opens the visit as an authorized one', async () => {
    const cr = await world.control.crIdOf('30000001');
    const patient = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000001' });
    const consent = await s.ok('consent.begin', { patientRef: patient.patientRef });
    // The station's look-ups held back while the patient's finger matches and the payer marks the consent.
    await world.control.post('/faults', { routes: ['GET /api/v1/claims/authorizations'], latency_ms: 600 });
    await s.ok('consent.startFingerprint', { workflowId: consent.workflowId });
    const a = [...world.sandbox.context.state.authorizations.values()].filter((x) => x.patient_id === cr && x.status === 'PENDING').at(-1)!;
    const [finger] = await world.control.get<{ template: string }[]>(`/patients/${cr}/fingerprints`);
    await world.control.post(`/authorizations/${a.guid}/fingerprint`, { template: finger!.template });
    const marked = await world.control.post<{ status: string }>(`/authorizations/${a.guid}/status`, { to: 'AUTHORIZED_MULTISESSION' });
    expect(marked.status).toBe('AUTHORIZED_MULTISESSION');
    await fetch(`${world.sandbox.url}/sandbox/faults`, { method: 'DELETE' });
    const opened = await eventually(() => s.ok('workflow.get', { workflowId: consent.workflowId }), (v) => v.state === 'visit-opened', 'the visit opened', 10_000);
    if (opened.kind !== 'consent' || opened.visitWorkflowId === null) throw new Error('no visit');
    expect(claimOf(cr).opened_with.auth_guid).toBe(a.guid);
    // Only AUTHORIZED becomes multi-session.
    const refused = await fetch(`${world.sandbox.url}/sandbox/authorizations/${a.guid}/status`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ to: 'AUTHORIZED_MULTISESSION' }) });
    expect(refused.status).toBe(409);
    await s.ok('visit.close', { workflowId: opened.visitWorkflowId, reason: 'OTHER_REASONS', explanation: 'test visit ended' });
  });
});

describe('emergency after creation', () => {
  it('a second protocol added and the doctor changed inside the 24 hours, the new doctor asked for approval', async () => {
    const protocols = (await s.ok('emergency.protocols', { interventionCode: 'SHA-01-001' })).items;
    expect(protocols.length).toBeGreaterThan(1);
    const [first, second] = protocols;
    const created = await s.ok('emergency.create', {
      interventionCode: 'SHA-01-001',
      protocolCode: first!.protocolCode,
      doctor: OTHER_DOCTOR,
      modeOfArrival: 'WALK-IN',
      broughtBy: 'RELATIVE',
      referenceNumber: 'CORR-E-0001',
      notes: 'Collapsed at the gate',
    });
    expect(created.next).toEqual(expect.arrayContaining(['emergency.addAnotherProtocol', 'emergency.changeDoctor']));
    const withTwo = await s.ok('emergency.addAnotherProtocol', { workflowId: created.workflowId, protocolCode: second!.protocolCode });
    expect(withTwo).toMatchObject({ furtherProtocols: [{ protocolCode: second!.protocolCode, tariffKes: second!.tariffKes }], lastError: null });
    const claim = [...world.sandbox.context.state.claims.values()].find((c) => c.emergency?.reference_number === 'CORR-E-0001')!;
    expect(claim.lines.map((l) => l.item_code)).toEqual([first!.protocolCode, second!.protocolCode]);
    expect((await s.refused('emergency.addAnotherProtocol', { workflowId: created.workflowId, protocolCode: second!.protocolCode })).code).toBe('WRONG_STATE');

    const asked = (await world.control.get<{ purpose: string }[]>('/sms?doctor_id=A12345')).filter((m) => m.purpose === 'emergency_doctor_approval').length;
    const changed = await s.ok('emergency.changeDoctor', { workflowId: created.workflowId, doctor: DOCTOR });
    expect(changed).toMatchObject({ doctor: DOCTOR, doctorApproval: 'requested', lastError: null });
    expect(claim.doctor?.registration_number).toBe('A12345');
    const now = (await world.control.get<{ purpose: string }[]>('/sms?doctor_id=A12345')).filter((m) => m.purpose === 'emergency_doctor_approval').length;
    expect(now).toBe(asked + 1);
    // Refused: the previous doctor is attached again.
    expect((await s.refused('emergency.changeDoctor', { workflowId: created.workflowId, doctor: UNKNOWN_DOCTOR })).code).toBe('DOCTOR_NOT_FOUND');
    expect(claim.doctor?.registration_number).toBe('A12345');

    // After the 24 hours nothing more is added.
    await world.control.post('/clock', { advance_ms: 24 * 3600 * 1000 + 60_000 });
    expect((await s.refused('emergency.addAnotherProtocol', { workflowId: created.workflowId, protocolCode: protocols[2]?.protocolCode ?? 'EP-X' })).code).toMatch(/EMERGENCY_WINDOW_EXPIRED|WRONG_STATE/);
  });
});

describe('preauth corrections', () => {
  const preauthRequest = {
    serviceStart: '2030-01-15',
    serviceEnd: '2030-01-17',
    requestedAmountKes: 65_000,
    diagnoses: [{ code: 'DD51' }, { code: 'ME84' }],
    doctor: SURGEON,
    notificationEmail: 'claims@hospital.example',
  };

  async function electiveAwaitingDoctor(): Promise<{ workflowId: string; reference: string }> {
    const cr = await world.control.crIdOf('30000002');
    const patient = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000002', serviceType: 'INPATIENT' });
    const code = (await s.ok('benefits.interventions', { patientRef: patient.patientRef, scenario: 'elective-preauth', pageSize: 5 })).items[0]!.code;
    const elective = await s.ok('elective.begin', { patientRef: patient.patientRef, interventionCode: code });
    await s.ok('elective.submitPreauth', { workflowId: elective.workflowId, ...preauthRequest });
    await s.ok('consent.sendSms', { workflowId: elective.workflowId });
    const sent = await s.ok('consent.confirmSms', { workflowId: elective.workflowId, code: await world.control.latestCode({ patient_id: cr }, 'consent') });
    if (sent.kind !== 'elective' || sent.preauth?.reference == null) throw new Error('no preauth');
    expect(sent.state).toBe('awaiting-doctor');
    return { workflowId: elective.workflowId, reference: sent.preauth.reference };
  }

  it('DRAFT and PENDING_SUBMISSION (the sandbox’s control API, ours) wait with the doctor not yet asked, take corrections and a cancel, and go on once SHA sends the request on', async () => {
    const { workflowId, reference } = await electiveAwaitingDoctor();
    await world.control.post(`/preauths/${reference}/status`, { to: 'DRAFT' });
    const draft = await s.ok('elective.refreshPreauth', { workflowId });
    expect(draft).toMatchObject({ state: 'awaiting-doctor', preauth: { status: 'DRAFT', doctorStep: 'not-started', payerStep: 'not-started' } });
    // No doctor's request to send again while SHA holds it back.
    expect(draft.next).not.toContain('elective.resendDoctorRequest');
    expect(draft.next).toEqual(expect.arrayContaining(['elective.refreshPreauth', 'elective.cancelPreauth']));
    // A draft is not refused a correction: no source says the live service refuses one there.
    expect(await s.ok('elective.removeDiagnosis', { workflowId, code: 'ME84' })).toMatchObject({ preauth: { status: 'DRAFT', diagnoses: [{ code: 'DD51' }] } });
    await world.control.post(`/preauths/${reference}/status`, { to: 'PENDING_SUBMISSION' });
    expect(await s.ok('elective.refreshPreauth', { workflowId })).toMatchObject({ state: 'awaiting-doctor', preauth: { status: 'PENDING_SUBMISSION', doctorStep: 'not-started' } });
    // Only along the table: SHA's queue does not jump to the payer's approval.
    const jump = await fetch(`${world.control.url}/sandbox/preauths/${reference}/status`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ to: 'FINALISED' }) });
    expect(jump.status).toBe(409);
    await world.control.post(`/preauths/${reference}/status`, { to: 'PENDING_DOCTOR_APPROVAL' });
    expect(await s.ok('elective.refreshPreauth', { workflowId })).toMatchObject({ state: 'awaiting-doctor', preauth: { status: 'PENDING_DOCTOR_APPROVAL', doctorStep: 'waiting' } });
    await world.control.post(`/preauths/${reference}/doctor-approval`);
    await eventually(() => s.ok('workflow.get', { workflowId }), (v) => v.state === 'awaiting-payer', 'the doctor’s approval');

    // Held as a draft, then cancelled by the facility.
    const second = await electiveAwaitingDoctor();
    await world.control.post(`/preauths/${second.reference}/status`, { to: 'DRAFT' });
    await s.ok('elective.refreshPreauth', { workflowId: second.workflowId });
    expect(await s.ok('elective.cancelPreauth', { workflowId: second.workflowId, reason: 'Admission postponed' })).toMatchObject({ state: 'cancelled', preauth: { status: 'CANCELLED' } });
  });

  it('DOCTOR_REQUEST_FAILED waits for a resend instead of ending; the resend reaches the doctor; a diagnosis removed before approval', async () => {
    const awaiting = await electiveAwaitingDoctor();
    const workflowId = awaiting.workflowId;
    let reference = awaiting.reference;
    const removed = await s.ok('elective.removeDiagnosis', { workflowId, code: 'ME84' });
    expect(removed).toMatchObject({ preauth: { diagnoses: [{ code: 'DD51' }] } });
    expect(world.sandbox.context.state.preauths.get(Number(reference))?.diagnoses.map((d) => d.code)).toEqual(['DD51']);
    // The last one stays: a preauth without a diagnosis is cancelled instead.
    expect((await s.refused('elective.removeDiagnosis', { workflowId, code: 'DD51' })).code).toBe('VALIDATION');

    await world.control.post(`/preauths/${reference}/status`, { to: 'DOCTOR_REQUEST_FAILED' });
    const failed = await s.ok('elective.refreshPreauth', { workflowId });
    expect(failed).toMatchObject({ state: 'awaiting-doctor', preauth: { status: 'DOCTOR_REQUEST_FAILED', doctorStep: 'failed' } });
    expect(failed.next).toContain('elective.resendDoctorRequest');
    const resent = await s.ok('elective.resendDoctorRequest', { workflowId });
    expect(resent).toMatchObject({ state: 'awaiting-doctor', preauth: { status: 'DOCTOR_REQUEST_SENT', doctorStep: 'waiting' }, lastError: null });
    // A wrong requesting doctor: cancelled and sent again naming the right one, on the same consent.
    const changed = await s.ok('elective.changeDoctor', { workflowId, doctor: DOCTOR });
    expect(changed).toMatchObject({ state: 'awaiting-doctor', preauth: { status: 'PENDING_DOCTOR_APPROVAL', diagnoses: [{ code: 'DD51' }] }, lastError: null });
    const newReference = changed.kind === 'elective' ? changed.preauth!.reference! : '';
    expect(newReference).not.toBe(reference);
    expect(world.sandbox.context.state.preauths.get(Number(reference))?.status).toBe('CANCELLED');
    expect(world.sandbox.context.state.preauths.get(Number(newReference))?.doctor?.registration_number).toBe('A12345');
    expect((await s.refused('elective.changeDoctor', { workflowId, doctor: UNKNOWN_DOCTOR })).code).toBe('DOCTOR_NOT_FOUND');
    expect(await s.ok('workflow.get', { workflowId })).toMatchObject({ state: 'awaiting-doctor', preauth: { reference: newReference } });
    reference = newReference;
    // Once the doctor approved, the diagnoses are final.
    await world.control.post(`/preauths/${reference}/doctor-approval`);
    await eventually(() => s.ok('workflow.get', { workflowId }), (v) => v.state === 'awaiting-payer', 'the doctor’s approval');
    expect((await s.refused('elective.removeDiagnosis', { workflowId, code: 'DD51' })).code).toBe('WRONG_STATE');

    // The payer asks for a clarification: the workflow waits on the payer and shows its note.
    await world.control.post(`/preauths/${reference}/status`, { to: 'CLARIFICATION_AFTER_AUTOMATIC_CHECKS', note: 'Attach the ultrasound report' });
    const clarification = await s.ok('elective.refreshPreauth', { workflowId });
    expect(clarification).toMatchObject({ state: 'awaiting-payer', preauth: { status: 'CLARIFICATION_AFTER_AUTOMATIC_CHECKS', payerNote: 'Attach the ultrasound report' } });

    // Clarified and finalised, then cancelled: no visit is offered.
    await world.control.post(`/preauths/${reference}/status`, { to: 'ACTIVE' });
    await world.control.post(`/preauths/${reference}/payer-approval`);
    const finalised = await eventually(() => s.ok('workflow.get', { workflowId }), (v) => v.state === 'finalised', 'the preauth finalised');
    expect(finalised.next).toContain('elective.cancelPreauth');
    const cancelled = await s.ok('elective.cancelPreauth', { workflowId, reason: 'Surgery postponed by the patient' });
    expect(cancelled).toMatchObject({ state: 'cancelled', preauth: { status: 'CANCELLED' } });
    expect(cancelled.next).not.toContain('visit.open');
    expect(world.sandbox.context.state.preauths.get(Number(reference))?.status).toBe('CANCELLED');
  });
});
