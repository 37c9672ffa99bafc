// Flow A, the elective inpatient preauth, in two phases separated in time. Phase one: consent
// before the visit and the preauth, watched until FINALISED (doctor step, then payer step). Phase
// two, on the day: visit.open on the same workflow, with no new authorization.
import { z } from 'zod';
import { attendingDoctor, calendarDate, diagnosis, interventionCode, kes, longText, patientRef, workflowId } from './common';
import { papersOfOneCommand } from './visit';
import { electiveView } from './workflows';

export const electiveCommands = {
  /** Phase one: consent for an intervention that needs a manually approved preauth. */
  'elective.begin': { input: z.strictObject({ patientRef, interventionCode: interventionCode.optional() }), output: electiveView },
  /**
   * The preauth request; may be given before consent is complete, and is sent as soon as it is.
   * The planned service runs from `serviceStart` to `serviceEnd` (admission and expected discharge
   * days); the exchange writes its notices about the request to `notificationEmail`.
   */
  'elective.submitPreauth': {
    input: z
      .strictObject({
        workflowId,
        serviceStart: calendarDate,
        serviceEnd: calendarDate,
        requestedAmountKes: kes,
        diagnoses: z.array(diagnosis).min(1).max(20),
        doctor: attendingDoctor,
        notificationEmail: z.email().max(200),
        clinicalNotes: longText.optional(),
        /**
         * Papers for SHA with the request (at most 10, the preauth's limit; within the command's
         * file limit together). They wait on this station, sealed, until SHA has them; a request
         * given again replaces them.
         */
        documents: papersOfOneCommand(10).optional(),
      })
      .refine((v) => v.serviceEnd >= v.serviceStart, { path: ['serviceEnd'], message: 'must not be before serviceStart' }),
    output: electiveView,
  },
  /** Sends the doctor's approval request again (no change of state at the exchange). */
  'elective.resendDoctorRequest': { input: z.strictObject({ workflowId }), output: electiveView },
  /** Checks the preauth status now instead of waiting for the next poll. */
  'elective.refreshPreauth': { input: z.strictObject({ workflowId }), output: electiveView },
  'elective.cancelPreauth': { input: z.strictObject({ workflowId, reason: longText }), output: electiveView },
};
