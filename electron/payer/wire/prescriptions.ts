// Prescriptions and dispenses.
import { z } from 'zod';
import {
  amount,
  doctorFields,
  isoDate,
  list,
  nonEmpty,
  oneOrMany,
  optionalBoolean,
  optionalStatus,
  optionalText,
  record,
  requireAllOrNone,
  text,
  type JsonValue,
} from './common';

/** Item fields as documented [doc]; the concept code is what is prescribed. */
export const prescriptionItem = z.strictObject({
  generic_concept_code: nonEmpty,
  additional_instruction: z.string().optional(),
  dose_quantity: z.number().finite().positive().optional(),
  dose_unit: nonEmpty.optional(),
  duration: z.number().finite().positive().optional(),
  duration_unit: nonEmpty.optional(),
  start_date: isoDate.optional(),
  end_date: isoDate.optional(),
  frequency: nonEmpty.optional(),
  needs_refill: z.boolean().optional(),
  patient_instruction: z.string().optional(),
  period_unit: nonEmpty.optional(),
  refill_count: z.number().int().nonnegative().optional(),
});

export const createPrescriptionRequest = z
  .strictObject({
    consent_token: nonEmpty.optional(),
    intervention_code: nonEmpty.optional(),
    items: z.array(prescriptionItem).min(1, 'a prescription has at least one item'),
    identification_number: nonEmpty.optional(),
    identification_type: nonEmpty.optional(),
    regulation_body: nonEmpty.optional(),
  })
  .superRefine((v, ctx) => requireAllOrNone(v, doctorFields, ctx, 'prescribing doctor'));

export interface Prescription {
  readonly id: string | undefined;
  readonly guid: string | undefined;
  readonly code: string | undefined;
  readonly status: string | undefined;
  readonly replicated: boolean | undefined;
  readonly doctorReviewStatus: Record<string, JsonValue>[];
}

export const prescriptionResponse = z
  .looseObject({
    id: optionalText,
    guid: optionalText,
    code: optionalText,
    status: optionalStatus,
    replicated: optionalBoolean,
    doctorReviewStatus: list(record),
  })
  .refine((p) => (p.id ?? p.guid) !== undefined, { message: 'prescription without id or guid', path: ['id'] })
  .transform(
    (p): Prescription => ({
      id: p.id,
      guid: p.guid,
      code: p.code,
      status: p.status,
      replicated: p.replicated,
      doctorReviewStatus: p.doctorReviewStatus,
    }),
  );

const dispensingProfessional = z
  .strictObject({
    identification_number: nonEmpty,
    identification_type: nonEmpty,
    regulation_body: nonEmpty.optional(),
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
