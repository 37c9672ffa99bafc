// The contract (electron/contract) and the exchange client (electron/payer) may not import each
// other, so each spells the enumerations the station carries from one to the other. The station
// imports both: here every such pair is held equal — or, where the station maps one onto the
// other, the difference is exactly the one it maps — so that neither can drift alone.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import {
  broughtBy as contractBroughtBy,
  claimDocumentType as contractDocumentType,
  claimPreview,
  claimStatus,
  dischargeReason,
  emergencyCommands,
  idType,
  modeOfArrival,
  paymentMechanism,
  preauthStatus,
  scenario,
  serviceType,
  submitReason,
  whitelistReasonType,
} from '../../../electron/contract';
import {
  broughtBy as clientBroughtBy,
  claimDocumentTypes,
  deviceOperatingSystems,
  dischargeReasons,
  dischargeStatuses,
  identificationTypes,
  modesOfArrival,
  normalisePaymentMechanism,
  otpWhitelistReasons,
  preauthStatuses,
  serviceTypes,
  submitDischargeReasons,
  unknownPatientReasons,
  workflowStates,
  type InterventionScenario,
} from '../../../electron/payer/wire';
import { deviceOsOf } from '../../../electron/station/deps';

const sorted = (values: readonly string[]) => [...values].sort();
const without = (values: readonly string[], ...left: string[]) => values.filter((v) => !left.includes(v));
const missingFrom = (values: readonly string[], from: readonly string[]) => values.filter((v) => !from.includes(v));

describe('enumerations the station carries between the contract and the exchange client', () => {
  it.each([
    ['OTP whitelist reasons', whitelistReasonType.options, otpWhitelistReasons],
    ['discharge reasons (inpatient discharge)', dischargeReason.options, dischargeReasons],
    ['discharge reasons on submit (never DECEASED)', submitReason.options, submitDischargeReasons],
    ['reasons for an unknown patient', emergencyCommands['emergency.submit'].input.shape.unknownPatientReason.unwrap().options, unknownPatientReasons],
    ['identification types', idType.options, identificationTypes],
    ['modes of arrival', modeOfArrival.options, modesOfArrival],
    ['who brought the patient', contractBroughtBy.options, clientBroughtBy],
    ['discharge statuses', claimPreview.shape.dischargeStatus.unwrap().options, dischargeStatuses],
    ['claim document types', contractDocumentType.options, claimDocumentTypes],
  ] as const)('%s are the same', (_name, contract, client) => {
    expect(sorted(contract)).toEqual(sorted(client));
  });

  it.each([
    ['claim statuses', claimStatus.options, workflowStates],
    ['preauth statuses', preauthStatus.options, preauthStatuses],
  ] as const)('%s are the same, the contract adding only OTHER for a status the station does not know', (_name, contract, client) => {
    expect(sorted(without(contract, 'OTHER'))).toEqual(sorted(client));
  });

  it('service types: the contract names only the client’s, and the difference is what the station maps', () => {
    // A ward is outpatient or inpatient; the exchange's other types never come from a nurse.
    expect(missingFrom(serviceType.options, serviceTypes)).toEqual([]);
    expect(missingFrom(serviceTypes, serviceType.options)).toEqual(['CAPITATION', 'EMERGENCY']);
    // A claim preview shows emergency claims as such; a capitation claim is an outpatient one (previewVisit).
    expect(missingFrom(claimPreview.shape.serviceType.options, serviceTypes)).toEqual([]);
    expect(missingFrom(serviceTypes, claimPreview.shape.serviceType.options)).toEqual(['CAPITATION']);
  });

  it('payment mechanisms: each of the contract’s is the client’s canonical spelling; the client’s fixed fee for service is shown as fee for service', () => {
    for (const mechanism of without(paymentMechanism.options, 'OTHER')) expect(normalisePaymentMechanism(mechanism)).toBe(mechanism);
  });

  it('scenarios: each of the contract’s is one the client recognises (the others are shown as other)', () => {
    expectTypeOf<Exclude<z.infer<typeof scenario>, 'other'>>().toExtend<InterventionScenario>();
    expect(scenario.options).toContain('other');
  });

  it('device operating systems: every platform maps onto one the exchange knows, and each it knows is reached', () => {
    const platforms = ['win32', 'cygwin', 'darwin', 'android', 'linux', 'freebsd', 'openbsd', 'sunos', 'aix'];
    const mapped = new Set(platforms.map(deviceOsOf));
    expect(sorted([...mapped])).toEqual(sorted(deviceOperatingSystems));
  });
});
