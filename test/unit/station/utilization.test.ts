// What the nurse sees of a benefit's limits, from the exchange's one record (the portal docs) or
// one per limit scope (UAT, R).
import { describe, expect, it } from 'vitest';
import type { Utilization } from '../../../electron/payer';
import { summariseUtilization } from '../../../electron/station/patients';

const record = (over: Partial<Utilization>): Utilization => ({
  code: undefined,
  crId: undefined,
  limitScope: undefined,
  householdMaxLimit: undefined,
  householdUtilisedLimit: undefined,
  individualMaxLimit: undefined,
  individualUtilisedLimit: undefined,
  nextAvailability: undefined,
  utilizationDays: undefined,
  eligible: undefined,
  limitAvailableAmount: undefined,
  nextAvailableDate: undefined,
  funds: [],
  ...over,
});

describe('summariseUtilization', () => {
  it('reads the documented single record', () => {
    expect(summariseUtilization('SHA-12-001', [record({ limitScope: 'INDIVIDUAL', individualMaxLimit: 5000, individualUtilisedLimit: 1200, householdMaxLimit: 20000, householdUtilisedLimit: 1200, utilizationDays: 2 })])).toEqual({
      interventionCode: 'SHA-12-001',
      available: true,
      individual: { limitKes: 5000, usedKes: 1200, remainingKes: 3800 },
      household: { limitKes: 20000, usedKes: 1200, remainingKes: 18800 },
      limitScope: 'INDIVIDUAL',
      nextAvailableAt: null,
      utilizationDays: 2,
    });
  });

  it('combines one record per limit scope: limits from the record that has them, scopes listed, most days', () => {
    const u = summariseUtilization('SHA-07-002', [
      record({ limitScope: 'INDIVIDUAL', individualMaxLimit: 5000, individualUtilisedLimit: 100, utilizationDays: 1 }),
      record({ limitScope: 'HOUSEHOLD', householdMaxLimit: 20000, householdUtilisedLimit: 9000, utilizationDays: 4 }),
    ]);
    expect(u).toMatchObject({ available: true, individual: { remainingKes: 4900 }, household: { remainingKes: 11000 }, limitScope: 'INDIVIDUAL, HOUSEHOLD', utilizationDays: 4 });
  });

  it('is not available when any scope is spent or says it is not eligible, nor when nothing was answered', () => {
    expect(
      summariseUtilization('X', [record({ limitScope: 'INDIVIDUAL', individualMaxLimit: 5000, individualUtilisedLimit: 100 }), record({ limitScope: 'HOUSEHOLD', householdMaxLimit: 20000, householdUtilisedLimit: 20000 })]).available,
    ).toBe(false);
    expect(summariseUtilization('X', [record({ eligible: false, nextAvailableDate: '2026-07-01' })])).toMatchObject({ available: false, nextAvailableAt: '2026-07-01' });
    expect(summariseUtilization('X', []).available).toBe(false);
  });
});
