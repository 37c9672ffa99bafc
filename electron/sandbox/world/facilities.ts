// Facilities of the demo world. The two with credentials are the tenants of
// ../shared/design/contracts.md (kept exactly); the others exist for the registry look-ups.

export type Fund = 'SHIF' | 'PHC' | 'ECCIF' | 'UHC';

export interface Facility {
  readonly code: string;
  readonly name: string;
  readonly level: number;
  readonly kmhflCode: string;
  readonly county: string;
  readonly subCounty: string;
  readonly ownership: 'Ministry of Health' | 'Private' | 'Faith-based';
  readonly facilityType: string;
  /** Biometric consent is enforced at every level except 2 and 3 [doc]. */
  readonly biometricsEnforced: boolean;
  readonly contracts: readonly Fund[];
  /** Bed capacity by bed type; occupancy adds open inpatient claims. */
  readonly beds: Readonly<Record<'general' | 'maternity' | 'paediatric' | 'icu', { total: number; occupied: number }>>;
  /** SHA has suspended it (the registry's SHAOperationStatus carries a suspension and its reason). Ours: one demo facility is, so a referral meets one. */
  readonly suspension?: { readonly reason: string; readonly reinstatementRecommendations: string; readonly earliestReinstatementDate: string };
}

/** A client of the token endpoint: a facility's tenant, or a service account without one. */
export interface ApiClient {
  readonly clientId: string;
  readonly clientSecret: string;
  /** null: a service account, which must name its facility with X-Facility-Id. */
  readonly facilityCode: string | null;
}

export const FACILITIES: readonly Facility[] = [
  {
    code: 'FID-00-000004-0',
    name: 'Idhini Demo Hospital',
    level: 4,
    kmhflCode: '90004',
    county: 'Nairobi',
    subCounty: 'Westlands',
    ownership: 'Ministry of Health',
    facilityType: 'Sub-county hospital',
    biometricsEnforced: true,
    contracts: ['SHIF', 'PHC', 'ECCIF', 'UHC'],
    beds: {
      general: { total: 60, occupied: 41 },
      maternity: { total: 20, occupied: 12 },
      paediatric: { total: 24, occupied: 15 },
      icu: { total: 6, occupied: 4 },
    },
  },
  {
    code: 'FID-00-000002-0',
    name: 'Idhini Demo Dispensary',
    level: 2,
    kmhflCode: '90002',
    county: 'Kiambu',
    subCounty: 'Limuru',
    ownership: 'Ministry of Health',
    facilityType: 'Dispensary',
    biometricsEnforced: false,
    contracts: ['PHC', 'UHC', 'ECCIF'],
    beds: {
      general: { total: 0, occupied: 0 },
      maternity: { total: 2, occupied: 0 },
      paediatric: { total: 0, occupied: 0 },
      icu: { total: 0, occupied: 0 },
    },
  },
  {
    code: 'FID-00-000005-0',
    name: 'Mlima County Referral Hospital',
    level: 5,
    kmhflCode: '90005',
    county: 'Nyeri',
    subCounty: 'Nyeri Central',
    ownership: 'Ministry of Health',
    facilityType: 'County referral hospital',
    biometricsEnforced: true,
    contracts: ['SHIF', 'ECCIF'],
    beds: {
      general: { total: 240, occupied: 198 },
      maternity: { total: 60, occupied: 41 },
      paediatric: { total: 70, occupied: 52 },
      icu: { total: 12, occupied: 11 },
    },
  },
  {
    code: 'FID-00-000003-0',
    name: 'Pwani Health Centre',
    level: 3,
    kmhflCode: '90003',
    county: 'Kilifi',
    subCounty: 'Kilifi North',
    ownership: 'Faith-based',
    facilityType: 'Health centre',
    biometricsEnforced: false,
    contracts: ['PHC', 'UHC', 'ECCIF'],
    beds: {
      general: { total: 8, occupied: 3 },
      maternity: { total: 6, occupied: 2 },
      paediatric: { total: 0, occupied: 0 },
      icu: { total: 0, occupied: 0 },
    },
    suspension: { reason: 'Pending inspection of the maternity theatre', reinstatementRecommendations: 'Complete the county inspection', earliestReinstatementDate: '2025-09-01' },
  },
];

export const API_CLIENTS: readonly ApiClient[] = [
  { clientId: 'demo-hospital', clientSecret: 'demo-hospital-secret', facilityCode: 'FID-00-000004-0' },
  { clientId: 'demo-dispensary', clientSecret: 'demo-dispensary-secret', facilityCode: 'FID-00-000002-0' },
  // A service account: its token carries no tenant, so every call must name a facility.
  { clientId: 'demo-integrator', clientSecret: 'demo-integrator-secret', facilityCode: null },
];

export function facilityByCode(code: string): Facility | undefined {
  return FACILITIES.find((f) => f.code === code);
}
