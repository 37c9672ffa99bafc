// Issue 15's reads through the station core against the running sandbox: a referral discharge with
// its destination found in the facility registry, the facility's beds, a POMSF member's balances
// and tariffs, and the shared health record with what its security labels restrict left out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCTOR, eventually, presentAtPage, startWorld, stepOf, type StationHandle, type World } from './harness';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world.close();
});

/** An inpatient visit of 30000001 opened by fingerprint, with its doctor. */
async function admitted(s: StationHandle) {
  const cr = await world.control.crIdOf('30000001');
  const template = await world.control.enrolledTemplate(cr);
  const patient = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000001', serviceType: 'INPATIENT' });
  const consent = await s.ok('consent.begin', { patientRef: patient.patientRef });
  const started = await s.ok('consent.startFingerprint', { workflowId: consent.workflowId });
  // A patient whose visit an earlier test left open: SHA answers that visit's authorization, no finger asked (R WORKFLOWS §9).
  const link = stepOf(started)!.fingerprint!.link;
  if (link !== null) await presentAtPage(link.url, template);
  await eventually(() => s.ok('workflow.get', { workflowId: consent.workflowId }), (v) => v.state === 'visit-opened', 'the visit the consent opens');
  const visit = await s.ok('visit.open', { workflowId: consent.workflowId, doctor: DOCTOR });
  return { cr, template, patient, visit };
}

describe('facility search', () => {
  it('finds facilities by name and by FR code, with SHA’s operational status; an unknown code is an empty list', async () => {
    const s = await world.station();
    const byName = await s.ok('facilities.search', { search: 'referral' });
    expect(byName.items).toEqual([
      { code: 'FID-00-000005-0', name: 'Mlima County Referral Hospital', level: 'LEVEL 5', operationalStatus: 'ACTIVE', operational: 'yes', contractStatus: 'Contracted' },
    ]);
    const byCode = await s.ok('facilities.search', { search: 'fid-00-000003-0' });
    expect(byCode.items.map((f) => f.name)).toEqual(['Pwani Health Centre']);
    expect((await s.ok('facilities.search', { search: 'FID-99-999999-9' })).items).toEqual([]);
    expect((await s.ok('facilities.search', { search: '90005' })).items.map((f) => f.code)).toEqual(['FID-00-000005-0']);
    expect((await s.refused('facilities.search', { search: 'M' })).code).toBe('VALIDATION');
  });
});

describe('referral discharge', () => {
  it('names the destination found in the registry: refused without one or with an unknown code (nothing sent), then sent in the notes and shown on the view', async () => {
    const s = await world.station();
    const { visit, template } = await admitted(s);
    const discharge = await s.ok('discharge.begin', { workflowId: visit.workflowId });
    const awaiting = await s.ok('consent.startFingerprint', { workflowId: discharge.workflowId });
    await presentAtPage(stepOf(awaiting)!.fingerprint!.link!.url, template);
    await eventually(() => s.ok('workflow.get', { workflowId: discharge.workflowId }), (v) => v.state === 'ready', 'the discharge authorization');

    const claimOf = () => [...world.sandbox.context.state.claims.values()].find((c) => c.invoice_number === visit.invoiceNumber)!;
    expect((await s.refused('discharge.dischargeInpatient', { workflowId: discharge.workflowId, reason: 'REFERRED' })).details).toMatchObject({ field: 'referredTo' });
    expect((await s.refused('discharge.dischargeInpatient', { workflowId: discharge.workflowId, reason: 'RECOVERED', referredTo: 'FID-00-000005-0' })).details).toMatchObject({ field: 'referredTo' });
    const unknown = await s.refused('discharge.dischargeInpatient', { workflowId: discharge.workflowId, reason: 'REFERRED', referredTo: 'FID-99-999999-9' });
    expect(unknown).toMatchObject({ code: 'NOT_FOUND', details: { field: 'referredTo' } });
    expect(claimOf().workflow_state).toBe('DRAFT');
    expect((await s.ok('workflow.get', { workflowId: discharge.workflowId })).state).toBe('ready');

    const done = await s.ok('discharge.dischargeInpatient', { workflowId: discharge.workflowId, reason: 'REFERRED', referredTo: 'FID-00-000005-0', notes: 'For CT scan.' });
    expect(done).toMatchObject({ state: 'discharged', referredTo: { code: 'FID-00-000005-0', name: 'Mlima County Referral Hospital' } });
    expect(claimOf()).toMatchObject({ discharge_reason: 'REFERRED', notes: 'Referred to Mlima County Referral Hospital (FID-00-000005-0). For CT scan.' });
    const audit = await s.ok('audit.read', { workflowId: discharge.workflowId });
    expect(audit.items.map((r) => r.summary).join('\n')).toContain('referred to FID-00-000005-0');
  });
});

describe('bed occupancy', () => {
  it('answers the facility’s beds by type, the admitted patient counted among the normal beds in use', async () => {
    const s = await world.station();
    const before = await s.ok('beds.occupancy', {});
    expect(before).toMatchObject({ facilityName: 'Idhini Demo Hospital', level: 'LEVEL 4', totalBeds: 110 });
    expect(before.rows.map((r) => r.bedType)).toEqual(['normal', 'icu']);
    const normal = before.rows.find((r) => r.bedType === 'normal')!;
    expect(normal.beds).toBe(104);
    await admitted(s);
    const after = await s.ok('beds.occupancy', {});
    expect(after.rows.find((r) => r.bedType === 'normal')!.inUse).toBe(normal.inUse! + 1);
    expect(after.totalInUse).toBe(before.totalInUse! + 1);
  });
});

describe('POMSF', () => {
  it('answers a POMSF member’s benefits with limit and balance for the policy year; a member without POMSF is NOT_FOUND', async () => {
    const s = await world.station();
    const member = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000005' });
    const balance = await s.ok('pomsf.balance', { patientRef: member.patientRef });
    const now = new Date(world.sandbox.context.clock.now());
    expect(balance.policyYear).toBe(String(now.getMonth() >= 6 ? now.getFullYear() : now.getFullYear() - 1));
    const benefits = balance.policies.flatMap((p) => p.benefits);
    expect(benefits.map((b) => [b.type, b.limitKes, b.familyShared])).toEqual([
      ['OUTPATIENT', 100_000, true],
      ['INPATIENT', 400_000, true],
    ]);
    for (const b of benefits) expect(b.balanceKes).toBeLessThanOrEqual(b.limitKes!);
    const other = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000001' });
    expect((await s.refused('pomsf.balance', { patientRef: other.patientRef })).code).toBe('NOT_FOUND');
  });

  it('resolves the tariff of an intervention at this facility for a doctor of the registry; an unknown doctor is refused', async () => {
    const s = await world.station();
    const tariffs = await s.ok('pomsf.tariffs', { interventionCodes: ['SHA-04-001'], doctor: { registrationNumber: 'A12345', regulationBody: 'KMPDC' } });
    expect(tariffs.items).toHaveLength(1);
    expect(tariffs.items[0]).toMatchObject({ interventionCode: 'SHA-04-001', name: 'General ward inpatient day' });
    expect(tariffs.items[0]!.tariffKes).toBeGreaterThan(0);
    const refused = await s.refused('pomsf.tariffs', { interventionCodes: ['SHA-04-001'], doctor: { registrationNumber: 'A00000', regulationBody: 'KMPDC' } });
    expect(refused.code).toBe('DOCTOR_NOT_FOUND');
  });
});

describe('shared health record', () => {
  it('shows the observations and referrals of the visit’s patient and nothing a security label restricts (counted as withheld, audited)', async () => {
    const s = await world.station();
    const { visit } = await admitted(s);
    const record = await s.ok('shr.record', { workflowId: visit.workflowId, practitionerId: 'NCK-118822' });
    expect(record.observations.map((o) => o.name)).toEqual(['Systolic blood pressure', 'Diastolic blood pressure', 'Heart rate', 'Body temperature', 'Body weight']);
    expect(record.withheld).toBe(2);
    const shown = JSON.stringify(record);
    for (const restricted of ['HIV', 'viral load', 'PHQ-9', 'copies/mL']) expect(shown).not.toContain(restricted);
    expect(record.observations.every((o) => o.value !== null && o.effectiveAt !== null)).toBe(true);
    const audit = await s.ok('audit.read', { workflowId: visit.workflowId });
    expect(audit.items.find((r) => r.action === 'shr.read')?.summary).toContain('2 withheld');
    expect((await s.refused('shr.record', { workflowId: visit.workflowId, practitionerId: 'x' })).code).toBe('VALIDATION');
  });
});
