// Patient look-up, eligibility at a glance, and the services the patient is covered for.
// patient.lookUp lets the core chain registry ∥ eligibility → sub-benefits ∥ contacts ∥ the ward's
// usual sub-benefit's interventions and answer with sensible defaults already chosen (the covered
// scheme, the one intervention that fits the ward); asked to, it answers as soon as eligibility is
// in, and patient.details answers the rest once it has come.
import { z } from 'zod';
import {
  calendarDate,
  idNumber,
  idType,
  interventionBrief,
  interventionCode,
  kes,
  masked,
  noInput,
  page,
  pageRequest,
  patientRef,
  scenario,
  serviceType,
  shortText,
  timestamp,
  workflowId,
} from './common';

export const scheme = z.strictObject({
  schemeId: z.string().min(1).max(100),
  name: shortText,
  memberType: z.string().max(100).nullable(),
  covered: z.boolean(),
  coverageStart: calendarDate.nullable(),
  coverageEnd: calendarDate.nullable(),
  /** The exchange's words when not covered. */
  reason: z.string().max(500).nullable(),
  possibleSolution: z.string().max(500).nullable(),
});

/**
 * The patient in hand, in full, for the nurse to check against the person in front of her: the name,
 * sex and date of birth as the exchange's eligibility answer gives them (`fullName`, `gender`,
 * `dateOfBirth`; null when it gave none) and the last digits of the ID number. Only the answers about
 * the patient being looked up carry it (patient.lookUp, patient.details, patient.chooseScheme): this
 * shift's list, the workflow views, the events and the activity record stay masked.
 */
export const patientIdentity = z.strictObject({
  fullName: shortText.nullable(),
  sex: z.enum(['female', 'male']).nullable(),
  dateOfBirth: calendarDate.nullable(),
  /** At most the last four characters of the ID number, never more than half of it. */
  idNumberEnd: z.string().regex(/^[A-Za-z0-9/-]{1,4}$/, 'must be the last one to four characters of the ID number'),
});

/**
 * The patient of an open workflow, in full, for the banner over every screen of it: what the look-up
 * showed (identity, age, the ID type, the scheme), kept sealed with the workflow while it is open,
 * so a reload, a lock or work picked up from the queue names the patient as the look-up did.
 */
export const patientInHand = z.strictObject({
  patientRef,
  identity: patientIdentity,
  maskedName: masked,
  idType,
  ageYears: z.number().int().min(0).max(150).nullable(),
  /** The name of the scheme the patient is covered under for this work; null when not known. */
  scheme: shortText.nullable(),
});

export const patientSummary = z.strictObject({
  patientRef,
  identity: patientIdentity,
  maskedName: masked,
  idType,
  maskedIdNumber: masked,
  ageYears: z.number().int().min(0).max(150).nullable(),
  /** Covered under the chosen scheme (or, before a choice, under any). */
  covered: z.boolean(),
  message: z.string().max(500).nullable(),
  reason: z.string().max(500).nullable(),
  possibleSolution: z.string().max(500).nullable(),
  schemes: z.array(scheme),
  /** The covered scheme in use; null while a member under two schemes must choose (patient.chooseScheme). */
  chosenSchemeId: z.string().max(100).nullable(),
  schemeChoiceNeeded: z.boolean(),
  memberType: z.string().max(100).nullable(),
  coverageStart: calendarDate.nullable(),
  coverageEnd: calendarDate.nullable(),
  badges: z.strictObject({ smsCodeAllowed: z.boolean(), fingerprintRequired: z.boolean() }),
  hasPhone: z.boolean(),
  /** The intervention that fits the ward, when exactly one does; the nurse may pick another. */
  suggestedIntervention: interventionBrief.nullable(),
  /**
   * Covered, and the phone numbers and the suggested service are still coming from the exchange:
   * `hasPhone`, `badges` and `suggestedIntervention` are not final (patient.details answers them).
   */
  detailsLoading: z.boolean(),
  lookedUpAt: timestamp,
});

export const recentPatient = z.strictObject({
  patientRef,
  maskedName: masked,
  idType,
  maskedIdNumber: masked,
  covered: z.boolean(),
  lookedUpAt: timestamp,
});

export const careSetting = z.enum(['outpatient', 'inpatient', 'both']);

export const subBenefit = z.strictObject({
  code: z.string().min(1).max(60),
  name: shortText,
  careSetting,
  fund: z.string().max(60).nullable(),
  interventionCount: z.number().int().min(0).nullable(),
  /**
   * Where its interventions stand at the station: `listed` (SHA's list is in), `asking` (on its
   * way), `unasked` (the station asks SHA for it only when the nurse picks it, searches for it, or
   * asks for the rest: a member has ~30 lists and SHA's rate limits are unknown).
   */
  listing: z.enum(['listed', 'asking', 'unasked']),
});

export const paymentMechanism = z.enum(['FEE_FOR_SERVICE', 'CAPITATION', 'PER_DIEM', 'CASE_BASED', 'OTHER']);

/** What an intervention's scenario means for the nurse, so the screen can say it plainly. */
export const handling = z.strictObject({
  /** Which workflow starts it: an ordinary visit, the elective two-phase flow, or an emergency. */
  startsWith: z.enum(['visit', 'elective', 'emergency']),
  serviceType,
  needsPreauth: z.boolean(),
  needsDoctor: z.boolean(),
  /** Per-diem lines are generated by the exchange; other lines are entered by hand. */
  billing: z.enum(['manual', 'automatic']),
  closeBy: z.enum(['discharge', 'submit']),
});

export const intervention = z.strictObject({
  code: interventionCode,
  name: shortText,
  subBenefitCode: z.string().max(60).nullable(),
  fund: z.string().max(60).nullable(),
  careSetting,
  paymentMechanism,
  scenario,
  handling,
  tariffKes: kes.nullable(),
  protocolCode: z.string().max(60).nullable(),
  requiredDocuments: z.array(z.string().max(100)),
  /** The document types SHA requires with a preauthorization for it (`requiredPreauthDocumentTypes`). */
  preauthDocuments: z.array(z.string().max(100)),
});

const limit = z.strictObject({ limitKes: kes, usedKes: kes, remainingKes: kes });

export const utilization = z.strictObject({
  interventionCode,
  available: z.boolean(),
  individual: limit.nullable(),
  household: limit.nullable(),
  limitScope: z.string().max(100).nullable(),
  nextAvailableAt: z.string().max(40).nullable(),
  utilizationDays: z.number().int().min(0).nullable(),
});

export const patientCommands = {
  /**
   * Finds the patient and their eligibility; not covered is an answer (covered: false), not an error.
   * `answerAt: 'eligibility'` answers the moment eligibility is in (`detailsLoading` while the phone
   * numbers and the suggested service are still coming); by default the answer waits for them.
   */
  'patient.lookUp': {
    input: z.strictObject({ idType, idNumber, serviceType: serviceType.optional(), answerAt: z.enum(['eligibility', 'details']).optional() }),
    output: patientSummary,
  },
  /**
   * The looked-up patient once the phone numbers and the suggested service are in (at once when
   * they are); after a failure to get them, asks the exchange again.
   */
  'patient.details': { input: z.strictObject({ patientRef }), output: patientSummary },
  /** For a member covered under two schemes: sets the effective cover. */
  'patient.chooseScheme': { input: z.strictObject({ patientRef, schemeId: z.string().min(1).max(100) }), output: patientSummary },
  /**
   * The patient of one open workflow in full (patientInHand), for its screens' banner; null once the
   * workflow has ended, while it has no patient (an emergency not identified yet), or when the
   * station no longer holds the patient's details (work kept before it kept them, looked up over a
   * day ago). Lists, events and the record stay masked.
   */
  'patient.inHand': { input: z.strictObject({ workflowId }), output: patientInHand.nullable() },
  /** This shift's look-ups, newest first, masked. */
  'patient.recent': { input: noInput, output: z.strictObject({ items: z.array(recentPatient) }) },
  'benefits.subBenefits': {
    input: z.strictObject({ patientRef, careSetting: careSetting.optional(), ...pageRequest }),
    output: page(subBenefit),
  },
  /**
   * Paged and searchable (a member can have ~850); search matches code and name. The exchange lists
   * them one sub-benefit at a time: a list not in yet is asked for at once, or, with `background`,
   * in its turn behind the nurse's own calls (the ward's usual and most-used sub-benefits first).
   */
  'benefits.interventions': {
    input: z.strictObject({
      patientRef,
      subBenefitCode: z.string().min(1).max(60).optional(),
      scenario: scenario.optional(),
      background: z.boolean().optional(),
      ...pageRequest,
    }),
    output: page(intervention),
  },
  /**
   * Asks SHA for the lists a search points to (the exchange has no search by name): the
   * sub-benefits under which SHA's earlier answers at this station listed a matching service, those
   * whose name matches, and an intervention code's benefit package — two lists not asked before at
   * most. Answers the codes of every sub-benefit it points to; their interventions come through
   * `benefits.interventions` as usual.
   */
  'benefits.lookFor': {
    input: z.strictObject({ patientRef, search: z.string().trim().min(1).max(100) }),
    output: z.strictObject({ subBenefitCodes: z.array(z.string().min(1).max(60)).max(60) }),
  },
  'benefits.utilization': { input: z.strictObject({ patientRef, interventionCode }), output: utilization },
};

export type PatientSummary = z.infer<typeof patientSummary>;
export type PatientIdentity = z.infer<typeof patientIdentity>;
export type PatientInHand = z.infer<typeof patientInHand>;
export type Intervention = z.infer<typeof intervention>;
