// Patients of the demo world, exactly the situations of ../shared/design/contracts.md.

export const FINGERS = [
  'RIGHT_THUMB',
  'RIGHT_INDEX',
  'RIGHT_MIDDLE',
  'RIGHT_RING',
  'RIGHT_LITTLE',
  'LEFT_THUMB',
  'LEFT_INDEX',
  'LEFT_MIDDLE',
  'LEFT_RING',
  'LEFT_LITTLE',
] as const;
export type Finger = (typeof FINGERS)[number];

export interface Scheme {
  /** The scheme's short name in the demo world (SHIF, POMSF). */
  readonly code: 'SHIF' | 'POMSF';
  /** `schemeId` on the wire: a number (A's types, R's fixture, the docs); the values are ours. */
  readonly schemeId: number;
  readonly schemeName: string;
  /** PRIMARY | BENEFICIARY (A's types; R's fixture). */
  readonly memberType: 'PRIMARY' | 'BENEFICIARY';
  readonly policyNumber: string;
  readonly covered: boolean;
  readonly reason: string;
  readonly possibleSolution: string;
}

export interface Contact {
  readonly id: number;
  readonly phone: string;
  readonly isMainContact: boolean;
}

export interface DemoPatient {
  readonly nationalId: string;
  readonly crId: string;
  readonly fullName: string;
  readonly gender: 'Male' | 'Female';
  readonly dateOfBirth: string;
  readonly schemes: readonly Scheme[];
  readonly whitelistedForOTP: boolean;
  readonly contacts: readonly Contact[];
  /** Enrolled fingers; empty when the fingerprints are unusable. */
  readonly fingers: readonly Finger[];
  readonly fingerprintsUnusable: boolean;
  readonly situation: string;
}

const SHIF_ID = 2;
const POMSF_ID = 5;

const SHIF = (policyNumber: string): Scheme => ({
  code: 'SHIF',
  schemeId: SHIF_ID,
  schemeName: 'SOCIAL HEALTH INSURANCE FUND',
  memberType: 'PRIMARY',
  policyNumber,
  covered: true,
  reason: '',
  possibleSolution: '',
});

export const PATIENTS: readonly DemoPatient[] = [
  {
    nationalId: '30000001',
    crId: 'CR5284739102216-4',
    fullName: 'Wanjiku Mumbi Kamau',
    gender: 'Female',
    dateOfBirth: '1985-03-14',
    schemes: [SHIF('SHIF-5284739-01')],
    whitelistedForOTP: false,
    contacts: [{ id: 41001, phone: '+254712345001', isMainContact: true }],
    fingers: ['RIGHT_THUMB', 'RIGHT_INDEX', 'LEFT_THUMB', 'LEFT_INDEX'],
    fingerprintsUnusable: false,
    situation: 'covered (SHIF), fingerprints enrolled, not whitelisted for OTP, one phone contact',
  },
  {
    nationalId: '30000002',
    crId: 'CR7046482768541-3',
    fullName: 'Otieno Juma Ochieng',
    gender: 'Male',
    dateOfBirth: '1956-11-02',
    schemes: [SHIF('SHIF-7046482-01')],
    whitelistedForOTP: true,
    contacts: [
      { id: 41002, phone: '+254722100202', isMainContact: true },
      { id: 41003, phone: '+254733100203', isMainContact: false },
    ],
    fingers: ['RIGHT_THUMB', 'LEFT_THUMB'],
    fingerprintsUnusable: false,
    situation: 'covered, whitelisted for OTP, two phone contacts, fingerprints enrolled',
  },
  {
    nationalId: '30000003',
    crId: 'CR3319057724680-8',
    fullName: 'Akinyi Atieno Odera',
    gender: 'Female',
    dateOfBirth: '1992-07-21',
    schemes: [
      {
        code: 'SHIF',
        schemeId: SHIF_ID,
        schemeName: 'SOCIAL HEALTH INSURANCE FUND',
        memberType: 'PRIMARY',
        policyNumber: 'SHIF-3319057-01',
        covered: false,
        reason: 'Contributions are not up to date',
        possibleSolution: 'Pay the outstanding SHIF contributions through the member portal or *147#, then check again',
      },
    ],
    whitelistedForOTP: false,
    contacts: [{ id: 41004, phone: '+254745300304', isMainContact: true }],
    fingers: ['RIGHT_INDEX', 'LEFT_INDEX'],
    fingerprintsUnusable: false,
    situation: 'found, not covered (status 0, with reason and possibleSolution)',
  },
  {
    nationalId: '30000004',
    crId: 'CR9150273846112-6',
    fullName: 'Kiprono Kibet Cheruiyot',
    gender: 'Male',
    dateOfBirth: '1949-01-30',
    schemes: [SHIF('SHIF-9150273-01')],
    whitelistedForOTP: false,
    contacts: [{ id: 41005, phone: '+254701400405', isMainContact: true }],
    fingers: [],
    fingerprintsUnusable: true,
    situation:
      'covered adult whose fingerprints are unusable: biometric authorize is rejected with BIOMETRICS_NOT_FOUND_OTP_ALLOWED, after which OTP is accepted for 15 minutes of sandbox time',
  },
  {
    nationalId: '30000005',
    crId: 'CR6427810395574-2',
    fullName: 'Mwangi Njoroge Kariuki',
    gender: 'Male',
    dateOfBirth: '1978-05-09',
    schemes: [
      SHIF('SHIF-6427810-01'),
      {
        code: 'POMSF',
        schemeId: POMSF_ID,
        schemeName: 'PUBLIC OFFICERS MEDICAL SCHEME FUND',
        memberType: 'PRIMARY',
        policyNumber: 'POMSF-6427810-01',
        covered: true,
        reason: '',
        possibleSolution: '',
      },
    ],
    whitelistedForOTP: false,
    contacts: [{ id: 41006, phone: '+254710500506', isMainContact: true }],
    fingers: ['RIGHT_THUMB', 'RIGHT_INDEX'],
    fingerprintsUnusable: false,
    situation: 'covered under two schemes (needs POST /api/v1/authorizations/covers)',
  },
  {
    nationalId: '30000006',
    crId: 'CR1873650492238-9',
    fullName: 'Fatuma Halima Hassan',
    gender: 'Female',
    dateOfBirth: '2001-09-17',
    schemes: [SHIF('SHIF-1873650-01')],
    whitelistedForOTP: false,
    contacts: [],
    fingers: ['RIGHT_THUMB', 'RIGHT_INDEX', 'RIGHT_MIDDLE', 'LEFT_THUMB'],
    fingerprintsUnusable: false,
    situation: 'covered, no phone contact',
  },
];

export function patientByCrId(crId: string): DemoPatient | undefined {
  return PATIENTS.find((p) => p.crId === crId);
}

/** National ID and ClientRegistry ID find a patient; every other accepted type finds none here. */
export function findPatient(identificationType: string, identificationNumber: string): DemoPatient | undefined {
  const value = identificationNumber.trim();
  if (identificationType === 'National ID') return PATIENTS.find((p) => p.nationalId === value);
  if (identificationType === 'ClientRegistry ID') return patientByCrId(value);
  return undefined;
}

export function isCovered(patient: DemoPatient): boolean {
  return patient.schemes.some((s) => s.covered);
}

/** "+254712345001" → "+254712***001", as the live contacts show it. */
export function maskPhone(phone: string): string {
  return phone.length <= 9 ? '***' : `${phone.slice(0, 7)}***${phone.slice(-3)}`;
}

/** "Wanjiku Mumbi Kamau" → "W*** M*** K***": enough for the patient to recognise, nothing more. */
export function maskName(fullName: string): string {
  return fullName
    .split(/\s+/)
    .filter(Boolean)
    .map((part) => `${part.charAt(0).toUpperCase()}***`)
    .join(' ');
}

export function ageOn(dateOfBirth: string, nowMs: number): number {
  const dob = new Date(`${dateOfBirth}T00:00:00Z`);
  const now = new Date(nowMs);
  let age = now.getUTCFullYear() - dob.getUTCFullYear();
  const beforeBirthday =
    now.getUTCMonth() < dob.getUTCMonth() ||
    (now.getUTCMonth() === dob.getUTCMonth() && now.getUTCDate() < dob.getUTCDate());
  if (beforeBirthday) age -= 1;
  return age;
}
