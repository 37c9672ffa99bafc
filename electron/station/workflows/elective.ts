// Flow A, the elective inpatient preauth (the elective kind's module), in two phases separated in time. Phase one: the patient's
// consent before the visit (AUTHORIZED_PENDING_VISIT), the preauth sent (multipart) with its token
// as consent_token, then watched (doctor, then payer) until FINALISED. Phase two, on the day: no new
// authorization — the visit opens with phase one's guid, or, where phase one was by SMS code, with
// a fresh code (POST /claims/otp, then the visit with it).
import type { z } from 'zod';
import type { electiveView as electiveViewSchema } from '../../contract';
import { makeError, preauthStatus } from '../../contract';
import { isExchangeError, type Preauth } from '../../payer';
import { fail, StationFailure } from '../errors';
import { electiveMachine } from '../machines';
import type { Ctx } from './context';
import type { CallRecord } from './engine';
import { journal } from './journal';
import type { WorkflowKindModule } from './kinds';
import type { Paper } from '../papers-waiting';
import type { AttendingDoctor, ElectiveWorkflow, PreauthData, PreauthRequest } from './types';
import { newVerification, otpAuthorizeCall, reroute, verificationDeadlines, verificationNextActions, verificationView, type VerificationHost } from './verification';
import { listedDoctor } from './practitioner';
import { consentingPatient, verifyingWorkflow } from './start';
import { followOpening, openVisit, reconcileOpenVisit } from './visit';

export type ElectiveView = z.infer<typeof electiveViewSchema>;
type PreauthStatus = PreauthData['status'];

/** The preauth statuses the contract names (the client's, tested equal in test/unit/station/enumerations.test.ts); any other is OTHER. */
const knownPreauthStatuses = new Set<string>(preauthStatus.options);

/** Where the doctor has not been asked (yet, or any more): a draft, one SHA has still to send on, one cancelled. */
const NOT_WITH_DOCTOR: ReadonlySet<PreauthStatus> = new Set(['DRAFT', 'PENDING_SUBMISSION', 'CANCELLED']);

function preauthStatusOf(value: string): PreauthStatus {
  return knownPreauthStatuses.has(value) ? (value as PreauthStatus) : 'OTHER';
}

export async function beginElective(ctx: Ctx, input: { patientRef: string; interventionCode?: string | undefined }): Promise<ElectiveWorkflow> {
  const facts = await consentingPatient(ctx, input.patientRef);
  let code = input.interventionCode;
  if (code === undefined) {
    const electives = await ctx.patients.interventions(input.patientRef, { scenario: 'elective-preauth' });
    if (electives.length !== 1) fail('VALIDATION', 'Choose the elective intervention.', { field: 'interventionCode' });
    code = electives[0]!.code;
  }
  const intervention = await ctx.patients.intervention(input.patientRef, code);
  if (intervention.scenario !== 'elective-preauth') fail('INTERVENTION_NOT_ALLOWED', 'This intervention needs no manually approved preauthorization: open an ordinary visit.', { field: 'interventionCode' });
  const { header, data } = verifyingWorkflow(ctx, 'elective', facts, intervention, 'pre-visit');
  const wf: ElectiveWorkflow = {
    ...header,
    data: { ...data, phase: 'pre-visit', phaseOneMethod: null, authToken: null, authGuid: null, preauthRequest: null, preauth: null, visitWorkflowId: null },
  };
  return ctx.engine.create(wf, `elective consent for ${intervention.code}, route ${wf.data.verification.route.route}`);
}

/** Phase two by SMS code: a fresh step whose only route is the code (there is no new authorization to fingerprint). */
function visitDayStep(ctx: Ctx, wf: ElectiveWorkflow) {
  const p = wf.data.patient;
  const v = newVerification(ctx, 'visit-day', { biometricsEnforced: p.biometricsEnforced, whitelisted: p.whitelisted, contacts: p.contacts, unusableUntil: null });
  reroute(ctx, v, {});
  v.route = { ...v.route, route: v.route.smsAllowed ? 'sms' : 'blocked', fingerprintAllowed: false, whitelistAdvised: !v.route.smsAllowed };
  if (!v.route.smsAllowed) v.stage = 'blocked';
  return v;
}

export const electiveHost: VerificationHost<ElectiveWorkflow> = {
  step: (wf) => wf.data.verification,
  assertTakingConsent(wf) {
    const phaseOne = wf.state === 'verifying';
    const phaseTwo = (wf.state === 'finalised' || wf.state === 'visit-day-verifying') && wf.data.phaseOneMethod === 'sms';
    if (!phaseOne && !phaseTwo) fail('WRONG_STATE', 'The elective workflow is not taking consent now.', { state: wf.state });
  },
  patientRef: (wf) => wf.data.patient.ref,
  fingerprintCall: (_ctx, wf, bio) => {
    if (wf.data.phase !== 'pre-visit') fail('WRONG_STATE', 'On the day of the visit there is no new fingerprint authorization.', { state: wf.state });
    const request = { patient_id: wf.data.patient.patientId, service_type: 'INPATIENT' as const, interventions: [wf.data.intervention.code], ...bio };
    return { operation: journal.authorizeBiometric, request, send: (client) => client.consent.authorizeBiometric(request), settle: () => undefined };
  },
  codeCall: (ctx, wf, contact) => {
    const request = { patient_id: wf.data.patient.patientId, intervention_codes: [wf.data.intervention.code], ...(contact === null ? {} : { beneficiary_contact_id: contact.contactId }) };
    return {
      operation: journal.sendOtp,
      request,
      send: (client) => client.consent.sendOtp(request),
      settle: () => {
        if (wf.state === 'finalised') ctx.engine.transition(wf, 'verifyVisitDay');
      },
    };
  },
  confirm: (ctx, wf, code) => {
    // On the day, the code is spent by the visit itself (visit.ts's request).
    if (wf.data.phase === 'visit-day') return { opensVisit: true };
    // Phase one: the pre-visit OTP authorize, with the interventions and service type it requires.
    const request = { patient_id: wf.data.patient.patientId, otp: code, interventions: [wf.data.intervention.code], service_type: 'INPATIENT' as const };
    return { spentBy: otpAuthorizeCall(ctx, wf.data.verification, request) };
  },
  openVisitWithCode: async (ctx, wf) => {
    try {
      await openVisit(ctx, wf, null);
    } catch (error) {
      // The code did not open the visit (wrong, expired): a fresh code is needed.
      if (wf.state === 'finalised') {
        const failed = wf.data.verification.failedAttempts + (error instanceof StationFailure && error.error.code === 'OTP_INVALID' ? 1 : 0);
        wf.data.verification = { ...visitDayStep(ctx, wf), failedAttempts: failed };
        ctx.engine.save(wf);
      }
      throw error;
    }
  },
  onVerified: (ctx, wf) => {
    if (wf.data.phase === 'visit-day') return;
    const v = wf.data.verification;
    wf.data.phaseOneMethod = v.method;
    wf.data.authToken = v.authToken;
    wf.data.authGuid = v.authGuid;
    ctx.engine.transition(wf, 'verified', `phase one by ${v.method ?? 'consent'}`);
  },
  afterVerified: async (ctx, wf) => {
    if (wf.data.phase === 'pre-visit' && wf.state === 'verified' && wf.data.preauthRequest !== null) await createPreauth(ctx, wf);
  },
  cancelWorkflow: (ctx, wf) => {
    if (wf.state !== 'verifying') fail('WRONG_STATE', 'Use elective.cancelPreauth once the preauthorization is under way.', { state: wf.state });
    ctx.engine.transition(wf, 'cancel', 'withdrawn by the nurse');
  },
};

export async function submitPreauth(ctx: Ctx, wf: ElectiveWorkflow, request: PreauthRequest, papers: readonly Paper[]): Promise<void> {
  if (wf.state !== 'verifying' && wf.state !== 'verified') fail('WRONG_STATE', 'The preauthorization has already been sent.', { state: wf.state });
  listedDoctor(request.doctor);
  // The papers wait in the data folder, the workflow keeps what they are (a request given again replaces both).
  wf.data.preauthRequest = { ...request, documents: await ctx.papers.hold(wf.id, papers), documentsGone: false };
  wf.lastError = null;
  ctx.engine.save(wf);
  if (wf.state === 'verified') await createPreauth(ctx, wf);
}

/** A calendar day at a time of day, with the station's UTC offset on that day: 2030-01-15T08:00:00+03:00. */
function dayAt(day: string, time: string): string {
  const local = new Date(`${day}T${time}`);
  const offset = -local.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const pad = (n: number) => String(Math.floor(Math.abs(n))).padStart(2, '0');
  return `${day}T${time}${sign}${pad(offset / 60)}:${pad(offset % 60)}`;
}

/** The preauth as the exchange takes it: the whole planned stay, its price as the one item, the requesting doctor first. */
function preauthCreateRequest(wf: ElectiveWorkflow, r: PreauthRequest, papers: readonly Paper[]) {
  const consentToken = wf.data.authToken!;
  return {
    consent_token: consentToken,
    intervention_code: wf.data.intervention.code,
    service_start: dayAt(r.serviceStart, '00:00:00'),
    service_end: dayAt(r.serviceEnd, '23:59:59'),
    items: [{ unit_price: r.requestedAmountKes }],
    doctors: [{ ...listedDoctor(r.doctor), is_primary: true }],
    diagnoses: r.diagnoses.map((d) => ({ icd_code: d.code })),
    provider_notification_email: r.notificationEmail,
    ...(r.clinicalNotes === null ? {} : { clinical_indications: r.clinicalNotes }),
    attachments: papers.map((p) => ({ document_title: p.title, document_type: p.documentType, file: { file_name: p.fileName, content_type: p.contentType, data: p.data } })),
  };
}

/** Whether the workflow may still send its preauth (again): its papers must wait until then. */
export function sendsPreauthLater(wf: ElectiveWorkflow): boolean {
  // Kept while the doctor has not approved: a change of the requesting doctor sends the preauth
  // again (cancel, then create), and it must carry the same papers.
  return ['verifying', 'verified', 'creating-preauth', 'reconciling', 'awaiting-doctor'].includes(wf.state) && (wf.data.preauthRequest?.documents?.length ?? 0) > 0;
}

/**
 * The request's papers from the data folder; null, with the nurse told, when any is gone: the
 * preauth is then not sent until she attaches them again (never sent without them).
 */
async function papersOf(ctx: Ctx, wf: ElectiveWorkflow, r: PreauthRequest): Promise<Paper[] | null> {
  const papers = await ctx.papers.take(wf.id, r.documents ?? []);
  if (papers !== null) return papers;
  wf.data.preauthRequest = { ...r, documentsGone: true };
  wf.lastError = makeError('PAPERS_GONE', 'The papers attached to this preauthorization are no longer on this station: attach them again, then send it.');
  ctx.engine.save(wf);
  ctx.log.warn({ workflowId: wf.id, papers: r.documents?.length ?? 0 }, 'the papers of a preauthorization waiting to be sent are gone');
  return null;
}

/** Once the workflow will not send its preauth again (SHA has it and the doctor approved, or it ended), its papers leave the data folder. */
export function releaseSentPapers(ctx: Ctx, workflowId: string): void {
  const wf = ctx.engine.get(workflowId);
  if (wf?.kind !== 'elective' || sendsPreauthLater(wf) || (wf.data.preauthRequest?.documents?.length ?? 0) === 0) return;
  ctx.papers.release(wf.id).catch((error: unknown) => ctx.log.warn({ workflowId, error: error instanceof Error ? error.name : 'unknown' }, 'the papers of a sent preauthorization could not be removed'));
}

/**
 * At start: the papers of workflows that no longer send them removed; those of a request not sent
 * yet checked, so the nurse hears at once (a preauth SHA already has is checked if it is sent again).
 */
export async function checkWaitingPapers(ctx: Ctx): Promise<void> {
  const waiting = ctx.engine.all().filter((wf): wf is ElectiveWorkflow => wf.kind === 'elective' && sendsPreauthLater(wf));
  await ctx.papers.keepOnly(new Set(waiting.map((wf) => wf.id)));
  for (const wf of waiting) {
    const r = wf.data.preauthRequest;
    if ((wf.state === 'verifying' || wf.state === 'verified') && r !== null && r.documentsGone !== true) await papersOf(ctx, wf, r);
  }
}

async function createPreauth(ctx: Ctx, wf: ElectiveWorkflow): Promise<void> {
  const r = wf.data.preauthRequest;
  if (r === null || wf.data.authToken === null) fail('WRONG_STATE', 'The preauthorization needs the patient’s consent and its details.', { state: wf.state });
  const papers = await papersOf(ctx, wf, r);
  if (papers === null) return;
  const request = preauthCreateRequest(wf, r, papers);
  ctx.engine.transition(wf, 'createPreauth');
  await ctx.engine.send(wf, {
    operation: journal.createPreauth,
    // The journal names each paper; it never holds its bytes.
    request: { ...request, attachments: papers.map((p) => ({ document_title: p.title, document_type: p.documentType, file_name: p.fileName, bytes: p.data.length })) },
    send: () => ctx.session.client().preauth.create(request),
    settle: (p) => applyPreauth(ctx, wf, p),
    refused: (error) => {
      wf.lastError = error;
      ctx.engine.transition(wf, 'refused', error.code);
    },
  });
  // Answered (a lost answer leaves it `reconciling`, for the look-up after the grace period).
  if (wf.state === 'awaiting-doctor' || wf.state === 'awaiting-payer') schedulePreauthPoll(ctx, wf.id);
}

/** Moves the workflow to where the preauth's status says it is. */
function applyPreauth(ctx: Ctx, wf: ElectiveWorkflow, p: Preauth): void {
  const status = preauthStatusOf(p.status);
  const before = wf.data.preauth;
  wf.data.preauth = {
    reference: (p.id ?? before?.reference ?? null)?.slice(0, 100) ?? null,
    status,
    requestedAmountKes: p.requestedAmount ?? before?.requestedAmountKes ?? wf.data.preauthRequest?.requestedAmountKes ?? 0,
    createdAt: before?.createdAt ?? ctx.nowIso(),
    checkedAt: ctx.nowIso(),
    doctorApprovedSeen: (before?.doctorApprovedSeen ?? false) || status === 'ACTIVE' || status === 'CLARIFICATION_AFTER_AUTOMATIC_CHECKS' || status === 'FINALISED',
    notes: p.notes.length > 0 ? p.notes.map((n) => n.slice(0, 2000)).slice(-20) : (before?.notes ?? []),
  };
  wf.lastError = null;
  // DOCTOR_REQUEST_FAILED is not the end: the request never reached the doctor, and sending it
  // again may (elective.resendDoctorRequest). CLARIFICATION waits on the payer, with its note.
  const target =
    status === 'FINALISED'
      ? 'finalise'
      : status === 'ACTIVE' || status === 'CLARIFICATION_AFTER_AUTOMATIC_CHECKS'
        ? 'awaitPayer'
        : status === 'REJECTED' || status === 'REJECTED_AFTER_APPROVAL'
          ? 'preauthRejected'
          : status === 'CANCELLED'
            ? 'preauthCancelled'
            : 'awaitDoctor';
  const where: Record<string, string> = { awaitDoctor: 'awaiting-doctor', awaitPayer: 'awaiting-payer', finalise: 'finalised', preauthRejected: 'preauth-rejected', preauthCancelled: 'cancelled' };
  if (wf.state === where[target]) {
    ctx.engine.save(wf);
    return;
  }
  if (target === 'preauthRejected') wf.lastError = makeError('PREAUTH_REJECTED', 'The preauthorization was rejected.');
  if (target === 'finalise' && wf.data.phaseOneMethod === 'sms') {
    wf.data.phase = 'visit-day';
    wf.data.verification = visitDayStep(ctx, wf);
  } else if (target === 'finalise') {
    wf.data.phase = 'visit-day';
  }
  ctx.engine.transition(wf, target as 'awaitDoctor', `preauth ${status}`);
}

export function schedulePreauthPoll(ctx: Ctx, workflowId: string, delayMs = ctx.timing.preauthPollMs): void {
  ctx.engine.repeat(
    'preauth',
    workflowId,
    delayMs,
    async (wf) => {
      if (wf.kind !== 'elective' || (wf.state !== 'awaiting-doctor' && wf.state !== 'awaiting-payer')) return null;
      await lookUpPreauth(ctx, wf);
      return wf.state === 'awaiting-doctor' || wf.state === 'awaiting-payer' ? ctx.timing.preauthPollMs : null;
    },
    ctx.timing.preauthPollMs,
  );
}

/**
 * The preauths of a consent token. A 404 is the answer while there is none (A's pre-auth service
 * reads it so): an empty list, not an error.
 */
async function findPreauths(ctx: Ctx, consentToken: string): Promise<Preauth[]> {
  try {
    return await ctx.session.client().preauth.find({ consent_token: consentToken });
  } catch (error) {
    if (isExchangeError(error) && error.kind === 'not_found') return [];
    throw error;
  }
}

/** The preauth's status now, into the workflow. */
async function lookUpPreauth(ctx: Ctx, wf: ElectiveWorkflow): Promise<void> {
  if (wf.data.authToken === null || wf.data.preauth === null) fail('WRONG_STATE', 'No preauthorization has been sent yet.', { state: wf.state });
  const found = await findPreauths(ctx, wf.data.authToken);
  const mine = latestFor(found, wf.data.intervention.code, wf.data.preauth.reference);
  if (mine !== undefined) ctx.engine.commit(() => applyPreauth(ctx, wf, mine));
}

/** elective.refreshPreauth: the status now, and the poll going on from it. */
export async function refreshPreauth(ctx: Ctx, wf: ElectiveWorkflow): Promise<void> {
  await lookUpPreauth(ctx, wf);
  if (wf.state === 'awaiting-doctor' || wf.state === 'awaiting-payer') schedulePreauthPoll(ctx, wf.id);
  else ctx.engine.cancelRepeat('preauth', wf.id);
}

function latestFor(found: Preauth[], code: string, reference: string | null): Preauth | undefined {
  return [...found].reverse().find((p) => (reference !== null && p.id === reference) || (reference === null && p.interventionCode === code)) ?? [...found].reverse().find((p) => p.interventionCode === code);
}

export async function resendDoctorRequest(ctx: Ctx, wf: ElectiveWorkflow): Promise<void> {
  if (wf.state !== 'awaiting-doctor' || wf.data.authToken === null) fail('WRONG_STATE', 'The doctor’s approval is not awaited.', { state: wf.state });
  const doctor = wf.data.preauthRequest?.doctor;
  if (doctor === undefined) fail('WRONG_STATE', 'The preauthorization names no doctor.', { state: wf.state });
  const named = listedDoctor(doctor);
  // By registration number (A, K) and by the three identification fields (R).
  const request = {
    consent_token: wf.data.authToken,
    intervention_code: wf.data.intervention.code,
    ...(named.identification_type === 'registration_number' ? { practitioner_registration_number: named.identification_number } : {}),
    ...named,
  };
  await ctx.engine.send(wf, {
    operation: journal.resendDoctorConsent,
    request,
    send: () => ctx.session.client().consent.resendDoctorConsent(request),
    settle: () => ctx.engine.setError(wf, null),
    refused: (error) => ctx.engine.setError(wf, error),
  });
  // A request that had failed is now sent: the status says so at once rather than at the next poll.
  await lookUpPreauth(ctx, wf).catch(() => undefined);
  schedulePreauthPoll(ctx, wf.id);
}

export async function cancelPreauth(ctx: Ctx, wf: ElectiveWorkflow, reason: string): Promise<void> {
  if (wf.state !== 'awaiting-doctor' && wf.state !== 'awaiting-payer' && wf.state !== 'finalised') fail('WRONG_STATE', 'There is no preauthorization to cancel.', { state: wf.state });
  if (wf.data.authToken === null) fail('WRONG_STATE', 'There is no preauthorization to cancel.', { state: wf.state });
  // The exchange takes no reason: it is kept in the audit log.
  try {
    await sendPreauthCancel(ctx, wf, wf.data.authToken, () => {
      if (wf.data.preauth !== null) wf.data.preauth = { ...wf.data.preauth, status: 'CANCELLED', checkedAt: ctx.nowIso() };
      // A cancelled preauth opens no visit, finalised or not.
      wf.lastError = null;
      ctx.engine.transition(wf, 'preauthCancelled', reason.slice(0, 100));
    });
  } catch (error) {
    if (error instanceof StationFailure && error.error.details?.exchangeCode === 'PREAUTH_NOT_CANCELLABLE') await refreshPreauth(ctx, wf).catch(() => undefined);
    throw error;
  }
}

/** POST /preauths/cancel on the one write path; its polling stops, then `afterCancel` says what the cancel means here. */
async function sendPreauthCancel(ctx: Ctx, wf: ElectiveWorkflow, authToken: string, afterCancel: () => void): Promise<void> {
  const request = { consent_token: authToken, intervention_code: wf.data.intervention.code };
  await ctx.engine.send(wf, {
    operation: journal.cancelPreauth,
    request,
    send: () => ctx.session.client().preauth.cancel(request),
    settle: () => {
      ctx.engine.cancelRepeat('preauth', wf.id);
      afterCancel();
    },
    refused: (error) => ctx.engine.setError(wf, error),
  });
}

/**
 * Another requesting doctor, before the named one approves. The exchange documents no call that
 * adds a doctor to a preauth (DELETE /preauths/doctors only removes one), so the new doctor is
 * looked up in the professionals registry, then the preauth cancelled (POST /preauths/cancel) and
 * sent again naming the new doctor, on the same consent.
 */
export async function changePreauthDoctor(ctx: Ctx, wf: ElectiveWorkflow, doctor: AttendingDoctor): Promise<void> {
  const r = wf.data.preauthRequest;
  if (wf.state !== 'awaiting-doctor' || wf.data.authToken === null || r === null) {
    fail('WRONG_STATE', 'The requesting doctor changes only before they approve the preauthorization.', { state: wf.state });
  }
  const named = listedDoctor(doctor);
  // Found in the registry first (DOCTOR_NOT_FOUND otherwise): a typing mistake never cancels a preauth.
  await ctx.session.client().lookups.searchProfessionals({ identification_number: named.identification_number, identification_type: named.identification_type, regulator: named.regulation_body });
  // The preauth is sent again with its documents: none cancelled that could not go again whole.
  if ((await ctx.papers.take(wf.id, r.documents ?? [])) === null) {
    fail('PAPERS_GONE', 'The documents of this preauthorization are no longer on this station, and a change of doctor sends it again: nothing was cancelled. Keep this doctor, or cancel the preauthorization and make a new request with the documents.', { state: wf.state });
  }
  await sendPreauthCancel(ctx, wf, wf.data.authToken, () => {
    wf.data.preauthRequest = { ...r, doctor };
    wf.data.preauth = null;
    wf.lastError = null;
    ctx.engine.transition(wf, 'requestAgain', 'another requesting doctor');
  });
  await createPreauth(ctx, wf);
}

/** visit.open on an elective: only with phase one's guid (fingerprint), otherwise the SMS code comes first. */
export async function openElectiveVisit(ctx: Ctx, wf: ElectiveWorkflow, doctor: AttendingDoctor | null) {
  if (wf.state !== 'finalised') {
    fail(wf.state === 'awaiting-doctor' || wf.state === 'awaiting-payer' ? 'PREAUTH_NOT_FINALISED' : 'WRONG_STATE', 'The preauthorization is not finalised.', { state: wf.state });
  }
  if (wf.data.phaseOneMethod === 'sms') fail('WRONG_STATE', 'On the day of the visit, send the patient an SMS code: the visit opens when it is confirmed.', { state: wf.state });
  return openVisit(ctx, wf, doctor);
}

// ---------------------------------------------------------------- reconciliation

export async function reconcileElective(ctx: Ctx, wf: ElectiveWorkflow, calls: CallRecord[]): Promise<void> {
  for (const call of calls) {
    if (call.operation === journal.createVisit.name) {
      const visit = await reconcileOpenVisit(ctx, wf, call);
      if (visit !== undefined) followOpening(ctx, visit);
    } else if (call.operation === 'preauth.create' || call.operation === 'preauth.cancel') {
      const found = wf.data.authToken === null ? [] : await findPreauths(ctx, wf.data.authToken);
      const mine = latestFor(found, wf.data.intervention.code, wf.data.preauth?.reference ?? null);
      ctx.engine.commit(() => {
        if (wf.state === 'creating-preauth') ctx.engine.transition(wf, 'outcomeUnknown');
        ctx.engine.reconciled(call, mine === undefined ? 'no preauthorization at the exchange' : `preauthorization ${mine.status} at the exchange`, wf);
        if (mine !== undefined) applyPreauth(ctx, wf, mine);
        else if (wf.state === 'reconciling') ctx.engine.transition(wf, 'notCreated');
      });
      // Proven absent: the preauth the nurse asked for is sent now (once).
      if (mine === undefined && wf.state === 'verified' && call.operation === 'preauth.create') await createPreauth(ctx, wf);
    } else {
      ctx.engine.reconciled(call, `${call.operation}: nothing to re-send`, wf);
    }
  }
  if (wf.state === 'awaiting-doctor' || wf.state === 'awaiting-payer') schedulePreauthPoll(ctx, wf.id, 0);
}

const awaitingApproval = (wf: ElectiveWorkflow) => wf.state === 'awaiting-doctor' || wf.state === 'awaiting-payer';

export const electiveKind: WorkflowKindModule<'elective'> = {
  kind: 'elective',
  machine: electiveMachine,
  view: electiveView,
  verification: electiveHost,
  reconcile: async (ctx, wf, calls) => {
    if (calls.length > 0) await reconcileElective(ctx, wf, calls);
    else if (wf.state === 'creating-preauth') ctx.engine.transition(wf, 'refused', 'the preauthorization was never sent');
    else if (wf.state === 'opening-visit') ctx.engine.transition(wf, 'visitNotOpened', 'the visit was never sent');
  },
  resume: (ctx, wf) => {
    if (awaitingApproval(wf)) schedulePreauthPoll(ctx, wf.id, 0);
  },
  unknownOutcome: {
    // A preauth perhaps made waits `reconciling` for the look-up after the grace period (a request
    // only slow may still land: never sent again before); a visit perhaps opened waits there while
    // it is posted again at once, the nurse told OUTCOME_UNKNOWN if that cannot be done now.
    meanwhile: (ctx, wf, call) => {
      if (call.operation === journal.createPreauth.name && wf.state === 'creating-preauth') {
        ctx.engine.transition(wf, 'outcomeUnknown');
        return true;
      }
      if (call.operation === journal.createVisit.name && wf.state === 'opening-visit') ctx.engine.transition(wf, 'outcomeUnknown');
      return false;
    },
  },
};

// ---------------------------------------------------------------- the view

export function electiveView(ctx: Ctx, wf: ElectiveWorkflow): ElectiveView {
  const v = wf.data.verification;
  const taking = wf.state === 'verifying' || ((wf.state === 'finalised' || wf.state === 'visit-day-verifying') && wf.data.phaseOneMethod === 'sms');
  const next: ElectiveView['next'] = [];
  if (taking) next.push(...verificationNextActions(v).filter((a) => wf.state === 'verifying' || a !== 'consent.cancel'));
  // Consent in and the preauth not at the exchange (never sent, or refused): it is sent (again) from here.
  if ((wf.state === 'verifying' && (wf.data.preauthRequest === null || wf.data.preauthRequest.documentsGone === true)) || wf.state === 'verified') next.push('elective.submitPreauth');
  // Not while SHA holds the request back (a draft, or not yet sent on): there is no doctor's request to send again.
  if (wf.state === 'awaiting-doctor' && !NOT_WITH_DOCTOR.has(wf.data.preauth?.status ?? 'OTHER')) next.push('elective.resendDoctorRequest');
  if (wf.state === 'awaiting-doctor' && (wf.data.preauthRequest?.diagnoses.length ?? 0) > 1) next.push('elective.removeDiagnosis');
  if (wf.state === 'awaiting-doctor') next.push('elective.changeDoctor');
  if (wf.state === 'awaiting-doctor' || wf.state === 'awaiting-payer') next.push('elective.refreshPreauth');
  if (wf.state === 'awaiting-doctor' || wf.state === 'awaiting-payer' || wf.state === 'finalised') next.push('elective.cancelPreauth');
  if (wf.state === 'finalised' && wf.data.phaseOneMethod === 'fingerprint') next.push('visit.open');
  const p = wf.data.preauth;
  const preauth =
    p === null
      ? null
      : {
          reference: p.reference,
          status: p.status,
          doctorStep: p.doctorApprovedSeen ? ('approved' as const) : p.status === 'DOCTOR_REQUEST_FAILED' ? ('failed' as const) : NOT_WITH_DOCTOR.has(p.status) ? ('not-started' as const) : ('waiting' as const),
          payerStep:
            p.status === 'FINALISED'
              ? ('approved' as const)
              : p.status === 'REJECTED' || p.status === 'REJECTED_AFTER_APPROVAL'
                ? ('rejected' as const)
                : p.doctorApprovedSeen
                  ? ('waiting' as const)
                  : ('not-started' as const),
          requestedAmountKes: Math.min(Math.max(0, p.requestedAmountKes), 1_000_000_000),
          diagnoses: wf.data.preauthRequest?.diagnoses.map((d) => (d.name === undefined ? { code: d.code } : { code: d.code, name: d.name })) ?? [],
          payerNote: p.notes?.at(-1) ?? null,
          createdAt: p.createdAt,
          checkedAt: p.checkedAt,
        };
  return {
    workflowId: wf.id,
    kind: 'elective',
    state: wf.state,
    next: [...new Set(next)],
    deadlines: taking ? verificationDeadlines(ctx, v) : [],
    lastError: wf.lastError,
    updatedAt: wf.updatedAt,
    phase: wf.data.phase,
    patient: { patientRef: wf.data.patient.ref, maskedName: wf.data.patient.maskedName },
    intervention: wf.data.intervention,
    verification: wf.state === 'verifying' || taking || wf.state === 'verified' ? verificationView(v) : null,
    preauth,
    preauthDocuments: {
      attached: (wf.data.preauthRequest?.documents ?? []).map((d) => ({ documentType: d.documentType, title: d.title, fileName: d.fileName })),
      gone: wf.data.preauthRequest?.documentsGone === true,
    },
    visitWorkflowId: wf.data.visitWorkflowId,
  };
}
