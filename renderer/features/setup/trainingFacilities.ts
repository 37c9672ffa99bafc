// The built-in sandbox's published demo facilities (../shared/design/contracts.md, "Sandbox demo
// world"). Training mode only: these credentials open nothing but the sandbox.
export const trainingFacilities = [
  {
    key: 'hospital',
    clientId: 'demo-hospital',
    clientSecret: 'demo-hospital-secret',
    facilityCode: 'FID-00-000004-0',
    facilityName: 'Idhini Demo Hospital',
  },
  {
    key: 'dispensary',
    clientId: 'demo-dispensary',
    clientSecret: 'demo-dispensary-secret',
    facilityCode: 'FID-00-000002-0',
    facilityName: 'Idhini Demo Dispensary',
  },
] as const;

/** A stand-in biometrics agent for training; the sandbox records it like any other. */
export const trainingAgentNationalId = '20000001';
