// The lifecycles of authorizations, preauthorizations and claims as explicit transition tables.
// Every state change in the sandbox goes through `nextState`, so an impossible transition is a 409
// and never a silent corruption, and every change can be announced to the callback endpoints.
import type { authorizationStatuses, claimWorkflowStates, preauthStatuses } from '../../vocabulary';
import { fail, type ConflictCode } from '../errors';

export type Machine<S extends string, E extends string> = Readonly<Record<S, Readonly<Partial<Record<E, S>>>>>;

/** The states a table models, each one of SHA's list (electron/vocabulary): a misspelt state does not compile. */
type Of<List extends readonly string[], S extends List[number]> = S;

export type AuthorizationStatus = Of<
  typeof authorizationStatuses,
  | 'PENDING'
  | 'AUTHORIZED'
  | 'AUTHORIZED_PENDING_VISIT'
  | 'REJECTED'
  | 'EXPIRED'
  | 'EMERGENCY_AUTHORIZED'
  | 'AUTHORIZED_MULTISESSION'
>;
export type AuthorizationEvent =
  | 'match_visit'
  | 'match_pre_visit'
  | 'code_visit'
  | 'code_pre_visit'
  | 'third_mismatch'
  | 'reject'
  | 'expire'
  | 'preauth_finalised'
  | 'multisession';

export const AUTHORIZATION_MACHINE: Machine<AuthorizationStatus, AuthorizationEvent> = {
  PENDING: {
    match_visit: 'AUTHORIZED',
    match_pre_visit: 'AUTHORIZED_PENDING_VISIT',
    // The SMS code an authorize texted (R's two-step consent), spent on the visit or the pre-visit authorize.
    code_visit: 'AUTHORIZED',
    code_pre_visit: 'AUTHORIZED_PENDING_VISIT',
    third_mismatch: 'REJECTED',
    reject: 'REJECTED',
    expire: 'EXPIRED',
  },
  AUTHORIZED_PENDING_VISIT: { preauth_finalised: 'AUTHORIZED' },
  // FN "Biometric authorization": a consent that covers several sessions (dialysis, oncology); the
  // payer's side, driven by the control API. It opens a visit as AUTHORIZED does.
  AUTHORIZED: { multisession: 'AUTHORIZED_MULTISESSION' },
  AUTHORIZED_MULTISESSION: {},
  REJECTED: {},
  EXPIRED: {},
  EMERGENCY_AUTHORIZED: {},
};

export type PreauthStatus = Of<
  typeof preauthStatuses,
  | 'DRAFT'
  | 'PENDING_SUBMISSION'
  | 'PENDING_DOCTOR_APPROVAL'
  | 'DOCTOR_REQUEST_SENT'
  | 'DOCTOR_REQUEST_FAILED'
  | 'ACTIVE'
  | 'CLARIFICATION_AFTER_AUTOMATIC_CHECKS'
  | 'FINALISED'
  | 'CANCELLED'
  | 'REJECTED'
  | 'REJECTED_AFTER_APPROVAL'
>;
export type PreauthEvent =
  // the facility's calls
  | 'cancel'
  | 'doctor_request_resent'
  // the doctor's and the payer's side, driven by the control API
  | 'doctor_approval'
  | 'doctor_request_failed'
  | 'payer_approval'
  | 'payer_rejection'
  | 'clarification_requested'
  | 'clarified'
  | 'rejected_after_approval'
  // ours: no source says how a created preauth becomes a DRAFT or PENDING_SUBMISSION, or leaves it
  | 'held_as_draft'
  | 'submission_queued'
  | 'sent_to_doctor';

/**
 * Field notes' statuses (FN "Visit, discharge, submit"). A create is PENDING_DOCTOR_APPROVAL; the
 * doctor's request may fail to reach them (DOCTOR_REQUEST_FAILED), and the facility's resend makes
 * it DOCTOR_REQUEST_SENT; the payer may ask for a clarification after its automatic checks, and
 * reject a preauth after approving it. FINALISED is cancelled only while no visit used it (ours).
 */
export const PREAUTH_MACHINE: Machine<PreauthStatus, PreauthEvent> = {
  // Ours, marked so: the field notes list DRAFT and PENDING_SUBMISSION [doc] and no source says how
  // a preauth gets there. The control API holds a created one back as a draft, queues it for
  // submission, and sends it on to the doctor; the facility may cancel it meanwhile.
  DRAFT: { submission_queued: 'PENDING_SUBMISSION', sent_to_doctor: 'PENDING_DOCTOR_APPROVAL', cancel: 'CANCELLED' },
  PENDING_SUBMISSION: { sent_to_doctor: 'PENDING_DOCTOR_APPROVAL', held_as_draft: 'DRAFT', cancel: 'CANCELLED' },
  PENDING_DOCTOR_APPROVAL: { doctor_approval: 'ACTIVE', doctor_request_failed: 'DOCTOR_REQUEST_FAILED', held_as_draft: 'DRAFT', cancel: 'CANCELLED' },
  DOCTOR_REQUEST_SENT: { doctor_approval: 'ACTIVE', doctor_request_failed: 'DOCTOR_REQUEST_FAILED', cancel: 'CANCELLED' },
  DOCTOR_REQUEST_FAILED: { doctor_request_resent: 'DOCTOR_REQUEST_SENT', cancel: 'CANCELLED' },
  ACTIVE: { payer_approval: 'FINALISED', payer_rejection: 'REJECTED', clarification_requested: 'CLARIFICATION_AFTER_AUTOMATIC_CHECKS', cancel: 'CANCELLED' },
  CLARIFICATION_AFTER_AUTOMATIC_CHECKS: { clarified: 'ACTIVE', payer_rejection: 'REJECTED', cancel: 'CANCELLED' },
  FINALISED: { rejected_after_approval: 'REJECTED_AFTER_APPROVAL', cancel: 'CANCELLED' },
  CANCELLED: {},
  REJECTED: {},
  REJECTED_AFTER_APPROVAL: {},
};

/** The preauth events the control API may fire (`POST /sandbox/preauths/{id}/status {to}`). */
export const PAYER_PREAUTH_EVENTS: readonly PreauthEvent[] = [
  'doctor_approval',
  'doctor_request_failed',
  'payer_approval',
  'payer_rejection',
  'clarification_requested',
  'clarified',
  'rejected_after_approval',
  'held_as_draft',
  'submission_queued',
  'sent_to_doctor',
];

/** While the doctor has not approved: the preauth's diagnoses and doctor may still change. */
export const AWAITING_DOCTOR: readonly PreauthStatus[] = ['PENDING_DOCTOR_APPROVAL', 'DOCTOR_REQUEST_SENT', 'DOCTOR_REQUEST_FAILED'];

export type ClaimState = Of<
  typeof claimWorkflowStates,
  | 'DRAFT'
  | 'SUBMITTED'
  | 'PENDING'
  | 'SUBMISSION_READY'
  | 'DISPATCHED'
  | 'FAILED_TO_SUBMIT'
  | 'SUBMITTED_PAYER'
  | 'AUTOMATIC_CHECKS_DONE'
  | 'ON_HOLD'
  | 'DRAFT_RESUBMIT'
  | 'DRAFT_RESUBMIT_DOCUMENTS'
  | 'TIME_BARRED'
  | 'CLOSED'
>;
export type ClaimEvent =
  // the facility's calls
  | 'submit'
  | 'discharge_full'
  | 'close'
  | 'resubmit'
  // the payer's side, driven by the control API
  | 'queue'
  | 'ready'
  | 'dispatch'
  | 'dispatch_failed'
  | 'payer_received'
  | 'automatic_checks'
  | 'hold'
  | 'request_documents'
  | 'time_bar'
  | 'payer_close';

// PENDING and SUBMISSION_READY are listed by the field notes [doc] without their place in the
// lifecycle; the sandbox's reading (ours): a submitted claim may wait in the exchange's queue
// (PENDING), pass its checks (SUBMISSION_READY), then be dispatched or fail to be.
export const CLAIM_MACHINE: Machine<ClaimState, ClaimEvent> = {
  DRAFT: { submit: 'SUBMITTED', discharge_full: 'SUBMITTED', close: 'CLOSED' },
  SUBMITTED: { queue: 'PENDING', ready: 'SUBMISSION_READY', dispatch: 'DISPATCHED', dispatch_failed: 'FAILED_TO_SUBMIT' },
  PENDING: { ready: 'SUBMISSION_READY', dispatch: 'DISPATCHED', dispatch_failed: 'FAILED_TO_SUBMIT' },
  SUBMISSION_READY: { dispatch: 'DISPATCHED', dispatch_failed: 'FAILED_TO_SUBMIT' },
  DISPATCHED: { payer_received: 'SUBMITTED_PAYER' },
  FAILED_TO_SUBMIT: { dispatch: 'DISPATCHED', resubmit: 'DRAFT_RESUBMIT' },
  SUBMITTED_PAYER: {
    automatic_checks: 'AUTOMATIC_CHECKS_DONE',
    hold: 'ON_HOLD',
    request_documents: 'DRAFT_RESUBMIT_DOCUMENTS',
    time_bar: 'TIME_BARRED',
  },
  AUTOMATIC_CHECKS_DONE: {
    payer_close: 'CLOSED',
    hold: 'ON_HOLD',
    request_documents: 'DRAFT_RESUBMIT_DOCUMENTS',
    resubmit: 'DRAFT_RESUBMIT',
  },
  ON_HOLD: { automatic_checks: 'AUTOMATIC_CHECKS_DONE', request_documents: 'DRAFT_RESUBMIT_DOCUMENTS', resubmit: 'DRAFT_RESUBMIT' },
  // A returned claim, once corrected, goes back by the resubmission itself (R WORKFLOWS: "edit, then
  // POST /claims/lines/resubmit") or by a new submit with the visit-end consent.
  DRAFT_RESUBMIT: { submit: 'SUBMITTED', resubmit: 'SUBMITTED', close: 'CLOSED' },
  DRAFT_RESUBMIT_DOCUMENTS: { submit: 'SUBMITTED', resubmit: 'SUBMITTED', close: 'CLOSED' },
  TIME_BARRED: {},
  CLOSED: {},
};

/** Claim states where the facility may still edit lines, diagnoses, attachments and the doctor. */
export const EDITABLE_CLAIM_STATES: readonly ClaimState[] = ['DRAFT', 'DRAFT_RESUBMIT', 'DRAFT_RESUBMIT_DOCUMENTS'];

/** Payer-side events the control API may fire. */
export const PAYER_CLAIM_EVENTS: readonly ClaimEvent[] = [
  'queue',
  'ready',
  'dispatch',
  'dispatch_failed',
  'payer_received',
  'automatic_checks',
  'hold',
  'request_documents',
  'time_bar',
  'payer_close',
];

export function nextState<S extends string, E extends string>(
  machine: Machine<S, E>,
  entity: string,
  from: S,
  event: E,
  conflict: ConflictCode = 'INVALID_TRANSITION',
): S {
  const to = machine[from][event];
  if (to === undefined) {
    throw fail.conflict(conflict, `The ${entity} is ${from}: '${event}' is not allowed in that state`, [{ state: from, event }]);
  }
  return to;
}

/** The event of `machine` that leads from `from` to `to`, limited to `allowed`. */
export function eventTo<S extends string, E extends string>(machine: Machine<S, E>, from: S, to: S, allowed: readonly E[]): E | undefined {
  return allowed.find((e) => machine[from][e] === to);
}
