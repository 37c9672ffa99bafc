// What the records of several workflow kinds share: the patient, the verification step, a claim read
// back, a paper waiting. Values that are the contract's and go to the views as they are kept
// (interventions, doctors, contacts, links, errors, billing lines) are read with the contract's
// schemas; the core's own (secrets, times, counts) with plain ones.
import { z } from 'zod';
import { authorizationLink, interventionBrief, routeDecision, serviceType, smsContact, stationError, verificationStep, whitelistReasonType, type WorkflowKind } from '../../../contract';

const isoTime = z.string();

/**
 * Compile-time: a schema reads what the code keeps, each way (a field the code adds without the
 * schema, or one of another type, fails the typecheck; an optional field the schema misses fails the
 * write check, which is strict).
 */
export type Agrees<S extends z.ZodType, T> = [z.output<S>] extends [T] ? ([T] extends [z.input<S>] ? true : false) : false;

export const patientFacts = z.strictObject({
  ref: z.string(),
  maskedName: z.string(),
  patientId: z.string(),
  biometricsEnforced: z.boolean().optional(),
  whitelisted: z.boolean(),
  contacts: z.array(smsContact),
});

/**
 * The patient as workflow records keep it from version 2 (issue 23): with the patient in full
 * (`inHand`: what the look-up showed) for the banner while the workflow is open; dropped when it
 * ends, absent in version 1 records.
 */
export const patientFactsV2 = patientFacts.extend({
  inHand: z
    .strictObject({
      fullName: z.string().nullable(),
      sex: z.enum(['female', 'male']).nullable(),
      dateOfBirth: z.string().nullable(),
      idType: z.string(),
      idNumberEnd: z.string(),
      scheme: z.string().nullable(),
    })
    .optional(),
});

/** Who and what a consent, a visit and a discharge are for, as version 1 keeps them: the patient, the service and its type. */
export const careFields = { patient: patientFacts, intervention: interventionBrief, serviceType } as const;

export const verificationData = z.strictObject({
  purpose: verificationStep.shape.purpose,
  stage: verificationStep.shape.stage,
  route: routeDecision,
  biometricsEnforced: z.boolean().optional(),
  whitelisted: z.boolean(),
  hasPhone: z.boolean(),
  unusableUntil: z.number().nullable(),
  contacts: z.array(smsContact),
  selectedContactId: z.string().nullable(),
  sentTo: z.string().nullable(),
  sentAt: isoTime.nullable(),
  codeExpiresAt: isoTime.nullable(),
  resendAvailableAt: isoTime.nullable(),
  failedAttempts: z.number().int().min(0),
  smsUsed: z.boolean(),
  link: authorizationLink.nullable(),
  checkedAt: isoTime.nullable(),
  whitelist: z.strictObject({ status: z.enum(['pending', 'approved', 'rejected']), reasonType: whitelistReasonType, requestedAt: isoTime, guid: z.string() }).nullable(),
  attempt: z.enum(['sms', 'fingerprint']).nullable(),
  method: z.enum(['sms', 'fingerprint']).nullable(),
  authToken: z.string().nullable(),
  authGuid: z.string().nullable(),
  code: z.string().nullable(),
  fingerprintAttempts: z.number().int().min(0).optional(),
  codeLength: z.number().int().optional(),
  codeSpentUnconfirmed: z.boolean().optional(),
});

export const claimReadBack = z.strictObject({
  checkedAt: isoTime,
  documents: z.array(z.strictObject({ attachmentId: z.string(), documentType: z.string().nullable(), title: z.string().nullable(), interventionCode: z.string().nullable() })),
  documentTypes: z.array(z.string()).nullable(),
});

export const heldPaper = z.strictObject({
  documentType: z.string(),
  title: z.string(),
  fileName: z.string(),
  contentType: z.string(),
  size: z.number().int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

export { interventionBrief };

/** The fields every workflow record starts with, its kind fixed and its state one of its machine's. */
export function recordBase<K extends WorkflowKind, S extends z.ZodType<string>>(kind: K, state: S) {
  return {
    id: z.string().regex(/^wf_[A-Za-z0-9_-]{1,60}$/),
    kind: z.literal(kind),
    state,
    createdAt: isoTime,
    updatedAt: isoTime,
    lastError: stationError.nullable(),
  };
}
