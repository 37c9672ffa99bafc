// Claims: the visit, billing lines (JSON or multipart with diagnoses and files), diagnoses, doctors,
// the claim object the preview, discharge, submit and close answer, attachments and the
// housekeeping calls. docs/exchange-wire.md cites the source of every field.
import { z } from 'zod';
import { cancelReasonTypes, claimDocumentTypes, dischargeReasons, dischargeStatuses, submitDischargeReasons, unknownPatientReasons, type claimWorkflowStates } from '../../vocabulary';
import { documentType } from './eligibility';
import {
  amount,
  fileInput,
  interventionRef,
  isoDate,
  jsonValue,
  list,
  nonEmpty,
  number,
  oneOrMany,
  optional,
  optionalBoolean,
  optionalNumber,
  optionalStatus,
  optionalText,
  otpDigits,
  practitioner,
  practitionerFields,
  record,
  requireAllOrNone,
  requireExactlyOne,
  rfc3339DateTime,
  serviceType,
  status,
  text,
  type JsonValue,
} from './common';

export type WorkflowState = (typeof claimWorkflowStates)[number] | (string & {});


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

export const claimDocumentType = z.enum(claimDocumentTypes);

/** An ICD code as the multipart `diagnoses` list and the diagnosis calls carry it: the bare code. */
export const icdCode = nonEmpty.max(20, 'an ICD code is at most 20 characters');
const quantity = z.number().finite().positive();

/** Shape 1 (JSON): one line, no diagnoses (A `cc/claim-line/types`; the exchange's Postman "Add Virtual Claim Line"). */
export const addLineRequest = z
  .strictObject({
    consent_token: nonEmpty,
    intervention_code: nonEmpty,
    unit_price: amount,
    quantity,
    service_name: nonEmpty.optional(),
    service_identifier: nonEmpty.optional(),
    scheme_code: nonEmpty.optional(),
    ...practitioner,
  })
  .superRefine((v, ctx) => requireAllOrNone(v, practitionerFields, ctx, 'attending doctor'));

/** A file sent with a line: its metadata goes in the `attachments` JSON part, its bytes in a part of its own. */
export const lineAttachment = z.strictObject({ document_title: nonEmpty, document_type: claimDocumentType, file: fileInput });

/**
 * Shape 2 (multipart, "combined billing"): the line with its diagnoses (a JSON list of ICD code
 * strings) and its files (R docs billing, R `add_line()`, A `cc/combined-billing`).
 */
export const addBillingRequest = z
  .strictObject({
    consent_token: nonEmpty,
    intervention_code: nonEmpty,
    unit_price: amount,
    quantity,
    charge_date: isoDate.optional(),
    scheme_code: nonEmpty.optional(),
    service_name: nonEmpty.optional(),
    service_identifier: nonEmpty.optional(),
    diagnoses: z.array(icdCode).min(1, 'leave diagnoses out rather than send an empty list').optional(),
    attachments: z.array(lineAttachment).min(1).max(10).optional(),
    ...practitioner,
  })
  .superRefine((v, ctx) => requireAllOrNone(v, practitionerFields, ctx, 'attending doctor'));

/** The name of the multipart part that carries the n-th file of a line (A combined billing; the exchange's Postman collection). */
export const lineFilePart = (n: number): string => `attachments_${n}_file_blob`;

/** A billing line as the exchange answers it (the answer to adding one, and `invoices[].lines[]` of the preview). */
export interface ClaimLine {
  /** `id`: the line's guid, sent back as `line_guid` to remove it and as `line_id` to edit it. */
  readonly id: string;
  readonly interventionCode: string | undefined;
  readonly itemCode: string | undefined;
  readonly itemName: string | undefined;
  readonly unitPrice: number | undefined;
  readonly quantity: number | undefined;
  /** `line_total_amount` */
  readonly amount: number | undefined;
  readonly netAmount: number | undefined;
  readonly chargeDate: string | undefined;
  readonly schemeCode: string | undefined;
  readonly active: boolean | undefined;
  readonly doctorName: string | undefined;
}

export const claimLine = z
  .looseObject({
    id: text.pipe(z.string().trim().min(1, 'a line without its id')),
    intervention_code: optionalText,
    item_code: optionalText,
    item_name: optionalText,
    unit_price: optionalNumber,
    quantity: optionalNumber,
    line_total_amount: optionalNumber,
    line_net_amount: optionalNumber,
    charge_date: optionalText,
    scheme_code: optionalText,
    is_active: optionalBoolean,
    doctor_name: optionalText,
  })
  .transform(
    (l): ClaimLine => ({
      id: l.id,
      interventionCode: l.intervention_code,
      itemCode: l.item_code,
      itemName: l.item_name,
      unitPrice: l.unit_price,
      quantity: l.quantity,
      amount: l.line_total_amount,
      netAmount: l.line_net_amount,
      chargeDate: l.charge_date,
      schemeCode: l.scheme_code,
      active: l.is_active,
      doctorName: l.doctor_name,
    }),
  );

// ---------------------------------------------------------------- diagnoses

/** `POST /claims/diagnoses` (and the PATCH that removes one): the doctor, when given, comes with all three fields. */
export const addDiagnosisRequest = z
  .strictObject({ consent_token: nonEmpty, icd_code: icdCode, intervention_code: nonEmpty, ...practitioner })
  .superRefine((v, ctx) => requireAllOrNone(v, practitionerFields, ctx, 'attending doctor'));

/** A diagnosis on the claim: the answer to adding one, and `claim_diagnoses[]` of the preview. */
export interface ClaimDiagnosis {
  readonly code: string;
  readonly name: string | undefined;
  readonly interventionCode: string | undefined;
  readonly id: string | undefined;
  readonly flagged: boolean | undefined;
  readonly recordedOn: string | undefined;
}

export const claimDiagnosis = z
  .looseObject({
    diagnosis_code: text.pipe(z.string().trim().min(1, 'a diagnosis without its code')),
    diagnosis_name: optionalText,
    intervention_code: optionalText,
    claim_diagnosis_id: optionalText,
    is_flagged_diagnosis: optionalBoolean,
    recorded_on: optionalText,
  })
  .transform(
    (d): ClaimDiagnosis => ({
      code: d.diagnosis_code,
      name: d.diagnosis_name,
      interventionCode: d.intervention_code,
      id: d.claim_diagnosis_id,
      flagged: d.is_flagged_diagnosis,
      recordedOn: d.recorded_on,
    }),
  );

// ---------------------------------------------------------------- doctors

export const addDoctorRequest = z.strictObject({
  consent_token: nonEmpty,
  identification_number: nonEmpty,
  identification_type: nonEmpty,
  regulation_body: nonEmpty,
});

export const removeDoctorRequest = z.strictObject({ consent_token: nonEmpty });

// ---------------------------------------------------------------- attachments

/** One file for the claim, in a part named `file_blob` (R docs billing, A `cc/claim-attachment`, R `add_attachment()`). */
export const uploadAttachmentRequest = z.strictObject({
  consent_token: nonEmpty,
  intervention_code: nonEmpty,
  document_type: claimDocumentType,
  file_blob: fileInput,
});

/** An attachment on the claim: the upload's answer, and `claim_attachments[]` of the preview. */
export interface Attachment {
  /** `id`: sent back as `attachment_id` to remove it. */
  readonly id: string;
  readonly title: string | undefined;
  readonly attachmentType: string | undefined;
  readonly interventionCode: string | undefined;
  readonly description: string | undefined;
}

export const attachment = z
  .looseObject({
    id: text.pipe(z.string().trim().min(1, 'an attachment without its id')),
    title: optionalText,
    attachment_type: optionalText,
    intervention_code: optionalText,
    description: optionalText,
  })
  .transform(
    (a): Attachment => ({ id: a.id, title: a.title, attachmentType: a.attachment_type, interventionCode: a.intervention_code, description: a.description }),
  );

// ---------------------------------------------------------------- the claim as the exchange answers it

export const previewRequest = z.strictObject({ consent_token: nonEmpty });

/**
 * An intervention of the claim as the preview lists it (A `cc/visit/types` `VisitIntervention`; R
 * docs billing): its state (`workflow_state`: ACTIVE, or INACTIVE once retired, R WORKFLOWS §9.8)
 * and the document types that apply to it. Tried before the bare reference, which would drop them.
 */
const claimIntervention = z
  .looseObject({
    intervention_code: text.pipe(z.string().trim().min(1)),
    intervention_name: optionalText,
    workflow_state: optionalStatus,
    applicable_document_types: z.array(documentType).nullish(),
  })
  .transform((i) => ({
    interventionCode: i.intervention_code,
    name: i.intervention_name,
    state: i.workflow_state,
    applicable: i.applicable_document_types?.filter((d) => d !== ''),
  }));

/** A retired intervention's state (R WORKFLOWS §9.8, UAT): it stays on the claim, without its lines. */
export const RETIRED_INTERVENTION_STATE = 'INACTIVE';

/** An intervention of the claim and where it stands. */
export interface InterventionOnClaim {
  readonly interventionCode: string;
  readonly name: string | undefined;
  /** `workflow_state` as SHA wrote it (ACTIVE, INACTIVE, …); undefined when it said none. */
  readonly state: string | undefined;
  /** False once retired (INACTIVE): billing it is refused, and restoring it brings back none of its lines. */
  readonly active: boolean;
}

/** One invoice of the claim, with its lines. */
export interface Invoice {
  readonly id: string | undefined;
  readonly invoiceNumber: string;
  readonly workflowState: string | undefined;
  readonly totalAmount: number | undefined;
  readonly lines: ClaimLine[];
  /** The doctors on the invoice, as the exchange sent them (their fields are not documented). */
  readonly doctors: Record<string, JsonValue>[] | undefined;
}

const invoice = z
  .looseObject({
    id: optionalText,
    invoice_number: text.pipe(z.string().trim().min(1, 'an invoice without its number')),
    workflow_state: optionalStatus,
    total_inv_amount: optionalNumber,
    lines: z.array(claimLine),
    doctors: optional(z.array(record)),
  })
  .transform(
    (i): Invoice => ({ id: i.id, invoiceNumber: i.invoice_number, workflowState: i.workflow_state, totalAmount: i.total_inv_amount, lines: i.lines, doctors: i.doctors }),
  );

export interface ClaimPreview {
  /** `authorization_code`: the claim's consent_token. */
  readonly consentToken: string | undefined;
  /** `id`: the claim's guid (the payer preview's `guid`). */
  readonly claimId: string | undefined;
  readonly workflowState: WorkflowState | undefined;
  readonly claimAuthStatus: string | undefined;
  /** `patient_number`: whom the claim is for (absent while an emergency patient is unidentified). */
  readonly patientId: string | undefined;
  readonly serviceType: string | undefined;
  /** Every intervention code on the claim, retired ones included. */
  readonly interventions: string[] | undefined;
  /** Each intervention of the claim with its state; a bare code (no state said) counts as active. */
  readonly interventionStates: InterventionOnClaim[];
  /** Per active intervention of the claim, the document types that apply to it (`interventions[].applicable_document_types`), where it says. */
  readonly documentTypes: { readonly interventionCode: string; readonly applicable: string[] }[];
  readonly invoices: Invoice[];
  /** Every invoice's lines, in order. */
  readonly lines: ClaimLine[];
  /** `claim_diagnoses` */
  readonly diagnoses: ClaimDiagnosis[];
  /** `claim_attachments` */
  readonly attachments: Attachment[];
  /** `total_claim_amount` */
  readonly totalAmount: number;
  readonly netAmount: number | undefined;
  /** The first invoice's number (A reads it there; R reads `invoice_number`): the one submit and discharge name. */
  readonly invoiceNumber: string | undefined;
  readonly visitNumber: string | undefined;
  readonly visitStart: string | undefined;
  readonly visitEnd: string | undefined;
  readonly dischargedOn: string | undefined;
  /** Whether the exchange shows a doctor on the claim (any invoice's `doctors`, or `claim_doctors`); undefined when it says neither. */
  readonly hasDoctor: boolean | undefined;
  /** No public source shows these three; read when sent (the station's own sandbox does). */
  readonly dischargeStatus: string | undefined;
  readonly partialDischarges: Record<string, JsonValue>[] | undefined;
  readonly submittedAt: string | undefined;
}

/**
 * The claim object of the preview (R docs billing, A `cc/claim-preview/types`, R `VirtualClaimWire`):
 * its lines live in `invoices[].lines`, its diagnoses in `claim_diagnoses`. What the station
 * reconciles against cannot be missing: `invoices`, `claim_diagnoses`, `claim_attachments` and
 * `total_claim_amount` absent are a malformed answer, never an empty claim.
 */
export const previewResponse = z
  .looseObject({
    authorization_code: optionalText,
    id: optionalText,
    workflow_state: optionalStatus,
    claim_auth_status: optionalStatus,
    patient_number: optionalText,
    service_type: optionalStatus,
    interventions: optional(z.array(z.union([claimIntervention, interventionRef]))),
    invoices: z.array(invoice),
    claim_diagnoses: z.array(claimDiagnosis),
    claim_attachments: z.array(attachment),
    claim_doctors: optional(z.array(record)),
    total_claim_amount: number,
    total_claim_net_amount: optionalNumber,
    invoice_number: optionalText,
    visit_number: optionalText,
    visit_start: optionalText,
    visit_end: optionalText,
    discharged_on: optionalText,
    discharge_status: optionalStatus,
    partial_discharges: optional(z.array(record)),
    submitted_at: optionalText,
  })
  .transform((p): ClaimPreview => {
    const doctorLists = [p.claim_doctors, ...p.invoices.map((i) => i.doctors)].filter((d) => d !== undefined);
    return {
      consentToken: p.authorization_code,
      claimId: p.id,
      workflowState: p.workflow_state,
      claimAuthStatus: p.claim_auth_status,
      patientId: p.patient_number,
      serviceType: p.service_type,
      interventions: p.interventions?.map((i) => (typeof i === 'string' ? i : i.interventionCode)),
      interventionStates: (p.interventions ?? []).map((i) =>
        typeof i === 'string'
          ? { interventionCode: i, name: undefined, state: undefined, active: true }
          : { interventionCode: i.interventionCode, name: i.name, state: i.state, active: i.state !== RETIRED_INTERVENTION_STATE },
      ),
      // A retired intervention's papers are no longer asked for: its lines are gone with it.
      documentTypes: (p.interventions ?? []).flatMap((i) =>
        typeof i === 'string' || i.applicable === undefined || i.state === RETIRED_INTERVENTION_STATE ? [] : [{ interventionCode: i.interventionCode, applicable: i.applicable }],
      ),
      invoices: p.invoices,
      lines: p.invoices.flatMap((i) => i.lines),
      diagnoses: p.claim_diagnoses,
      attachments: p.claim_attachments,
      totalAmount: p.total_claim_amount,
      netAmount: p.total_claim_net_amount,
      invoiceNumber: p.invoices[0]?.invoiceNumber ?? p.invoice_number,
      visitNumber: p.visit_number,
      visitStart: p.visit_start,
      visitEnd: p.visit_end,
      dischargedOn: p.discharged_on,
      hasDoctor: doctorLists.length === 0 ? undefined : doctorLists.some((d) => d.length > 0),
      dischargeStatus: p.discharge_status,
      partialDischarges: p.partial_discharges,
      submittedAt: p.submitted_at,
    };
  });

export const payerPreviewQuery = z
  .strictObject({ guid: nonEmpty.optional(), provider_claim_no: nonEmpty.optional() })
  .superRefine((v, ctx) => {
    if (v.guid === undefined && v.provider_claim_no === undefined) {
      ctx.addIssue({ code: 'custom', path: ['provider_claim_no'], message: 'give provider_claim_no (the live service keys on it) or guid' });
    }
  });

/** The payer's view of claims: `{pageSize, results[]}` of camelCase records, passed through as they come. */
export const payerPreviewResponse = oneOrMany(record);

// ---------------------------------------------------------------- discharge and submit


export const dischargeRequest = z
  .strictObject({
    consent_token: nonEmpty,
    discharge_date: rfc3339DateTime,
    discharge_reason: z.enum(dischargeReasons),
    invoice_number: nonEmpty,
    notes: z.string().optional(),
    otp: otpDigits.optional(),
    discharge_auth_guid: nonEmpty.optional(),
    auth_guid: nonEmpty.optional(),
    discharge_status: z.enum(dischargeStatuses).optional(),
  })
  .superRefine((v, ctx) => requireExactlyOne(v, ['otp', 'discharge_auth_guid', 'auth_guid'], ctx, 'discharge consent'));

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
  /** `authorization_code`: the claim's consent_token. */
  readonly consentToken: string | undefined;
  readonly workflowState: WorkflowState;
  readonly claimAuthStatus: string | undefined;
  readonly invoiceNumber: string | undefined;
  readonly dischargedOn: string | undefined;
  /** Not shown by any public source; read when sent. */
  readonly dischargeStatus: string | undefined;
  readonly submittedAt: string | undefined;
}

/** Discharge, submit and close answer the claim object (R docs claim-dispatch, A `ClaimsVisitReponse`, R `VirtualClaimWire`). */
export const claimStateResponse = z
  .looseObject({
    authorization_code: optionalText,
    workflow_state: status,
    claim_auth_status: optionalStatus,
    invoice_number: optionalText,
    discharged_on: optionalText,
    discharge_status: optionalStatus,
    submitted_at: optionalText,
  })
  .transform(
    (c): ClaimState => ({
      consentToken: c.authorization_code,
      workflowState: c.workflow_state,
      claimAuthStatus: c.claim_auth_status,
      invoiceNumber: c.invoice_number,
      dischargedOn: c.discharged_on,
      dischargeStatus: c.discharge_status,
      submittedAt: c.submitted_at,
    }),
  );

// ---------------------------------------------------------------- housekeeping

export const removeLineRequest = z.strictObject({ consent_token: nonEmpty, line_guid: nonEmpty });
export const removeDiagnosisRequest = z.strictObject({ consent_token: nonEmpty, icd_code: icdCode, intervention_code: nonEmpty });
export const removeAttachmentRequest = z.strictObject({ attachment_id: nonEmpty, consent_token: nonEmpty, intervention_code: nonEmpty });

export const switchInterventionRequest = z
  .strictObject({
    consent_token: nonEmpty,
    existing_intervention_code: nonEmpty,
    new_intervention_code: nonEmpty,
    retain_bill_items: z.boolean(),
    bill_from: isoDate.optional(),
    bill_to: isoDate.optional(),
  })
  .superRefine((v, ctx) => {
    // Keeping the bill items moves them over a period: A refuses the switch without both ends.
    if (!v.retain_bill_items) return;
    for (const field of ['bill_from', 'bill_to'] as const) {
      if (v[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message: `${field} is required when retain_bill_items is true` });
    }
  });

/**
 * Adding, retiring or restoring an intervention on an open claim: the claim's consent token and the
 * intervention's code (R docs interventions; A `cc/interventions/types` `AddInterventionDto`,
 * `RetireInterventionDto`, `RestoreInterventionDto`; R `add_intervention()`, `retire_intervention()`,
 * `restore_intervention()`; K `intervention-crud-launcher`).
 */
export const claimInterventionRequest = z.strictObject({ consent_token: nonEmpty, intervention_code: nonEmpty });

/** The intervention as adding it answers (R docs interventions 200; A types it `VisitIntervention`). */
export interface AddedIntervention {
  /** `id`: SHA's id of the intervention on this claim. */
  readonly id: string | undefined;
  readonly interventionCode: string | undefined;
  readonly name: string | undefined;
  readonly state: string | undefined;
  readonly paymentMechanism: string | undefined;
  readonly subBenefitCode: string | undefined;
  readonly needsPreauth: boolean | undefined;
  readonly preauthExists: boolean | undefined;
  readonly applicableDocumentTypes: string[];
}

/** Every field is optional on the portal's page: the station confirms an add by the preview, never by this answer alone. */
export const addInterventionResponse = z
  .looseObject({
    id: optionalText,
    intervention_code: optionalText,
    intervention_name: optionalText,
    workflow_state: optionalStatus,
    intervention_payment_mechanism: optionalText,
    sub_benefit_code: optionalText,
    needs_preauth: optionalBoolean,
    preauth_exist: optionalBoolean,
    applicable_document_types: z.array(documentType).nullish(),
  })
  .transform(
    (i): AddedIntervention => ({
      id: i.id,
      interventionCode: i.intervention_code,
      name: i.intervention_name,
      state: i.workflow_state,
      paymentMechanism: i.intervention_payment_mechanism,
      subBenefitCode: i.sub_benefit_code,
      needsPreauth: i.needs_preauth,
      preauthExists: i.preauth_exist,
      applicableDocumentTypes: (i.applicable_document_types ?? []).filter((d) => d !== ''),
    }),
  );

export const closeClaimRequest = z.strictObject({
  consent_token: nonEmpty,
  cancel_reason_type: z.enum(cancelReasonTypes),
  cancel_reason_text: nonEmpty,
});

export const resubmitRequest = z.strictObject({ consent_token: nonEmpty });

export interface LineResubmission {
  readonly lineId: string | undefined;
  readonly status: string | undefined;
  readonly message: string | undefined;
  readonly resubmittedAt: string | undefined;
}

/** `{line_id, message, resubmitted_at, status}` (R docs billing, R `LineResubmissionWire`). */
export const resubmitResponse = z
  .looseObject({ line_id: optionalText, status: optionalStatus, message: optionalText, resubmitted_at: optionalText })
  .transform((r): LineResubmission => ({ lineId: r.line_id, status: r.status, message: r.message, resubmittedAt: r.resubmitted_at }));

/**
 * What A's resubmission (`POST /claims/submit {consent_token}`) answers: A reads it as an untyped
 * object (`claim-resubmission.service.ts`); the sandbox answers the claim object, as a submit. The
 * claim's state is read when it is there, and nothing is required.
 */
export const resubmittedClaimResponse = z
  .looseObject({ workflow_state: optionalStatus, authorization_code: optionalText })
  .transform((c): LineResubmission => ({ lineId: undefined, status: c.workflow_state, message: undefined, resubmittedAt: undefined }));

/** Editing a line after the payer's review: its id and the fields to change (R docs billing, R `edit_line()`). */
export const editLineRequest = z
  .strictObject({
    line_id: nonEmpty,
    quantity: z.number().int().positive().optional(),
    unit_price: amount.optional(),
    scheme_code: nonEmpty.optional(),
  })
  .superRefine((v, ctx) => {
    const changes = ['quantity', 'unit_price', 'scheme_code'] as const;
    if (changes.every((f) => v[f] === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['quantity'], message: `give at least one change: ${changes.join(', ')}` });
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
