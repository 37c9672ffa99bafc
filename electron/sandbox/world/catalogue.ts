// The benefit catalogue every covered demo member sees: 30 sub-benefits under 15 benefit packages
// and 852 interventions with SHA-XX-NNN codes, generated deterministically from the tables below
// (no randomness, so every run, test and trainer sees the same catalogue). It contains the four
// interventions ../shared/design/contracts.md requires, each first in its sub-benefit.
import { createHash } from 'node:crypto';
import type { Fund } from './facilities';

/** The live spellings [1x]: the client must normalise spaces and underscores. */
export type PaymentMechanism = 'FEE_FOR_SERVICE' | 'FEE FOR SERVICE' | 'CASE BASED' | 'CAPITATION' | 'PER_DIEM';
export type AccessPoint = 'OP' | 'IP' | 'OP and IP';

export interface SubBenefit {
  readonly code: string;
  readonly name: string;
  readonly accessPoint: AccessPoint;
  readonly fund: Fund;
  readonly parentBenefitCode: string;
  readonly parentBenefitName: string;
  readonly cover: {
    readonly limitScope: 'HOUSEHOLD' | 'INDIVIDUAL';
    readonly limitAmount: number;
    readonly currency: 'KES';
    readonly waitingPeriodDays: number;
  };
  readonly allowedInterventions: readonly string[];
}

export interface Intervention {
  readonly intervention_code: string;
  readonly name: string;
  readonly paymentMechanism: PaymentMechanism;
  readonly needsPreauth: boolean;
  readonly needsManualPreauthApproval: boolean;
  readonly accessPoint: AccessPoint;
  readonly applicableDocumentTypes: readonly string[];
  readonly requiredPreauthDocumentTypes: readonly string[];
  readonly needsDoctorAuthorization: boolean;
  readonly protocolCode: string | null;
  readonly applicableTariff: number | null;
  readonly kephLevelTarriff: number;
  readonly fund: Fund;
  readonly sub_benefit_code: string;
  readonly tariff: number;
  readonly benefitPackage: string;
  readonly isActive: boolean;
  readonly genderRestriction: 'ALL' | 'FEMALE';
  readonly minAgeYears: number;
  readonly maxAgeYears: number;
  readonly requiresDischargeSummary: boolean;
}

export interface Protocol {
  readonly protocolCode: string;
  readonly name: string;
  readonly intervention_code: string;
  readonly applicableTariff: number;
  readonly active: boolean;
}

type Billing = 'capitation' | 'per-diem' | 'case-based' | 'fee-for-service';
type Qualifiers = 'surgical' | 'outpatient' | 'inpatient' | 'diagnostic' | 'therapy' | 'maternity' | 'emergency';

interface SubBenefitPlan {
  readonly name: string;
  readonly accessPoint: AccessPoint;
  readonly billing: Billing;
  readonly qualifiers: Qualifiers;
  readonly preauth: 'none' | 'automatic' | 'manual';
  readonly baseTariff: number;
  readonly female?: boolean;
  readonly bases: readonly string[];
}

interface PackagePlan {
  readonly number: string;
  readonly name: string;
  readonly fund: Fund;
  readonly subBenefits: readonly [SubBenefitPlan, SubBenefitPlan];
}

const QUALIFIERS: Record<Qualifiers, readonly string[]> = {
  surgical: ['open', 'laparoscopic', 'paediatric', 'day case'],
  outpatient: ['initial visit', 'follow-up visit', 'paediatric', 'older person (60+)'],
  inpatient: ['level 4', 'level 5', 'level 6', 'paediatric'],
  diagnostic: ['routine', 'urgent', 'paediatric', 'repeat'],
  therapy: ['single session', 'course of 5 sessions', 'course of 10 sessions', 'paediatric session'],
  maternity: ['level 2-3', 'level 4', 'level 5-6', 'with complications'],
  emergency: ['adult', 'paediatric', 'with referral transfer', 'with 24-hour observation'],
};

const PACKAGES: readonly PackagePlan[] = [
  {
    number: '01',
    name: 'Emergency, critical and chronic illness care',
    fund: 'ECCIF',
    subBenefits: [
      {
        name: 'Emergency stabilisation services',
        accessPoint: 'OP and IP',
        billing: 'fee-for-service',
        qualifiers: 'emergency',
        preauth: 'none',
        baseTariff: 6500,
        bases: [
          'Emergency resuscitation and stabilisation',
          'Acute asthma emergency management',
          'Road traffic injury emergency care',
          'Snake bite emergency management',
          'Acute poisoning emergency management',
          'Diabetic emergency management',
          'Obstetric emergency stabilisation',
        ],
      },
      {
        name: 'Emergency surgery and critical care',
        accessPoint: 'IP',
        billing: 'fee-for-service',
        qualifiers: 'emergency',
        preauth: 'none',
        baseTariff: 32000,
        bases: [
          'Emergency laparotomy',
          'Intensive care unit admission day',
          'High dependency unit admission day',
          'Emergency burns management',
          'Head injury critical care',
          'Septic shock management',
          'Emergency airway management',
        ],
      },
    ],
  },
  {
    number: '02',
    name: 'Primary health care',
    fund: 'PHC',
    subBenefits: [
      {
        name: 'Primary outpatient care',
        accessPoint: 'OP',
        billing: 'capitation',
        qualifiers: 'outpatient',
        preauth: 'none',
        baseTariff: 900,
        bases: [
          'General outpatient consultation',
          'Management of uncomplicated malaria',
          'Management of upper respiratory tract infection',
          'Management of diarrhoeal disease',
          'Minor wound dressing',
          'Basic laboratory panel',
          'Management of skin infection',
          'Management of urinary tract infection',
        ],
      },
      {
        name: 'Health promotion and screening',
        accessPoint: 'OP',
        billing: 'fee-for-service',
        qualifiers: 'outpatient',
        preauth: 'none',
        baseTariff: 600,
        bases: [
          'Cervical cancer screening',
          'Hypertension screening',
          'Diabetes screening',
          'Family planning counselling',
          'Nutrition assessment',
          'HIV testing and counselling',
          'Tuberculosis screening',
        ],
      },
    ],
  },
  {
    number: '03',
    name: 'Outpatient care',
    fund: 'SHIF',
    subBenefits: [
      {
        name: 'Specialist outpatient consultation',
        accessPoint: 'OP',
        billing: 'fee-for-service',
        qualifiers: 'outpatient',
        preauth: 'none',
        baseTariff: 2500,
        bases: [
          'Physician specialist consultation',
          'Paediatrician consultation',
          'Obstetrician and gynaecologist consultation',
          'Surgeon consultation',
          'Ear, nose and throat consultation',
          'Dermatologist consultation',
          'Orthopaedic surgeon consultation',
        ],
      },
      {
        name: 'Outpatient laboratory services',
        accessPoint: 'OP',
        billing: 'fee-for-service',
        qualifiers: 'diagnostic',
        preauth: 'none',
        baseTariff: 1200,
        bases: [
          'Full haemogram',
          'Renal function tests',
          'Liver function tests',
          'Lipid profile',
          'Thyroid function tests',
          'Blood culture and sensitivity',
          'Glycated haemoglobin (HbA1c)',
        ],
      },
    ],
  },
  {
    number: '04',
    name: 'Inpatient care',
    fund: 'SHIF',
    subBenefits: [
      {
        name: 'General inpatient care',
        accessPoint: 'IP',
        billing: 'per-diem',
        qualifiers: 'inpatient',
        preauth: 'none',
        baseTariff: 3360,
        bases: [
          'General ward inpatient day',
          'Medical ward inpatient day',
          'Surgical ward inpatient day',
          'Isolation ward inpatient day',
          'Amenity ward inpatient day',
          'Step-down ward inpatient day',
          'Orthopaedic ward inpatient day',
        ],
      },
      {
        name: 'Paediatric inpatient care',
        accessPoint: 'IP',
        billing: 'per-diem',
        qualifiers: 'inpatient',
        preauth: 'none',
        baseTariff: 3000,
        bases: [
          'Paediatric ward inpatient day',
          'Newborn unit inpatient day',
          'Kangaroo mother care day',
          'Paediatric burns unit day',
          'Paediatric isolation day',
          'Malnutrition rehabilitation day',
          'Paediatric surgical ward day',
        ],
      },
    ],
  },
  {
    number: '05',
    name: 'Maternity, newborn and child health',
    fund: 'SHIF',
    subBenefits: [
      {
        name: 'Normal delivery',
        accessPoint: 'IP',
        billing: 'case-based',
        qualifiers: 'maternity',
        preauth: 'none',
        baseTariff: 10200,
        female: true,
        bases: [
          'Spontaneous vaginal delivery',
          'Assisted vaginal delivery',
          'Twin vaginal delivery',
          'Vaginal birth after caesarean',
          'Breech vaginal delivery',
          'Delivery with episiotomy repair',
          'Manual removal of placenta',
        ],
      },
      {
        name: 'Caesarean section',
        accessPoint: 'IP',
        billing: 'case-based',
        qualifiers: 'maternity',
        preauth: 'none',
        baseTariff: 30000,
        female: true,
        bases: [
          'Elective caesarean section',
          'Emergency caesarean section',
          'Caesarean hysterectomy',
          'Repeat caesarean section',
          'Caesarean section with tubal ligation',
          'Caesarean section for twins',
          'Caesarean wound revision',
        ],
      },
    ],
  },
  {
    number: '06',
    name: 'Renal care',
    fund: 'SHIF',
    subBenefits: [
      {
        name: 'Haemodialysis',
        accessPoint: 'OP and IP',
        billing: 'fee-for-service',
        qualifiers: 'therapy',
        preauth: 'automatic',
        baseTariff: 10650,
        bases: [
          'Haemodialysis session',
          'Haemodiafiltration session',
          'Peritoneal dialysis',
          'Arteriovenous fistula creation',
          'Dialysis catheter insertion',
          'Dialysis access review',
          'Continuous renal replacement therapy',
        ],
      },
      {
        name: 'Kidney transplant',
        accessPoint: 'IP',
        billing: 'case-based',
        qualifiers: 'surgical',
        preauth: 'manual',
        baseTariff: 850000,
        bases: [
          'Kidney transplant, living donor',
          'Donor nephrectomy',
          'Post-transplant immunosuppression review',
          'Transplant rejection management',
          'Pre-transplant work-up',
          'Transplant ureteric stent removal',
          'Transplant biopsy',
        ],
      },
    ],
  },
  {
    number: '07',
    name: 'Oncology',
    fund: 'SHIF',
    subBenefits: [
      {
        name: 'Chemotherapy',
        accessPoint: 'OP and IP',
        billing: 'fee-for-service',
        qualifiers: 'therapy',
        preauth: 'automatic',
        baseTariff: 25000,
        bases: [
          'Breast cancer chemotherapy',
          'Cervical cancer chemotherapy',
          'Prostate cancer hormonal therapy',
          'Colorectal cancer chemotherapy',
          'Leukaemia induction chemotherapy',
          'Lymphoma chemotherapy',
          'Oesophageal cancer chemotherapy',
        ],
      },
      {
        name: 'Radiotherapy',
        accessPoint: 'OP',
        billing: 'fee-for-service',
        qualifiers: 'therapy',
        preauth: 'automatic',
        baseTariff: 40000,
        bases: [
          'External beam radiotherapy',
          'Brachytherapy',
          'Palliative radiotherapy',
          'Stereotactic radiotherapy',
          'Radiotherapy planning CT',
          'Total body irradiation',
          'Radiotherapy review',
        ],
      },
    ],
  },
  {
    number: '08',
    name: 'Surgical services',
    fund: 'SHIF',
    subBenefits: [
      {
        name: 'Elective general surgery',
        accessPoint: 'IP',
        billing: 'case-based',
        qualifiers: 'surgical',
        preauth: 'manual',
        baseTariff: 65000,
        bases: [
          'Elective inguinal hernia repair',
          'Cholecystectomy',
          'Thyroidectomy',
          'Mastectomy',
          'Haemorrhoidectomy',
          'Hysterectomy',
          'Prostatectomy',
          'Total knee replacement',
        ],
      },
      {
        name: 'Day-case surgery',
        accessPoint: 'OP',
        billing: 'case-based',
        qualifiers: 'surgical',
        preauth: 'none',
        baseTariff: 18000,
        bases: [
          'Excision of lipoma',
          'Circumcision',
          'Cataract extraction with lens implant',
          'Incision and drainage of abscess',
          'Removal of ingrown toenail',
          'Excision biopsy',
          'Tonsillectomy',
        ],
      },
    ],
  },
  {
    number: '09',
    name: 'Mental health',
    fund: 'SHIF',
    subBenefits: [
      {
        name: 'Outpatient mental health',
        accessPoint: 'OP',
        billing: 'fee-for-service',
        qualifiers: 'outpatient',
        preauth: 'none',
        baseTariff: 2000,
        bases: [
          'Psychiatric consultation',
          'Counselling psychology session',
          'Depression management',
          'Substance use disorder management',
          'Child and adolescent mental health review',
          'Anxiety disorder management',
          'Psychotropic medication review',
        ],
      },
      {
        name: 'Inpatient psychiatric care',
        accessPoint: 'IP',
        billing: 'per-diem',
        qualifiers: 'inpatient',
        preauth: 'none',
        baseTariff: 3500,
        bases: [
          'Acute psychiatric admission day',
          'Detoxification admission day',
          'Psychiatric rehabilitation day',
          'Forensic psychiatric admission day',
          'Electroconvulsive therapy admission day',
          'Psychogeriatric admission day',
          'Adolescent psychiatric admission day',
        ],
      },
    ],
  },
  {
    number: '10',
    name: 'Optical care',
    fund: 'SHIF',
    subBenefits: [
      {
        name: 'Eye examination',
        accessPoint: 'OP',
        billing: 'fee-for-service',
        qualifiers: 'outpatient',
        preauth: 'none',
        baseTariff: 1500,
        bases: [
          'Comprehensive eye examination',
          'Refraction test',
          'Glaucoma screening',
          'Diabetic retinopathy screening',
          'Visual field test',
          'Tonometry',
          'Fundoscopy',
        ],
      },
      {
        name: 'Spectacles and low vision aids',
        accessPoint: 'OP',
        billing: 'fee-for-service',
        qualifiers: 'outpatient',
        preauth: 'automatic',
        baseTariff: 5000,
        bases: [
          'Single vision spectacles',
          'Bifocal spectacles',
          'Progressive spectacles',
          'Low vision magnifier',
          'Spectacle frame replacement',
          'Spectacle lens replacement',
          'Contact lenses, therapeutic',
        ],
      },
    ],
  },
  {
    number: '11',
    name: 'Dental care',
    fund: 'SHIF',
    subBenefits: [
      {
        name: 'Dental consultation',
        accessPoint: 'OP',
        billing: 'fee-for-service',
        qualifiers: 'outpatient',
        preauth: 'none',
        baseTariff: 1000,
        bases: [
          'Dental examination',
          'Dental X-ray, periapical',
          'Dental X-ray, panoramic',
          'Scaling and polishing',
          'Oral hygiene instruction',
          'Fluoride application',
          'Fissure sealant',
        ],
      },
      {
        name: 'Dental procedures',
        accessPoint: 'OP',
        billing: 'fee-for-service',
        qualifiers: 'outpatient',
        preauth: 'automatic',
        baseTariff: 3500,
        bases: [
          'Tooth extraction, simple',
          'Tooth extraction, surgical',
          'Amalgam filling',
          'Composite filling',
          'Root canal treatment',
          'Denture, partial acrylic',
          'Denture, full acrylic',
        ],
      },
    ],
  },
  {
    number: '12',
    name: 'Imaging',
    fund: 'SHIF',
    subBenefits: [
      {
        name: 'Basic imaging',
        accessPoint: 'OP and IP',
        billing: 'fee-for-service',
        qualifiers: 'diagnostic',
        preauth: 'none',
        baseTariff: 2000,
        bases: [
          'Chest X-ray',
          'Abdominal ultrasound',
          'Obstetric ultrasound',
          'Limb X-ray',
          'Pelvic ultrasound',
          'Spine X-ray',
          'Echocardiogram',
        ],
      },
      {
        name: 'Advanced imaging',
        accessPoint: 'OP and IP',
        billing: 'fee-for-service',
        qualifiers: 'diagnostic',
        preauth: 'automatic',
        baseTariff: 12000,
        bases: [
          'CT scan of the head',
          'CT scan of the chest',
          'CT scan of the abdomen',
          'MRI of the brain',
          'MRI of the spine',
          'MRI of the knee',
          'CT angiography',
        ],
      },
    ],
  },
  {
    number: '13',
    name: 'Rehabilitation',
    fund: 'SHIF',
    subBenefits: [
      {
        name: 'Physiotherapy',
        accessPoint: 'OP',
        billing: 'fee-for-service',
        qualifiers: 'therapy',
        preauth: 'none',
        baseTariff: 1500,
        bases: [
          'Musculoskeletal physiotherapy',
          'Neurological physiotherapy',
          'Chest physiotherapy',
          'Post-operative physiotherapy',
          'Sports injury physiotherapy',
          'Hydrotherapy',
          'Paediatric developmental physiotherapy',
        ],
      },
      {
        name: 'Occupational and speech therapy',
        accessPoint: 'OP',
        billing: 'fee-for-service',
        qualifiers: 'therapy',
        preauth: 'none',
        baseTariff: 1500,
        bases: [
          'Occupational therapy assessment',
          'Hand therapy',
          'Speech and language therapy',
          'Swallowing therapy',
          'Assistive device fitting',
          'Cognitive rehabilitation',
          'Sensory integration therapy',
        ],
      },
    ],
  },
  {
    number: '14',
    name: 'Palliative care',
    fund: 'ECCIF',
    subBenefits: [
      {
        name: 'Palliative outpatient care',
        accessPoint: 'OP',
        billing: 'fee-for-service',
        qualifiers: 'outpatient',
        preauth: 'none',
        baseTariff: 2500,
        bases: [
          'Palliative care consultation',
          'Pain management review',
          'Home-based palliative care visit',
          'Symptom management review',
          'Psychosocial support session',
          'Bereavement counselling',
          'Lymphoedema management',
        ],
      },
      {
        name: 'Hospice inpatient care',
        accessPoint: 'IP',
        billing: 'per-diem',
        qualifiers: 'inpatient',
        preauth: 'none',
        baseTariff: 4000,
        bases: [
          'Hospice admission day',
          'End-of-life care day',
          'Respite care day',
          'Palliative symptom control admission day',
          'Palliative wound care admission day',
          'Paediatric hospice day',
          'Palliative sedation day',
        ],
      },
    ],
  },
  {
    number: '15',
    name: 'Chronic disease management',
    fund: 'ECCIF',
    subBenefits: [
      {
        name: 'Diabetes management',
        accessPoint: 'OP',
        billing: 'fee-for-service',
        qualifiers: 'outpatient',
        preauth: 'none',
        baseTariff: 2200,
        bases: [
          'Diabetes clinic review',
          'Insulin initiation',
          'Diabetic foot care',
          'Glucose monitoring supplies',
          'Diabetes education session',
          'Gestational diabetes review',
          'Diabetic nephropathy review',
          'Diabetic eye review',
        ],
      },
      {
        name: 'Hypertension and heart disease management',
        accessPoint: 'OP',
        billing: 'fee-for-service',
        qualifiers: 'outpatient',
        preauth: 'none',
        baseTariff: 2200,
        bases: [
          'Hypertension clinic review',
          'Heart failure clinic review',
          'Anticoagulation clinic review',
          'Stroke follow-up review',
          'Rheumatic heart disease review',
          'Cardiac rehabilitation session',
          'Ambulatory blood pressure monitoring',
        ],
      },
    ],
  },
];

/** Deterministic fraction in [0, 1) from a string. */
function fraction(seed: string): number {
  return createHash('sha256').update(seed).digest().readUInt32BE(0) / 2 ** 32;
}

const roundTo50 = (n: number): number => Math.max(50, Math.round(n / 50) * 50);

function mechanismFor(billing: Billing, index: number): PaymentMechanism {
  switch (billing) {
    case 'capitation':
      return 'CAPITATION';
    case 'per-diem':
      return 'PER_DIEM';
    case 'case-based':
      return 'CASE BASED';
    case 'fee-for-service':
      // Both live spellings appear, so the client's normalisation is always exercised.
      return index % 2 === 0 ? 'FEE_FOR_SERVICE' : 'FEE FOR SERVICE';
  }
}

/**
 * The papers SHA lists for a service, in the portal's document types (the list the sandbox itself
 * takes on an upload, vocabulary's claimDocumentTypes): a word outside it would be one no station
 * could attach.
 */
function documentsFor(plan: SubBenefitPlan): { applicable: string[]; preauth: string[] } {
  const applicable = ['INVOICE'];
  if (plan.accessPoint !== 'OP') applicable.push('DISCHARGE_SUMMARY');
  if (plan.qualifiers === 'diagnostic') applicable.push('LAB_ORDER', 'LAB_RESULTS');
  if (plan.qualifiers === 'surgical') applicable.push('THEATRE_NOTES');
  const preauth = plan.preauth === 'none' ? [] : ['MEDICAL_REPORT'];
  if (plan.preauth === 'manual') preauth.push('REQUEST_FORM_BY_RELEVANT_CONSULTANT');
  return { applicable, preauth };
}

export interface Catalogue {
  readonly subBenefits: readonly SubBenefit[];
  readonly interventions: readonly Intervention[];
  readonly protocols: readonly Protocol[];
  readonly interventionByCode: ReadonlyMap<string, Intervention>;
}

function buildCatalogue(): Catalogue {
  const subBenefits: SubBenefit[] = [];
  const interventions: Intervention[] = [];
  const protocols: Protocol[] = [];
  for (const pkg of PACKAGES) {
    let serial = 0;
    pkg.subBenefits.forEach((plan, subIndex) => {
      const subCode = `SB-${pkg.number}-${String(subIndex + 1).padStart(2, '0')}`;
      const docs = documentsFor(plan);
      const codes: string[] = [];
      plan.bases.forEach((base, baseIndex) => {
        QUALIFIERS[plan.qualifiers].forEach((qualifier, qIndex) => {
          serial += 1;
          const code = `SHA-${pkg.number}-${String(serial).padStart(3, '0')}`;
          const first = baseIndex === 0 && qIndex === 0;
          // The first intervention of a sub-benefit is its plain, canonical form (the required
          // demo interventions are among these): named without a qualifier and spelled exactly as
          // the contract's scenario table spells its payment mechanism.
          const name = first ? base : `${base}, ${qualifier}`;
          let mechanism = mechanismFor(plan.billing, serial);
          if (first && plan.billing === 'fee-for-service') mechanism = 'FEE_FOR_SERVICE';
          if (first && subCode === 'SB-08-01') mechanism = 'FEE_FOR_SERVICE';
          const tariff = roundTo50(plan.baseTariff * (0.7 + 0.9 * fraction(code)) * (qIndex === 3 ? 1.3 : 1));
          const emergency = pkg.number === '01';
          let protocolCode: string | null = null;
          if (emergency) {
            const variants = 1 + (serial % 3);
            for (let v = 0; v < variants; v++) {
              const letter = String.fromCharCode(65 + v);
              protocols.push({
                protocolCode: `EP-${pkg.number}-${String(serial).padStart(3, '0')}-${letter}`,
                name: `${name}: protocol ${letter}${v === 0 ? ' (standard)' : v === 1 ? ' (extended care)' : ' (retired)'}`,
                intervention_code: code,
                applicableTariff: roundTo50(tariff * (1 + 0.35 * v)),
                active: v < 2,
              });
            }
            protocolCode = `EP-${pkg.number}-${String(serial).padStart(3, '0')}-A`;
          }
          codes.push(code);
          interventions.push({
            intervention_code: code,
            name,
            paymentMechanism: mechanism,
            needsPreauth: plan.preauth !== 'none',
            needsManualPreauthApproval: plan.preauth === 'manual',
            accessPoint: plan.accessPoint,
            applicableDocumentTypes: docs.applicable,
            requiredPreauthDocumentTypes: docs.preauth,
            needsDoctorAuthorization: plan.accessPoint !== 'OP' || plan.preauth !== 'none',
            protocolCode,
            applicableTariff: emergency ? tariff : null,
            kephLevelTarriff: tariff,
            fund: pkg.fund,
            sub_benefit_code: subCode,
            tariff,
            benefitPackage: pkg.name,
            isActive: true,
            genderRestriction: plan.female === true ? 'FEMALE' : 'ALL',
            minAgeYears: qualifier.startsWith('paediatric') ? 0 : plan.female === true ? 12 : 0,
            maxAgeYears: qualifier.startsWith('paediatric') ? 17 : 120,
            requiresDischargeSummary: plan.accessPoint === 'IP',
          });
        });
      });
      subBenefits.push({
        code: subCode,
        name: plan.name,
        accessPoint: plan.accessPoint,
        fund: pkg.fund,
        parentBenefitCode: `SHA-${pkg.number}`,
        parentBenefitName: pkg.name,
        cover: {
          limitScope: plan.accessPoint === 'OP' ? 'INDIVIDUAL' : 'HOUSEHOLD',
          limitAmount: roundTo50(plan.baseTariff * 40),
          currency: 'KES',
          waitingPeriodDays: pkg.fund === 'ECCIF' ? 0 : 60,
        },
        allowedInterventions: codes,
      });
    });
  }
  return {
    subBenefits,
    interventions,
    protocols,
    interventionByCode: new Map(interventions.map((i) => [i.intervention_code, i])),
  };
}

export const CATALOGUE: Catalogue = buildCatalogue();

/** "FEE FOR SERVICE" and "FEE_FOR_SERVICE" are one mechanism. */
export function normalisedMechanism(i: Intervention): string {
  return i.paymentMechanism.replace(/\s+/g, '_').toUpperCase();
}

export const isEmergencyIntervention = (i: Intervention): boolean => i.intervention_code.startsWith('SHA-01');
export const isPerDiem = (i: Intervention): boolean => normalisedMechanism(i) === 'PER_DIEM';
export const allowsOutpatient = (i: Intervention): boolean => i.accessPoint !== 'IP';
export const allowsInpatient = (i: Intervention): boolean => i.accessPoint !== 'OP';
