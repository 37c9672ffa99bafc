// Look-ups instead of typing: the ICD-11 diagnosis and the generic medicine found through the
// exchange's terminology search (recent codes first), and the doctor found in the professionals registry — name, cadre
// and licence state shown before the doctor is attached anywhere.
import { z } from 'zod';
import { attendingDoctor, diagnosis, shortText } from './common';
import { prescriptionItemInput } from './prescriptions';

export const diagnosisChoice = z.strictObject({
  code: diagnosis.shape.code,
  /** The concept's title as the terminology gives it; null when the station only knows the code. */
  title: shortText.nullable(),
  /** Used on this station's visits or preauths lately: listed first. */
  recent: z.boolean(),
});

export const medicineChoice = z.strictObject({
  /** The generic concept's code, as a prescription item sends it (generic_concept_code). */
  code: prescriptionItemInput.shape.conceptCode,
  title: shortText.nullable(),
  /** Prescribed on this station's visits lately: listed first. */
  recent: z.boolean(),
});

/** What the registry says of the licence: `expired` when its last licence has ended. */
export const licenceState = z.enum(['active', 'inactive', 'expired', 'unknown']);

export const professionalCard = z.strictObject({
  /** The three fields the station sends when it attaches this professional. */
  doctor: attendingDoctor,
  name: shortText.nullable(),
  cadre: shortText.nullable(),
  specialty: shortText.nullable(),
  licence: licenceState,
  /** The last licence's end as the registry writes it (a date), null when not said. */
  licenceEnds: shortText.nullable(),
});

export const lookupCommands = {
  /**
   * Diagnoses for a few typed letters or a code: the station's recent codes that match first, then
   * the terminology's (ICD-11). Fewer than two letters: the recent codes alone, nothing asked of SHA.
   */
  'terminology.searchDiagnoses': {
    input: z.strictObject({ text: z.string().max(100) }),
    output: z.strictObject({ items: z.array(diagnosisChoice).max(40), searched: z.boolean() }),
  },
  /**
   * Generic medicines for a few typed letters or a code, in the terminology's medicines (the owner
   * and source the administrator set): this station's recent ones that match first. Not set up
   * (`configured` false): nothing is asked of SHA, and the nurse types the generic code.
   */
  'terminology.searchMedicines': {
    input: z.strictObject({ text: z.string().max(100) }),
    output: z.strictObject({ configured: z.boolean(), items: z.array(medicineChoice).max(40), searched: z.boolean() }),
  },
  /** The doctor in the professionals registry by the three fields the station attaches; DOCTOR_NOT_FOUND when absent. */
  'professionals.find': {
    input: z.strictObject({ doctor: attendingDoctor }),
    output: z.strictObject({ professional: professionalCard }),
  },
  /**
   * Doctors found in the registry at this station before, by a part of their name (the registry
   * itself is searched by number only), newest first.
   */
  'professionals.searchByName': {
    input: z.strictObject({ name: z.string().trim().min(2).max(100) }),
    output: z.strictObject({ items: z.array(professionalCard).max(20) }),
  },
};

export type DiagnosisChoice = z.infer<typeof diagnosisChoice>;
export type MedicineChoice = z.infer<typeof medicineChoice>;
export type ProfessionalCard = z.infer<typeof professionalCard>;
export type LicenceState = z.infer<typeof licenceState>;
