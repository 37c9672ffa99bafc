// Prescriptions written on an open visit, and their dispensing at the pharmacy window: the
// prescriber found in the professionals registry, each item a generic concept with its dose, how
// often, how long, refills and instructions; the payer's review read back; dispenses of the actual
// products (partial, then the rest; refills) by an identified dispenser.
import { z } from 'zod';
import { dispenserIdentificationTypes } from '../vocabulary';
import { attendingDoctor, interventionCode, kes, longText, patientRef, shortText, timestamp, workflowId } from './common';

export const prescriptionRef = z.string().regex(/^rx_[A-Za-z0-9_-]{6,64}$/, 'must be a station rx_ handle');
export const dispenseRef = z.string().regex(/^dx_[A-Za-z0-9_-]{6,64}$/, 'must be a station dx_ handle');

const code = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._/-]{0,63}$/, 'must be a code such as a generic concept code');

/** How often, in the nurse's words: so many times each day, week or month (the wire's integer frequency and period). */
export const periodUnit = z.enum(['day', 'week', 'month']);
export const durationUnit = z.enum(['day', 'week', 'month']);

export const prescriptionItemInput = z.strictObject({
  /** The generic concept prescribed (what the exchange calls generic_concept_code). */
  conceptCode: code,
  conceptName: shortText.optional(),
  doseQuantity: z.number().positive().max(100_000),
  doseUnit: z.string().trim().min(1).max(40),
  /** Times per period: an integer on the wire. */
  timesPerPeriod: z.number().int().min(1).max(48),
  period: periodUnit,
  duration: z.number().int().min(1).max(365),
  durationUnit,
  /** Refills after the first fill. */
  refills: z.number().int().min(0).max(12),
  patientInstruction: longText.optional(),
  additionalInstruction: longText.optional(),
});

export const prescriptionItem = prescriptionItemInput.extend({ conceptName: shortText.nullable(), patientInstruction: longText.nullable(), additionalInstruction: longText.nullable() });

/** An identity document of the dispenser: the exchange refuses a registration number here. */
export const dispenser = z.strictObject({
  identificationType: z.enum(dispenserIdentificationTypes),
  identificationNumber: z.string().regex(/^[A-Za-z0-9/-]{3,30}$/, 'must be 3 to 30 letters, digits, / or -'),
});

export const dispensedProduct = z.strictObject({
  productCode: code,
  priceKes: kes,
  quantity: z.number().positive().max(100_000),
});

export const dispenseRecord = z.strictObject({
  dispenseRef,
  at: timestamp,
  products: z.array(dispensedProduct).min(1).max(20),
  /** Whether this dispense completes a fill (the rest given) or leaves some to come. */
  completesFill: z.boolean(),
  /** dispensed: SHA has it; unconfirmed: its answer was lost, check with SHA before dispensing again. */
  state: z.enum(['dispensed', 'unconfirmed']),
  status: shortText.nullable(),
});

export const prescriptionView = z.strictObject({
  prescriptionRef,
  workflowId,
  patientRef,
  maskedName: z.string().max(200),
  interventionCode: code,
  writtenAt: timestamp,
  prescriber: attendingDoctor,
  items: z.array(prescriptionItem).min(1).max(20),
  /** written: SHA has it; unconfirmed: its answer was lost, check with SHA before writing it again. */
  state: z.enum(['written', 'unconfirmed']),
  /** SHA's own number for it, and its status and the prescriber's review as SHA last answered. */
  exchangeCode: shortText.nullable(),
  status: shortText.nullable(),
  reviewStatus: shortText.nullable(),
  /** When SHA last answered its status and review (the write's answer or a read-back); null while unconfirmed. */
  statusAt: timestamp.nullable(),
  /** Fills allowed: the first and the refills. */
  fillsAllowed: z.number().int().min(1),
  fillsCompleted: z.number().int().min(0),
  /** A fill begun (some given) and not completed. */
  fillInProgress: z.boolean(),
  dispenses: z.array(dispenseRecord),
  /** What the pharmacy may do now. */
  dispensable: z.boolean(),
});

/**
 * A visit of the patient open at SHA for this facility, written at any of its stations: what the
 * pharmacy dispenses under once the patient has consented at the window. No token, guid or
 * exchange id reaches the renderer: the intervention names the visit back to the core.
 */
export const openVisitAtExchange = z.strictObject({
  interventions: z.array(z.strictObject({ code: interventionCode, name: shortText.nullable() })).min(1).max(20),
  /** The visit on this station that holds its consent once the patient has consented here; null until then. */
  workflowId: workflowId.nullable(),
  /** This station opened it (a ward's visit: its prescriptions are the station's own), rather than reaching it at the window. */
  openedHere: z.boolean(),
  /**
   * Once held here: the prescription SHA answers for the visit's consent token (the portal's
   * preview: one object, which of several is undocumented), null when SHA answers none.
   */
  prescription: z
    .strictObject({
      exchangeCode: shortText.nullable(),
      status: shortText.nullable(),
      reviewStatus: shortText.nullable(),
      /** The generic concepts of its dosage lines, in SHA's order. */
      medicines: z.array(shortText).max(50),
    })
    .nullable(),
  /** Dispensed at this window under the visit, newest last. */
  dispenses: z.array(dispenseRecord),
});

const dispenseInput = {
  dispenser,
  products: z.array(dispensedProduct).min(1).max(20),
  completesFill: z.boolean(),
};

export const prescriptionCommands = {
  /** Writes a prescription on an open visit (its consent and intervention). */
  'prescription.write': {
    input: z.strictObject({ workflowId, prescriber: attendingDoctor, items: z.array(prescriptionItemInput).min(1).max(20) }),
    output: prescriptionView,
  },
  /** The prescriptions of a visit, or of a patient (every visit of theirs at this station), newest first. */
  'prescription.list': {
    input: z.union([z.strictObject({ workflowId }), z.strictObject({ patientRef })]),
    output: z.strictObject({ items: z.array(prescriptionView) }),
  },
  /**
   * Reads the visit's prescriptions back from SHA (the preview by the visit's consent token). SHA
   * answers one prescription per consent token, not each of a visit's: `answer` says which.
   */
  'prescription.check': {
    input: z.strictObject({ workflowId }),
    output: z.strictObject({
      items: z.array(prescriptionView),
      checkedAt: timestamp,
      /**
       * matched: SHA answered about one of these (shownRef), its status and review now read;
       * settled: about one whose answer had been lost, now known to be at SHA (shownRef);
       * unmatched: about a prescription the station cannot tie to any of these;
       * none: SHA shows no prescription for this visit.
       */
      answer: z.enum(['matched', 'settled', 'unmatched', 'none']),
      shownRef: prescriptionRef.nullable(),
    }),
  },
  /**
   * The pharmacy window: the patient's visits open at SHA for this facility (looked up at the
   * exchange, so a visit opened at a ward station is found). Opens nothing: an empty list means
   * no visit is open, and no prescription can be dispensed under one.
   */
  'pharmacy.openVisits': {
    input: z.strictObject({ patientRef }),
    output: z.strictObject({ visits: z.array(openVisitAtExchange), checkedAt: timestamp }),
  },
  /** Dispenses products against a prescription: part of a fill, or the rest of it. */
  'prescription.dispense': {
    input: z.strictObject({ prescriptionRef, ...dispenseInput }),
    output: prescriptionView,
  },
  /**
   * Dispenses under a visit the pharmacy reached by the patient's consent at the window (written
   * at another station): the wire names the visit, not a prescription, and no fill count of it is
   * read from SHA, so SHA's answer is the only limit.
   */
  'pharmacy.dispense': {
    input: z.strictObject({ workflowId, ...dispenseInput }),
    output: z.strictObject({ dispenses: z.array(dispenseRecord) }),
  },
};

export type PrescriptionView = z.infer<typeof prescriptionView>;
export type PrescriptionItemInput = z.infer<typeof prescriptionItemInput>;
export type DispenseRecord = z.infer<typeof dispenseRecord>;
