// Visit end, the discharge kind's module: the patient's visit-end consent (fingerprint: the discharge authorization; SMS: the
// discharge code, kept and spent by the next call), then discharge (inpatient, possibly partial)
// or submit (outpatient, or the finalisation of a partial discharge). Submit is sent once: a lost
// answer is reconciled against the claim preview, and a claim the preview shows unsent goes back
// to the nurse rather than being sent again behind her back.
import type { z } from 'zod';
import type { dischargeView as dischargeViewSchema, StationError } from '../../contract';
import { dischargeReason, makeError, submitReason } from '../../contract';
import type { ClaimPreview as WireClaimPreview, ClaimState } from '../../payer';
import { fail, StationFailure } from '../errors';
import { canTransition, dischargeMachine } from '../machines';
import { referralDestinationOf, referralNotes } from '../programmes';
import type { Ctx } from './context';
import type { CallRecord } from './engine';
import { journal } from './journal';
import type { WorkflowKindModule } from './kinds';
import { attachMissingPapers } from './made-papers';
import { workflowHeader } from './start';
import type { DischargeIntent, DischargeWorkflow, VisitWorkflow } from './types';
import { newVerification, verificationDeadlines, verificationNextActions, verificationView, type VerificationHost } from './verification';
import { applyPreview, claimStatusOf, dateTimeOf, refreshFromPreview, requireOwnVisit, wireServiceType } from './visit';

export type DischargeView = z.infer<typeof dischargeViewSchema>;

// The contract's enumerations (test/unit/station/enumerations.test.ts holds them equal to the client's).
const submitReasons = submitReason.options;
const dischargeReasons = dischargeReason.options;

function freshStep(ctx: Ctx, visit: VisitWorkflow) {
  const p = visit.data.patient;
  // The discharge code goes to the contact the exchange holds for the claim: none to choose here.
  return newVerification(ctx, 'discharge', { biometricsEnforced: p.biometricsEnforced, whitelisted: p.whitelisted, contacts: [], unusableUntil: unusableUntil(ctx, p.ref) }, p.contacts.length > 0);
}

function unusableUntil(ctx: Ctx, ref: string): number | null {
  return ctx.patients.has(ref) ? ctx.patients.facts(ref).unusableUntil : null;
}

/**
 * What SHA refuses a claim's end for, taken before the patient is asked for a code or a finger, so
 * a discharge code is never spent on a claim SHA will refuse: the attending doctor first of all
 * (NO_DOCTOR_ATTACHED on discharge and submit; a per-diem stay has no line to carry one). A doctor
 * the station does not know of but SHA holds (attached at another station) is found on the claim.
 */
export async function requireClaimReadyToEnd(ctx: Ctx, visit: VisitWorkflow): Promise<void> {
  // A visit that cannot be ended here at all is refused by beginDischarge, saying why.
  if (visit.state !== 'open' || visit.data.forDispensing === true || visit.data.consentToken === null) return;
  if (visit.data.doctor !== null || visit.data.dischargeWorkflowId !== null) return;
  const preview = await refreshFromPreview(ctx, visit).catch(() => null);
  if (preview?.hasDoctor === true) return;
  fail(
    'NO_DOCTOR',
    'SHA refuses the claim without its attending doctor: add the doctor on the visit first. The patient is not asked for a code or a finger until then.',
    { field: 'doctor' },
  );
}

export function beginDischarge(ctx: Ctx, visit: VisitWorkflow): DischargeWorkflow {
  if (visit.state !== 'open') fail('WRONG_STATE', 'Only an open visit can be ended.', { state: visit.state });
  if (visit.data.consentToken === null) fail('WRONG_STATE', 'The visit has no claim.', { state: visit.state });
  requireOwnVisit(visit);
  const wf: DischargeWorkflow = {
    ...workflowHeader(ctx, 'discharge', 'verifying'),
    data: {
      visitWorkflowId: visit.id,
      patient: visit.data.patient,
      intervention: visit.data.intervention,
      serviceType: visit.data.serviceType,
      closeBy: visit.data.closeBy,
      consentToken: visit.data.consentToken,
      verification: freshStep(ctx, visit),
      invoiceNumber: visit.data.invoiceNumber,
      partialDischarges: [],
      claimStatus: visit.data.claimStatus,
      closedAt: null,
      intent: null,
    },
  };
  return ctx.engine.commit(() => {
    ctx.engine.create(wf, `visit end by ${wf.data.closeBy}, route ${wf.data.verification.route.route}`);
    visit.data.dischargeWorkflowId = wf.id;
    ctx.engine.transition(visit, 'beginClose', `discharge ${wf.id}`);
    return wf;
  });
}

function verified(wf: DischargeWorkflow): boolean {
  return wf.data.verification.stage === 'verified';
}

export const dischargeHost: VerificationHost<DischargeWorkflow> = {
  step: (wf) => wf.data.verification,
  assertTakingConsent(wf) {
    const taking = wf.state === 'verifying' || (wf.state === 'partially-discharged' && !verified(wf));
    if (!taking) fail('WRONG_STATE', 'The visit-end consent is not being taken now.', { state: wf.state });
  },
  patientRef: (wf) => wf.data.patient.ref,
  // The live visit-end body names the patient, not the claim (A): the twelve fields of a
  // fingerprint authorize with is_biometrics_discharge_authorization true.
  fingerprintCall: (_ctx, wf, bio) => {
    const request = {
      patient_id: wf.data.patient.patientId,
      service_type: wireServiceType(wf.data.serviceType, wf.data.intervention),
      interventions: [wf.data.intervention.code],
      ...bio,
    };
    return { operation: journal.authorizeDischarge, request, send: (client) => client.consent.authorizeDischarge(request), settle: () => undefined };
  },
  codeCall: (_ctx, wf) => {
    const request = { consent_token: wf.data.consentToken, patient_id: wf.data.patient.patientId };
    return { operation: journal.sendDischargeOtp, request, send: (client) => client.consent.sendDischargeOtp(request), settle: () => undefined };
  },
  confirm: () => ({ keptForNextCall: true }),
  onVerified: (ctx, wf) => {
    if (canTransition('discharge', wf.state, 'verified')) ctx.engine.transition(wf, 'verified', `by ${wf.data.verification.method ?? 'consent'}`);
    else ctx.engine.save(wf);
  },
  cancelWorkflow: (ctx, wf) => cancelDischarge(ctx, wf),
};

export function cancelDischarge(ctx: Ctx, wf: DischargeWorkflow): void {
  if (!canTransition('discharge', wf.state, 'cancel')) fail('WRONG_STATE', 'The visit end cannot be abandoned now.', { state: wf.state });
  ctx.engine.commit(() => {
    ctx.engine.transition(wf, 'cancel', 'abandoned by the nurse');
    const visit = ctx.engine.get(wf.data.visitWorkflowId) as VisitWorkflow | undefined;
    if (visit !== undefined && visit.state === 'closing') {
      visit.data.dischargeWorkflowId = null;
      ctx.engine.transition(visit, 'closeAbandoned');
    }
  });
}

export interface CloseInput {
  reason: DischargeIntent['reason'];
  invoiceNumber?: string | undefined;
  notes?: string | undefined;
  partial?: boolean | undefined;
  dischargedAt?: string | undefined;
  referredTo?: string | undefined;
}

/** discharge.dischargeInpatient and discharge.submit. */
export async function closeVisit(ctx: Ctx, wf: DischargeWorkflow, action: 'discharge' | 'submit', input: CloseInput): Promise<void> {
  if (wf.state !== 'ready' && !(wf.state === 'partially-discharged' && verified(wf))) {
    fail('WRONG_STATE', wf.state === 'verifying' || wf.state === 'partially-discharged' ? 'Take the patient’s visit-end consent first.' : 'The visit end is not waiting for this.', { state: wf.state });
  }
  const finalisesPartial = wf.state === 'partially-discharged';
  if (action === 'discharge' && wf.data.closeBy !== 'discharge') fail('WRONG_STATE', 'An outpatient visit ends by submit, not discharge.', { state: wf.data.closeBy });
  if (action === 'submit' && wf.data.closeBy !== 'submit' && !finalisesPartial) fail('WRONG_STATE', 'An inpatient visit ends by discharge (submit finalises a partial discharge).', { state: wf.data.closeBy });
  if (action === 'submit' && input.reason === 'DECEASED') fail('VALIDATION', 'DECEASED is not a reason on submit.', { field: 'reason' });
  if (!(dischargeReasons as readonly string[]).includes(input.reason)) fail('VALIDATION', 'Unknown discharge reason.', { field: 'reason' });
  if (input.reason === 'REFERRED' && input.referredTo === undefined) fail('VALIDATION', 'Choose the facility the patient is referred to.', { field: 'referredTo' });
  if (input.reason !== 'REFERRED' && input.referredTo !== undefined) fail('VALIDATION', 'A destination goes only with the reason REFERRED.', { field: 'referredTo' });
  const invoiceNumber = input.invoiceNumber ?? wf.data.invoiceNumber;
  if (invoiceNumber === null) fail('VALIDATION', 'Give the invoice number.', { field: 'invoiceNumber' });
  // The registry names the destination as it is now (and refuses a code it does not know) before anything is sent.
  const referredTo = input.referredTo === undefined ? null : await referralDestinationOf(ctx, input.referredTo);
  // The discharge names its moment (RFC 3339): the nurse's, else now by the station clock.
  const dischargeDate = input.dischargedAt ?? ctx.nowIso();
  const intent: DischargeIntent = {
    action,
    reason: input.reason,
    invoiceNumber,
    notes: input.notes ?? null,
    partial: action === 'discharge' && input.partial === true,
    dischargedAt: action === 'discharge' ? dischargeDate : (input.dischargedAt ?? null),
    finalisesPartial,
    referredTo,
  };
  const v = wf.data.verification;
  const consent = v.code !== null ? { otp: v.code } : v.authGuid !== null ? { discharge_auth_guid: v.authGuid } : fail('WRONG_STATE', 'Take the patient’s visit-end consent first.', { state: v.stage });
  const notes = referralNotes(referredTo, intent.notes);
  if (notes !== null && notes.length > 2000) fail('VALIDATION', `With the referral the notes are too long: shorten them by ${notes.length - 2000} characters.`, { field: 'notes' });
  const common = { consent_token: wf.data.consentToken, discharge_reason: intent.reason, invoice_number: invoiceNumber, ...(notes === null ? {} : { notes }), ...consent };
  // The claim's papers the station makes (the invoice, an inpatient's discharge summary) go on the
  // claim before it is sent, where it has none of that type; a part of the stay leaves them for the end.
  const visit = ctx.engine.get(wf.data.visitWorkflowId);
  if (!intent.partial && visit?.kind === 'visit') {
    const attached = await attachMissingPapers(ctx, visit, intent);
    if (attached.length > 0) ctx.log.info({ workflowId: wf.id, attached }, 'the station attached the papers it made to the claim');
  }
  ctx.engine.commit(() => {
    wf.data.intent = intent;
    ctx.engine.transition(wf, 'send', `${action}${intent.partial ? ' (partial)' : ''}${referredTo === null ? '' : `, referred to ${referredTo.code}`}`);
  });
  const refused = (error: StationError): void => closeRefused(ctx, wf, error);
  try {
    if (action === 'discharge') {
      const request = {
        ...common,
        discharge_date: dischargeDate,
        ...(intent.partial ? { discharge_status: 'PARTIAL' as const } : {}),
      };
      await ctx.engine.send(wf, { operation: journal.discharge, request, send: () => ctx.session.client().claims.discharge(request), settle: (state) => settleClosed(ctx, wf, intent, state), refused });
    } else {
      const request = { ...common, discharge_reason: intent.reason as (typeof submitReasons)[number], ...(finalisesPartial ? { discharge_status: 'FULL' as const } : {}) };
      await ctx.engine.send(wf, { operation: journal.submit, request, send: () => ctx.session.client().claims.submit(request), settle: (state) => settleClosed(ctx, wf, intent, state), refused });
    }
  } catch (error) {
    // SHA holds it submitted already (an earlier attempt whose answer was lost): the preview says so now.
    if (error instanceof StationFailure && error.error.code === 'CLAIM_ALREADY_SUBMITTED') ctx.engine.reconcileSoon(wf.id, 0);
    throw error;
  }
}

function settleClosed(ctx: Ctx, wf: DischargeWorkflow, intent: DischargeIntent, state: ClaimState | null): void {
  const visit = ctx.engine.get(wf.data.visitWorkflowId) as VisitWorkflow | undefined;
  wf.data.claimStatus = state?.workflowState ?? wf.data.claimStatus;
  wf.lastError = null;
  if (intent.partial) {
    wf.data.partialDischarges.push(ctx.nowIso());
    // The consent was spent: finalising needs a fresh one.
    if (visit !== undefined) wf.data.verification = freshStep(ctx, visit);
    wf.data.intent = null;
    ctx.engine.transition(wf, 'partiallyDischarged');
    return;
  }
  wf.data.closedAt = dateTimeOf(state?.submittedAt ?? state?.dischargedOn) ?? ctx.nowIso();
  wf.data.referredTo = intent.referredTo ?? null;
  wf.data.verification.code = null;
  ctx.engine.transition(wf, intent.action === 'discharge' ? 'discharged' : 'submitted');
  if (visit !== undefined) {
    visit.data.claimStatus = wf.data.claimStatus;
    if (visit.state === 'closing') ctx.engine.transition(visit, 'closed', intent.action);
  }
}

function closeRefused(ctx: Ctx, wf: DischargeWorkflow, error: StationError): void {
  wf.lastError = error;
  const v = wf.data.verification;
  if (error.code === 'CLAIM_ALREADY_SUBMITTED') {
    // Submitted already (by an earlier attempt whose answer was lost): the preview will say so.
    ctx.engine.transition(wf, 'outcomeUnknown', 'the exchange says it was already submitted');
    return;
  }
  if (error.code === 'OTP_INVALID' || error.code === 'OTP_EXPIRED' || (error.code === 'WRONG_STATE' && error.details?.exchangeCode !== 'USE_DISCHARGE' && error.details?.exchangeCode !== 'USE_SUBMIT')) {
    // The visit-end consent did not hold: take it again.
    if (error.code === 'OTP_INVALID') v.failedAttempts += 1;
    v.stage = v.code !== null && error.code === 'OTP_INVALID' ? 'sms-sent' : 'ready';
    v.code = null;
    v.authGuid = null;
    v.authToken = null;
    // Partially discharged claims wait for a fresh consent in their own state.
    ctx.engine.transition(wf, wf.data.partialDischarges.length > 0 ? 'backToPartial' : 'reverify', error.code);
    return;
  }
  ctx.engine.transition(wf, wf.data.partialDischarges.length > 0 ? 'backToPartial' : 'refused', error.code);
}

/** Claim states past the facility's hands: the claim was submitted (or dispatched by a full discharge). */
const sentStates = new Set(['SUBMITTED', 'DISPATCHED', 'FAILED_TO_SUBMIT', 'SUBMITTED_PAYER', 'AUTOMATIC_CHECKS_DONE', 'ON_HOLD', 'TIME_BARRED']);

/** What the claim preview says of a discharge or submit whose answer was lost. */
function outcomeFromPreview(wf: DischargeWorkflow, preview: WireClaimPreview): 'closed' | 'partial' | 'not-sent' {
  const submitted =
    preview.submittedAt !== undefined ||
    (preview.workflowState !== undefined && sentStates.has(preview.workflowState)) ||
    preview.claimAuthStatus === 'SUBMITTED_CLAIM' ||
    preview.dischargeStatus === 'FULL';
  if (submitted) return 'closed';
  if (wf.data.intent?.partial === true && (preview.partialDischarges?.length ?? 0) > wf.data.partialDischarges.length) return 'partial';
  return 'not-sent';
}

export async function reconcileDischarge(ctx: Ctx, wf: DischargeWorkflow, calls: CallRecord[]): Promise<void> {
  const preview = await ctx.session.client().claims.preview({ consent_token: wf.data.consentToken });
  ctx.engine.commit(() => {
    for (const call of calls) ctx.engine.reconciled(call, `${call.operation}: claim ${preview.workflowState ?? 'state unknown'} at the exchange`, wf);
    if (wf.state === 'sending') ctx.engine.transition(wf, 'outcomeUnknown');
    if (wf.state !== 'reconciling') return;
    const intent = wf.data.intent;
    const outcome = outcomeFromPreview(wf, preview);
    const visit = ctx.engine.get(wf.data.visitWorkflowId) as VisitWorkflow | undefined;
    if (visit !== undefined) applyPreview(visit, preview);
    if (outcome === 'closed' && intent !== null) {
      settleClosed(ctx, wf, { ...intent, partial: false }, {
        consentToken: preview.consentToken,
        workflowState: preview.workflowState ?? 'SUBMITTED',
        claimAuthStatus: preview.claimAuthStatus,
        invoiceNumber: preview.invoiceNumber,
        dischargedOn: preview.dischargedOn,
        dischargeStatus: preview.dischargeStatus,
        submittedAt: preview.submittedAt,
      });
    } else if (outcome === 'partial' && intent !== null) {
      settleClosed(ctx, wf, intent, null);
    } else {
      wf.lastError = makeError('EXCHANGE_TIMEOUT', 'The exchange did not receive the visit end before the station stopped: send it again.');
      ctx.engine.transition(wf, wf.data.partialDischarges.length > 0 ? 'backToPartial' : 'notSent', 'the claim preview shows it was not sent');
    }
  });
}

export const dischargeKind: WorkflowKindModule<'discharge'> = {
  kind: 'discharge',
  machine: dischargeMachine,
  view: dischargeView,
  verification: dischargeHost,
  reconcile: async (ctx, wf, calls) => {
    if (calls.length > 0 || wf.state === 'sending' || wf.state === 'reconciling') await reconcileDischarge(ctx, wf, calls);
  },
  unknownOutcome: {
    // A lost or unreadable answer to the discharge or submit (a 2xx: SHA most likely did it): the
    // visit end waits `reconciling`, and the claim preview decides after a grace period, as a
    // request that was slow rather than lost may still land — never sent again before.
    meanwhile: (ctx, wf, call) => {
      if ((call.operation !== journal.discharge.name && call.operation !== journal.submit.name) || wf.state !== 'sending') return false;
      ctx.engine.transition(wf, 'outcomeUnknown');
      return true;
    },
  },
};

export function dischargeView(ctx: Ctx, wf: DischargeWorkflow): DischargeView {
  const v = wf.data.verification;
  const taking = wf.state === 'verifying' || (wf.state === 'partially-discharged' && v.stage !== 'verified');
  const closeActions: DischargeView['next'] =
    wf.state === 'ready' || (wf.state === 'partially-discharged' && v.stage === 'verified')
      ? wf.data.closeBy === 'discharge'
        ? wf.state === 'partially-discharged'
          ? ['discharge.dischargeInpatient', 'discharge.submit']
          : ['discharge.dischargeInpatient']
        : ['discharge.submit']
      : [];
  return {
    workflowId: wf.id,
    kind: 'discharge',
    state: wf.state,
    next: [...(taking ? verificationNextActions(v) : []), ...closeActions, ...(wf.state === 'ready' ? (['consent.cancel'] as const) : [])],
    deadlines: taking ? verificationDeadlines(ctx, v) : [],
    lastError: wf.lastError,
    updatedAt: wf.updatedAt,
    visitWorkflowId: wf.data.visitWorkflowId,
    patient: { patientRef: wf.data.patient.ref, maskedName: wf.data.patient.maskedName },
    intervention: wf.data.intervention,
    serviceType: wf.data.serviceType,
    closeBy: wf.data.closeBy,
    verification: verificationView(v),
    reasons: wf.data.closeBy === 'submit' ? [...submitReasons] : [...dischargeReasons],
    invoiceNumber: wf.data.invoiceNumber,
    partialDischarges: wf.data.partialDischarges,
    claimStatus: claimStatusOf(wf.data.claimStatus),
    closedAt: wf.data.closedAt,
    referredTo: wf.data.referredTo ?? null,
  };
}
