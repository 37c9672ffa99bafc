// The terminology the concept search answers from: a small subset of ICD-11 MMS (for the search and
// the demo records) and a small list of generic medicines, each under the owner and source a
// station sends for it (TERMINOLOGY, which the training station is provisioned with).

export interface Concept {
  readonly code: string;
  readonly display: string;
}

export const ICD11_CONCEPTS: readonly Concept[] = [
  { code: '1A00', display: 'Cholera' },
  { code: '1A40.Z', display: 'Infectious gastroenteritis or colitis without specification of infectious agent' },
  { code: '1B10.Z', display: 'Tuberculosis of the respiratory system, unspecified' },
  { code: '1F40.Z', display: 'Malaria due to Plasmodium falciparum, unspecified' },
  { code: '2C60', display: 'Carcinoma of breast' },
  { code: '5A10', display: 'Type 1 diabetes mellitus' },
  { code: '5A11', display: 'Type 2 diabetes mellitus' },
  { code: '6A20', display: 'Schizophrenia' },
  { code: '6A70', display: 'Single episode depressive disorder' },
  { code: '8B11', display: 'Cerebral ischaemic stroke' },
  { code: '9B10', display: 'Age-related cataract' },
  { code: 'BA00', display: 'Essential hypertension' },
  { code: 'BD10', display: 'Congestive heart failure' },
  { code: 'CA00', display: 'Acute nasopharyngitis' },
  { code: 'CA23', display: 'Asthma' },
  { code: 'CA40.Z', display: 'Pneumonia, organism unspecified' },
  { code: 'DD51', display: 'Inguinal hernia' },
  { code: 'GB61', display: 'Chronic kidney disease' },
  { code: 'GC08', display: 'Urinary tract infection, site not specified' },
  { code: 'MD12', display: 'Cough' },
  { code: 'MG26', display: 'Fever of other or unknown origin' },
];

/**
 * The owner and source of each list. ICD-11's are WHO and ICD-11 (a Django SHA HIE client sends
 * `owner=WHO&source=ICD-11`); the medicines' are MOH-PPB and HPT, the same client's "Health Products
 * & Technologies" search. Neither is documented by SHA: a facility is given its own.
 */
export const TERMINOLOGY = {
  diagnoses: { owner: 'WHO', source: 'ICD-11' },
  medicines: { owner: 'MOH-PPB', source: 'HPT' },
} as const;

/**
 * Generic medicines for prescriptions. Ours, not the registry's: the codes follow the GE… form of
 * generic products the same client names (GE10002 Metformin 500 mg Oral Tablet), the rest are made
 * up for training; no public source lists the real ones.
 */
export const MEDICINE_CONCEPTS: readonly Concept[] = [
  { code: 'GE10002', display: 'Metformin 500 mg oral tablet' },
  { code: 'GE10110', display: 'Amoxicillin 500 mg oral capsule' },
  { code: 'GE10111', display: 'Amoxicillin 250 mg/5 mL powder for oral suspension' },
  { code: 'GE10230', display: 'Paracetamol 500 mg oral tablet' },
  { code: 'GE10231', display: 'Paracetamol 120 mg/5 mL oral solution' },
  { code: 'GE10340', display: 'Artemether 20 mg + lumefantrine 120 mg oral tablet' },
  { code: 'GE10450', display: 'Amlodipine 5 mg oral tablet' },
  { code: 'GE10451', display: 'Hydrochlorothiazide 25 mg oral tablet' },
  { code: 'GE10560', display: 'Salbutamol 100 micrograms/dose inhaler' },
  { code: 'GE10670', display: 'Ferrous sulfate 200 mg + folic acid 0.4 mg oral tablet' },
  { code: 'GE10780', display: 'Oral rehydration salts, powder for oral solution' },
  { code: 'GE10781', display: 'Zinc sulfate 20 mg dispersible tablet' },
];
