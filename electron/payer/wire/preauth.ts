// Preauthorization: create (multipart), find (a page `{pageSize, results}` [live], one object
// [portal] or a list), cancel, and removing a diagnosis or the doctor before approval. The exchange
// answers a preauth in camelCase (portal); R reads snake_case too, so both are read.
import { z } from 'zod';
import { preauthDetailFields, type preauthStatuses } from '../../vocabulary';
import {
  amount,
  byShape,
  camelCaseKeys,
  fileInput,
  isRecord,
  nonEmpty,
  oneOrMany,
  optionalNumber,
  optionalText,
  practitionerRef,
  rfc3339DateTime,
  status,
} from './common';

export type PreauthStatus = (typeof preauthStatuses)[number] | (string & {});

export type PreauthDetailField = (typeof preauthDetailFields)[number];

const detailParts = Object.fromEntries(preauthDetailFields.map((field) => [field, nonEmpty.optional()])) as Record<PreauthDetailField, z.ZodOptional<typeof nonEmpty>>;

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
    ...detailParts,
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
