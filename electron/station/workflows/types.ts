// The workflows as the core keeps them: the contract's state, plus everything the core needs to
// carry on after a restart. Fields marked secret are consent tokens, guids, SMS codes and patient
// identifiers: they live only here (sealed in the journal) and never in a view, a log or the audit.
import type { z } from 'zod';
import type {
  attendingDoctor,
  authorizationLink,
  billingLine,
  dispensedProduct,
  dischargeReason,
  emergencyProtocol,
  interventionBrief,
  modeOfArrival,
  broughtBy,
  preauthStatus,
  prescriptionItem,
  smsContact,
  StationError,
  whitelistReasonType,
  WorkflowKind,
} from '../../contract';
import type { HeldPaper } from '../papers-waiting';
import type { DischargeState, ConsentState, ElectiveState, EmergencyState, VerificationStage, VisitState } from '../machines';
import type { RouteDecision, VerificationPurpose } from '../route';

export type InterventionBrief = z.infer<typeof interventionBrief>;
export type AttendingDoctor = z.infer<typeof attendingDoctor>;
export type BillingLine = z.infer<typeof billingLine>;
export type SmsContact = z.infer<typeof smsContact>;
export type AuthorizationLink = z.infer<typeof authorizationLink>;
export type ServiceType = 'OUTPATIENT' | 'INPATIENT';

/** What a workflow knows of its patient. */
export interface PatientFacts {
  readonly ref: string;
  readonly maskedName: string;
  /** secret: the client registry id, patient_id of every exchange call. */
  readonly patientId: string;
  /** Unknown (undefined) is not kept: a record read back has no such key. */
  readonly biometricsEnforced?: boolean | undefined;
  readonly whitelisted: boolean;
  readonly contacts: SmsContact[];
  /**
   * secret: the patient in full as the look-up showed them, for the banner of the workflow's screens
   * (patient.inHand) while it is open; dropped when it ends. Absent in workflows kept before.
   */
  readonly inHand?: PatientInHandRecord;
}

/** The patient in full for the banner: what the look-up's check showed, the age reckoned from the date of birth. */
export interface PatientInHandRecord {
  readonly fullName: string | null;
  readonly sex: 'female' | 'male' | null;
  readonly dateOfBirth: string | null;
  readonly idType: string;
  /** The ID number's last characters (never more than half of it). */
  readonly idNumberEnd: string;
  readonly scheme: string | null;
}

export interface VerificationData {
  purpose: VerificationPurpose;
  stage: VerificationStage;
  route: RouteDecision;
  /** The facts the route is decided from (decided again as they change); unknown is not kept. */
  biometricsEnforced?: boolean | undefined;
  whitelisted: boolean;
  hasPhone: boolean;
  /** Set when the exchange answered BIOMETRICS_NOT_FOUND_OTP_ALLOWED: the end of the SMS window (ms). */
  unusableUntil: number | null;
  contacts: SmsContact[];
  selectedContactId: string | null;
  sentTo: string | null;
  sentAt: string | null;
  codeExpiresAt: string | null;
  resendAvailableAt: string | null;
  failedAttempts: number;
  smsUsed: boolean;
  link: AuthorizationLink | null;
  checkedAt: string | null;
  whitelist: { status: 'pending' | 'approved' | 'rejected'; reasonType: z.infer<typeof whitelistReasonType>; requestedAt: string; guid: string } | null;
  /** The route last tried, for consent.retry. */
  attempt: 'sms' | 'fingerprint' | null;
  /** How consent was given, once it was. */
  method: 'sms' | 'fingerprint' | null;
  /** secret: the authorization token (a preauth's consent_token). */
  authToken: string | null;
  /** secret: the authorization guid (a visit's auth_guid, a discharge's discharge_auth_guid). */
  authGuid: string | null;
  /** secret: an SMS code accepted by the nurse and spent by the next call (the visit, discharge, submit). */
  code: string | null;
  /** Fingerprint authorizations asked for in this step (`biometric_attempts` of a whitelist request); absent in older records. */
  fingerprintAttempts?: number;
  /** The length a code typed for this step confirms itself at (set when a code is sent); absent in older records. */
  codeLength?: number;
  /**
   * A call that spends the code (the OTP authorize) went unanswered: SHA may have spent it, so its
   * refusal as used is not the nurse's wrong code. Absent in older records.
   */
  codeSpentUnconfirmed?: boolean;
}

/** The claim as the station last read it back from SHA (claims.*): absent until it first does. */
export interface ClaimReadBack {
  checkedAt: string;
  /** The papers on the claim (`claim_attachments`). */
  documents: { attachmentId: string; documentType: string | null; title: string | null; interventionCode: string | null }[];
  /** The document types SHA lists for the claim's interventions; null where it does not say. */
  documentTypes: string[] | null;
}

interface Base<K extends WorkflowKind, S extends string> {
  readonly id: string;
  readonly kind: K;
  state: S;
  readonly createdAt: string;
  updatedAt: string;
  lastError: StationError | null;
}

export interface ConsentWorkflow extends Base<'consent', ConsentState> {
  data: {
    patient: PatientFacts;
    intervention: InterventionBrief;
    serviceType: ServiceType;
    verification: VerificationData;
    visitWorkflowId: string | null;
    /**
     * secret: at the pharmacy window, the guid of the patient's visit open at SHA that this consent
     * reaches (open-visits.ts); absent for a ward's consent, which may open a visit.
     */
    openVisitGuid?: string;
  };
}

export interface VisitWorkflow extends Base<'visit', VisitState> {
  data: {
    patient: PatientFacts;
    intervention: InterventionBrief;
    serviceType: ServiceType;
    closeBy: 'discharge' | 'submit';
    /** secret: the claim's consent_token. */
    consentToken: string | null;
    /** secret: what opened it (for the re-post that returns an open visit after a crash). */
    openedWith: { authGuid: string } | { otp: string };
    doctorAtStart: AttendingDoctor | null;
    visitNumber: string | null;
    invoiceNumber: string | null;
    claimStatus: string | null;
    startedAt: string | null;
    doctor: AttendingDoctor | null;
    lines: BillingLine[];
    totalKes: number;
    /** Line ids the station added (the others were generated by the exchange). */
    addedLineIds: string[];
    fromWorkflowId: string | null;
    dischargeWorkflowId: string | null;
    claimReadBack?: ClaimReadBack;
    /** secret: the visit answer's authorization_guid (absent on visits recorded before it was kept). */
    authorizationGuid?: string;
    /** Opened at another station and reached here by a consent at the pharmacy window, to dispense under. */
    forDispensing?: true;
    /** Dispensed at the pharmacy window under this visit (no prescription of this station to hold them). */
    windowDispenses?: DispenseEntryRecord[];
    /** When the station first saw the claim returned for papers (DRAFT_RESUBMIT_DOCUMENTS); absent otherwise. */
    documentsReturnSeenAt?: string;
    /** Written on this visit (absent on visits recorded before prescriptions were kept). */
    prescriptions?: PrescriptionRecord[];
    /**
     * Every service on the claim, the one it opened for first, each active or retired, as SHA last
     * answered; absent on visits recorded before several services (the one it opened for, then).
     */
    services?: ServiceOnVisit[];
  };
}

/** A service (intervention) on a visit's claim; a retired one is inactive at SHA, its lines deleted. */
export type ServiceOnVisit = InterventionBrief & { active: boolean };

/** A prescription as the station keeps it on its visit; `sending` until SHA's answer is in. */
export interface PrescriptionRecord {
  readonly ref: string;
  readonly writtenAt: string;
  readonly prescriber: AttendingDoctor;
  readonly items: z.infer<typeof prescriptionItem>[];
  state: 'sending' | 'written';
  exchangeCode: string | null;
  /** SHA's id (or guid) of it, when its answer gave one; absent on records kept before it was. */
  exchangeId?: string | null;
  status: string | null;
  reviewStatus: string | null;
  /** When SHA last answered its status and review; absent on records kept before the read-back. */
  statusAt?: string | null;
  dispenses: DispenseEntryRecord[];
}

export interface DispenseEntryRecord {
  readonly ref: string;
  readonly at: string;
  readonly products: z.infer<typeof dispensedProduct>[];
  readonly completesFill: boolean;
  state: 'sending' | 'dispensed';
  status: string | null;
}

export interface DischargeIntent {
  action: 'discharge' | 'submit';
  reason: z.infer<typeof dischargeReason>;
  invoiceNumber: string;
  notes: string | null;
  partial: boolean;
  dischargedAt: string | null;
  finalisesPartial: boolean;
  /** REFERRED: where the patient goes (absent in intents stored before referrals named one). */
  referredTo?: { code: string; name: string } | null;
}

export interface DischargeWorkflow extends Base<'discharge', DischargeState> {
  data: {
    visitWorkflowId: string;
    patient: PatientFacts;
    intervention: InterventionBrief;
    serviceType: ServiceType;
    closeBy: 'discharge' | 'submit';
    /** secret */
    consentToken: string;
    verification: VerificationData;
    invoiceNumber: string | null;
    partialDischarges: string[];
    claimStatus: string | null;
    closedAt: string | null;
    intent: DischargeIntent | null;
    /** Where a patient discharged as REFERRED went, once the discharge is done (absent in records stored before). */
    referredTo?: { code: string; name: string } | null;
  };
}

export interface PreauthData {
  reference: string | null;
  status: z.infer<typeof preauthStatus>;
  requestedAmountKes: number;
  createdAt: string | null;
  checkedAt: string | null;
  doctorApprovedSeen: boolean;
  /** What the payer wrote on the preauth (`preauthNotes`), oldest first; absent in older records. */
  notes?: string[];
}

export interface PreauthRequest {
  /** The planned admission and expected discharge days (calendar dates). */
  serviceStart: string;
  serviceEnd: string;
  requestedAmountKes: number;
  diagnoses: { code: string; name?: string | undefined }[];
  doctor: AttendingDoctor;
  notificationEmail: string;
  clinicalNotes: string | null;
  /** The papers sent with it, waiting in `PapersWaiting` until SHA has them; absent in older records. */
  documents?: HeldPaper[];
  /** The papers are no longer on this station: nothing is sent until the nurse attaches them again. */
  documentsGone?: boolean;
}

export interface ElectiveWorkflow extends Base<'elective', ElectiveState> {
  data: {
    patient: PatientFacts;
    intervention: InterventionBrief;
    phase: 'pre-visit' | 'visit-day';
    verification: VerificationData;
    /** How phase one's consent was given: decides phase two (auth_guid, or the SMS code again). */
    phaseOneMethod: 'sms' | 'fingerprint' | null;
    /** secret: phase one's authorization token and guid. */
    authToken: string | null;
    authGuid: string | null;
    preauthRequest: PreauthRequest | null;
    preauth: PreauthData | null;
    visitWorkflowId: string | null;
  };
}

export interface EmergencyWorkflow extends Base<'emergency', EmergencyState> {
  data: {
    intervention: InterventionBrief;
    protocol: z.infer<typeof emergencyProtocol>;
    /** The attending doctor on the claim (changed by emergency.changeDoctor). */
    doctor: AttendingDoctor;
    modeOfArrival: z.infer<typeof modeOfArrival>;
    broughtBy: z.infer<typeof broughtBy>;
    referenceNumber: string;
    notes: string;
    /** Taking the patient's SMS code when they are identified. */
    verification: VerificationData;
    /** secret: the emergency claim's consent_token (the authorization_code its creation answered). */
    consentToken: string | null;
    /** The exchange's id of the claim: emergency_claim_id of the doctor's approval request. */
    claimId: string | null;
    protocolAdded: boolean;
    /** Protocols added after the first, each on the claim at SHA; absent in older records. */
    furtherProtocols?: z.infer<typeof emergencyProtocol>[];
    doctorApprovalRequestedAt: string | null;
    patient: PatientFacts | null;
    /** The patient being identified, until their code is confirmed. */
    identifying: PatientFacts | null;
    emergencyAt: string | null;
    submitBy: string | null;
    claimStatus: string | null;
    submittedAt: string | null;
    invoiceNumber: string | null;
    intent: { reason: z.infer<typeof dischargeReason>; invoiceNumber: string; unknownPatientReason: 'SHA_UNREGISTERED' | 'DECEASED' | null; notes: string | null } | null;
    claimReadBack?: ClaimReadBack;
    /** When the station first saw the claim returned for papers (DRAFT_RESUBMIT_DOCUMENTS); absent otherwise. */
    documentsReturnSeenAt?: string;
  };
}

/** Each kind's workflow, by its kind: the kinds table (kinds.ts) is keyed the same way. */
export interface WorkflowsByKind {
  consent: ConsentWorkflow;
  visit: VisitWorkflow;
  discharge: DischargeWorkflow;
  elective: ElectiveWorkflow;
  emergency: EmergencyWorkflow;
}
export type AnyWorkflow = WorkflowsByKind[WorkflowKind];
export type WorkflowOf<K extends WorkflowKind> = WorkflowsByKind[K];
