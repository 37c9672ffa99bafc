// A claim after the nurse has worked on it: the visit's or the emergency's claim read back from SHA
// (the claim preview: its state, its papers, the document types that apply to it) on opening the
// claims, on a schedule suited to its state, and on demand; its papers attached and removed; a
// returned claim sent back. Each write is journaled like every other (done, refused, or unknown and
// then read back before anything is sent again); a visit that has ended still has its claim.
import type { z } from 'zod';
import { claimDocumentType, makeError, type ClaimAttention, type ClaimDetail, type ClaimSummary, type lineAttachment } from '../../contract';
import { isResubmissionForm, resubmissionRoute, resubmitReturnedClaim, type ClaimPreview as WireClaimPreview, type Resubmission, type ResubmissionForm } from '../../payer';
import { fail } from '../errors';
import { exchangeOriginOf } from '../settings';
import type { Ctx } from './context';
import type { CallRecord } from './engine';
import { journal } from './journal';
import type { ClaimReadBack, EmergencyWorkflow, VisitWorkflow, AnyWorkflow } from './types';
import { applyPreview, claimStatusOf, dateTimeOf } from './visit';
import { noteDocumentsReturn, resubmitBy } from './documents-deadline';

export type ClaimHolder = VisitWorkflow | EmergencyWorkflow;
type ClaimStatus = NonNullable<ClaimSummary['status']>;
type DocumentType = z.infer<typeof claimDocumentType>;

/**
 * How soon the station reads a claim back by itself, by SHA's state, in read-back intervals
 * (`timing.claimReadBackMs`, 10 minutes): often while it moves on its own (just submitted, queued),
 * less once dispatched and under the payer's review, seldom while it waits for the nurse (her own
 * action reads it back), never while she is still billing it or once it is final.
 */
export const READ_BACK_EVERY: Readonly<Record<ClaimStatus, number | null>> = {
  DRAFT: null,
  SUBMITTED: 1,
  PENDING: 1,
  SUBMISSION_READY: 1,
  DISPATCHED: 3,
  FAILED_TO_SUBMIT: 12,
  SUBMITTED_PAYER: 6,
  AUTOMATIC_CHECKS_DONE: 6,
  ON_HOLD: 12,
  DRAFT_RESUBMIT: 12,
  DRAFT_RESUBMIT_DOCUMENTS: 12,
  TIME_BARRED: null,
  CLOSED: null,
  OTHER: 6,
};

function readBackEvery(ctx: Ctx, status: ClaimStatus | null): number | null {
  const times = status === null ? null : READ_BACK_EVERY[status];
  return times === null ? null : times * ctx.timing.claimReadBackMs;
}

/** Read-backs at once when the claims are checked: the ward's line to SHA is shared. */
const READ_BACKS_AT_ONCE = 3;

const ATTENTION: Partial<Record<ClaimStatus, ClaimAttention>> = {
  DRAFT_RESUBMIT_DOCUMENTS: 'documents',
  DRAFT_RESUBMIT: 'correction',
  ON_HOLD: 'on-hold',
  FAILED_TO_SUBMIT: 'failed',
};

/** What the resubmission does in each state SHA allows it: reopens a claim it holds, sends back one reopened. */
const RESUBMIT: Partial<Record<ClaimStatus, 'send-back' | 'reopen'>> = {
  DRAFT_RESUBMIT: 'send-back',
  DRAFT_RESUBMIT_DOCUMENTS: 'send-back',
  ON_HOLD: 'reopen',
  FAILED_TO_SUBMIT: 'reopen',
};

/** Where SHA lets the facility change the claim's papers. */
const PAPERS_OPEN: ReadonlySet<ClaimStatus> = new Set(['DRAFT', 'DRAFT_RESUBMIT', 'DRAFT_RESUBMIT_DOCUMENTS']);

const CLAIM_OPERATIONS = new Set<string>([journal.uploadAttachment.name, journal.removeAttachment.name, journal.resubmit.name]);

/** A write of this area (a claim's papers, its resubmission): the claim's read-back settles it. */
export function isClaimCall(call: CallRecord): boolean {
  return CLAIM_OPERATIONS.has(call.operation);
}
const knownDocumentTypes = new Set<string>(claimDocumentType.options);

/** A workflow that has a claim at SHA. */
export function isClaimHolder(wf: AnyWorkflow): wf is ClaimHolder {
  if (wf.kind === 'visit') return wf.data.consentToken !== null && wf.state !== 'opening' && wf.state !== 'failed';
  if (wf.kind === 'emergency') return wf.data.consentToken !== null && !['creating', 'unconfirmed', 'not-created'].includes(wf.state);
  return false;
}

function consentTokenOf(wf: ClaimHolder): string {
  if (wf.data.consentToken === null) fail('WRONG_STATE', 'SHA has no claim for this yet.', { state: wf.state });
  return wf.data.consentToken;
}

function statusOf(wf: ClaimHolder): ClaimStatus | null {
  return claimStatusOf(wf.data.claimStatus);
}

/**
 * When the claim is next read back by itself: an interval after it last was, or after its last
 * change (a claim just submitted). Fixed by the claim, so asking again never puts it off.
 */
function dueAt(ctx: Ctx, wf: ClaimHolder): number | null {
  const every = readBackEvery(ctx, statusOf(wf));
  return every === null ? null : Date.parse(wf.data.claimReadBack?.checkedAt ?? wf.updatedAt) + every;
}

function nextCheckAt(ctx: Ctx, wf: ClaimHolder): string | null {
  const due = dueAt(ctx, wf);
  return due === null ? null : new Date(due).toISOString();
}

/** The preview's papers and document types, kept on the workflow with the time it was read. */
function readBackOf(ctx: Ctx, preview: WireClaimPreview): ClaimReadBack {
  const said = preview.documentTypes.filter((d) => d.applicable !== undefined);
  return {
    checkedAt: ctx.nowIso(),
    documents: preview.attachments.slice(0, 100).map((a) => ({
      attachmentId: a.id.slice(0, 100),
      documentType: a.attachmentType?.slice(0, 60) ?? null,
      title: a.title?.trim() ? a.title.trim().slice(0, 200) : null,
      interventionCode: a.interventionCode?.slice(0, 60) ?? null,
    })),
    documentTypes: said.length === 0 ? null : [...new Set(said.flatMap((d) => d.applicable ?? []))].filter((d) => knownDocumentTypes.has(d)),
  };
}

/** The claim as the preview shows it becomes the workflow's (its state, and for a visit its lines). */
function applyClaim(ctx: Ctx, wf: ClaimHolder, preview: WireClaimPreview): void {
  if (wf.kind === 'visit') applyPreview(wf, preview);
  else {
    wf.data.claimStatus = preview.workflowState ?? wf.data.claimStatus;
    wf.data.invoiceNumber = preview.invoiceNumber?.slice(0, 60) ?? wf.data.invoiceNumber;
    wf.data.submittedAt = dateTimeOf(preview.submittedAt) ?? wf.data.submittedAt;
  }
  wf.data.claimReadBack = readBackOf(ctx, preview);
  noteDocumentsReturn(wf, ctx.nowIso());
}

/**
 * Reads the claim back from SHA and keeps it. Calls of this area whose answer was lost are settled
 * by it (the preview shows what became of them): a resubmission that left the state as it was,
 * or a paper not on the claim, did not reach SHA, and the claim says so.
 */
export async function readBack(ctx: Ctx, wf: ClaimHolder): Promise<void> {
  const before = { status: wf.data.claimStatus, papers: new Set(wf.data.claimReadBack?.documents.map((d) => d.attachmentId) ?? []) };
  const preview = await ctx.session.client().claims.preview({ consent_token: consentTokenOf(wf) });
  const open = ctx.engine.openCalls(wf.id).filter((c) => CLAIM_OPERATIONS.has(c.operation));
  ctx.engine.commit(() => {
    applyClaim(ctx, wf, preview);
    for (const call of open) settleLost(ctx, wf, call, before, preview);
    ctx.engine.save(wf);
  });
}

function settleLost(ctx: Ctx, wf: ClaimHolder, call: CallRecord, before: { status: string | null; papers: ReadonlySet<string> }, preview: WireClaimPreview): void {
  if (call.operation === journal.resubmit.name) {
    const moved = preview.workflowState !== undefined && preview.workflowState !== before.status;
    if (!moved) wf.lastError = makeError('EXCHANGE_TIMEOUT', 'SHA did not receive the resubmission: send it again.');
    ctx.engine.reconciled(call, moved ? `the claim is ${preview.workflowState} at SHA` : 'the resubmission did not reach SHA', wf);
  } else if (call.operation === journal.uploadAttachment.name) {
    const landed = preview.attachments.some((a) => !before.papers.has(a.id) && a.attachmentType === call.request.document_type);
    if (!landed) wf.lastError = makeError('EXCHANGE_TIMEOUT', 'SHA did not receive the paper: attach it again.');
    ctx.engine.reconciled(call, landed ? 'the paper is on the claim' : 'the paper did not reach SHA', wf);
  } else {
    const gone = !preview.attachments.some((a) => a.id === call.request.attachment_id);
    if (!gone) wf.lastError = makeError('EXCHANGE_TIMEOUT', 'SHA did not remove the paper: remove it again.');
    ctx.engine.reconciled(call, gone ? 'the paper is off the claim' : 'the paper is still on the claim', wf);
  }
}

/** Reads the claim back after `delayMs`, then again as its state asks, until it is final. */
export function watchClaim(ctx: Ctx, wf: ClaimHolder, delayMs?: number): void {
  const due = dueAt(ctx, wf);
  if (due === null && delayMs === undefined) {
    ctx.engine.cancelRepeat('claim', wf.id);
    return;
  }
  const wait = delayMs ?? Math.max(0, (due ?? 0) - ctx.clock.now());
  ctx.engine.repeat('claim', wf.id, wait, async (current) => {
    if (!isClaimHolder(current)) return null;
    await readBack(ctx, current);
    return readBackEvery(ctx, statusOf(current));
  });
}

/** A workflow changed (a visit ended, SHA's state read back): its claim is read back as its state now asks. */
export function followClaim(ctx: Ctx, workflowId: string): void {
  const wf = ctx.engine.get(workflowId);
  if (wf !== undefined && isClaimHolder(wf)) watchClaim(ctx, wf);
}

/** At start: every claim watched again, each read back when its state's interval since the last read-back is over. */
export function watchClaims(ctx: Ctx): void {
  for (const wf of ctx.engine.all()) {
    if (!isClaimHolder(wf)) continue;
    // One never read back (kept by a station from before read-backs) waits an interval from now, not a burst at start.
    const every = readBackEvery(ctx, statusOf(wf));
    watchClaim(ctx, wf, wf.data.claimReadBack === undefined && every !== null ? every : undefined);
  }
}

/** Every claim on the station; with `checkWithSha`, those SHA may still change read back first (a few at a time). */
export async function listClaims(ctx: Ctx, checkWithSha: boolean): Promise<ClaimHolder[]> {
  const claims = ctx.engine.all().filter(isClaimHolder);
  const queue = checkWithSha ? claims.filter((wf) => readBackEvery(ctx, statusOf(wf)) !== null) : [];
  const worker = async () => {
    for (let wf = queue.shift(); wf !== undefined; wf = queue.shift()) {
      const claim = wf;
      // A claim SHA cannot be asked about now keeps what was last read; its schedule tries again.
      await ctx.engine.lock(claim.id, () => readBack(ctx, claim)).catch(() => ctx.engine.discardUncommitted(claim.id));
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_BACKS_AT_ONCE, queue.length) }, worker));
  for (const wf of claims) watchClaim(ctx, wf);
  return claims;
}

/** A claim's papers are SHA's to change only while it lets the facility edit the claim. */
function requirePapersOpen(wf: ClaimHolder): void {
  const status = statusOf(wf);
  if (status === null || !PAPERS_OPEN.has(status)) {
    fail('WRONG_STATE', 'SHA does not take changes to this claim’s papers in its present state.', { state: status ?? wf.state });
  }
}

/**
 * One write on the claim, through the engine's write, then the claim read back. A refusal stays on
 * the claim (lastError); a lost answer is read back at once by the claim's kind (its policy is
 * `look-up`), and the nurse told OUTCOME_UNKNOWN only when even that fails.
 */
async function claimCall<T>(
  ctx: Ctx,
  wf: ClaimHolder,
  operation: typeof journal.resubmit,
  request: Record<string, unknown>,
  send: () => Promise<T>,
  done?: (result: T) => void,
): Promise<void> {
  let answered = false;
  await ctx.engine.send(wf, {
    operation,
    request,
    send,
    settle: (result) => {
      answered = true;
      wf.lastError = null;
      done?.(result);
      ctx.engine.save(wf);
    },
    refused: (error) => ctx.engine.setError(wf, error),
  });
  if (answered) await readBack(ctx, wf);
}

export async function attachPaper(ctx: Ctx, wf: ClaimHolder, interventionCode: string | undefined, document: z.infer<typeof lineAttachment>): Promise<void> {
  requirePapersOpen(wf);
  const intervention = interventionCode ?? wf.data.intervention.code;
  const fields = { consent_token: consentTokenOf(wf), intervention_code: intervention, document_type: document.documentType };
  const bytes = Buffer.from(document.dataBase64, 'base64');
  // The journal names the file; it never holds its bytes.
  await claimCall(ctx, wf, journal.uploadAttachment, { ...fields, file_name: document.fileName, bytes: bytes.length }, () =>
    ctx.session.client().claims.uploadAttachment({ ...fields, file_blob: { file_name: document.fileName, content_type: document.contentType, data: bytes } }),
  );
}

export async function removePaper(ctx: Ctx, wf: ClaimHolder, attachmentId: string): Promise<void> {
  requirePapersOpen(wf);
  const paper = wf.data.claimReadBack?.documents.find((d) => d.attachmentId === attachmentId);
  if (paper === undefined) fail('NOT_FOUND', 'The claim has no such paper.', { field: 'attachmentId' });
  const request = { attachment_id: attachmentId, consent_token: consentTokenOf(wf), intervention_code: paper.interventionCode ?? wf.data.intervention.code };
  await claimCall(ctx, wf, journal.removeAttachment, request, () => ctx.session.client().claims.removeAttachment(request));
}

/** Whose form each documented resubmission route is, as the activity record names it. */
const FORM_SOURCE: Readonly<Record<ResubmissionForm, string>> = {
  'claims.resubmit': 'the portal’s form',
  'claims.resubmitAtPostmanPath': 'the Postman collection’s form',
  'claims.resubmitBySubmit': 'AMPATH’s form',
};

/** Where the station keeps the form an exchange took, by the exchange's origin: another exchange may take another. */
function resubmissionMemo(ctx: Ctx): string | null {
  const origin = exchangeOriginOf(ctx.settings.values.exchangeBaseUrl);
  return origin === null ? null : `resubmitForm.${origin}`;
}

function resubmittedBy(done: Resubmission, remembered: ResubmissionForm | undefined): string {
  const how = `resubmitted by ${resubmissionRoute(done.form)} (${FORM_SOURCE[done.form]}${done.form === remembered ? ', the one this exchange took before' : ''})`;
  return done.missing.length === 0 ? how : `${how}; no such route at this exchange: ${done.missing.map(resubmissionRoute).join(', ')}`;
}

/**
 * Sends a returned claim back in whichever documented form the exchange serves (the sources
 * disagree on the route: docs/exchange-wire.md, `claims.resubmit`), the form it took last time
 * first; remembers the one that answered and says which in the activity record.
 */
export async function resubmitClaim(ctx: Ctx, wf: ClaimHolder): Promise<void> {
  const status = statusOf(wf);
  if (status === null || RESUBMIT[status] === undefined) fail('WRONG_STATE', 'SHA takes a resubmission only of a claim it has returned.', { state: status ?? wf.state });
  const request = { consent_token: consentTokenOf(wf) };
  const memo = resubmissionMemo(ctx);
  const stored = memo === null ? undefined : ctx.settings.memo(memo);
  const remembered = isResubmissionForm(stored) ? stored : undefined;
  await claimCall(
    ctx,
    wf,
    journal.resubmit,
    request,
    () => resubmitReturnedClaim(ctx.session.client(), request, { remembered }),
    (done) => {
      if (memo !== null && done.form !== remembered) ctx.settings.remember(memo, done.form);
      ctx.engine.audit({ action: 'exchange.claims.resubmit', workflowId: wf.id, workflowKind: wf.kind, outcome: 'succeeded', summary: resubmittedBy(done, remembered) });
    },
  );
}

// ---------------------------------------------------------------- what the screens show

export function claimSummary(ctx: Ctx, wf: ClaimHolder): ClaimSummary {
  const status = statusOf(wf);
  return {
    workflowId: wf.id,
    kind: wf.kind,
    patient: wf.data.patient === null ? null : { patientRef: wf.data.patient.ref, maskedName: wf.data.patient.maskedName },
    intervention: wf.data.intervention,
    invoiceNumber: wf.data.invoiceNumber,
    visitNumber: wf.kind === 'visit' ? wf.data.visitNumber : null,
    status,
    attention: (status === null ? undefined : ATTENTION[status]) ?? 'none',
    totalKes: wf.kind === 'visit' ? wf.data.totalKes : 0,
    checkedAt: wf.data.claimReadBack?.checkedAt ?? null,
    nextCheckAt: nextCheckAt(ctx, wf),
    resubmitBy: resubmitBy(wf, ctx.clock.now()),
  };
}

export function claimDetail(ctx: Ctx, wf: ClaimHolder): ClaimDetail {
  const summary = claimSummary(ctx, wf);
  const read = wf.data.claimReadBack;
  const applicable = (read?.documentTypes ?? null) as DocumentType[] | null;
  const onClaim = new Set(read?.documents.map((d) => d.documentType) ?? []);
  const papersOpen = summary.status !== null && PAPERS_OPEN.has(summary.status);
  const resubmit = (summary.status === null ? undefined : RESUBMIT[summary.status]) ?? null;
  return {
    ...summary,
    documents: read?.documents ?? [],
    documentTypes: { applicable, missing: (applicable ?? []).filter((d) => !onClaim.has(d)) },
    resubmit,
    next: [
      'claims.get' as const,
      ...(papersOpen ? (['claims.attach'] as const) : []),
      ...(papersOpen && (read?.documents.length ?? 0) > 0 ? (['claims.removeAttachment'] as const) : []),
      ...(resubmit === null ? [] : (['claims.resubmit'] as const)),
    ],
    lastError: wf.lastError,
  };
}

/** Needing the nurse first, then the most recently changed. */
export function byAttention(a: ClaimSummary, b: ClaimSummary): number {
  const needs = Number(b.attention !== 'none') - Number(a.attention !== 'none');
  return needs !== 0 ? needs : (b.checkedAt ?? '').localeCompare(a.checkedAt ?? '');
}
