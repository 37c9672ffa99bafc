// Billing at the station on the live wire (as the sandbox now speaks it): a line carries its
// diagnoses and papers to the exchange in one multipart call, the claim preview's invoices[].lines
// are the visit's lines (a preview never empties the visit), and an inpatient discharge names its
// moment as an RFC 3339 date-time, the nurse's or the station clock's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExchangeClient, type ExchangeClient, type ExchangeClientOptions } from '../../../electron/payer';
import { DOCTOR, startWorld, type StationHandle, type World } from './harness';

let world: World;
let s: StationHandle;
const sent: { operation: string; request: Record<string, unknown> }[] = [];

/** The real client, wrapped so that the billing and discharge requests are recorded as the station hands them over. */
function recordingClient(options: ExchangeClientOptions): ExchangeClient {
  const client = createExchangeClient(options);
  const addBilling: ExchangeClient['claims']['addBilling'] = (request, callOptions) => {
    sent.push({ operation: 'claims.addBilling', request: request as Record<string, unknown> });
    return client.claims.addBilling(request, callOptions);
  };
  const discharge: ExchangeClient['claims']['discharge'] = (request, callOptions) => {
    sent.push({ operation: 'claims.discharge', request: request as Record<string, unknown> });
    return client.claims.discharge(request, callOptions);
  };
  return { ...client, claims: { ...client.claims, addBilling, discharge } };
}

beforeAll(async () => {
  world = await startWorld();
  s = await world.station({ extra: { exchangeClientFactory: recordingClient } });
});
afterAll(async () => {
  await world.close();
});

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const report = { documentType: 'LAB_RESULTS', title: 'Chest X-ray report', fileName: 'xray.pdf', contentType: 'application/pdf', dataBase64: PDF.toString('base64') } as const;
const lastSent = (operation: string) => sent.filter((r) => r.operation === operation).at(-1)?.request;
const claimOf = (cr: string) => [...world.sandbox.context.state.claims.values()].filter((c) => c.patient_id === cr).at(-1)!;

/** A visit by SMS code for the whitelisted patient; each test ends it, so the next opens a new claim. */
async function openVisit(serviceType: 'OUTPATIENT' | 'INPATIENT'): Promise<{ visitId: string; cr: string }> {
  const cr = await world.control.crIdOf('30000002');
  // The ward's setting picks the intervention: capitation for an outpatient, the per-diem stay for an inpatient.
  const patient = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000002', serviceType });
  const consent = await s.ok('consent.begin', { patientRef: patient.patientRef });
  expect(consent.serviceType).toBe(serviceType);
  await s.ok('consent.sendSms', { workflowId: consent.workflowId });
  // The code is spent by the visit itself: the confirmation opens it; the doctor is attached after.
  const opened = await s.ok('consent.confirmSms', { workflowId: consent.workflowId, code: await world.control.latestCode({ patient_id: cr }, 'consent') });
  if (opened.kind !== 'consent' || opened.visitWorkflowId === null) throw new Error('the confirmed code opened no visit');
  await s.ok('visit.attachDoctor', { workflowId: opened.visitWorkflowId, doctor: DOCTOR });
  return { visitId: opened.visitWorkflowId, cr };
}

async function endVisit(visitId: string, cr: string, close: { dischargedAt?: string }): Promise<void> {
  const discharge = await s.ok('discharge.begin', { workflowId: visitId });
  await s.ok('consent.sendSms', { workflowId: discharge.workflowId });
  await s.ok('consent.confirmSms', { workflowId: discharge.workflowId, code: await world.control.latestCode({ patient_id: cr }, 'discharge') });
  const view = await s.ok('workflow.get', { workflowId: discharge.workflowId });
  const closed =
    view.kind === 'discharge' && view.closeBy === 'discharge'
      ? await s.ok('discharge.dischargeInpatient', { workflowId: discharge.workflowId, reason: 'RECOVERED', ...close })
      : await s.ok('discharge.submit', { workflowId: discharge.workflowId, reason: 'RECOVERED' });
  expect(closed.state).toMatch(/^(discharged|submitted)$/);
}

describe('billing lines', () => {
  it('sends a line with its diagnoses as ICD codes and a paper as a named file part; the visit and the preview show them', async () => {
    const { visitId, cr } = await openVisit('OUTPATIENT');
    const view = await s.ok('visit.addLine', {
      workflowId: visitId,
      unitPriceKes: 900,
      quantity: 1,
      diagnoses: [{ code: 'CA40.Z', name: 'Pneumonia' }, { code: 'MD12' }],
      attachments: [report],
    });
    expect(lastSent('claims.addBilling')).toMatchObject({
      diagnoses: ['CA40.Z', 'MD12'],
      attachments: [{ document_title: 'Chest X-ray report', document_type: 'LAB_RESULTS', file: { file_name: 'xray.pdf', content_type: 'application/pdf' } }],
    });
    expect(view.kind === 'visit' && view.lines).toEqual([
      expect.objectContaining({ unitPriceKes: 900, amountKes: 900, automatic: false, diagnoses: [{ code: 'CA40.Z', name: 'Pneumonia, organism unspecified' }, { code: 'MD12', name: 'Cough' }] }),
    ]);
    const claim = claimOf(cr);
    expect(claim.attachments).toEqual([expect.objectContaining({ title: 'Chest X-ray report', document_type: 'LAB_RESULTS', file_name: 'xray.pdf', size: PDF.length })]);
    expect(claim.diagnoses.map((d) => d.code)).toEqual(['CA40.Z', 'MD12']);
    const preview = await s.ok('visit.preview', { workflowId: visitId });
    expect(preview).toMatchObject({ attachmentCount: 1, totalKes: 900, invoiceNumber: claim.invoice_number });
    expect(preview.diagnoses.map((d) => d.code)).toEqual(['CA40.Z', 'MD12']);
    await endVisit(visitId, cr, {});
  });

  it('a preview keeps the visit’s lines: it reads them from every invoice, the exchange’s own lines marked so', async () => {
    const { visitId, cr } = await openVisit('INPATIENT');
    await s.ok('visit.addLine', { workflowId: visitId, unitPriceKes: 1200, quantity: 3, diagnoses: [{ code: 'CA40.Z' }] });
    const preview = await s.ok('visit.preview', { workflowId: visitId });
    const view = await s.ok('workflow.get', { workflowId: visitId });
    for (const lines of [preview.lines, view.kind === 'visit' ? view.lines : []]) {
      // The per-diem day line the exchange generated at admission, and the nurse's.
      expect(lines.map((l) => [l.automatic, l.quantity])).toEqual([
        [true, 1],
        [false, 3],
      ]);
    }
    expect(preview.totalKes).toBe(claimOf(cr).lines.reduce((sum, l) => sum + l.unit_price * l.quantity, 0));
    await endVisit(visitId, cr, {});
  });

  it('refuses a paper the station does not send, before anything is sent', async () => {
    const { visitId, cr } = await openVisit('OUTPATIENT');
    const before = sent.length;
    const line = { workflowId: visitId, unitPriceKes: 900, quantity: 1, diagnoses: [{ code: 'CA40.Z' }] };
    expect(await s.refused('visit.addLine', { ...line, attachments: [{ ...report, contentType: 'text/plain' as 'application/pdf' }] })).toMatchObject({ code: 'VALIDATION' });
    expect(await s.refused('visit.addLine', { ...line, attachments: [{ ...report, documentType: 'LAB_REPORT' as 'LAB_RESULTS' }] })).toMatchObject({ code: 'VALIDATION' });
    expect(await s.refused('visit.addLine', { ...line, attachments: [{ ...report, dataBase64: 'not base64!' }] })).toMatchObject({ code: 'VALIDATION' });
    expect(sent.length).toBe(before);
    expect(claimOf(cr).lines).toEqual([]);
    await s.ok('visit.addLine', line);
    await endVisit(visitId, cr, {});
  });
});

describe('inpatient discharge', () => {
  it('sends discharge_date as the nurse’s RFC 3339 moment', async () => {
    const { visitId, cr } = await openVisit('INPATIENT');
    await endVisit(visitId, cr, { dischargedAt: '2030-01-04T15:45:00+03:00' });
    expect(lastSent('claims.discharge')?.discharge_date).toBe('2030-01-04T15:45:00+03:00');
    expect(claimOf(cr)).toMatchObject({ workflow_state: 'SUBMITTED', discharge_date: '2030-01-04T15:45:00+03:00' });
  });

  it('sends now by the station clock when the nurse gives no moment', async () => {
    const { visitId, cr } = await openVisit('INPATIENT');
    await s.ok('visit.addLine', { workflowId: visitId, unitPriceKes: 500, quantity: 1, diagnoses: [{ code: 'CA40.Z' }] });
    await endVisit(visitId, cr, {});
    const date = String(lastSent('claims.discharge')?.discharge_date);
    expect(date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
    expect(Math.abs(Date.parse(date) - world.sandbox.context.clock.now())).toBeLessThan(60_000);
    expect(claimOf(cr)).toMatchObject({ workflow_state: 'SUBMITTED', discharge_date: date });
  });
});
