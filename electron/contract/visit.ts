// The visit: opened from a consent (flow B) or an elective workflow on the day (flow A, phase two),
// then billed and previewed. The view shows the visit number and status, never the consent token.
import { z } from 'zod';
import { attendingDoctor, calendarDate, diagnosis, interventionBrief, interventionCode, kes, shortText, timestamp, workflowId } from './common';
import { billingLine, claimStatus, visitView } from './workflows';

export const claimPreview = z.strictObject({
  visitNumber: z.string().max(60).nullable(),
  invoiceNumber: z.string().max(60).nullable(),
  claimStatus,
  serviceType: z.enum(['OUTPATIENT', 'INPATIENT', 'EMERGENCY']),
  interventions: z.array(interventionBrief),
  lines: z.array(billingLine),
  diagnoses: z.array(diagnosis),
  doctor: attendingDoctor.nullable(),
  attachmentCount: z.number().int().min(0),
  totalKes: kes,
  dischargeStatus: z.enum(['PARTIAL', 'FULL']).nullable(),
  partialDischarges: z.array(timestamp),
  submittedAt: timestamp.nullable(),
  previewedAt: timestamp,
});

export const visitCommands = {
  /**
   * Opens the visit from a verified consent workflow, or from an elective workflow whose preauth is
   * FINALISED (no new authorization). The doctor, if given, is attached at the start of the visit.
   */
  'visit.open': { input: z.strictObject({ workflowId, doctor: attendingDoctor.optional() }), output: visitView },
  /** A billing line in its minimal form; the intervention defaults to the visit's. */
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
    }),
    output: visitView,
  },
  'visit.removeLine': { input: z.strictObject({ workflowId, lineId: z.string().min(1).max(100) }), output: visitView },
  /** Submit is refused without a doctor on the claim; this attaches one (checked against the registry). */
  'visit.attachDoctor': { input: z.strictObject({ workflowId, doctor: attendingDoctor }), output: visitView },
  'visit.preview': { input: z.strictObject({ workflowId }), output: claimPreview },
};

export type ClaimPreview = z.infer<typeof claimPreview>;
