// What the renderer renders: one view per workflow kind, each with the explicit state enum the
// station core's state machine uses, what the nurse can do next (as command names), the deadlines
// to count down and the last error. Views always carry every key (null when not known yet), so the
// renderer never has to guess whether a key was dropped on the way.
import { z } from 'zod';
import { claimWorkflowStates, dischargeReasons, otpWhitelistReasons, preauthStatuses, submitDischargeReasons } from '../vocabulary';
import {
  attendingDoctor,
  calendarDate,
  diagnosis,
  httpUrl,
  interventionBrief,
  interventionCode,
  kes,
  linkHandle,
  masked,
  patientBrief,
  patientRef,
  serviceType,
  shortText,
  timestamp,
  workflowId,
} from './common';
import { stationError } from './errors';
import { referralDestination } from './programmes';

export const workflowKind = z.enum(['consent', 'visit', 'discharge', 'elective', 'emergency']);

/** Something the nurse watches run out: each view lists the ones that apply now. */
export const deadline = z.strictObject({
  kind: z.enum(['link-expiry', 'sms-code-expiry', 'sms-resend', 'fallback-window', 'emergency-submit']),
  at: timestamp,
});

// ---- The verification step: where the patient's (or, in an emergency, the doctor's) consent is taken.

/** Why the core chose the route it chose; the renderer words it for the nurse and the patient. */
export const routeReason = z.enum([
  'biometrics-enforced', // fingerprint only: the facility enforces biometrics and the patient is not whitelisted
  'biometrics-not-enforced', // fingerprint by default, SMS code allowed (Level 2 and 3 facilities)
  'whitelisted', // fingerprint by default, SMS code allowed: the patient is whitelisted for OTP
  'fingerprints-unusable', // SMS code within a window: the exchange answered BIOMETRICS_NOT_FOUND_OTP_ALLOWED
  'no-phone', // fingerprint only: there is no contact to send a code to
  'no-phone-no-fingerprints', // blocked: advise the OTP whitelist request
  'fallback-window-closed', // the SMS window after unusable fingerprints has ended
  'sms-only', // identifying an emergency patient is by SMS code only
]);

export const routeDecision = z.strictObject({
  route: z.enum(['fingerprint', 'sms', 'sms-fallback', 'blocked']),
  reason: routeReason,
  fingerprintAllowed: z.boolean(),
  smsAllowed: z.boolean(),
  /** End of the SMS window opened by BIOMETRICS_NOT_FOUND_OTP_ALLOWED. */
  fallbackUntil: timestamp.nullable(),
  whitelistAdvised: z.boolean(),
});

/** Masked contact the SMS code can go to; `contactId` is the exchange's contact id (not a secret). */
export const smsContact = z.strictObject({ contactId: z.string().min(1).max(100), masked, main: z.boolean() });

/** The page where the patient matches fingerprints. Its URL is shown in a view or iframe; it is not a secret. */
export const authorizationLink = z.strictObject({ handle: linkHandle, url: httpUrl, expiresAt: timestamp });

export const whitelistReasonType = z.enum(otpWhitelistReasons);

export const verificationStep = z.strictObject({
  purpose: z.enum(['visit', 'pre-visit', 'visit-day', 'discharge', 'identification']),
  route: routeDecision,
  stage: z.enum(['ready', 'sms-sent', 'awaiting-fingerprint', 'verified', 'blocked', 'rejected', 'expired', 'cancelled']),
  sms: z
    .strictObject({
      contacts: z.array(smsContact),
      selectedContactId: z.string().max(100).nullable(),
      sentTo: masked.nullable(),
      sentAt: timestamp.nullable(),
      codeExpiresAt: timestamp.nullable(),
      resendAvailableAt: timestamp.nullable(),
      failedAttempts: z.number().int().min(0),
      /** The length of the exchange's codes: a code typed to this length is confirmed without a press. */
      codeLength: z.number().int().min(4).max(8),
      /** After three wrong codes: offer switching to fingerprint, or the whitelist request. */
      escapeOffered: z.boolean(),
    })
    .nullable(),
  fingerprint: z.strictObject({ link: authorizationLink.nullable(), checkedAt: timestamp.nullable() }).nullable(),
  /** How consent was given, once it was (stage `verified`). */
  verifiedBy: z.enum(['sms', 'fingerprint']).nullable(),
  whitelist: z
    .strictObject({ status: z.enum(['pending', 'approved', 'rejected']), reasonType: whitelistReasonType, requestedAt: timestamp })
    .nullable(),
});

/** The commands that act on the verification step of whichever workflow is taking consent. */
export const verificationActions = [
  'consent.startFingerprint',
  'consent.sendSms',
  'consent.confirmSms',
  'consent.cancel',
  'consent.retry',
  'consent.requestWhitelist',
] as const;

// ---- Claim-side data shown in views.

export const claimStatus = z.enum([...claimWorkflowStates, 'OTHER']);

export const preauthStatus = z.enum([...preauthStatuses, 'OTHER']);

/** Reasons a claim may be closed with; DECEASED is valid for an inpatient discharge, never on submit. */
export const dischargeReason = z.enum(dischargeReasons);
export const submitReason = z.enum(submitDischargeReasons);

export const billingLine = z.strictObject({
  lineId: z.string().min(1).max(100),
  interventionCode,
  itemCode: z.string().max(60).nullable(),
  description: shortText.nullable(),
  unitPriceKes: kes,
  quantity: z.number().int().min(1),
  amountKes: kes,
  diagnoses: z.array(diagnosis),
  serviceDate: calendarDate.nullable(),
  /** Per-diem lines are generated by the exchange when the visit opens. */
  automatic: z.boolean(),
});

export const preauthProgress = z.strictObject({
  /** The exchange's preauth id, for quoting to the payer (not a secret). */
  reference: z.string().max(100).nullable(),
  status: preauthStatus,
  doctorStep: z.enum(['not-started', 'waiting', 'approved', 'failed']),
  payerStep: z.enum(['not-started', 'waiting', 'approved', 'rejected']),
  requestedAmountKes: kes,
  /** The diagnoses the preauthorization holds (those sent, less any removed). */
  diagnoses: z.array(diagnosis),
  /** What the payer wrote to the facility (a clarification asked for after its automatic checks). */
  payerNote: z.string().max(2000).nullable(),
  createdAt: timestamp.nullable(),
  checkedAt: timestamp.nullable(),
});

export const emergencyProtocol = z.strictObject({ protocolCode: z.string().min(1).max(60), name: shortText, interventionCode, tariffKes: kes });
/** The facility's reference for an emergency (ambulance or register number): it names the claim at SHA too. */
export const emergencyReference = z.string().regex(/^[A-Za-z0-9/_ .-]{1,60}$/, 'must be 1 to 60 letters, digits, spaces, / _ . or -');

// ---- The five workflow views.

const viewBase = {
  workflowId,
  deadlines: z.array(deadline),
  lastError: stationError.nullable(),
  updatedAt: timestamp,
};

export const consentState = z.enum(['verifying', 'verified', 'opening-visit', 'visit-opened', 'cancelled']);
export const consentView = z.strictObject({
  ...viewBase,
  kind: z.literal('consent'),
  state: consentState,
  next: z.array(z.enum([...verificationActions, 'visit.open'])),
  patient: patientBrief,
  intervention: interventionBrief,
  serviceType,
  verification: verificationStep,
  visitWorkflowId: workflowId.nullable(),
});

export const visitState = z.enum(['opening', 'open', 'closing', 'closed', 'reconciling', 'failed']);
export const visitView = z.strictObject({
  ...viewBase,
  kind: z.literal('visit'),
  state: visitState,
  next: z.array(
    z.enum([
      'visit.addLine',
      'visit.removeLine',
      'visit.editLine',
      'visit.addDiagnosis',
      'visit.removeDiagnosis',
      'visit.attachDoctor',
      'visit.switchIntervention',
      'visit.addService',
      'visit.retireService',
      'visit.restoreService',
      'visit.close',
      'visit.preview',
      'discharge.begin',
    ]),
  ),
  patient: patientBrief,
  /** The service the visit was opened for (the first of `services`). */
  intervention: interventionBrief,
  /**
   * Every service on the claim, the one it opened for first: SHA takes several on one claim and
   * keeps a retired one (inactive, its lines deleted) until it is restored. Absent only from a
   * core that predates several services.
   */
  services: z.array(interventionBrief.extend({ active: z.boolean() })).max(50).optional(),
  serviceType,
  visitNumber: z.string().max(60).nullable(),
  invoiceNumber: z.string().max(60).nullable(),
  claimStatus: claimStatus.nullable(),
  startedAt: timestamp.nullable(),
  doctor: attendingDoctor.nullable(),
  lines: z.array(billingLine),
  totalKes: kes,
  closeBy: z.enum(['discharge', 'submit']),
  /** The consent or elective workflow the visit was opened from. */
  fromWorkflowId: workflowId.nullable(),
  dischargeWorkflowId: workflowId.nullable(),
});

export const dischargeState = z.enum([
  'verifying',
  'ready', // verified: waiting for the reason and invoice number
  'sending',
  'reconciling', // after a restart: checking the claim before anything is sent again
  'partially-discharged',
  'discharged',
  'submitted',
  'cancelled',
]);
export const dischargeView = z.strictObject({
  ...viewBase,
  kind: z.literal('discharge'),
  state: dischargeState,
  next: z.array(z.enum([...verificationActions, 'discharge.dischargeInpatient', 'discharge.submit'])),
  visitWorkflowId: workflowId,
  patient: patientBrief,
  intervention: interventionBrief,
  serviceType,
  closeBy: z.enum(['discharge', 'submit']),
  verification: verificationStep.nullable(),
  /** The reasons the renderer may offer: never DECEASED when closing by submit. */
  reasons: z.array(dischargeReason),
  invoiceNumber: z.string().max(60).nullable(),
  partialDischarges: z.array(timestamp),
  claimStatus: claimStatus.nullable(),
  closedAt: timestamp.nullable(),
  /** Where a patient discharged as REFERRED was sent (the registry's code and name). */
  referredTo: referralDestination.nullable(),
});

export const electiveState = z.enum([
  'verifying', // phase one: taking consent before the visit
  'verified', // consent given; waiting for the preauth details
  'creating-preauth',
  'awaiting-doctor',
  'awaiting-payer',
  'finalised', // ready for phase two on the day of the visit
  'visit-day-verifying', // phase two by SMS code (no new authorization)
  'opening-visit',
  'visit-opened',
  'preauth-rejected',
  'cancelled',
  'reconciling',
]);
/** The papers the preauth request carries (never their bytes). */
export const preauthDocuments = z.strictObject({
  attached: z.array(z.strictObject({ documentType: z.string().max(60), title: shortText, fileName: z.string().max(200) })),
  /**
   * Attached, but no longer on this station (deleted from its data folder, or unreadable after the
   * key was replaced): the request is not sent until the nurse attaches them again.
   */
  gone: z.boolean(),
});

export const electiveView = z.strictObject({
  ...viewBase,
  kind: z.literal('elective'),
  state: electiveState,
  next: z.array(
    z.enum([
      ...verificationActions,
      'elective.submitPreauth',
      'elective.resendDoctorRequest',
      'elective.refreshPreauth',
      'elective.cancelPreauth',
      'elective.removeDiagnosis',
      'elective.changeDoctor',
      'visit.open',
    ]),
  ),
  phase: z.enum(['pre-visit', 'visit-day']),
  patient: patientBrief,
  intervention: interventionBrief,
  verification: verificationStep.nullable(),
  preauth: preauthProgress.nullable(),
  preauthDocuments: preauthDocuments,
  visitWorkflowId: workflowId.nullable(),
});

export const emergencyState = z.enum([
  'creating',
  'unconfirmed', // the answer to the creation was lost: SHA may or may not have the claim
  'not-created', // SHA refused the claim
  'open-unidentified',
  'identifying', // waiting for the patient's SMS code
  'open-identified',
  'submitting',
  'reconciling',
  'submitted',
  'window-expired',
]);
export const emergencyView = z.strictObject({
  ...viewBase,
  kind: z.literal('emergency'),
  state: emergencyState,
  next: z.array(
    z.enum([
      'consent.sendSms',
      'consent.confirmSms',
      'consent.cancel',
      'emergency.identify',
      'emergency.submit',
      'emergency.resendClaim',
      'emergency.addProtocol',
      'emergency.requestDoctorApproval',
      'emergency.addAnotherProtocol',
      'emergency.changeDoctor',
    ]),
  ),
  intervention: interventionBrief,
  protocol: emergencyProtocol,
  referenceNumber: emergencyReference,
  /** Whether the protocol is on the claim at SHA. */
  protocolAdded: z.boolean(),
  /** Protocols added after the first one, each on the claim at SHA. */
  furtherProtocols: z.array(emergencyProtocol),
  /** The attending doctor on the claim. */
  doctor: attendingDoctor,
  /** The attending doctor's approval: asked for once the claim exists; the doctor answers SHA directly. */
  doctorApproval: z.enum(['not-requested', 'requested']),
  /** Null while the patient is unidentified. */
  patient: patientBrief.nullable(),
  verification: verificationStep.nullable(),
  emergencyAt: timestamp.nullable(),
  /** 24 hours after the emergency: submission is refused after this. */
  submitBy: timestamp.nullable(),
  claimStatus: claimStatus.nullable(),
  submittedAt: timestamp.nullable(),
});

export const workflowView = z.discriminatedUnion('kind', [consentView, visitView, dischargeView, electiveView, emergencyView]);

export type WorkflowView = z.infer<typeof workflowView>;
export type WorkflowKind = z.infer<typeof workflowKind>;
export type VerificationStep = z.infer<typeof verificationStep>;

// ---- Commands and the event about any workflow.

export const workflowCommands = {
  /** One workflow's current view. */
  'workflow.get': { input: z.strictObject({ workflowId }), output: workflowView },
  /** Unfinished workflows (resumed after a restart), optionally of one patient or kind. */
  'workflow.list': {
    input: z.strictObject({ patientRef: patientRef.optional(), kind: workflowKind.optional(), includeEnded: z.boolean().optional() }),
    output: z.strictObject({ items: z.array(workflowView) }),
  },
};

export const workflowEvents = [z.strictObject({ type: z.literal('workflow.updated'), view: workflowView })] as const;
