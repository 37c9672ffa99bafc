// Flow A, the elective inpatient preauth, in two phases separated in time. Phase one: consent
// before the visit and the preauth, watched until FINALISED (doctor step, then payer step). Phase
// two, on the day: visit.open on the same workflow, with no new authorization.
import { z } from 'zod';
import { attendingDoctor, calendarDate, diagnosis, interventionCode, kes, longText, patientRef, workflowId } from './common';
import { papersOfOneCommand } from './visit';
import { electiveView } from './workflows';

/**
 * The seven kinds of preauthorization (service-interface.md). The exchange takes one request for all
 * and the type's own fields beside the common ones; dental has none of its own (no production client
 * sends one). docs/exchange-wire.md (`preauth.create`) cites each field.
 */
export const preauthTypes = ['normal', 'surgical', 'renal', 'oncology', 'optical', 'imaging', 'dental'] as const;
export type PreauthType = (typeof preauthTypes)[number];
/** The values the production clients send (their lists differ; the union is offered, nothing else). */
export const anaesthesiaTypes = ['GENERAL', 'LOCAL', 'REGIONAL', 'SPINAL', 'EPIDURAL', 'SEDATION'] as const;
export const sessionFrequencies = ['DAILY', 'TWICE_A_WEEK', 'ONCE_A_WEEK', 'ONCE_EVERY_2_WEEKS', 'ONCE_EVERY_3_WEEKS', 'ONCE_A_MONTH'] as const;
export const carcinomaStages = ['STAGE_1', 'STAGE_2', 'STAGE_3', 'STAGE_4'] as const;
export const metastasisSites = ['LUNG', 'LIVER', 'BONE', 'BRAIN', 'LYMPH_NODES', 'OTHER'] as const;
export const treatmentSettings = ['DAY_WARD', 'RECLINING_CHAIR', 'SIDE_ROOM', 'INPATIENT', 'OUTPATIENT'] as const;
export const lensPrescriptions = ['FRAMES_LENSES', 'FRAMED', 'CONTACT', 'CONTACT_LENSES', 'LENSES_ONLY'] as const;

const choice = <T extends readonly [string, ...string[]]>(what: string, values: T) => z.enum(values, { error: `choose the ${what}: ${values.join(', ')}` });
const sessions = z.number({ error: 'the number of sessions' }).int('a whole number of sessions').min(1, 'at least one session').max(1000);
const distinct = <T extends z.ZodType>(item: T, what: string) =>
  z
    .array(item)
    .min(1, `choose at least one ${what}`)
    .refine((v) => new Set(v).size === v.length, `a ${what} is chosen once`);

/**
 * The type-specific part of a preauth request, by `type`. What each requires is what both the
 * peers' forms require (K's sections and R's SDK): surgical the anaesthesia; renal and oncology
 * their sessions and price; oncology its staging, metastases and treatment setting; imaging its
 * clinical indications (the request's `clinicalNotes`, at least 10 characters, as K asks). The
 * rest is optional; yes/no questions left unanswered are not sent.
 */
export const preauthDetails = z.discriminatedUnion(
  'type',
  [
    z.strictObject({ type: z.literal('normal') }),
    z.strictObject({ type: z.literal('dental') }),
    z.strictObject({ type: z.literal('imaging') }),
    z.strictObject({
      type: z.literal('surgical'),
      anaesthesia: choice('type of anaesthesia', anaesthesiaTypes),
      surgeryDate: calendarDate.optional(),
      chiefComplaint: longText.optional(),
      vitalSigns: longText.optional(),
      historyOfPresentIllness: longText.optional(),
      physicalExamination: longText.optional(),
      investigations: longText.optional(),
      relatedToEmployment: z.boolean().optional(),
      relatedToAccident: z.boolean().optional(),
      coInsured: z.boolean().optional(),
      coInsuranceDetails: longText.optional(),
    }),
    z.strictObject({
      type: z.literal('renal'),
      sessions,
      costPerSessionKes: kes,
      frequency: choice('frequency of sessions', sessionFrequencies),
      firstSessionDate: calendarDate.optional(),
      coInsured: z.boolean().optional(),
    }),
    z.strictObject({
      type: z.literal('oncology'),
      staging: choice('carcinoma staging', carcinomaStages),
      metastases: distinct(choice('site of metastasis', metastasisSites), 'site of metastasis'),
      treatmentSettings: distinct(choice('treatment setting', treatmentSettings), 'treatment setting'),
      sessions,
      costPerSessionKes: kes,
      comorbidity: longText.optional(),
      progressReport: longText.optional(),
      coInsured: z.boolean().optional(),
    }),
    z.strictObject({
      type: z.literal('optical'),
      necessity: longText.optional(),
      lensPrescription: choice('lens prescription', lensPrescriptions).optional(),
      newOrReplacement: z.enum(['NEW', 'REPLACEMENT']).optional(),
      lensKes: kes.optional(),
      eyeExaminationKes: kes.optional(),
      frameKes: kes.optional(),
    }),
  ],
  { error: `the type of preauthorization is one of ${preauthTypes.join(', ')}` },
);
export type PreauthDetails = z.infer<typeof preauthDetails>;

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
        /** The preauth's type and its own fields (absent: a normal preauth). */
        details: preauthDetails.optional(),
      })
      .refine((v) => v.serviceEnd >= v.serviceStart, { path: ['serviceEnd'], message: 'must not be before serviceStart' })
      .refine((v) => v.details?.type !== 'imaging' || (v.clinicalNotes?.trim().length ?? 0) >= 10, {
        path: ['clinicalNotes'],
        message: 'an imaging preauthorization says why the imaging is needed (clinical indications, at least 10 characters)',
      })
      .refine((v) => v.details?.type !== 'surgical' || v.details.surgeryDate === undefined || (v.details.surgeryDate >= v.serviceStart && v.details.surgeryDate <= v.serviceEnd), {
        path: ['details', 'surgeryDate'],
        message: 'the surgery falls within the planned stay (serviceStart to serviceEnd)',
      }),
    output: electiveView,
  },
  /** Sends the doctor's approval request again (no change of state at the exchange). */
  'elective.resendDoctorRequest': { input: z.strictObject({ workflowId }), output: electiveView },
  /** Checks the preauth status now instead of waiting for the next poll. */
  'elective.refreshPreauth': { input: z.strictObject({ workflowId }), output: electiveView },
  'elective.cancelPreauth': { input: z.strictObject({ workflowId, reason: longText }), output: electiveView },
};
