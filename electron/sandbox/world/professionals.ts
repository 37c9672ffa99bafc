// The professionals registry of the demo world: doctors, a clinical officer and a nurse, one per
// regulator the portal lists (KMPDC, COC, NCK).
import type { regulationBodies } from '../../vocabulary';

export interface Professional {
  readonly registrationNumber: string;
  readonly nationalId: string;
  readonly regulator: (typeof regulationBodies)[number];
  readonly title: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly cadre: string;
  readonly specialty: string;
  readonly phone: string;
  readonly licenceStatus: 'ACTIVE';
  readonly licenceExpiry: string;
}

export const PROFESSIONALS: readonly Professional[] = [
  {
    registrationNumber: 'A12345',
    nationalId: '22334455',
    regulator: 'KMPDC',
    title: 'Dr.',
    firstName: 'Achieng',
    lastName: 'Odhiambo',
    cadre: 'Medical Officer',
    specialty: 'General practice',
    phone: '+254711900001',
    licenceStatus: 'ACTIVE',
    licenceExpiry: '2027-12-31',
  },
  {
    registrationNumber: 'A23456',
    nationalId: '23456789',
    regulator: 'KMPDC',
    title: 'Dr.',
    firstName: 'Mutua',
    lastName: 'Kilonzo',
    cadre: 'Consultant',
    specialty: 'General surgery',
    phone: '+254711900002',
    licenceStatus: 'ACTIVE',
    licenceExpiry: '2027-12-31',
  },
  {
    registrationNumber: 'A34567',
    nationalId: '24681357',
    regulator: 'KMPDC',
    title: 'Dr.',
    firstName: 'Amina',
    lastName: 'Abdullahi',
    cadre: 'Consultant',
    specialty: 'Emergency medicine',
    phone: '+254711900003',
    licenceStatus: 'ACTIVE',
    licenceExpiry: '2027-12-31',
  },
  {
    registrationNumber: 'RCO-04512',
    nationalId: '25791113',
    regulator: 'COC',
    title: 'CO',
    firstName: 'Wairimu',
    lastName: 'Njeri',
    cadre: 'Clinical Officer',
    specialty: 'General clinical medicine',
    phone: '+254711900004',
    licenceStatus: 'ACTIVE',
    licenceExpiry: '2027-06-30',
  },
  {
    registrationNumber: 'NCK-118822',
    nationalId: '26802244',
    regulator: 'NCK',
    title: 'Nurse',
    firstName: 'Halima',
    lastName: 'Abdi',
    cadre: 'Registered Nurse',
    specialty: 'Midwifery',
    phone: '+254711900005',
    licenceStatus: 'ACTIVE',
    licenceExpiry: '2027-06-30',
  },
];

/** Finds a professional by registration number or national ID, under the named regulator (any, when none is named). */
export function findProfessional(identificationType: string, identificationNumber: string, regulator?: string): Professional | undefined {
  const value = identificationNumber.trim();
  const byRegistration = /^registration[_ ]?number$/i.test(identificationType.trim());
  return PROFESSIONALS.find(
    (p) => (regulator === undefined || p.regulator === regulator.trim()) && (byRegistration ? p.registrationNumber === value : p.nationalId === value),
  );
}

export function professionalName(p: Professional): string {
  return `${p.title} ${p.firstName} ${p.lastName}`;
}
