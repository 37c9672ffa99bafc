// The workflows as explicit state machines: one transition table per kind, using the contract's
// state enums. Every state change in the core goes through `transition`, which refuses anything the
// table does not list (WRONG_STATE) — no scattered ifs deciding what may follow what.
import type { z } from 'zod';
import type { consentState, dischargeState, electiveState, emergencyState, verificationStep, visitState, WorkflowKind } from '../contract';
import { fail } from './errors';

export type ConsentState = z.infer<typeof consentState>;
export type VisitState = z.infer<typeof visitState>;
export type DischargeState = z.infer<typeof dischargeState>;
export type ElectiveState = z.infer<typeof electiveState>;
export type EmergencyState = z.infer<typeof emergencyState>;
export type VerificationStage = z.infer<typeof verificationStep>['stage'];

type Table<S extends string, E extends string> = { readonly [state in S]: { readonly [event in E]?: S } };

export const consentMachine = {
  // By SMS code, the code confirmed opens the visit straight away: the consent is the visit's answer.
  verifying: { verified: 'verified', openVisit: 'opening-visit', cancel: 'cancelled' },
  // Consent by fingerprint, authorized by SHA: the visit opens with the authorization's guid.
  verified: { openVisit: 'opening-visit', cancel: 'cancelled' },
  // codeNotAccepted: SHA did not open the visit with the SMS code; the nurse confirms a code again.
  'opening-visit': { visitOpened: 'visit-opened', visitNotOpened: 'verified', codeNotAccepted: 'verifying' },
  'visit-opened': {},
  cancelled: {},
} as const satisfies Table<ConsentState, string>;

export const visitMachine = {
  opening: { opened: 'open', failed: 'failed', outcomeUnknown: 'reconciling' },
  // cancel: the claim closed (POST /claims/close) with its reason; SHA will never pay it.
  open: { beginClose: 'closing', cancel: 'closed' },
  closing: { closed: 'closed', closeAbandoned: 'open' },
  reconciling: { opened: 'open', failed: 'failed' },
  closed: {},
  failed: {},
} as const satisfies Table<VisitState, string>;

export const dischargeMachine = {
  verifying: { verified: 'ready', cancel: 'cancelled' },
  ready: { send: 'sending', reverify: 'verifying', cancel: 'cancelled' },
  sending: {
    partiallyDischarged: 'partially-discharged',
    discharged: 'discharged',
    submitted: 'submitted',
    refused: 'ready',
    reverify: 'verifying',
    // A claim already partially discharged goes back to waiting for its finalisation.
    backToPartial: 'partially-discharged',
    outcomeUnknown: 'reconciling',
  },
  reconciling: {
    partiallyDischarged: 'partially-discharged',
    discharged: 'discharged',
    submitted: 'submitted',
    notSent: 'ready',
    backToPartial: 'partially-discharged',
    reverify: 'verifying',
  },
  // After a partial discharge the claim stays open; a fresh visit-end consent finalises it.
  'partially-discharged': { send: 'sending' },
  discharged: {},
  submitted: {},
  cancelled: {},
} as const satisfies Table<DischargeState, string>;

export const electiveMachine = {
  verifying: { verified: 'verified', cancel: 'cancelled' },
  verified: { createPreauth: 'creating-preauth', cancel: 'cancelled' },
  'creating-preauth': { awaitDoctor: 'awaiting-doctor', awaitPayer: 'awaiting-payer', refused: 'verified', outcomeUnknown: 'reconciling' },
  'awaiting-doctor': {
    awaitPayer: 'awaiting-payer',
    finalise: 'finalised',
    preauthRejected: 'preauth-rejected',
    preauthCancelled: 'cancelled',
    // Another requesting doctor: the preauth cancelled at SHA and sent again on the same consent.
    requestAgain: 'verified',
  },
  'awaiting-payer': { finalise: 'finalised', preauthRejected: 'preauth-rejected', preauthCancelled: 'cancelled' },
  finalised: { verifyVisitDay: 'visit-day-verifying', openVisit: 'opening-visit', preauthCancelled: 'cancelled', preauthRejected: 'preauth-rejected' },
  'visit-day-verifying': { openVisit: 'opening-visit' },
  'opening-visit': { visitOpened: 'visit-opened', visitNotOpened: 'finalised', outcomeUnknown: 'reconciling' },
  reconciling: {
    awaitDoctor: 'awaiting-doctor',
    awaitPayer: 'awaiting-payer',
    finalise: 'finalised',
    notCreated: 'verified',
    visitOpened: 'visit-opened',
    visitNotOpened: 'finalised',
  },
  'visit-opened': {},
  'preauth-rejected': {},
  cancelled: {},
} as const satisfies Table<ElectiveState, string>;

export const emergencyMachine = {
  creating: { created: 'open-unidentified', refused: 'not-created', outcomeUnknown: 'unconfirmed' },
  // No look-up finds a claim without the answer that named it: the nurse checks, then sends again.
  unconfirmed: { resend: 'creating', windowClosed: 'window-expired' },
  'not-created': {},
  'open-unidentified': { identify: 'identifying', submit: 'submitting', windowClosed: 'window-expired' },
  identifying: { identified: 'open-identified', abandonIdentification: 'open-unidentified', outcomeUnknown: 'reconciling', windowClosed: 'window-expired' },
  'open-identified': { submit: 'submitting', windowClosed: 'window-expired' },
  submitting: {
    submitted: 'submitted',
    refusedUnidentified: 'open-unidentified',
    refusedIdentified: 'open-identified',
    outcomeUnknown: 'reconciling',
    windowClosed: 'window-expired',
  },
  reconciling: {
    identified: 'open-identified',
    submitted: 'submitted',
    refusedUnidentified: 'open-unidentified',
    refusedIdentified: 'open-identified',
    windowClosed: 'window-expired',
  },
  submitted: {},
  'window-expired': {},
} as const satisfies Table<EmergencyState, string>;

/** The verification step shared by every workflow that takes consent. */
export const verificationMachine = {
  ready: { smsSent: 'sms-sent', fingerprintStarted: 'awaiting-fingerprint', verified: 'verified', block: 'blocked', cancel: 'cancelled' },
  'sms-sent': {
    smsSent: 'sms-sent',
    codeRefused: 'sms-sent',
    verified: 'verified',
    fingerprintStarted: 'awaiting-fingerprint',
    cancel: 'cancelled',
    block: 'blocked',
    reset: 'ready',
  },
  'awaiting-fingerprint': {
    verified: 'verified',
    rejected: 'rejected',
    expired: 'expired',
    cancel: 'cancelled',
    smsSent: 'sms-sent',
    fingerprintStarted: 'awaiting-fingerprint',
    reset: 'ready',
  },
  verified: { reset: 'ready', codeRefused: 'sms-sent' },
  blocked: { reset: 'ready', smsSent: 'sms-sent' },
  rejected: { retry: 'ready', smsSent: 'sms-sent', fingerprintStarted: 'awaiting-fingerprint', reset: 'ready' },
  expired: { retry: 'ready', smsSent: 'sms-sent', fingerprintStarted: 'awaiting-fingerprint', reset: 'ready' },
  cancelled: { retry: 'ready', smsSent: 'sms-sent', fingerprintStarted: 'awaiting-fingerprint', reset: 'ready' },
} as const satisfies Table<VerificationStage, string>;

export const machines = {
  consent: consentMachine,
  visit: visitMachine,
  discharge: dischargeMachine,
  elective: electiveMachine,
  emergency: emergencyMachine,
} as const;

type EventsOf<T> = { [S in keyof T]: keyof T[S] }[keyof T] & string;
export type MachineEvent<K extends WorkflowKind> = EventsOf<(typeof machines)[K]>;
export type StateOf<K extends WorkflowKind> = keyof (typeof machines)[K] & string;
export type VerificationEvent = EventsOf<typeof verificationMachine>;

/** Any transition table, as the functions below read it. */
type AnyTable = Readonly<Record<string, Readonly<Record<string, string>>>>;

/** The next state, or undefined when the table has no such transition. */
export function nextState(table: AnyTable, state: string, event: string): string | undefined {
  const row = table[state];
  return row === undefined ? undefined : row[event];
}

/**
 * The next state of a workflow; refuses (WRONG_STATE) a transition the table does not list. The
 * engine's `transition` types the event by the workflow's kind.
 */
export function transitionOf(kind: WorkflowKind, state: string, event: string): string {
  const next = nextState(machines[kind], state, event);
  if (next === undefined) fail('WRONG_STATE', `A ${kind} workflow in state "${state}" cannot ${describeEvent(event)}.`, { state });
  return next;
}

export function verificationNext(stage: VerificationStage, event: VerificationEvent): VerificationStage {
  const next = nextState(verificationMachine, stage, event);
  if (next === undefined) fail('WRONG_STATE', `The verification step at "${stage}" cannot ${describeEvent(event)}.`, { state: stage });
  return next as VerificationStage;
}

export function canTransition<K extends WorkflowKind>(kind: K, state: string, event: MachineEvent<K>): boolean {
  return nextState(machines[kind], state, event) !== undefined;
}

export function isTerminal(kind: WorkflowKind, state: string): boolean {
  const table: AnyTable = machines[kind];
  const row = table[state];
  return row !== undefined && Object.keys(row).length === 0;
}

function describeEvent(event: string): string {
  return event.replace(/([A-Z])/g, ' $1').toLowerCase();
}
