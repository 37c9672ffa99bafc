// Corrections (issue 14): a wrong visit closed with its reason, a diagnosis removed, a line edited,
// the intervention switched (a ward transfer with the days it bills from and to); an emergency
// claim given a further protocol or another doctor inside its 24 hours; a preauthorization's
// diagnosis removed before the doctor approves it. The doctor of a visit is changed by
// visit.attachDoctor (the old one removed at SHA first).
import { z } from 'zod';
import { cancelReasonTypes } from '../vocabulary';
import { attendingDoctor, calendarDate, diagnosis, interventionCode, kes, longText, workflowId } from './common';
import { electiveView, emergencyView, visitView } from './workflows';

/** Why a claim is closed (cancelled) before it is submitted: the exchange's list (R docs claim-dispatch, A CloseClaimDto). */
export const closeReason = z.enum(cancelReasonTypes);

const lineId = z.string().min(1).max(100);

export const correctionCommands = {
  /** Closes the visit's claim: SHA will never pay it. Final. The nurse's explanation goes with the reason. */
  'visit.close': { input: z.strictObject({ workflowId, reason: closeReason, explanation: longText }), output: visitView },
  /** Adds a diagnosis to the claim for one intervention (the visit's by default), without a new line. */
  'visit.addDiagnosis': {
    input: z.strictObject({ workflowId, code: diagnosis.shape.code, interventionCode: interventionCode.optional() }),
    output: visitView,
  },
  /** Removes a diagnosis the claim holds for one intervention (the visit's by default). */
  'visit.removeDiagnosis': {
    input: z.strictObject({ workflowId, code: diagnosis.shape.code, interventionCode: interventionCode.optional() }),
    output: visitView,
  },
  /** Corrects a line the station added: its quantity, its unit price, or both. */
  'visit.editLine': {
    input: z
      .strictObject({ workflowId, lineId, quantity: z.number().int().min(1).max(10_000).optional(), unitPriceKes: kes.optional() })
      .refine((v) => v.quantity !== undefined || v.unitPriceKes !== undefined, { path: ['quantity'], message: 'give the new quantity or the new unit price' }),
    output: visitView,
  },
  /**
   * Switches the visit's intervention (also a ward transfer). Keeping the lines moves them to the new
   * intervention for the days from `billFrom` to `billTo`, both needed then; otherwise the old
   * intervention's lines are dropped.
   */
  'visit.switchIntervention': {
    input: z
      .strictObject({ workflowId, interventionCode, keepLines: z.boolean(), billFrom: calendarDate.optional(), billTo: calendarDate.optional() })
      .refine((v) => !v.keepLines || v.billFrom !== undefined, { path: ['billFrom'], message: 'the first day billed is needed when the lines are kept' })
      .refine((v) => !v.keepLines || v.billTo !== undefined, { path: ['billTo'], message: 'the last day billed is needed when the lines are kept' })
      .refine((v) => v.billFrom === undefined || v.billTo === undefined || v.billTo >= v.billFrom, { path: ['billTo'], message: 'must not be before billFrom' }),
    output: visitView,
  },
  /** Another protocol of the claim's intervention, added to the open emergency claim at its tariff. */
  'emergency.addAnotherProtocol': { input: z.strictObject({ workflowId, protocolCode: z.string().min(1).max(60) }), output: emergencyView },
  /** Another attending doctor: the claim's doctor removed at SHA, the new one attached and asked for their approval. */
  'emergency.changeDoctor': { input: z.strictObject({ workflowId, doctor: attendingDoctor }), output: emergencyView },
  /**
   * Another requesting doctor while the named one has not approved: the exchange has no call that
   * adds a doctor to a preauth, so it is cancelled and sent again naming the new doctor, on the
   * same consent.
   */
  'elective.changeDoctor': { input: z.strictObject({ workflowId, doctor: attendingDoctor }), output: electiveView },
  /** Removes a diagnosis from the preauthorization while the doctor has not approved it yet. */
  'elective.removeDiagnosis': { input: z.strictObject({ workflowId, code: diagnosis.shape.code }), output: electiveView },
};
