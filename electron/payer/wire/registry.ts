// GET /api/v1/patients: the client registry. Only `id` is promised; the rest is read when sent.
import { z } from 'zod';
import { identificationType, nonEmpty, optionalText, text } from './common';

export const patientQuery = z.strictObject({
  identification_number: nonEmpty,
  identification_type: identificationType,
});

export interface Patient {
  /** Client registry id: the patient_id of every later call. */
  readonly id: string;
  readonly identificationNumber: string | undefined;
  readonly identificationType: string | undefined;
}

export const patientResponse = z
  .looseObject({ id: text.pipe(z.string().min(1)), identification_number: optionalText, identification_type: optionalText })
  .transform(
    (p): Patient => ({ id: p.id, identificationNumber: p.identification_number, identificationType: p.identification_type }),
  );
