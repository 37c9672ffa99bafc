// The patient in hand named in full over every screen of an open workflow (issue 23): what the
// look-up showed is kept sealed with the workflow while it is open, so a reload, a lock or work taken
// up from the queue shows the patient as the look-up did — after a restart, and after the look-up
// itself was deleted a day later; once the workflow ends, only the masked name is kept. The views,
// the events and the database file never carry the name.
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memorySecretStore } from '../../../electron/station';
import { loadSealer } from '../../../electron/station/sealing';
import { openStation, startWorld, type World } from './harness';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world.close();
});

const OTIENO = { fullName: 'Otieno Juma Ochieng', sex: 'male', dateOfBirth: '1956-11-02', idNumberEnd: '0002' };

describe('patient.inHand', () => {
  it('names the patient of an open consent and visit in full, after a restart a day later too; an ended visit keeps only the masked name', async () => {
    const secrets = memorySecretStore();
    const databasePath = join(world.dir.path, 'in-hand.db');
    const clock = { now: () => world.sandbox.context.clock.now() };
    const cr = await world.control.crIdOf('30000002');
    const first = await openStation({ databasePath, sandboxUrl: world.sandbox.url, secrets, extra: { clock } });
    const summary = await first.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000002' });
    const consent = await first.ok('consent.begin', { patientRef: summary.patientRef });
    const inConsent = await first.ok('patient.inHand', { workflowId: consent.workflowId });
    expect(inConsent).toEqual({
      patientRef: summary.patientRef,
      identity: OTIENO,
      maskedName: summary.maskedName,
      idType: 'National ID',
      ageYears: summary.ageYears,
      scheme: summary.schemes.find((s) => s.schemeId === summary.chosenSchemeId)?.name ?? null,
    });
    expect(inConsent?.scheme).toBeTruthy();
    await first.ok('consent.sendSms', { workflowId: consent.workflowId });
    const opened = await first.ok('consent.confirmSms', { workflowId: consent.workflowId, code: await world.control.latestCode({ patient_id: cr }, 'consent') });
    const visitId = opened.kind === 'consent' ? opened.visitWorkflowId : null;
    expect(visitId).not.toBeNull();
    expect((await first.ok('patient.inHand', { workflowId: visitId! }))?.identity).toEqual(OTIENO);
    expect(JSON.stringify(first.events)).not.toContain('Otieno');
    await first.station.stop();
    // Sealed: the file holds no name in the clear.
    expect(readFileSync(databasePath).toString('latin1')).not.toContain('Otieno');

    // A day and more later the look-up is gone from the station; the open visit still names its patient.
    await world.control.advanceClock(25 * 3600_000);
    const second = await openStation({ databasePath, sandboxUrl: world.sandbox.url, secrets, extra: { clock } });
    try {
      expect((await second.ok('patient.recent', {})).items).toEqual([]);
      const later = await second.ok('patient.inHand', { workflowId: visitId! });
      expect(later?.identity).toEqual(OTIENO);
      expect(later?.ageYears).toBe(summary.ageYears);
      // The queue (a list) stays masked.
      expect(JSON.stringify(await second.ok('work.queue', {}))).not.toContain('Otieno');

      await second.ok('visit.close', { workflowId: visitId!, reason: 'WRONG_PATIENT', explanation: 'Opened for the wrong patient at reception' });
      expect(await second.ok('patient.inHand', { workflowId: visitId! })).toBeNull();
      expect((await second.refused('patient.inHand', { workflowId: 'wf_notthereatall' })).code).toBe('NOT_FOUND');
    } finally {
      await second.station.stop();
    }
    // The ended visit's record no longer holds the patient in full (opened with the station's key).
    const sealer = await loadSealer(secrets, true);
    const db = new Database(databasePath, { readonly: true });
    try {
      const row = db.prepare('SELECT ended, sealed FROM workflows WHERE id = ?').get(visitId!) as { ended: number; sealed: string };
      expect(row.ended).toBe(1);
      const opened = JSON.stringify(sealer.open(row.sealed));
      expect(opened).toContain(summary.maskedName);
      expect(opened).not.toContain('Otieno');
    } finally {
      db.close();
    }
  });
});
