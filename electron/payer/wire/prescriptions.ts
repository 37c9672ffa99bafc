// Prescriptions and dispenses.
import { z } from 'zod';
import { dispenserIdentificationTypes } from '../../vocabulary';
import {
  amount,
  doctorFields,
  isoDate,
  nonEmpty,
  oneOrMany,
  optionalStatus,
  optionalText,
  practitionerIdentificationType,
  regulationBody,
  requireAllOrNone,
  text,
} from './common';

/** Item fields as documented (portal); the concept code is what is prescribed. */
export const prescriptionItem = z.strictObject({
  generic_concept_code: nonEmpty,
  additional_instruction: z.string().optional(),
  dose_quantity: z.number().finite().positive().optional(),
  dose_unit: nonEmpty.optional(),
  duration: z.number().finite().positive().optional(),
  duration_unit: nonEmpty.optional(),
  start_date: isoDate.optional(),
  end_date: isoDate.optional(),
  /** How many times per period_unit: an integer (portal). */
  frequency: z.number().int().positive().optional(),
  needs_refill: z.boolean().optional(),
  patient_instruction: z.string().optional(),
  period_unit: nonEmpty.optional(),
  refill_count: z.number().int().nonnegative().optional(),
});

export const createPrescriptionRequest = z
  .strictObject({
    consent_token: nonEmpty,
    intervention_code: nonEmpty,
    items: z.array(prescriptionItem).min(1, 'a prescription has at least one item'),
    identification_number: nonEmpty.optional(),
    identification_type: practitionerIdentificationType.optional(),
    regulation_body: regulationBody.optional(),
  })
  .superRefine((v, ctx) => requireAllOrNone(v, doctorFields, ctx, 'prescribing doctor'));

export interface Prescription {
  readonly id: string | undefined;
  readonly guid: string | undefined;
  readonly code: string | undefined;
  readonly status: string | undefined;
  readonly replicated: string | undefined;
  /** The prescribing doctor's review, one word (portal: a string). */
  readonly doctorReviewStatus: string | undefined;
}

const prescriptionFields = {
  id: optionalText,
  guid: optionalText,
  code: optionalText,
  status: optionalStatus,
  replicated: optionalText,
  doctorReviewStatus: optionalStatus,
};

const withIdOrGuid = (p: { id?: string | undefined; guid?: string | undefined }) => (p.id ?? p.guid) !== undefined;
const idOrGuid = { message: 'prescription without id or guid', path: ['id'] };

const prescriptionOf = (p: z.output<z.ZodObject<typeof prescriptionFields>>): Prescription => ({
  id: p.id,
  guid: p.guid,
  code: p.code,
  status: p.status,
  replicated: p.replicated,
  doctorReviewStatus: p.doctorReviewStatus,
});

export const prescriptionResponse = z.looseObject(prescriptionFields).refine(withIdOrGuid, idOrGuid).transform(prescriptionOf);

/** The read-back asks by consent token alone (portal "Preview prescription"). */
export const previewPrescriptionQuery = z.strictObject({ consent_token: nonEmpty });

export interface PrescriptionPreview extends Prescription {
  /** The generic concept of each dosage line (`dosage[].medicationIdentifier`), in SHA's order. */
  readonly medicationIdentifiers: readonly string[];
}

/**
 * One prescription object, as the create answers (portal): which one when a consent token carries
 * several is not documented, so the station never assumes it is the latest.
 */
export const previewPrescriptionResponse = z
  .looseObject({ ...prescriptionFields, dosage: z.array(z.looseObject({ medicationIdentifier: optionalText })).nullish() })
  .refine(withIdOrGuid, idOrGuid)
  .transform(
    (p): PrescriptionPreview => ({
      ...prescriptionOf(p),
      medicationIdentifiers: (p.dosage ?? []).flatMap((d) => (d.medicationIdentifier === undefined ? [] : [d.medicationIdentifier])),
    }),
  );

/**
 * The dispenser by an identity document: UAT refuses `registration_number` here ("is not a valid
 * choice") and takes `National ID` (R `create_dispense()`).
 */
const dispensingProfessional = z.strictObject({
  identification_number: nonEmpty,
  identification_type: z.enum(dispenserIdentificationTypes),
});

export const dispenseRequest = z.strictObject({
  actual_products: z
    .array(
      z.strictObject({
        actual_product_code: nonEmpty,
        medication_price: amount,
        total_quantity: z.number().finite().positive(),
      }),
    )
    .min(1, 'give at least one dispensed product'),
  consent_token: nonEmpty,
  doctors: z.array(dispensingProfessional).min(1, 'name the dispensing professional'),
  intervention_code: nonEmpty,
});

export interface DispenseEntry {
  readonly id: string;
  readonly status: string | undefined;
}

const dispenseEntry = z
  .looseObject({ id: text, status: optionalStatus })
  .transform((d): DispenseEntry => ({ id: d.id, status: d.status }));

export const dispenseResponse = oneOrMany(dispenseEntry);

export const removePrescriptionDoctorRequest = z.strictObject({
  consent_token: nonEmpty,
  intervention_code: nonEmpty,
  practitioner_registration_number: nonEmpty,
});
