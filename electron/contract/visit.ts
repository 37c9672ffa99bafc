// The visit: opened from a consent (flow B) or an elective workflow on the day (flow A, phase two),
// then billed and previewed. The view shows the visit number and status, never the consent token.
import { z } from 'zod';
import { claimDocumentTypes, dischargeStatuses, serviceTypes } from '../vocabulary';
import { attendingDoctor, calendarDate, diagnosis, interventionBrief, interventionCode, kes, shortText, timestamp, workflowId } from './common';
import { MAX_LINE_FILES_BASE64 } from './plain';
import { billingLine, claimStatus, visitView } from './workflows';

export const claimPreview = z.strictObject({
  visitNumber: z.string().max(60).nullable(),
  invoiceNumber: z.string().max(60).nullable(),
  claimStatus,
  /** SHA's service type; a capitation claim is an outpatient one to the nurse. */
  serviceType: z.enum(serviceTypes).exclude(['CAPITATION']),
  interventions: z.array(interventionBrief),
  lines: z.array(billingLine),
  diagnoses: z.array(diagnosis),
  doctor: attendingDoctor.nullable(),
  attachmentCount: z.number().int().min(0),
  totalKes: kes,
  dischargeStatus: z.enum(dischargeStatuses).nullable(),
  partialDischarges: z.array(timestamp),
  submittedAt: timestamp.nullable(),
  previewedAt: timestamp,
});

/** The document types the exchange files a claim's papers under. */
export const claimDocumentType = z.enum(claimDocumentTypes);

export { MAX_LINE_FILES_BASE64 };

/** A paper sent with a billing line (a lab result, the final bill): PDF, JPEG or PNG. */
export const lineAttachment = z.strictObject({
  documentType: claimDocumentType,
  title: shortText,
  fileName: z.string().min(1).max(200).regex(/^[^\\/]+$/, 'a file name, without folders'),
  contentType: z.enum(['application/pdf', 'image/jpeg', 'image/png']),
  dataBase64: z.base64().min(1).max(MAX_LINE_FILES_BASE64),
});

/** Up to `max` papers travelling in one command: together within the command's file limit. */
export function papersOfOneCommand(max: number) {
  return z
    .array(lineAttachment)
    .min(1)
    .max(max)
    .refine((files) => files.reduce((n, f) => n + f.dataBase64.length, 0) <= MAX_LINE_FILES_BASE64, 'the files of one request are at most about 510 KiB together');
}

export const visitCommands = {
  /**
   * Opens the visit from a verified consent workflow, or from an elective workflow whose preauth is
   * FINALISED (no new authorization). The doctor, if given, is attached at the start of the visit.
   */
  'visit.open': { input: z.strictObject({ workflowId, doctor: attendingDoctor.optional() }), output: visitView },
  /**
   * A billing line: its diagnoses (ICD-11) and any papers go to the exchange with it. The
   * intervention defaults to the visit's.
   */
  'visit.addLine': {
    input: z.strictObject({
      workflowId,
      interventionCode: interventionCode.optional(),
      unitPriceKes: kes,
      quantity: z.number().int().min(1).max(10_000),
      diagnoses: z.array(diagnosis).min(1).max(20),
      itemCode: z.string().min(1).max(60).optional(),
      description: shortText.optional(),
      serviceDate: calendarDate.optional(),
      doctor: attendingDoctor.optional(),
      attachments: papersOfOneCommand(5).optional(),
    }),
    output: visitView,
  },
  'visit.removeLine': { input: z.strictObject({ workflowId, lineId: z.string().min(1).max(100) }), output: visitView },
  /** Submit is refused without a doctor on the claim; this attaches one (checked against the registry). */
  'visit.attachDoctor': { input: z.strictObject({ workflowId, doctor: attendingDoctor }), output: visitView },
  'visit.preview': { input: z.strictObject({ workflowId }), output: claimPreview },
  /**
   * Another service on the open visit's claim (POST /claims/interventions), one of the patient's
   * covered interventions, under the consent the visit already has: no second consent or claim.
   */
  'visit.addService': { input: z.strictObject({ workflowId, interventionCode }), output: visitView },
  /**
   * Takes a service back off the claim (POST /claims/interventions/retire). SHA deletes that
   * service's billing lines; the last service standing is not retired (the visit is closed instead).
   */
  'visit.retireService': { input: z.strictObject({ workflowId, interventionCode }), output: visitView },
  /** Puts a retired service back on the claim (POST /claims/interventions/restore), without its deleted lines. */
  'visit.restoreService': { input: z.strictObject({ workflowId, interventionCode }), output: visitView },
};

export type ClaimPreview = z.infer<typeof claimPreview>;
