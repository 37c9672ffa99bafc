// A small subset of ICD-11 MMS for the terminology search and the demo records.

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
