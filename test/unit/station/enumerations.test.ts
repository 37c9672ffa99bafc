// SHA's closed lists are written once (electron/vocabulary) and the contract and the exchange client
// build their enums from them, so no pair of lists can drift. What is left to hold here is where
// the station maps one side onto the other: the contract's service types onto the wire's, the
// payment mechanisms' spellings, the scenarios, the device operating systems.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import { claimPreview, claimStatus, paymentMechanism, preauthStatus, scenario, serviceType } from '../../../electron/contract';
import { normalisePaymentMechanism, type InterventionScenario } from '../../../electron/payer/wire';
import { deviceOsOf } from '../../../electron/station/deps';
import { claimWorkflowStates, deviceOperatingSystems, preauthStatuses, serviceTypes } from '../../../electron/vocabulary';

const sorted = (values: readonly string[]) => [...values].sort();
const without = (values: readonly string[], ...left: string[]) => values.filter((v) => !left.includes(v));
const missingFrom = (values: readonly string[], from: readonly string[]) => values.filter((v) => !from.includes(v));

describe('enumerations the station carries between the contract and the exchange client', () => {
  it.each([
    ['claim statuses', claimStatus.options, claimWorkflowStates],
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
