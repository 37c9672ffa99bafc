// Claims: the visit, billing lines (JSON or multipart), doctors, preview, discharge, the submit
// shapes, attachments and the housekeeping calls of the field notes.
import { z } from 'zod';
import {
  amount,
  diagnosis,
  diagnosisRef,
  fileInput,
  interventionRef,
  isoDate,
  jsonValue,
  list,
  nonEmpty,
  oneOrMany,
  optional,
  optionalNumber,
  optionalStatus,
  optionalText,
  otpDigits,
  practitioner,
  practitionerFields,
  record,
  requireAllOrNone,
  requireExactlyOne,
  serviceType,
  type JsonValue,
} from './common';

export const workflowStates = [
  'DRAFT',
  'PENDING',
  'SUBMISSION_READY',
  'ON_HOLD',
  'TIME_BARRED',
  'SUBMITTED',
  'DISPATCHED',
  'FAILED_TO_SUBMIT',
  'SUBMITTED_PAYER',
  'AUTOMATIC_CHECKS_DONE',
  'DRAFT_RESUBMIT',
  'DRAFT_RESUBMIT_DOCUMENTS',
  'CLOSED',
] as const;
export type WorkflowState = (typeof workflowStates)[number] | (string & {});

/** Valid on submit (service-interface.md, "Enumerations"); DECEASED is not. */
export const submitDischargeReasons = ['RECOVERED', 'REFERRED', 'ABSCONDED', 'OTHER'] as const;
/** An inpatient discharge may record a death; only submit refuses DECEASED. */
export const dischargeReasons = [...submitDischargeReasons, 'DECEASED'] as const;
export const unknownPatientReasons = ['SHA_UNREGISTERED', 'DECEASED'] as const;
export const dischargeStatuses = ['PARTIAL', 'FULL'] as const;
export const cancelReasonTypes = [
  'WRONG_PATIENT',
  'NO_SERVICE_GIVEN',
  'WRONG_BENEFIT',
  'EXPIRED_VISIT',
  'EXHAUSTED_BENEFIT',
  'TIME_BARRED',
  'OTHER_REASONS',
] as const;

const submitDischargeReason = z.enum(submitDischargeReasons, {
  error: (issue) =>
    issue.input === 'DECEASED'
      ? 'DECEASED is not valid as a discharge_reason on submit: use RECOVERED, REFERRED, ABSCONDED or OTHER (an unidentified deceased patient is reason_for_unknown_patient)'
      : `discharge_reason on submit is one of ${submitDischargeReasons.join(', ')}`,
});

// ---------------------------------------------------------------- visit

/**
 * A virtual claim: `intervention_codes` is a required array (R docs, A, R `open_visit()`), and
 * exactly one consent: the SMS code (the visit is the consent) or a biometric authorization's guid.
 */
export const createVisitRequest = z
  .strictObject({
    patient_id: nonEmpty,
    intervention_codes: z.array(nonEmpty).min(1, 'give at least one intervention code'),
    service_type: serviceType,
    otp: otpDigits.optional(),
    auth_guid: nonEmpty.optional(),
    ...practitioner,
    workstation_id: nonEmpty.optional(),
    device_id: nonEmpty.optional(),
    device_name: nonEmpty.optional(),
    is_biometrics: z.boolean().optional(),
    request_user_national_id: nonEmpty.optional(),
  })
  .superRefine((v, ctx) => {
    requireExactlyOne(v, ['otp', 'auth_guid'], ctx, 'consent strategy');
    requireAllOrNone(v, practitionerFields, ctx, 'attending doctor');
  });

export interface Visit {
  /** authorization_code on the wire: the consent_token of every later claim call. */
  readonly consentToken: string;
  readonly authorizationGuid: string | undefined;
  readonly claimAuthStatus: string | undefined;
  readonly workflowState: WorkflowState | undefined;
  readonly invoiceNumber: string | undefined;
  readonly visitNumber: string | undefined;
  readonly visitStart: string | undefined;
  readonly interventions: string[];
}

export const createVisitResponse = z
  .looseObject({
    authorization_code: optionalText,
    authorization_guid: optionalText,
    claim_auth_status: optionalStatus,
    workflow_state: optionalStatus,
    invoice_number: optionalText,
    visit_number: optionalText,
    visit_start: optionalText,
    interventions: list(interventionRef),
  })
  .refine((v) => v.authorization_code !== undefined, {
    message: 'visit without authorization_code (the consent_token)',
    path: ['authorization_code'],
  })
  .transform(
    (v): Visit => ({
      consentToken: String(v.authorization_code),
      authorizationGuid: v.authorization_guid,
      claimAuthStatus: v.claim_auth_status,
      workflowState: v.workflow_state,
      invoiceNumber: v.invoice_number,
      visitNumber: v.visit_number,
      visitStart: v.visit_start,
      interventions: v.interventions,
    }),
  );

// ---------------------------------------------------------------- lines

const lineFields = {
  consent_token: nonEmpty,
  intervention_code: nonEmpty,
  unit_price: amount,
  quantity: z.number().finite().positive(),
  /** ICD-11 diagnoses: the contract lists them with every line, JSON or multipart. */
  diagnoses: z.array(diagnosis).min(1, 'give at least one ICD-11 diagnosis'),
  item_code: nonEmpty.optional(),
  description: z.string().optional(),
  service_date: isoDate.optional(),
  ...practitioner,
};

/** Shape 1: one line item as JSON. */
export const addLineRequest = z
  .strictObject(lineFields)
  .superRefine((v, ctx) => requireAllOrNone(v, practitionerFields, ctx, 'attending doctor'));

/** Shape 2: combined billing as multipart, with the files as `attachments`. */
export const addBillingRequest = z
  .strictObject({ ...lineFields, attachments: z.array(fileInput).optional() })
  .superRefine((v, ctx) => requireAllOrNone(v, practitionerFields, ctx, 'attending doctor'));

export interface ClaimLine {
  readonly lineGuid: string | undefined;
  readonly interventionCode: string | undefined;
  readonly itemCode: string | undefined;
  readonly description: string | undefined;
  readonly unitPrice: number | undefined;
  readonly quantity: number | undefined;
  readonly amount: number | undefined;
  readonly serviceDate: string | undefined;
  readonly diagnoses: string[];
}

const claimLine = z
  .looseObject({
    line_guid: optionalText,
    guid: optionalText,
    intervention_code: optionalText,
    item_code: optionalText,
    description: optionalText,
    unit_price: optionalNumber,
    quantity: optionalNumber,
    amount: optionalNumber,
    total_amount: optionalNumber,
    service_date: optionalText,
    diagnoses: list(diagnosisRef),
  })
  .transform(
    (l): ClaimLine => ({
      lineGuid: l.line_guid ?? l.guid,
      interventionCode: l.intervention_code,
      itemCode: l.item_code,
      description: l.description,
      unitPrice: l.unit_price,
      quantity: l.quantity,
      amount: l.amount ?? l.total_amount ?? (l.unit_price !== undefined && l.quantity !== undefined ? l.unit_price * l.quantity : undefined),
      serviceDate: l.service_date,
      diagnoses: l.diagnoses,
    }),
  );

export interface BillingSaved {
  readonly message: string | undefined;
  readonly lineGuid: string | undefined;
  readonly lines: ClaimLine[];
  readonly totalAmount: number | undefined;
}

export const billingResponse = z
  .looseObject({ message: optionalText, line_guid: optionalText, lines: list(claimLine), total_amount: optionalNumber })
  .transform((b): BillingSaved => ({ message: b.message, lineGuid: b.line_guid, lines: b.lines, totalAmount: b.total_amount }));

// ---------------------------------------------------------------- doctors

export const addDoctorRequest = z.strictObject({
  consent_token: nonEmpty,
  identification_number: nonEmpty,
  identification_type: nonEmpty,
  regulation_body: nonEmpty,
});

export const removeDoctorRequest = z.strictObject({ consent_token: nonEmpty });

export interface Doctor {
  readonly identificationNumber: string | undefined;
  readonly identificationType: string | undefined;
  readonly regulationBody: string | undefined;
  readonly name: string | undefined;
}

const doctor = z
  .looseObject({
    identification_number: optionalText,
    identification_type: optionalText,
    regulation_body: optionalText,
    practitioner_identification_number: optionalText,
    practitioner_identification_type: optionalText,
    practitioner_regulation_body: optionalText,
    name: optionalText,
  })
  .transform(
    (d): Doctor => ({
      identificationNumber: d.identification_number ?? d.practitioner_identification_number,
      identificationType: d.identification_type ?? d.practitioner_identification_type,
      regulationBody: d.regulation_body ?? d.practitioner_regulation_body,
      name: d.name,
    }),
  );

export interface DoctorAttached {
  readonly message: string | undefined;
  readonly doctor: Doctor | undefined;
}

export const addDoctorResponse = z
  .union([
    z.undefined().transform(() => ({ message: undefined, doctor: undefined })),
    z.string().transform((message) => ({ message, doctor: undefined })),
    z.looseObject({ message: optionalText, doctor: optional(doctor) }),
  ])
  .transform((d): DoctorAttached => ({ message: d.message, doctor: d.doctor }));

// ---------------------------------------------------------------- attachments

export const uploadAttachmentRequest = z.strictObject({
  consent_token: nonEmpty,
  intervention_code: nonEmpty,
  document_type: nonEmpty,
  file: fileInput,
});

export interface Attachment {
  readonly id: string;
  readonly fileName: string | undefined;
  readonly contentType: string | undefined;
  readonly size: number | undefined;
  readonly documentType: string | undefined;
}

export const attachment = z
  .looseObject({
    attachment_id: optionalText,
    id: optionalText,
    file_name: optionalText,
    content_type: optionalText,
    size: optionalNumber,
    document_type: optionalText,
  })
  .refine((a) => (a.attachment_id ?? a.id) !== undefined, { message: 'attachment without attachment_id', path: ['attachment_id'] })
  .transform(
    (a): Attachment => ({
      id: String(a.attachment_id ?? a.id),
      fileName: a.file_name,
      contentType: a.content_type,
      size: a.size,
      documentType: a.document_type,
    }),
  );

// ---------------------------------------------------------------- preview

export const previewRequest = z.strictObject({ consent_token: nonEmpty });

export interface ClaimPreview {
  readonly consentToken: string;
  readonly workflowState: WorkflowState | undefined;
  readonly claimAuthStatus: string | undefined;
  readonly patientId: string | undefined;
  readonly serviceType: string | undefined;
  readonly interventions: string[];
  readonly lines: ClaimLine[];
  readonly diagnoses: string[];
  readonly doctor: Doctor | undefined;
  readonly attachments: Attachment[];
  readonly totalAmount: number | undefined;
  readonly invoiceNumber: string | undefined;
  readonly visitNumber: string | undefined;
  readonly dischargeStatus: string | undefined;
  readonly partialDischarges: Record<string, JsonValue>[];
  readonly submittedAt: string | undefined;
}

export const previewResponse = z
  .looseObject({
    consent_token: optionalText,
    authorization_code: optionalText,
    workflow_state: optionalStatus,
    claim_auth_status: optionalStatus,
    patient_id: optionalText,
    service_type: optionalText,
    interventions: list(interventionRef),
    lines: list(claimLine),
    diagnoses: list(diagnosisRef),
    doctor: optional(doctor),
    attachments: list(attachment),
    total_amount: optionalNumber,
    invoice_number: optionalText,
    visit_number: optionalText,
    discharge_status: optionalStatus,
    partial_discharges: list(record),
    submitted_at: optionalText,
  })
  .refine((p) => (p.consent_token ?? p.authorization_code) !== undefined, { message: 'preview without consent_token', path: ['consent_token'] })
  .transform(
    (p): ClaimPreview => ({
      consentToken: String(p.consent_token ?? p.authorization_code),
      workflowState: p.workflow_state,
      claimAuthStatus: p.claim_auth_status,
      patientId: p.patient_id,
      serviceType: p.service_type,
      interventions: p.interventions,
      lines: p.lines,
      diagnoses: p.diagnoses,
      doctor: p.doctor,
      attachments: p.attachments,
      totalAmount: p.total_amount,
      invoiceNumber: p.invoice_number,
      visitNumber: p.visit_number,
      dischargeStatus: p.discharge_status,
      partialDischarges: p.partial_discharges,
      submittedAt: p.submitted_at,
    }),
  );

export const payerPreviewQuery = z
  .strictObject({ guid: nonEmpty.optional(), provider_claim_no: nonEmpty.optional() })
  .superRefine((v, ctx) => {
    if (v.guid === undefined && v.provider_claim_no === undefined) {
      ctx.addIssue({ code: 'custom', path: ['provider_claim_no'], message: 'give provider_claim_no (the live service keys on it) or guid' });
    }
  });

/** The payer's view of claims: `{pageSize, results[]}`; the records' fields are not documented. */
export const payerPreviewResponse = oneOrMany(record);

// ---------------------------------------------------------------- discharge and submit

export const dischargeRequest = z
  .strictObject({
    consent_token: nonEmpty,
    discharge_reason: z.enum(dischargeReasons),
    invoice_number: nonEmpty,
    discharge_date: isoDate.optional(),
    notes: z.string().optional(),
    otp: otpDigits.optional(),
    auth_guid: nonEmpty.optional(),
    discharge_auth_guid: nonEmpty.optional(),
    discharge_status: z.enum(dischargeStatuses).optional(),
  })
  .superRefine((v, ctx) => requireExactlyOne(v, ['otp', 'auth_guid', 'discharge_auth_guid'], ctx, 'discharge consent'));

/** Standard submit, and finalisation of an earlier partial discharge (discharge_status FULL). */
export const submitRequest = z
  .strictObject({
    consent_token: nonEmpty,
    invoice_number: nonEmpty,
    discharge_reason: submitDischargeReason,
    notes: z.string().optional(),
    otp: otpDigits.optional(),
    discharge_auth_guid: nonEmpty.optional(),
    discharge_status: z.enum(dischargeStatuses).optional(),
  })
  .superRefine((v, ctx) => requireExactlyOne(v, ['otp', 'discharge_auth_guid'], ctx, 'visit-end consent'));

/** Emergency submit, identified or not: no consent OTP; reason_for_unknown_patient while unidentified. */
export const submitEmergencyRequest = z.strictObject({
  consent_token: nonEmpty,
  invoice_number: nonEmpty,
  discharge_reason: submitDischargeReason,
  reason_for_unknown_patient: z.enum(unknownPatientReasons).optional(),
  notes: z.string().optional(),
});

export interface ClaimState {
  readonly message: string | undefined;
  readonly consentToken: string | undefined;
  readonly workflowState: WorkflowState | undefined;
  readonly claimAuthStatus: string | undefined;
  readonly submittedAt: string | undefined;
}

/** Discharge, submit, close and resubmit all answer the claim's new state. */
export const claimStateResponse = z
  .union([
    z.undefined().transform(() => ({}) as Record<string, never>),
    z.looseObject({
      message: optionalText,
      consent_token: optionalText,
      workflow_state: optionalStatus,
      claim_auth_status: optionalStatus,
      submitted_at: optionalText,
    }),
  ])
  .transform(
    (c): ClaimState => ({
      message: 'message' in c ? c.message : undefined,
      consentToken: 'consent_token' in c ? c.consent_token : undefined,
      workflowState: 'workflow_state' in c ? c.workflow_state : undefined,
      claimAuthStatus: 'claim_auth_status' in c ? c.claim_auth_status : undefined,
      submittedAt: 'submitted_at' in c ? c.submitted_at : undefined,
    }),
  );

// ---------------------------------------------------------------- housekeeping

export const removeLineRequest = z.strictObject({ consent_token: nonEmpty, line_guid: nonEmpty });
export const removeDiagnosisRequest = z.strictObject({ consent_token: nonEmpty, icd_code: nonEmpty, intervention_code: nonEmpty });
export const removeAttachmentRequest = z.strictObject({ attachment_id: nonEmpty, consent_token: nonEmpty, intervention_code: nonEmpty });

export const switchInterventionRequest = z.strictObject({
  consent_token: nonEmpty,
  existing_intervention_code: nonEmpty,
  new_intervention_code: nonEmpty,
  retain_bill_items: z.boolean(),
  bill_from: isoDate.optional(),
  bill_to: isoDate.optional(),
});

export const closeClaimRequest = z.strictObject({
  consent_token: nonEmpty,
  cancel_reason_type: z.enum(cancelReasonTypes),
  cancel_reason_text: nonEmpty,
});

export const resubmitRequest = z.strictObject({ consent_token: nonEmpty });

/** Editing a line during resubmission: the fields to change (ours: the body is not documented). */
export const editLineRequest = z
  .strictObject({
    consent_token: nonEmpty,
    line_guid: nonEmpty,
    unit_price: amount.optional(),
    quantity: z.number().finite().positive().optional(),
    /** Replaces the line's diagnoses: a line keeps at least one. */
    diagnoses: z.array(diagnosis).min(1, 'a line keeps at least one ICD-11 diagnosis').optional(),
    description: z.string().optional(),
    service_date: isoDate.optional(),
  })
  .superRefine((v, ctx) => {
    const changes = ['unit_price', 'quantity', 'diagnoses', 'description', 'service_date'] as const;
    if (changes.every((f) => v[f] === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['unit_price'], message: `give at least one change: ${changes.join(', ')}` });
    }
  });

export interface Housekeeping {
  readonly message: string | undefined;
  /** What the exchange sent back as `data` (not documented further). */
  readonly data: JsonValue | undefined;
}

export const housekeepingResponse = z.union([z.undefined(), jsonValue]).transform((body): Housekeeping => {
  if (typeof body === 'string') return { message: body, data: undefined };
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    return { message: typeof body.message === 'string' ? body.message : undefined, data: 'data' in body ? body.data : body };
  }
  return { message: undefined, data: body };
});

