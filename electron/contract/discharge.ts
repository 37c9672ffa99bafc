// Visit end: discharge authorization (fingerprint, or the discharge SMS code through the consent.*
// commands), then discharge for an inpatient claim or submit for an outpatient one. Submit is sent
// once: after a restart the core reconciles against the claim preview before anything is re-sent.
import { z } from 'zod';
import { invoiceNumber, longText, timestamp, workflowId } from './common';
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
};
