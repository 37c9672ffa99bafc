// Visit end: discharge authorization (fingerprint, or the discharge SMS code through the consent.*
// commands), then discharge for an inpatient claim or submit for an outpatient one. Submit is sent
// once: after a restart the core reconciles against the claim preview before anything is re-sent.
import { z } from 'zod';
import { invoiceNumber, kes, longText, shortText, timestamp, workflowId } from './common';
import { MAX_LINE_FILES_BASE64 } from './visit';
import { facilityCode } from './programmes';
import { dischargeReason, dischargeView, submitReason } from './workflows';

export const dischargeCommands = {
  /** Starts the visit-end workflow for an open visit, with its verification route decided. */
  'discharge.begin': { input: z.strictObject({ workflowId }), output: dischargeView },
  /**
   * Inpatient discharge. `partial` discharges part of the stay (the claim stays open to be
   * finalised by discharge.submit). The invoice number defaults to the visit's.
   */
  'discharge.dischargeInpatient': {
    input: z.strictObject({
      workflowId,
      reason: dischargeReason,
      invoiceNumber: invoiceNumber.optional(),
      dischargedAt: timestamp.optional(),
      notes: longText.optional(),
      partial: z.boolean().optional(),
      /** With REFERRED (and only then): the FR code of the facility the patient goes to, found by facilities.search. */
      referredTo: facilityCode.optional(),
    }),
    output: dischargeView,
  },
  /** Outpatient submit, or the finalisation of an earlier partial discharge. DECEASED is refused. */
  'discharge.submit': {
    input: z.strictObject({
      workflowId,
      reason: submitReason,
      invoiceNumber: invoiceNumber.optional(),
      notes: longText.optional(),
      /** With REFERRED (and only then): the FR code of the facility the patient goes to. */
      referredTo: facilityCode.optional(),
    }),
    output: dischargeView,
  },
  /**
   * The invoice the station makes from SHA's billing lines of the claim, to show before the claim
   * is sent: attached as the claim's INVOICE (and an inpatient's discharge summary as its
   * DISCHARGE_SUMMARY) when the claim is discharged or submitted, unless the claim holds a paper of
   * that type already (`onClaim`: the nurse's scan stands).
   */
  'discharge.madeInvoice': {
    input: z.strictObject({ workflowId }),
    output: z.strictObject({
      title: shortText,
      fileName: z.string().min(1).max(200),
      pages: z.number().int().min(1),
      lineCount: z.number().int().min(1),
      totalKes: kes,
      onClaim: z.boolean(),
      /** The PDF itself, for the nurse to open. */
      dataBase64: z.base64().min(1).max(MAX_LINE_FILES_BASE64),
    }),
  },
};
