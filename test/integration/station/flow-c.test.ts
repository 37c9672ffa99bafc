// Flow C, the emergency claim as the live exchange runs it, and the inpatient per-diem discharge,
// through the station core against the running sandbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCTOR, eventually, presentAtPage, startWorld, stepOf, type World } from './harness';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world.close();
});

const EMERGENCY_DOCTOR = { identificationType: 'registration_number', identificationNumber: 'A34567', regulationBody: 'KMPDC' };

/** The SMS the sandbox sent the emergency doctor (registration A34567, national ID 24681357) for a purpose. */
async function doctorMessages(purpose: string): Promise<{ purpose: string; otp: string | null }[]> {
  const messages = await world.control.get<{ purpose: string; otp: string | null }[]>('/sms?doctor_id=A34567');
  return messages.filter((m) => m.purpose === purpose);
}

describe('flow C, emergency as the live exchange runs it', () => {
  it('created at once with no prior consent; protocol added and the doctor asked; identified later on the same claim; submitted', async () => {
    const s = await world.station();
    const protocols = await s.ok('emergency.protocols', { interventionCode: 'SHA-01-001' });
    const protocol = protocols.items[0]!;
    expect(protocol).toMatchObject({ interventionCode: 'SHA-01-001' });
    expect(protocol.tariffKes).toBeGreaterThan(0);
    const asked = (await doctorMessages('emergency_doctor_approval')).length;
    const created = await s.ok('emergency.create', {
      interventionCode: 'SHA-01-001',
      protocolCode: protocol.protocolCode,
      doctor: EMERGENCY_DOCTOR,
      modeOfArrival: 'AMBULANCE',
      broughtBy: 'PARAMEDICS',
      referenceNumber: 'AMB-C-0001',
      notes: 'Road traffic accident, unconscious on arrival',
    });
    expect(created).toMatchObject({
      kind: 'emergency',
      state: 'open-unidentified',
      patient: null,
      verification: null,
      referenceNumber: 'AMB-C-0001',
      protocolAdded: true,
      doctorApproval: 'requested',
      lastError: null,
    });
    expect(created.next).toEqual(expect.arrayContaining(['emergency.identify', 'emergency.submit', 'emergency.requestDoctorApproval']));
    expect(created.next).not.toContain('emergency.addProtocol');
    expect(created.deadlines.map((d) => d.kind)).toContain('emergency-submit');
    const window = created.kind === 'emergency' ? Date.parse(created.submitBy!) - Date.parse(created.emergencyAt!) : 0;
    expect(window).toBe(24 * 3600 * 1000);
    // The doctor was asked once the claim existed: a request, no code.
    expect((await doctorMessages('emergency_doctor_approval')).length).toBe(asked + 1);
    const claim = [...world.sandbox.context.state.claims.values()].find((c) => c.emergency?.reference_number === 'AMB-C-0001');
    expect(claim?.lines.map((l) => l.item_code)).toEqual([protocol.protocolCode]);
    expect(claim?.notes).toBe('Road traffic accident, unconscious on arrival');
    // Asking again is the nurse's to do.
    await s.ok('emergency.requestDoctorApproval', { workflowId: created.workflowId });
    expect((await doctorMessages('emergency_doctor_approval')).length).toBe(asked + 2);

    const cr = await world.control.crIdOf('30000001');
    const patient = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000001' });
    const identifying = await s.ok('emergency.identify', { workflowId: created.workflowId, patientRef: patient.patientRef });
    expect(identifying).toMatchObject({ state: 'identifying', verification: { purpose: 'identification', stage: 'sms-sent', route: { route: 'sms', reason: 'sms-only' } } });
    const identified = await s.ok('consent.confirmSms', { workflowId: created.workflowId, code: await world.control.latestCode({ patient_id: cr }, 'consent') });
    expect(identified).toMatchObject({ state: 'open-identified', patient: { patientRef: patient.patientRef } });
    expect(claim?.patient_id).toBe(cr);
    expect((await s.refused('emergency.submit', { workflowId: created.workflowId, reason: 'RECOVERED', unknownPatientReason: 'SHA_UNREGISTERED' })).code).toBe('VALIDATION');
    const submitted = await s.ok('emergency.submit', { workflowId: created.workflowId, reason: 'RECOVERED' });
    expect(submitted).toMatchObject({ state: 'submitted', claimStatus: 'SUBMITTED' });
    expect(claim?.emergency?.protocols.map((p) => p.protocol_code)).toEqual([protocol.protocolCode]);
  });

  it('an unidentified patient is submitted with the unknown-patient reason; after 24 hours submission is refused', async () => {
    const s = await world.station();
    const [protocol] = (await s.ok('emergency.protocols', { interventionCode: 'SHA-01-001' })).items;
    const create = (referenceNumber: string) =>
      s.ok('emergency.create', {
        interventionCode: 'SHA-01-001',
        protocolCode: protocol!.protocolCode,
        doctor: EMERGENCY_DOCTOR,
        modeOfArrival: 'WALK-IN',
        broughtBy: 'SAMARITAN',
        referenceNumber,
        notes: 'Collapsed at the gate',
      });
    const first = await create('REG-C-0002');
    const unknown = await s.ok('emergency.submit', { workflowId: first.workflowId, reason: 'OTHER', unknownPatientReason: 'SHA_UNREGISTERED' });
    expect(unknown).toMatchObject({ state: 'submitted', patient: null });

    const late = await create('REG-C-0003');
    await world.control.advanceClock(24 * 3600 * 1000 + 60_000);
    const refused = await s.refused('emergency.submit', { workflowId: late.workflowId, reason: 'RECOVERED' });
    expect(refused.code).toBe('EMERGENCY_WINDOW_EXPIRED');
    expect(await s.ok('workflow.get', { workflowId: late.workflowId })).toMatchObject({ state: 'window-expired', next: [] });
  });

  it('a claim the exchange refuses ends there and the refusal goes back to the form; a doctor outside the portal list is refused before anything is sent', async () => {
    const s = await world.station();
    const [protocol] = (await s.ok('emergency.protocols', { interventionCode: 'SHA-01-001' })).items;
    const input = {
      interventionCode: 'SHA-01-001',
      protocolCode: protocol!.protocolCode,
      doctor: { ...EMERGENCY_DOCTOR, identificationNumber: 'A00000' },
      modeOfArrival: 'AMBULANCE' as const,
      broughtBy: 'PARAMEDICS' as const,
      referenceNumber: 'AMB-C-0004',
      notes: 'Fall from height',
    };
    const claimsBefore = world.sandbox.context.state.claims.size;
    const refused = await s.refused('emergency.create', input);
    expect(refused.code).toBe('DOCTOR_NOT_FOUND');
    // A claim never created leaves no workflow behind (issue 11): the form keeps the refusal.
    const notCreated = (await s.ok('workflow.list', { kind: 'emergency', includeEnded: true })).items.find((v) => v.kind === 'emergency' && v.referenceNumber === 'AMB-C-0004');
    expect(notCreated).toBeUndefined();
    expect((await s.refused('emergency.create', { ...input, doctor: { ...EMERGENCY_DOCTOR, regulationBody: 'PPB' } })).details).toMatchObject({ field: 'doctor.regulationBody' });
    expect(world.sandbox.context.state.claims.size).toBe(claimsBefore);
    expect((await s.refused('emergency.protocols', { interventionCode: 'SHA-02-001' })).code).toBe('INTERVENTION_NOT_ALLOWED');
  });
});

describe('inpatient per diem', () => {
  it('the day line is generated by the exchange; the visit ends by discharge after a fingerprint', async () => {
    const s = await world.station();
    const cr = await world.control.crIdOf('30000001');
    const patient = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000001', serviceType: 'INPATIENT' });
    expect(patient.suggestedIntervention).toMatchObject({ scenario: 'per-diem' });
    const consent = await s.ok('consent.begin', { patientRef: patient.patientRef });
    expect(consent.serviceType).toBe('INPATIENT');
    const started = await s.ok('consent.startFingerprint', { workflowId: consent.workflowId });
    const template = await world.control.enrolledTemplate(cr);
    await presentAtPage(stepOf(started)!.fingerprint!.link!.url, template);
    await eventually(() => s.ok('workflow.get', { workflowId: consent.workflowId }), (v) => v.state === 'visit-opened', 'consent, and the visit it opens');
    const visit = await s.ok('visit.open', { workflowId: consent.workflowId, doctor: DOCTOR });
    expect(visit).toMatchObject({ closeBy: 'discharge', lines: [{ automatic: true }] });
    expect(visit.next).not.toContain('visit.removeLine');
    const discharge = await s.ok('discharge.begin', { workflowId: visit.workflowId });
    const awaiting = await s.ok('consent.startFingerprint', { workflowId: discharge.workflowId });
    await presentAtPage(stepOf(awaiting)!.fingerprint!.link!.url, template);
    await eventually(() => s.ok('workflow.get', { workflowId: discharge.workflowId }), (v) => v.state === 'ready', 'the discharge authorization');
    expect((await s.refused('discharge.submit', { workflowId: discharge.workflowId, reason: 'RECOVERED' })).code).toBe('WRONG_STATE');
    const done = await s.ok('discharge.dischargeInpatient', { workflowId: discharge.workflowId, reason: 'DECEASED' });
    expect(done.state).toBe('discharged');
  });
});
