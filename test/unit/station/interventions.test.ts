import { describe, expect, it } from 'vitest';
import { intervention as interventionSchema } from '../../../electron/contract';
import { deviceOsOf } from '../../../electron/station/deps';
import { maskContact, maskIdNumber, maskName } from '../../../electron/station/masking';
import { suggestIntervention, toContractIntervention } from '../../../electron/station/patients';
import { wireIntervention as wire } from './wire-intervention';

const catalogue = [
  wire('SHA-01-001', { scenario: 'emergency', accessPoint: 'OP_AND_IP', fund: 'ECCIF', protocolCode: 'EP-1', applicableTariff: 6500, tariff: undefined }),
  wire('SHA-02-001', { scenario: 'capitation', paymentMechanism: 'CAPITATION', fund: 'PHC' }),
  wire('SHA-02-002', { scenario: 'capitation', paymentMechanism: 'CAPITATION', fund: 'PHC' }),
  wire('SHA-03-001', { scenario: 'capitation', paymentMechanism: 'CAPITATION', fund: 'SHIF' }),
  wire('SHA-04-001', { scenario: 'per-diem', paymentMechanism: 'PER_DIEM', accessPoint: 'IP' }),
  wire('SHA-08-001', { scenario: 'elective-preauth', needsPreauth: true, needsManualPreauthApproval: true, accessPoint: 'IP' }),
  wire('SHA-12-001', { scenario: 'unrecognised', paymentMechanism: 'SOMETHING_NEW', accessPoint: 'OP_AND_IP' }),
].map((i) => toContractIntervention(i, 'SB-1'));

describe('interventions as the nurse sees them', () => {
  it('fit the contract, with their handling, filed under the sub-benefit they were listed under', () => {
    for (const i of catalogue) expect(interventionSchema.parse(i)).toEqual(i);
    expect(catalogue.every((i) => i.subBenefitCode === 'SB-1')).toBe(true);
    const byCode = new Map(catalogue.map((i) => [i.code, i]));
    expect(byCode.get('SHA-01-001')).toMatchObject({ scenario: 'emergency', careSetting: 'both', tariffKes: 6500, handling: { startsWith: 'emergency', needsDoctor: true, closeBy: 'submit' } });
    expect(byCode.get('SHA-04-001')).toMatchObject({ handling: { startsWith: 'visit', serviceType: 'INPATIENT', billing: 'automatic', closeBy: 'discharge' } });
    expect(byCode.get('SHA-08-001')).toMatchObject({ handling: { startsWith: 'elective', needsPreauth: true, serviceType: 'INPATIENT' } });
    expect(byCode.get('SHA-12-001')).toMatchObject({ scenario: 'other', paymentMechanism: 'OTHER' });
  });

  it('suggests the one that fits the ward, of a contracted fund, preferring the ward’s usual one', () => {
    expect(suggestIntervention(catalogue, 'OUTPATIENT', null, undefined)?.code).toBe('SHA-02-001');
    expect(suggestIntervention(catalogue, 'OUTPATIENT', ['SHIF'], undefined)?.code).toBe('SHA-03-001');
    expect(suggestIntervention(catalogue, 'OUTPATIENT', null, 'SHA-02-002')?.code).toBe('SHA-02-002');
    expect(suggestIntervention(catalogue, 'OUTPATIENT', null, 'SHA-08-001')?.code).toBe('SHA-02-001');
    expect(suggestIntervention(catalogue, 'INPATIENT', null, undefined)?.code).toBe('SHA-04-001');
    expect(suggestIntervention(catalogue, 'INPATIENT', ['PHC'], undefined)).toBeNull();
  });
});

describe('what crosses about a person', () => {
  it('is masked', () => {
    expect(maskName('Wanjiku Mumbi Kamau')).toBe('W*** M*** K***');
    expect(maskName(undefined)).toBe('***');
    expect(maskIdNumber('30000001')).toBe('30****01');
    expect(maskIdNumber('123')).toBe('***3');
    expect(maskContact('+254714***898')).toBe('+254714***898');
    expect(maskContact('+254714123898')).toBe('+254714***898');
  });
});

describe('authorizing_device_os', () => {
  it('is one of the two values the exchange knows: android on Android, windows on every desktop', () => {
    expect(deviceOsOf('win32')).toBe('windows');
    expect(deviceOsOf('android')).toBe('android');
    expect(deviceOsOf('linux')).toBe('windows');
    expect(deviceOsOf('darwin')).toBe('windows');
    expect(deviceOsOf('freebsd')).toBe('windows');
  });
});
