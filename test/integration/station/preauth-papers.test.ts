// Papers on a preauthorization and on an OTP whitelist request, through the station core against
// the running sandbox: a preauth's papers given before consent wait sealed in the data folder, go
// with the preauth once consent is in, and leave the folder once the doctor has approved; papers
// gone after a restart stop the send and the nurse is asked to attach them again.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memorySecretStore } from '../../../electron/station';
import type { StationHandle } from './harness';
import { eventually, HERNIA_PREAUTH, openStation, presentAtPage, startWorld, stepOf, SURGEON, type World } from './harness';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world.close();
});

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);
const consultantForm = { documentType: 'REQUEST_FORM_BY_RELEVANT_CONSULTANT', title: 'Surgeon’s request', fileName: 'request.pdf', contentType: 'application/pdf', dataBase64: PDF.toString('base64') } as const;
const scan = { documentType: 'IMAGING_REPORT', title: 'Ultrasound', fileName: 'ultrasound.png', contentType: 'image/png', dataBase64: PNG.toString('base64') } as const;

const preauthRequest = HERNIA_PREAUTH;

async function beginElective(s: StationHandle, idNumber: string) {
  const patient = await s.ok('patient.lookUp', { idType: 'National ID', idNumber, serviceType: 'INPATIENT' });
  const page = await s.ok('benefits.interventions', { patientRef: patient.patientRef, scenario: 'elective-preauth', pageSize: 5 });
  return s.ok('elective.begin', { patientRef: patient.patientRef, interventionCode: page.items[0]!.code });
}

async function fingerprintConsent(s: StationHandle, workflowId: string, idNumber: string) {
  const template = await world.control.enrolledTemplate(await world.control.crIdOf(idNumber));
  const started = await s.ok('consent.startFingerprint', { workflowId });
  await presentAtPage(stepOf(started)!.fingerprint!.link!.url, template);
}

const preauthsOf = (token: string | undefined) => [...world.sandbox.context.state.preauths.values()].filter((p) => p.consent_token === token);

describe('papers on a preauthorization', () => {
  it('given before consent, wait sealed in the data folder, go with the preauth, and leave once the doctor approves', async () => {
    const s = await world.station();
    const papersDir = join(world.dir.path, `station-${world.stations.length}-papers-waiting`);
    const elective = await beginElective(s, '30000001');
    const given = await s.ok('elective.submitPreauth', { workflowId: elective.workflowId, ...preauthRequest, documents: [consultantForm, scan] });
    expect(given).toMatchObject({
      state: 'verifying',
      preauthDocuments: { attached: [{ documentType: 'REQUEST_FORM_BY_RELEVANT_CONSULTANT', title: 'Surgeon’s request', fileName: 'request.pdf' }, { documentType: 'IMAGING_REPORT', fileName: 'ultrasound.png' }], gone: false },
    });
    // On disk, sealed: the PDF's own bytes appear nowhere in its folder.
    const folder = join(papersDir, elective.workflowId);
    expect(readdirSync(folder).sort()).toEqual(['0.sealed', '1.sealed']);
    expect(readFileSync(join(folder, '0.sealed'), 'utf8')).not.toContain(PDF.toString('base64'));
    expect(readFileSync(join(folder, '0.sealed'), 'latin1')).not.toContain('%PDF-');

    await fingerprintConsent(s, elective.workflowId, '30000001');
    const sent = await eventually(() => s.ok('workflow.get', { workflowId: elective.workflowId }), (v) => v.state === 'awaiting-doctor', 'the preauth sent once consent is in');
    const preauth = [...world.sandbox.context.state.preauths.values()].find((p) => String(p.id) === (sent.kind === 'elective' ? sent.preauth?.reference : undefined));
    expect(preauth?.attachments).toEqual([
      expect.objectContaining({ document_type: 'REQUEST_FORM_BY_RELEVANT_CONSULTANT', title: 'Surgeon’s request', file_name: 'request.pdf', content_type: 'application/pdf', size: PDF.length }),
      expect.objectContaining({ document_type: 'IMAGING_REPORT', title: 'Ultrasound', file_name: 'ultrasound.png', content_type: 'image/png', size: PNG.length }),
    ]);
    // Kept while a change of the requesting doctor may send the preauth again.
    expect(existsSync(folder)).toBe(true);
    await world.control.post(`/preauths/${preauth!.id}/doctor-approval`);
    await eventually(() => s.ok('workflow.get', { workflowId: elective.workflowId }), (v) => v.state === 'awaiting-payer', 'the doctor’s approval');
    await eventually(() => existsSync(folder), (there) => !there, 'the papers removed once the doctor approved');
    // What the nurse attached stays named on the view.
    expect(await s.ok('workflow.get', { workflowId: elective.workflowId })).toMatchObject({ preauthDocuments: { attached: [{ fileName: 'request.pdf' }, { fileName: 'ultrasound.png' }], gone: false } });
  });

  it('gone after a restart: the nurse is told, nothing is sent without them, and the request goes once they are attached again', async () => {
    const secrets = memorySecretStore();
    const databasePath = join(world.dir.path, 'papers-restart', 'station.db');
    const clock = { now: () => world.sandbox.context.clock.now() };
    mkdirSync(join(world.dir.path, 'papers-restart'));
    const first = await openStation({ databasePath, sandboxUrl: world.sandbox.url, secrets, extra: { clock } });
    const elective = await beginElective(first, '30000002');
    await first.ok('elective.submitPreauth', { workflowId: elective.workflowId, ...preauthRequest, documents: [consultantForm] });
    await first.station.stop();
    // Somebody cleaned the data folder while the station was closed.
    rmSync(join(world.dir.path, 'papers-restart', 'station-papers-waiting', elective.workflowId), { recursive: true });

    const second = await openStation({ databasePath, sandboxUrl: world.sandbox.url, secrets, extra: { clock } });
    try {
      const after = await second.ok('workflow.get', { workflowId: elective.workflowId });
      expect(after).toMatchObject({ state: 'verifying', preauthDocuments: { attached: [{ fileName: 'request.pdf' }], gone: true }, lastError: { code: 'PAPERS_GONE' } });
      expect(after.next).toContain('elective.submitPreauth');
      expect(second.logs.join('\n')).not.toContain('Surgeon’s request');

      await fingerprintConsent(second, elective.workflowId, '30000002');
      const verified = await eventually(() => second.ok('workflow.get', { workflowId: elective.workflowId }), (v) => v.state === 'verified' && v.lastError !== null, 'consent in, the preauth held back');
      expect(verified).toMatchObject({ lastError: { code: 'PAPERS_GONE' }, preauthDocuments: { gone: true } });
      const authToken = [...world.sandbox.context.state.authorizations.values()].filter((a) => a.status === 'AUTHORIZED_PENDING_VISIT').at(-1)?.token;
      expect(preauthsOf(authToken)).toEqual([]);

      const sent = await second.ok('elective.submitPreauth', { workflowId: elective.workflowId, ...preauthRequest, documents: [consultantForm] });
      expect(sent).toMatchObject({ state: 'awaiting-doctor', lastError: null, preauthDocuments: { attached: [{ fileName: 'request.pdf' }], gone: false } });
      expect(preauthsOf(authToken)[0]?.attachments).toEqual([expect.objectContaining({ file_name: 'request.pdf', size: PDF.length })]);
    } finally {
      await second.station.stop();
    }
  });

  it('a request SHA refused is given again with its documents; a change of the requesting doctor sends the same documents again', async () => {
    const s = await world.station();
    const elective = await beginElective(s, '30000001');
    await fingerprintConsent(s, elective.workflowId, '30000001');
    await eventually(() => s.ok('workflow.get', { workflowId: elective.workflowId }), (v) => v.state === 'verified', 'consent in');
    // A doctor the registry does not know: SHA refuses the preauth, the request stays to be sent again.
    const unknown = { identificationType: 'registration_number', identificationNumber: 'Z99999', regulationBody: 'KMPDC' } as const;
    await s.refused('elective.submitPreauth', { workflowId: elective.workflowId, ...preauthRequest, doctor: unknown, documents: [scan] });
    expect(await s.ok('workflow.get', { workflowId: elective.workflowId })).toMatchObject({ state: 'verified', next: expect.arrayContaining(['elective.submitPreauth']) });
    const sent = await s.ok('elective.submitPreauth', { workflowId: elective.workflowId, ...preauthRequest, documents: [consultantForm, scan] });
    expect(sent).toMatchObject({ state: 'awaiting-doctor', lastError: null, preauthDocuments: { attached: [{ fileName: 'request.pdf' }, { fileName: 'ultrasound.png' }], gone: false } });
    const first = sent.kind === 'elective' ? sent.preauth!.reference! : '';
    expect(world.sandbox.context.state.preauths.get(Number(first))?.attachments.map((a) => a.file_name)).toEqual(['request.pdf', 'ultrasound.png']);

    const changed = await s.ok('elective.changeDoctor', { workflowId: elective.workflowId, doctor: { identificationType: 'registration_number', identificationNumber: 'A12345', regulationBody: 'KMPDC' } });
    const second = changed.kind === 'elective' ? changed.preauth!.reference! : '';
    expect(second).not.toBe(first);
    expect(world.sandbox.context.state.preauths.get(Number(second))?.attachments.map((a) => [a.file_name, a.size])).toEqual([
      ['request.pdf', PDF.length],
      ['ultrasound.png', PNG.length],
    ]);

    // The documents gone from the station: the change of doctor is refused before anything is cancelled.
    rmSync(join(world.dir.path, `station-${world.stations.length}-papers-waiting`, elective.workflowId), { recursive: true });
    const refused = await s.refused('elective.changeDoctor', { workflowId: elective.workflowId, doctor: SURGEON });
    expect(refused.code).toBe('PAPERS_GONE');
    expect(world.sandbox.context.state.preauths.get(Number(second))?.status).toBe('PENDING_DOCTOR_APPROVAL');
    expect(await s.ok('workflow.get', { workflowId: elective.workflowId })).toMatchObject({ state: 'awaiting-doctor', preauth: { reference: second } });
  });

  it('a file that is not what its type says is refused with the field named, and nothing is kept', async () => {
    const s = await world.station();
    const elective = await beginElective(s, '30000001');
    const refused = await s.refused('elective.submitPreauth', { workflowId: elective.workflowId, ...preauthRequest, documents: [{ ...consultantForm, contentType: 'text/plain' as 'application/pdf' }] });
    expect(refused).toMatchObject({ code: 'VALIDATION' });
    expect(existsSync(join(world.dir.path, `station-${world.stations.length}-papers-waiting`, elective.workflowId))).toBe(false);
    expect(await s.ok('workflow.get', { workflowId: elective.workflowId })).toMatchObject({ preauthDocuments: { attached: [], gone: false } });
  });
});

describe('a paper on an OTP whitelist request', () => {
  it('goes with the request as its one supporting document; no log carries its bytes', async () => {
    const s = await world.station();
    const patient = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000004' });
    const consent = await s.ok('consent.begin', { patientRef: patient.patientRef });
    const { documentType: _type, ...letter } = { ...consultantForm, title: 'Letter from the ward', fileName: 'letter.pdf' };
    const requested = await s.ok('consent.requestWhitelist', { workflowId: consent.workflowId, reasonType: 'BIOMETRIC_FAILURE', document: letter });
    expect(stepOf(requested)?.whitelist).toMatchObject({ status: 'pending' });
    const cr = await world.control.crIdOf('30000004');
    const request = [...world.sandbox.context.state.whitelistRequests.values()].find((w) => w.beneficiary_cr_id === cr);
    expect(request?.attachments).toEqual([expect.objectContaining({ title: 'Letter from the ward', file_name: 'letter.pdf', content_type: 'application/pdf', size: PDF.length })]);
    expect(s.logs.join('\n')).not.toContain(PDF.toString('base64'));
  });
});
