// The ward's visit end through the station core against the running sandbox (issue 22): a per-diem
// stay has no line to carry a doctor, so the station asks for the doctor before the patient is
// asked for a discharge code (no code is sent while the claim lacks one); the invoice and the
// discharge summary the station makes from SHA's lines go on the claim when it is discharged,
// unless the nurse attached a scan of that type, which stands.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCTOR, startWorld, type StationHandle, type World } from './harness';

let world: World;
let s: StationHandle;
beforeAll(async () => {
  world = await startWorld();
  s = await world.station();
});
afterAll(async () => {
  await world.close();
});

const claimOf = (cr: string) => [...world.sandbox.context.state.claims.values()].filter((c) => c.patient_id === cr).at(-1)!;
const dischargeCodes = async (cr: string) => (await world.control.get<{ purpose: string }[]>(`/sms?patient_id=${cr}`)).filter((m) => m.purpose === 'discharge').length;

const SCAN = { documentType: 'INVOICE' as const, title: 'Invoice (scan)', fileName: 'invoice-scan.pdf', contentType: 'application/pdf' as const, dataBase64: Buffer.from('%PDF-1.4\n1 0 obj << /Type /Page >> endobj\ntrailer <<>>\n%%EOF\n').toString('base64') };

/** An inpatient (per-diem) stay by SMS code, with no doctor named, and a diagnosis on the claim. */
async function admit(): Promise<{ visitId: string; cr: string }> {
  const cr = await world.control.crIdOf('30000002');
  const patient = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000002', serviceType: 'INPATIENT' });
  const consent = await s.ok('consent.begin', { patientRef: patient.patientRef });
  await s.ok('consent.sendSms', { workflowId: consent.workflowId });
  const opened = await s.ok('consent.confirmSms', { workflowId: consent.workflowId, code: await world.control.latestCode({ patient_id: cr }, 'consent') });
  if (opened.kind !== 'consent' || opened.visitWorkflowId === null) throw new Error('no visit');
  await s.ok('visit.addDiagnosis', { workflowId: opened.visitWorkflowId, code: 'CA40.Z' });
  expect(claimOf(cr).doctor).toBeNull();
  return { visitId: opened.visitWorkflowId, cr };
}

async function dischargeBySms(visitId: string, cr: string) {
  const discharge = await s.ok('discharge.begin', { workflowId: visitId });
  await s.ok('consent.sendSms', { workflowId: discharge.workflowId });
  await s.ok('consent.confirmSms', { workflowId: discharge.workflowId, code: await world.control.latestCode({ patient_id: cr }, 'discharge') });
  return discharge.workflowId;
}

describe('the ward visit end', () => {
  it('asks for the doctor before the patient: no discharge code is sent while the claim has none', async () => {
    const { visitId, cr } = await admit();
    const before = await dischargeCodes(cr);
    const refused = await s.refused('discharge.begin', { workflowId: visitId });
    expect(refused).toMatchObject({ code: 'NO_DOCTOR', details: { field: 'doctor' } });
    expect(refused.message).toMatch(/doctor/);
    const view = await s.ok('workflow.get', { workflowId: visitId });
    expect(view).toMatchObject({ state: 'open', dischargeWorkflowId: null });
    expect(await dischargeCodes(cr)).toBe(before);
    // The doctor taken, the visit end goes on.
    await s.ok('visit.attachDoctor', { workflowId: visitId, doctor: DOCTOR });
    const dischargeId = await dischargeBySms(visitId, cr);
    expect(await dischargeCodes(cr)).toBe(before + 1);
    await s.ok('discharge.dischargeInpatient', { workflowId: dischargeId, reason: 'RECOVERED' });
    expect(claimOf(cr).workflow_state).not.toBe('DRAFT');
  });

  it('attaches the invoice and the discharge summary it made from SHA’s lines when the claim has none', async () => {
    const { visitId, cr } = await admit();
    await s.ok('visit.attachDoctor', { workflowId: visitId, doctor: DOCTOR });
    await s.ok('visit.addLine', { workflowId: visitId, unitPriceKes: 1200, quantity: 2, diagnoses: [{ code: 'CA40.Z' }], description: 'Oxygen, per day' });
    const dischargeId = await dischargeBySms(visitId, cr);
    const made = await s.ok('discharge.madeInvoice', { workflowId: dischargeId });
    expect(made).toMatchObject({ onClaim: false, lineCount: 2, pages: 1 });
    expect(made.totalKes).toBe(claimOf(cr).lines.reduce((sum, l) => sum + l.unit_price * l.quantity, 0));
    expect(Buffer.from(made.dataBase64, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    expect(claimOf(cr).attachments).toHaveLength(0);
    await s.ok('discharge.dischargeInpatient', { workflowId: dischargeId, reason: 'RECOVERED' });
    expect(claimOf(cr).attachments.map((a) => a.document_type).sort()).toEqual(['DISCHARGE_SUMMARY', 'INVOICE']);
  });

  it('leaves the nurse’s scanned invoice in place of its own', async () => {
    const { visitId, cr } = await admit();
    await s.ok('visit.attachDoctor', { workflowId: visitId, doctor: DOCTOR });
    await s.ok('claims.attach', { workflowId: visitId, document: SCAN });
    const dischargeId = await dischargeBySms(visitId, cr);
    expect(await s.ok('discharge.madeInvoice', { workflowId: dischargeId })).toMatchObject({ onClaim: true });
    await s.ok('discharge.dischargeInpatient', { workflowId: dischargeId, reason: 'RECOVERED' });
    const papers = claimOf(cr).attachments;
    expect(papers.filter((a) => a.document_type === 'INVOICE').map((a) => a.file_name)).toEqual(['invoice-scan.pdf']);
    expect(papers.map((a) => a.document_type)).toContain('DISCHARGE_SUMMARY');
  });
});
