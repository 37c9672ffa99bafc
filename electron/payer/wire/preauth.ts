// Preauthorization: create, find (one object [doc] or `{pageSize, results}` [live]), cancel, and
// removing a diagnosis or the doctor before approval.
import { z } from 'zod';
import {
  amount,
  byShape,
  diagnosis,
  diagnosisRef,
  isRecord,
  list,
  nonEmpty,
  oneOrMany,
  optionalNumber,
  optionalText,
  practitioner,
  practitionerFields,
  requireAllOrNone,
  requireExactlyOne,
  status,
} from './common';

export const preauthTypes = ['normal', 'surgical', 'renal', 'oncology', 'optical', 'imaging', 'dental'] as const;

export const preauthStatuses = [
  'DRAFT',
  'PENDING_SUBMISSION',
  'CANCELLED',
  'DOCTOR_REQUEST_SENT',
  'PENDING_DOCTOR_APPROVAL',
  'DOCTOR_REQUEST_FAILED',
  'ACTIVE',
  'CLARIFICATION_AFTER_AUTOMATIC_CHECKS',
  'FINALISED',
  'REJECTED',
  'REJECTED_AFTER_APPROVAL',
] as const;
export type PreauthStatus = (typeof preauthStatuses)[number] | (string & {});

const scalar = z.union([z.string(), z.number(), z.boolean()]);
const formValue = z.union([scalar, z.array(scalar), z.record(z.string(), scalar)]);

export const createPreauthRequest = z
  .strictObject({
    consent_token: nonEmpty,
    intervention_code: nonEmpty,
    preauth_type: z.enum(preauthTypes),
    /** The type-specific preauth form; its fields are not shown by the contract. */
    form: z.record(z.string(), formValue).default({}),
    ...practitioner,
    diagnoses: z.array(diagnosis).min(1, 'give at least one diagnosis'),
    requested_amount: amount,
    /** References to documents already uploaded, e.g. {document_type, attachment_id}. */
    attachments: z.array(z.record(z.string(), scalar)).optional(),
  })
  .superRefine((v, ctx) => {
    // The doctor who asks for the preauth confirms it (PENDING_DOCTOR_APPROVAL): it cannot be left out.
    if (practitionerFields.every((f) => v[f] === undefined)) {
      for (const field of practitionerFields) {
        ctx.addIssue({ code: 'custom', path: [field], message: `a preauthorization names the requesting doctor: give ${practitionerFields.join(', ')}` });
      }
      return;
    }
    requireAllOrNone(v, practitionerFields, ctx, 'requesting doctor');
  });

export const findPreauthQuery = z.strictObject({ consent_token: nonEmpty });

export const cancelPreauthRequest = z
  .strictObject({ consent_token: nonEmpty.optional(), preauth_id: nonEmpty.optional(), reason: nonEmpty })
  .superRefine((v, ctx) => requireExactlyOne(v, ['consent_token', 'preauth_id'], ctx, 'preauth to cancel'));

export const removePreauthDiagnosisRequest = z.strictObject({
  consent_token: nonEmpty,
  icd_code: nonEmpty,
  intervention_code: nonEmpty,
});

export const removePreauthDoctorRequest = z.strictObject({
  consent_token: nonEmpty,
  intervention_code: nonEmpty,
  practitioner_registration_number: nonEmpty,
});

export interface Preauth {
  readonly id: string | undefined;
  readonly guid: string | undefined;
  readonly consentToken: string | undefined;
  readonly interventionCode: string | undefined;
  readonly status: PreauthStatus;
  readonly preauthType: string | undefined;
  readonly requestedAmount: number | undefined;
  readonly approvedAmount: number | undefined;
  readonly diagnoses: string[];
  readonly createdAt: string | undefined;
}

export const preauth = z
  .looseObject({
    id: optionalText,
    guid: optionalText,
    consent_token: optionalText,
    intervention_code: optionalText,
    status,
    preauth_type: optionalText,
    requested_amount: optionalNumber,
    approved_amount: optionalNumber,
    diagnoses: list(diagnosisRef),
    created_at: optionalText,
  })
  .refine((p) => (p.id ?? p.guid) !== undefined, { message: 'preauth without id or guid', path: ['id'] })
  .transform(
    (p): Preauth => ({
      id: p.id,
      guid: p.guid,
      consentToken: p.consent_token,
      interventionCode: p.intervention_code,
      status: p.status,
      preauthType: p.preauth_type,
      requestedAmount: p.requested_amount,
      approvedAmount: p.approved_amount,
      diagnoses: p.diagnoses,
      createdAt: p.created_at,
    }),
  );

export const createPreauthResponse = preauth;

/** One preauth [doc], `{pageSize, results}` [live] or a list: always a list (one per intervention). */
export const findPreauthResponse = oneOrMany(preauth);

/** Removing a diagnosis answers the preauth [doc]; `{message, preauth}` is read the same way. */
export const removePreauthDiagnosisResponse = byShape((value) =>
  isRecord(value) && isRecord(value.preauth) ? z.looseObject({ preauth }).transform((r) => r.preauth) : preauth,
);

export interface PreauthCancelled {
  readonly message: string | undefined;
  readonly preauth: Preauth | undefined;
}

export const cancelPreauthResponse = z
  .looseObject({ message: optionalText, preauth: preauth.optional() })
  .transform((c): PreauthCancelled => ({ message: c.message, preauth: c.preauth }));

