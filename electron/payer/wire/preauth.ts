// Preauthorization: create (multipart), find (a page `{pageSize, results}` [live], one object
// [portal] or a list), cancel, and removing a diagnosis or the doctor before approval. The exchange
// answers a preauth in camelCase (portal); R reads snake_case too, so both are read.
import { z } from 'zod';
import {
  amount,
  byShape,
  decimalText,
  camelCaseKeys,
  fileInput,
  isRecord,
  nonEmpty,
  type JsonValue,
  oneOrMany,
  optionalNumber,
  optionalRecord,
  optionalText,
  practitionerRef,
  rfc3339DateTime,
  status,
} from './common';

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

/**
 * The closed lists of the specialised preauths. The sources disagree (R `domain/preauth_vocabulary.py`
 * takes the Postman collection's spelling and records the guides'; K's form offers other values), so
 * the client takes every value a production client sends and refuses the rest: a value no peer sends
 * would be a guess on the wire. docs/exchange-wire.md (`preauth.create`) cites each.
 */
export const anaesthesiaTypes = ['GENERAL', 'LOCAL', 'REGIONAL', 'SPINAL', 'EPIDURAL', 'SEDATION'] as const;
export const sessionFrequencies = ['DAILY', 'TWICE_A_WEEK', 'ONCE_A_WEEK', 'ONCE_EVERY_2_WEEKS', 'ONCE_EVERY_3_WEEKS', 'ONCE_A_MONTH'] as const;
export const carcinomaStages = ['STAGE_1', 'STAGE_2', 'STAGE_3', 'STAGE_4'] as const;
export const metastasisSites = ['LUNG', 'LIVER', 'BONE', 'BRAIN', 'LYMPH_NODES', 'OTHER'] as const;
export const treatmentSettings = ['DAY_WARD', 'RECLINING_CHAIR', 'SIDE_ROOM', 'INPATIENT', 'OUTPATIENT'] as const;
export const lensPrescriptions = ['FRAMES_LENSES', 'FRAMED', 'CONTACT', 'CONTACT_LENSES', 'LENSES_ONLY'] as const;
export const newOrReplacement = ['NEW', 'REPLACEMENT'] as const;

const oneOf = <T extends readonly [string, ...string[]]>(field: string, values: T) =>
  z.enum(values, { error: `${field} is one of ${values.join(', ')}` });
const nonEmptyList = <T extends z.ZodType>(item: T) => z.array(item).min(1, 'leave it out rather than send an empty list');

/**
 * The flat, type-specific parts of a preauth (surgical, renal, oncology, optical, imaging): the names
 * A's pre-auth service forwards to the exchange (`SPECIALTY_FORWARD_FIELDS`, `SURGICAL_HIE_FIELDS`),
 * K's `buildPreauthFormData` and AE's `generatePreauthFormData` send, and R's `PreauthDetails` write.
 * Each goes as a text part: yes/no as `true`/`false`, amounts with two decimals, lists as JSON text,
 * dates as date-times with their offset. Which ones a preauth needs is not documented: none is required.
 */
export const preauthDetailParts = {
  // Surgical (A SURGICAL_HIE_FIELDS; K surgical-details; R SurgicalDetails; AE).
  chief_complaint: nonEmpty.optional(),
  vital_signs: nonEmpty.optional(),
  history_of_present_illness: nonEmpty.optional(),
  physical_examination: nonEmpty.optional(),
  investigation_report_details: nonEmpty.optional(),
  type_of_anaesthesia: oneOf('type_of_anaesthesia', anaesthesiaTypes).optional(),
  surgery_date: rfc3339DateTime.optional(),
  is_condition_related_to_employment: z.boolean().optional(),
  is_condition_related_to_auto_or_other_accident: z.boolean().optional(),
  co_insurance_details: nonEmpty.optional(),
  // Renal and oncology sessions (A SPECIALTY_FORWARD_FIELDS; K; R RenalDetails, OncologyDetails; AE).
  number_of_sessions_required: z.number().int('a whole number of sessions').positive().max(1000).optional(),
  cost_per_session: amount.optional(),
  frequency_of_sessions: oneOf('frequency_of_sessions', sessionFrequencies).optional(),
  start_date: rfc3339DateTime.optional(),
  is_co_insured: z.boolean().optional(),
  // Oncology.
  carcinoma_staging: oneOf('carcinoma_staging', carcinomaStages).optional(),
  comorbidity: nonEmpty.optional(),
  metastases: nonEmptyList(oneOf('metastases', metastasisSites)).optional(),
  treatment_setting: nonEmptyList(oneOf('treatment_setting', treatmentSettings)).optional(),
  progress_report: nonEmpty.optional(),
  // Optical.
  necessity_of_service: nonEmpty.optional(),
  lens_prescription: oneOf('lens_prescription', lensPrescriptions).optional(),
  lens_amount: amount.optional(),
  eye_examination_amount: amount.optional(),
  frame_amount: amount.optional(),
  new_or_replacement: oneOf('new_or_replacement', newOrReplacement).optional(),
  // Imaging, and any type's clinical reason (K sends it for every type; AE for imaging, optical, renal).
  clinical_indications: nonEmpty.optional(),
  // An elective's planned day (A: "Required for elective preauths"; AE sends it when given).
  expected_service_start_date: rfc3339DateTime.optional(),
};
export type PreauthDetailField = keyof typeof preauthDetailParts;
export const preauthDetailFields = Object.keys(preauthDetailParts) as PreauthDetailField[];

/** A detail part as text on the multipart form, the way the peers write it. */
export function preauthDetailText(value: string | number | boolean | readonly string[], field: PreauthDetailField): string {
  if (Array.isArray(value)) return JSON.stringify(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return field === 'number_of_sessions_required' ? String(value) : decimalText(value);
  return String(value);
}

/** A document sent with the preauth: its metadata goes in `attachments`, its bytes in a part of its own. */
export const preauthAttachment = z.strictObject({ document_title: nonEmpty, document_type: nonEmpty, file: fileInput });

export const createPreauthRequest = z
  .strictObject({
    consent_token: nonEmpty,
    intervention_code: nonEmpty,
    service_start: rfc3339DateTime,
    service_end: rfc3339DateTime,
    /** What is asked for; each item is its price (the Postman shape R and A send). */
    items: z.array(z.strictObject({ unit_price: amount })).min(1, 'give at least one item'),
    /** The requesting doctor first: the doctor who confirms the preauth (PENDING_DOCTOR_APPROVAL). */
    doctors: z.array(z.strictObject({ ...practitionerRef, is_primary: z.boolean().default(false) })).min(1, 'a preauthorization names the requesting doctor'),
    diagnoses: z.array(z.strictObject({ icd_code: nonEmpty })).min(1, 'give at least one diagnosis'),
    attachments: z.array(preauthAttachment).max(10, 'at most 10 attachments').default([]),
    provider_notification_email: z.email('an email address for the exchange’s notices about this preauthorization'),
    ...preauthDetailParts,
  })
  .superRefine((v, ctx) => {
    if (Date.parse(v.service_end) < Date.parse(v.service_start)) {
      ctx.addIssue({ code: 'custom', path: ['service_end'], message: 'service_end is before service_start' });
    }
  });

export const findPreauthQuery = z.strictObject({ consent_token: nonEmpty });

/** Cancel by consent token and intervention: one preauth per intervention of a consent. */
export const cancelPreauthRequest = z.strictObject({ consent_token: nonEmpty, intervention_code: nonEmpty });

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
  /** The exchange's preauth id (an integer on the wire), for quoting to the payer. */
  readonly id: string | undefined;
  readonly guid: string | undefined;
  /** The consent token the preauth was made with. */
  readonly consentToken: string | undefined;
  readonly interventionCode: string | undefined;
  readonly status: PreauthStatus;
  readonly doctorReviewStatus: string | undefined;
  readonly preauthType: string | undefined;
  /** totalEstimatedAmountForPreauth: what was asked for. */
  readonly requestedAmount: number | undefined;
  /** finalApprovedAmount, else the interim approved amount. */
  readonly approvedAmount: number | undefined;
  readonly serviceStart: string | undefined;
  readonly serviceEnd: string | undefined;
  /** `preauthNotes[].note`: what the payer (or the facility) wrote on the preauth, oldest first. */
  readonly notes: string[];
  /**
   * `requestExtraData`: the type-specific details of the request as the exchange keeps them
   * (camelCase: `anaesthesiaType`, `sessionsRequired`, `metastases` …; R docs preauths), as sent.
   */
  readonly requestDetails: Record<string, JsonValue> | undefined;
}

/** One note of `preauthNotes` (R docs preauths: `{id, note, source, author, authorName, …}`); one without text is skipped. */
const preauthNote = z.looseObject({ note: z.unknown() });

export const preauth = z.preprocess(
  camelCaseKeys,
  z
    .looseObject({
      id: optionalText,
      guid: optionalText,
      token: optionalText,
      interventionCode: optionalText,
      status,
      doctorReviewStatus: optionalText,
      preauthType: optionalText,
      totalEstimatedAmountForPreauth: optionalNumber,
      totalInterimApprovedAmountForPreauth: optionalNumber,
      finalApprovedAmount: optionalNumber,
      serviceStart: optionalText,
      serviceEnd: optionalText,
      preauthNotes: z.array(preauthNote).nullish(),
      requestExtraData: optionalRecord,
    })
    .refine((p) => (p.id ?? p.guid) !== undefined, { message: 'preauth without id or guid', path: ['id'] })
    .transform(
      (p): Preauth => ({
        id: p.id,
        guid: p.guid,
        consentToken: p.token,
        interventionCode: p.interventionCode,
        status: p.status,
        doctorReviewStatus: p.doctorReviewStatus,
        preauthType: p.preauthType,
        requestedAmount: p.totalEstimatedAmountForPreauth,
        approvedAmount: p.finalApprovedAmount ?? p.totalInterimApprovedAmountForPreauth,
        serviceStart: p.serviceStart,
        serviceEnd: p.serviceEnd,
        notes: (p.preauthNotes ?? []).flatMap((n) => (typeof n.note === 'string' && n.note.trim() !== '' ? [n.note.trim()] : [])),
        requestDetails: p.requestExtraData,
      }),
    ),
);

/** Create, cancel and diagnosis removal answer the preauth itself (portal). */
export const preauthResponse = preauth;

/** Members only a page carries: a body with one of them and no `results` is a page that lost its list. */
const pageMembers = ['pageSize', 'count', 'currentPage', 'totalPages', 'startIndex', 'endIndex'] as const;
const pageWithoutResults = (value: unknown): boolean => isRecord(value) && !('results' in value) && pageMembers.some((key) => key in value);

/** `{pageSize, results}` [live, R WORKFLOWS], one preauth [portal] or a list: always a list (one per intervention). */
export const findPreauthResponse = byShape((value) =>
  pageWithoutResults(value) ? z.looseObject({ results: z.array(preauth) }).transform((page) => page.results) : oneOrMany(preauth),
);
