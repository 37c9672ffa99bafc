// Issue 14's claims at the station: a submitted claim read back from SHA (on opening the claims, on
// demand), SHA's states in the list with the claims needing the nurse counted first, a claim
// returned for documents fixed with a paper and sent back, a claim that failed to submit reopened
// and sent back, papers refused where SHA takes no changes, and a lost answer read back instead of
// being sent again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, fastTiming, startWorld, submitBySmsCode, type StationHandle, type World } from './harness';

let world: World;
let s: StationHandle;
let cr: string;

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n').toString('base64');
const invoicePaper = { documentType: 'INVOICE' as const, title: 'Final invoice', fileName: 'invoice.pdf', contentType: 'application/pdf' as const, dataBase64: PDF };

/** Flow B by SMS code to the submit: the visit's workflow id and its consent token at the sandbox. */
async function submittedClaim(): Promise<{ visitId: string; token: string }> {
  const visitId = await submitBySmsCode(s, world.control, '30000002');
  const claims = [...world.sandbox.context.state.claims.values()].filter((c) => c.patient_id === cr);
  return { visitId, token: claims.at(-1)!.consent_token };
}

const payer = (token: string, to: string, extra: Record<string, unknown> = {}) => world.control.post(`/claims/${encodeURIComponent(token)}/workflow-state`, { to, ...extra });

beforeAll(async () => {
  world = await startWorld();
  s = await world.station();
  cr = await world.control.crIdOf('30000002');
});
afterAll(async () => {
  await world.close();
});

describe('claims after submit', () => {
  it('lists a submitted claim with SHA’s state read back, and a return for documents as needing the nurse', async () => {
    const { visitId, token } = await submittedClaim();
    const first = await s.ok('claims.list', { checkWithSha: true });
    const item = first.items.find((i) => i.workflowId === visitId);
    expect(item).toMatchObject({ kind: 'visit', status: 'SUBMITTED', attention: 'none', invoiceNumber: expect.stringMatching(/^INV-/) });
    expect(item?.checkedAt).not.toBeNull();
    // Read back after submit: SHA moves it on its side, and the station reads it back on demand.
    for (const to of ['PENDING', 'SUBMISSION_READY', 'DISPATCHED', 'SUBMITTED_PAYER', 'DRAFT_RESUBMIT_DOCUMENTS']) await payer(token, to);
    // Without a check the list answers what the station last read, asking SHA nothing.
    expect((await s.ok('claims.list', {})).items.find((i) => i.workflowId === visitId)).toMatchObject({ status: 'SUBMITTED', checkedAt: item?.checkedAt });
    const returned = await s.ok('claims.get', { workflowId: visitId });
    expect(returned).toMatchObject({
      status: 'DRAFT_RESUBMIT_DOCUMENTS',
      attention: 'documents',
      resubmit: 'send-back',
      // The invoice the station made at submit is on the claim; SHA returned it all the same.
      documents: [expect.objectContaining({ documentType: 'INVOICE', title: expect.stringMatching(/^invoice-INV-.*\.pdf$/) })],
      documentTypes: { applicable: expect.arrayContaining(['INVOICE']) },
      next: expect.arrayContaining(['claims.get', 'claims.attach', 'claims.removeAttachment', 'claims.resubmit']),
    });
    // The nurse takes the station's invoice off, to put the facility's own scan in its place.
    const madeInvoice = returned.documents[0]!;
    const emptied = await s.ok('claims.removeAttachment', { workflowId: visitId, attachmentId: madeInvoice.attachmentId });
    expect(emptied).toMatchObject({ documents: [], documentTypes: { missing: expect.arrayContaining(['INVOICE']) } });
    const list = await s.ok('claims.list', { checkWithSha: true });
    expect(list.items[0]).toMatchObject({ workflowId: visitId, attention: 'documents' });
    expect(list.needsNurse).toBe(1);
    // The visit itself shows SHA's state too.
    expect(await s.ok('workflow.get', { workflowId: visitId })).toMatchObject({ state: 'closed', claimStatus: 'DRAFT_RESUBMIT_DOCUMENTS' });

    const attached = await s.ok('claims.attach', { workflowId: visitId, document: invoicePaper });
    expect(attached.documents).toEqual([expect.objectContaining({ documentType: 'INVOICE', interventionCode: 'SHA-02-001' })]);
    expect(attached.documentTypes.missing).not.toContain('INVOICE');
    expect(attached.lastError).toBeNull();
    const atSha = [...world.sandbox.context.state.claims.values()].find((c) => c.consent_token === token)!;
    expect(atSha.attachments).toEqual([expect.objectContaining({ document_type: 'INVOICE', file_name: 'invoice.pdf', content_type: 'application/pdf' })]);

    const back = await s.ok('claims.resubmit', { workflowId: visitId });
    expect(back).toMatchObject({ status: 'SUBMITTED', attention: 'none', resubmit: null, next: ['claims.get'] });
    expect((await s.ok('claims.list', { checkWithSha: true })).needsNurse).toBe(0);
    // Every write is in the audit log, with no file bytes or token in it.
    const audit = await s.ok('audit.read', { workflowId: visitId, page: 1, pageSize: 200 });
    expect(audit.items.map((r) => r.action)).toEqual(expect.arrayContaining(['exchange.claims.uploadAttachment', 'exchange.claims.resubmit']));
    expect(JSON.stringify(audit)).not.toContain(token);
    expect(JSON.stringify(s.events)).not.toContain(token);
  });

  it('reopens a claim that failed to submit, then sends it back', async () => {
    const { visitId, token } = await submittedClaim();
    await payer(token, 'FAILED_TO_SUBMIT');
    expect(await s.ok('claims.get', { workflowId: visitId })).toMatchObject({ status: 'FAILED_TO_SUBMIT', attention: 'failed', resubmit: 'reopen' });
    expect(await s.ok('claims.resubmit', { workflowId: visitId })).toMatchObject({ status: 'DRAFT_RESUBMIT', attention: 'correction', resubmit: 'send-back' });
    expect(await s.ok('claims.resubmit', { workflowId: visitId })).toMatchObject({ status: 'SUBMITTED', attention: 'none' });
  });

  it('takes no papers and no resubmission where SHA takes no changes, without asking SHA', async () => {
    const { visitId, token } = await submittedClaim();
    await payer(token, 'DISPATCHED');
    const calls = world.sandbox.context.transitions.length;
    expect(await s.refused('claims.attach', { workflowId: visitId, document: invoicePaper })).toMatchObject({ code: 'WRONG_STATE' });
    expect(await s.refused('claims.resubmit', { workflowId: visitId })).toMatchObject({ code: 'WRONG_STATE' });
    expect(world.sandbox.context.transitions.length).toBe(calls);
    expect(await s.refused('claims.get', { workflowId: 'wf_nosuchworkflow' })).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('a paper bigger than the contract’s limit or of another type is refused before anything is sent', async () => {
    const { visitId } = await submittedClaim();
    const big = { ...invoicePaper, dataBase64: Buffer.alloc(600_000).toString('base64') };
    expect(await s.refused('claims.attach', { workflowId: visitId, document: big })).toMatchObject({ code: 'VALIDATION', details: { field: 'document.dataBase64' } });
    const word = { ...invoicePaper, contentType: 'application/msword' } as unknown as typeof invoicePaper;
    expect(await s.refused('claims.attach', { workflowId: visitId, document: word })).toMatchObject({ code: 'VALIDATION', details: { field: 'document.contentType' } });
  });

  it('a resubmission whose answer is lost is read back at once, not sent again', async () => {
    const { visitId, token } = await submittedClaim();
    for (const to of ['DISPATCHED', 'SUBMITTED_PAYER', 'ON_HOLD']) await payer(token, to);
    await s.ok('claims.get', { workflowId: visitId });
    await world.control.post('/faults', { routes: ['POST /api/v1/claims/lines/resubmit'], status: 504, count: 1 });
    // A 504 is an unknown outcome; the sandbox never saw it (the fault answers first): the read-back says so.
    const after = await s.ok('claims.resubmit', { workflowId: visitId });
    expect(after).toMatchObject({ status: 'ON_HOLD', lastError: { code: 'EXCHANGE_TIMEOUT' } });
    const audit = await s.ok('audit.read', { workflowId: visitId, page: 1, pageSize: 200 });
    expect(audit.items.map((r) => r.action)).toContain('reconcile.claims.resubmit');
    expect(await s.ok('claims.resubmit', { workflowId: visitId })).toMatchObject({ status: 'DRAFT_RESUBMIT', lastError: null });
  });

  it('reads a claim back by itself on a schedule suited to its state, and stops once it is final', async () => {
    const scheduled = await world.station({ extra: { timing: { ...fastTiming, claimReadBackMs: 150 } } });
    const previous = s;
    s = scheduled;
    try {
      const { visitId, token } = await submittedClaim();
      // Submitted: the station reads the claim back by itself, asked by nobody.
      await eventually(() => s.events, (events) => events.some((e) => e.type === 'workflow.updated' && e.view.workflowId === visitId && e.view.kind === 'visit' && e.view.state === 'closed'), 'the visit closed');
      await eventually(() => s.ok('claims.list', {}), (list) => list.items.some((i) => i.workflowId === visitId && i.checkedAt !== null), 'the first read-back after submit');
      const listed = (await s.ok('claims.list', { checkWithSha: true })).items.find((i) => i.workflowId === visitId)!;
      expect(Date.parse(listed.nextCheckAt!) - Date.parse(listed.checkedAt!)).toBe(150);
      await payer(token, 'DISPATCHED');
      // No command: the station's own read-back sees SHA's new state, and says so to the screens.
      await eventually(() => s.events, (events) => events.some((e) => e.type === 'workflow.updated' && e.view.workflowId === visitId && e.view.kind === 'visit' && e.view.claimStatus === 'DISPATCHED'), 'the read-back of DISPATCHED');
      const dispatched = (await s.ok('claims.list', { checkWithSha: true })).items.find((i) => i.workflowId === visitId)!;
      expect(Date.parse(dispatched.nextCheckAt!) - Date.parse(dispatched.checkedAt!)).toBe(450);
      for (const to of ['SUBMITTED_PAYER', 'AUTOMATIC_CHECKS_DONE', 'CLOSED']) await payer(token, to);
      await eventually(() => s.ok('workflow.get', { workflowId: visitId }), (v) => v.kind === 'visit' && v.claimStatus === 'CLOSED', 'the read-back of CLOSED', 10_000);
      expect((await s.ok('claims.get', { workflowId: visitId })).nextCheckAt).toBeNull();
      // Final: no more read-backs (the exchange's recent calls show no preview while several intervals pass).
      const previews = async () => (await world.control.get<{ recent: { method: string; path: string }[] }>('/faults')).recent.filter((r) => r.path.endsWith('/claims/preview')).length;
      const before = await previews();
      await new Promise((resolve) => setTimeout(resolve, 2000));
      expect(await previews()).toBe(before);
    } finally {
      s = previous;
    }
  });

  it('lists an emergency claim too, unidentified, and reads it back once submitted', async () => {
    const [protocol] = (await s.ok('emergency.protocols', { interventionCode: 'SHA-01-001' })).items;
    const created = await s.ok('emergency.create', {
      interventionCode: 'SHA-01-001',
      protocolCode: protocol!.protocolCode,
      doctor: { identificationType: 'registration_number', identificationNumber: 'A34567', regulationBody: 'KMPDC' },
      modeOfArrival: 'WALK-IN',
      broughtBy: 'SAMARITAN',
      referenceNumber: 'REG-CLAIMS-01',
      notes: 'Collapsed at the gate',
    });
    await s.ok('emergency.submit', { workflowId: created.workflowId, reason: 'OTHER', unknownPatientReason: 'SHA_UNREGISTERED' });
    const listed = (await s.ok('claims.list', { checkWithSha: true })).items.find((i) => i.workflowId === created.workflowId);
    expect(listed).toMatchObject({ kind: 'emergency', patient: null, status: 'SUBMITTED', attention: 'none', intervention: { code: 'SHA-01-001' } });
    expect(listed?.checkedAt).not.toBeNull();
    const claim = await s.ok('claims.get', { workflowId: created.workflowId });
    expect(claim).toMatchObject({ kind: 'emergency', resubmit: null, next: ['claims.get'] });
  });

  // Last in the file: it moves the sandbox's clock (and the station's with it) by days.
  it('counts SHA’s 14 days for a claim returned for documents from when the station first saw it, warns from 4 days left, and forgets them once it is sent back', async () => {
    const DAY = 24 * 3_600_000;
    const { visitId, token } = await submittedClaim();
    expect((await s.ok('claims.get', { workflowId: visitId })).resubmitBy).toBeNull();
    const toReturned = async (documents: string[]) => {
      for (const to of ['PENDING', 'SUBMISSION_READY', 'DISPATCHED', 'SUBMITTED_PAYER']) await payer(token, to);
      await payer(token, 'DRAFT_RESUBMIT_DOCUMENTS', { documents });
    };
    await toReturned(['INVOICE']);
    const seenAt = world.sandbox.context.clock.now();
    const returned = (await s.ok('claims.get', { workflowId: visitId })).resubmitBy!;
    expect(Date.parse(returned.returnSeenAt)).toBeGreaterThanOrEqual(seenAt);
    expect(Date.parse(returned.deadline) - Date.parse(returned.returnSeenAt)).toBe(14 * DAY);
    expect(returned.closeToDeadline).toBe(false);
    expect((await s.ok('claims.list', { checkWithSha: true })).closeToDeadline).toBe(0);

    // Read back again days later: the count still starts at the first sight, not the latest read-back.
    await world.control.advanceClock(9 * DAY);
    const fiveLeft = (await s.ok('claims.list', { checkWithSha: true })).items.find((i) => i.workflowId === visitId)!;
    expect(fiveLeft.resubmitBy).toEqual({ ...returned, closeToDeadline: false });
    await world.control.advanceClock(DAY + 60_000);
    const close = await s.ok('claims.list', { checkWithSha: true });
    expect(close.items.find((i) => i.workflowId === visitId)?.resubmitBy).toEqual({ ...returned, closeToDeadline: true });
    expect(close.closeToDeadline).toBe(1);
    expect(close.needsNurse).toBeGreaterThanOrEqual(1);

    const made = (await s.ok('claims.get', { workflowId: visitId })).documents.find((d) => d.documentType === 'INVOICE')!;
    await s.ok('claims.removeAttachment', { workflowId: visitId, attachmentId: made.attachmentId });
    await s.ok('claims.attach', { workflowId: visitId, document: invoicePaper });
    const back = await s.ok('claims.resubmit', { workflowId: visitId });
    expect(back).toMatchObject({ status: 'SUBMITTED', resubmitBy: null });
    expect((await s.ok('claims.list', {})).closeToDeadline).toBe(0);

    // Returned again: a new notice, with its own 14 days from when the station sees it.
    await toReturned(['DISCHARGE_SUMMARY']);
    const again = (await s.ok('claims.get', { workflowId: visitId })).resubmitBy!;
    expect(Date.parse(again.returnSeenAt)).toBeGreaterThan(Date.parse(returned.returnSeenAt) + 10 * DAY);
    expect(again.closeToDeadline).toBe(false);
  });
});

