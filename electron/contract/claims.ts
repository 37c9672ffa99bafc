// The station's claims after the nurse has worked on them: each visit's and emergency's claim with
// SHA's state as the station last read it back, when it reads it again, whether the claim needs
// the nurse, its papers (the document types that apply to it, those still missing), and the two
// things she can do from here: attach a paper and send a returned claim back.
import { z } from 'zod';
import { interventionBrief, interventionCode, kes, patientBrief, shortText, timestamp, workflowId } from './common';
import { stationError } from './errors';
import { claimDocumentType, lineAttachment } from './visit';
import { claimStatus } from './workflows';

/**
 * Why a claim needs the nurse: SHA returned it for papers (`documents`) or for correction
 * (`correction`), holds it (`on-hold`), or could not take it (`failed`); `none` otherwise.
 */
export const claimAttention = z.enum(['documents', 'correction', 'on-hold', 'failed', 'none']);

/** A paper on the claim at SHA (the preview's `claim_attachments`). */
export const claimDocument = z.strictObject({
  /** SHA's id of the attachment: what removing it names (not a secret). */
  attachmentId: z.string().min(1).max(100),
  /** The type SHA filed it under; a type the station does not know is shown as sent. */
  documentType: z.string().max(60).nullable(),
  title: shortText.nullable(),
  interventionCode: interventionCode.nullable(),
});

export const claimSummary = z.strictObject({
  workflowId,
  kind: z.enum(['visit', 'emergency']),
  /** Null while an emergency patient is unidentified. */
  patient: patientBrief.nullable(),
  intervention: interventionBrief,
  invoiceNumber: z.string().max(60).nullable(),
  visitNumber: z.string().max(60).nullable(),
  /** SHA's state as last read; null before SHA has a claim. */
  status: claimStatus.nullable(),
  attention: claimAttention,
  totalKes: kes,
  /** When the station last read the claim back from SHA; null when it never has. */
  checkedAt: timestamp.nullable(),
  /** When it reads it back next by itself; null when it does not (an open visit, a final state). */
  nextCheckAt: timestamp.nullable(),
  /**
   * A claim returned for papers: SHA's Missing Documents Resubmission Module rejects it 14 days after
   * its notice. The wire carries no date of the notice, so the days count from when this station
   * first saw it returned (`returnSeenAt`); SHA's clock may have started earlier. `closeToDeadline`
   * from 4 days left (and once past). Null in every other state.
   */
  resubmitBy: z.strictObject({ returnSeenAt: timestamp, deadline: timestamp, closeToDeadline: z.boolean() }).nullable(),
});

export const claimDetail = z.strictObject({
  ...claimSummary.shape,
  documents: z.array(claimDocument),
  /**
   * The document types SHA lists for the claim's interventions (the preview's
   * `applicable_document_types`), null where SHA does not say; `missing` are those of them no
   * paper on the claim has yet. The station names them; SHA decides what it requires.
   */
  documentTypes: z.strictObject({ applicable: z.array(claimDocumentType).nullable(), missing: z.array(claimDocumentType) }),
  /** What the resubmission does in this state: send the corrected claim back, or reopen it for correction. */
  resubmit: z.enum(['send-back', 'reopen']).nullable(),
  next: z.array(z.enum(['claims.get', 'claims.attach', 'claims.removeAttachment', 'claims.resubmit'])),
  /** SHA's refusal of the nurse's last request on this claim, until a later one succeeds. */
  lastError: stationError.nullable(),
});

export const claimsCommands = {
  /**
   * The station's claims, those needing the nurse first, with how many do, as last read back. With
   * `checkWithSha` (the claims opened, or checked on demand) every claim SHA may still change is read
   * back first (a few at a time). The station also reads each back on a schedule suited to its state.
   */
  'claims.list': {
    input: z.strictObject({ checkWithSha: z.boolean().optional() }),
    output: z.strictObject({
      items: z.array(claimSummary),
      needsNurse: z.number().int().min(0),
      /** Of those, the claims returned for papers with 4 days or fewer left to send them back. */
      closeToDeadline: z.number().int().min(0),
    }),
  },
  /** One claim, read back from SHA now (its state and its papers). */
  'claims.get': { input: z.strictObject({ workflowId }), output: claimDetail },
  /**
   * A paper for the claim (PDF, JPEG or PNG; about 510 KiB at most, the contract's limit for files
   * in a command), filed under one of the claim's interventions (the first by default).
   */
  'claims.attach': {
    input: z.strictObject({ workflowId, interventionCode: interventionCode.optional(), document: lineAttachment }),
    output: claimDetail,
  },
  'claims.removeAttachment': { input: z.strictObject({ workflowId, attachmentId: z.string().min(1).max(100) }), output: claimDetail },
  /**
   * A claim SHA returned: sent back once corrected (DRAFT_RESUBMIT, DRAFT_RESUBMIT_DOCUMENTS), or
   * reopened for correction (ON_HOLD, FAILED_TO_SUBMIT, AUTOMATIC_CHECKS_DONE). Never sent blindly
   * twice: an unconfirmed one is read back first.
   */
  'claims.resubmit': { input: z.strictObject({ workflowId }), output: claimDetail },
};

export type ClaimSummary = z.infer<typeof claimSummary>;
export type ClaimDetail = z.infer<typeof claimDetail>;
export type ClaimDocument = z.infer<typeof claimDocument>;
export type ClaimAttention = z.infer<typeof claimAttention>;
