// A patient's ref is the same on every look-up of the same identification at the same facility,
// for as long as the station keeps its data: on the day of an elective visit, a fresh look-up finds
// phase one among the patient's unfinished workflows, even after the station restarted and the
// first look-up itself was deleted. The ref stays opaque: random, per station, never the ID number.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memorySecretStore } from '../../../electron/station';
import { FACILITIES, eventually, openStation, startWorld, SURGEON, type StationHandle, type World } from './harness';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world.close();
});

const lookUp = (s: StationHandle, idNumber: string) => s.ok('patient.lookUp', { idType: 'National ID', idNumber, serviceType: 'INPATIENT' });

async function finalisedElective(s: StationHandle, patientRef: string, cr: string): Promise<string> {
  const code = (await s.ok('benefits.interventions', { patientRef, scenario: 'elective-preauth', pageSize: 1 })).items[0]!.code;
  const elective = await s.ok('elective.begin', { patientRef, interventionCode: code });
  await s.ok('consent.sendSms', { workflowId: elective.workflowId });
  await s.ok('consent.confirmSms', { workflowId: elective.workflowId, code: await world.control.latestCode({ patient_id: cr }, 'consent') });
  const sent = await s.ok('elective.submitPreauth', {
    workflowId: elective.workflowId,
    serviceStart: '2030-01-15',
    serviceEnd: '2030-01-16',
    requestedAmountKes: 65_000,
    diagnoses: [{ code: 'DD51' }],
    doctor: SURGEON,
    notificationEmail: 'claims@hospital.example',
  });
  const reference = sent.kind === 'elective' ? sent.preauth?.reference : undefined;
  await world.control.post(`/preauths/${reference}/doctor-approval`);
  await world.control.post(`/preauths/${reference}/payer-approval`);
  await eventually(() => s.ok('workflow.get', { workflowId: elective.workflowId }), (v) => v.state === 'finalised', 'the preauth to be finalised');
  return elective.workflowId;
}

describe('the patient ref', () => {
  it('is found again by a fresh look-up on the visit day, after a restart and after the first look-up was deleted; phase two opens from it', async () => {
    const secrets = memorySecretStore();
    const databasePath = join(world.dir.path, 'visit-day.db');
    const clock = { now: () => world.sandbox.context.clock.now() };
    const cr = await world.control.crIdOf('30000002');
    const first = await openStation({ databasePath, sandboxUrl: world.sandbox.url, secrets, extra: { clock } });
    const before = await lookUp(first, '30000002');
    const electiveId = await finalisedElective(first, before.patientRef, cr);
    // The same shift: the same ref, and the recent list shows the patient once.
    expect((await lookUp(first, '30000002')).patientRef).toBe(before.patientRef);
    expect((await first.ok('patient.recent', {})).items.filter((p) => p.patientRef === before.patientRef)).toHaveLength(1);
    await first.station.stop();

    // The admission day: a day and more later, the look-up of phase one is gone from the station.
    await world.control.advanceClock(25 * 3600_000);
    const second = await openStation({ databasePath, sandboxUrl: world.sandbox.url, secrets, extra: { clock }, signIn: false });
    try {
      expect((await second.ok('patient.recent', {})).items).toEqual([]);
      const today = await lookUp(second, '30000002');
      expect(today.patientRef).toBe(before.patientRef);
      const unfinished = await second.ok('workflow.list', { patientRef: today.patientRef });
      expect(unfinished.items.map((v) => [v.workflowId, v.kind, v.state])).toEqual([[electiveId, 'elective', 'finalised']]);
      await second.ok('consent.sendSms', { workflowId: electiveId });
      const opened = await second.ok('consent.confirmSms', { workflowId: electiveId, code: await world.control.latestCode({ patient_id: cr }, 'consent') });
      expect(opened).toMatchObject({ kind: 'elective', state: 'visit-opened' });
    } finally {
      await second.station.stop();
    }
  });

  it('differs by patient, by facility and by station, and is never the ID number; the journal keeps only a keyed hash of it', async () => {
    const s = await world.station();
    const hospital = (await lookUp(s, '30000001')).patientRef;
    expect((await lookUp(s, '30000006')).patientRef).not.toBe(hospital);
    expect(hospital).not.toContain('30000001');

    await s.ok('settings.update', { facilityCode: FACILITIES.dispensary.code, facilityName: FACILITIES.dispensary.name });
    await s.ok('facility.signIn', { clientId: FACILITIES.dispensary.clientId, clientSecret: FACILITIES.dispensary.clientSecret });
    const dispensary = (await lookUp(s, '30000001')).patientRef;
    expect(dispensary).not.toBe(hospital);
    await s.ok('settings.update', { facilityCode: FACILITIES.hospital.code, facilityName: FACILITIES.hospital.name });
    await s.ok('facility.signIn', { clientId: FACILITIES.hospital.clientId, clientSecret: FACILITIES.hospital.clientSecret });
    expect((await lookUp(s, '30000001')).patientRef).toBe(hospital);

    const other = await world.station();
    expect((await lookUp(other, '30000001')).patientRef).not.toBe(hospital);

    const db = new Database(join(world.dir.path, `station-${world.stations.indexOf(s) + 1}.db`), { readonly: true });
    try {
      const rows = db.prepare('SELECT key, ref FROM patient_refs').all() as { key: string; ref: string }[];
      expect(rows.map((r) => r.ref).sort()).toEqual([hospital, dispensary, (await lookUp(s, '30000006')).patientRef].sort());
      for (const row of rows) expect(row.key).not.toMatch(/3000000\d/);
    } finally {
      db.close();
    }
  });
});
