// The licence state the doctor look-up shows, from what the professionals registry says: withdrawn
// or not active first, then a last licence that has ended (a date ends at the end of its day).
import { describe, expect, it } from 'vitest';
import type { Professional } from '../../../electron/payer';
import { licenceOf } from '../../../electron/station/commands/lookups';

const base: Professional = {
  registrationId: 'A12345',
  fullName: 'Dr. Achieng Odhiambo',
  licensingBody: 'KMPDC',
  specialty: 'General practice',
  cadre: 'Medical Officer',
  active: true,
  status: 'ACTIVE',
  licences: [{ type: 'PRACTICE', start: '2026-01-01', end: '2026-12-31' }],
  message: {},
};
const at = (iso: string) => Date.parse(iso);

describe('the licence state', () => {
  it('is active while the last licence runs, to the end of its last day', () => {
    expect(licenceOf(base, at('2026-12-31T23:00:00Z'))).toEqual({ state: 'active', ends: '2026-12-31' });
  });

  it('is expired once the last licence has ended, the newest licence deciding', () => {
    expect(licenceOf(base, at('2027-01-01T00:00:01Z')).state).toBe('expired');
    const renewed = { ...base, licences: [...base.licences, { type: 'PRACTICE', start: '2027-01-01', end: '2027-12-31' }] };
    expect(licenceOf(renewed, at('2027-03-01T00:00:00Z'))).toEqual({ state: 'active', ends: '2027-12-31' });
  });

  it('is not active when the registry says so, whatever the dates', () => {
    expect(licenceOf({ ...base, active: false }, at('2026-06-01T00:00:00Z')).state).toBe('inactive');
    expect(licenceOf({ ...base, status: 'SUSPENDED', active: undefined }, at('2026-06-01T00:00:00Z')).state).toBe('inactive');
  });

  it('is unknown when the registry says nothing of it', () => {
    expect(licenceOf({ ...base, active: undefined, status: undefined, licences: [] }, at('2026-06-01T00:00:00Z'))).toEqual({ state: 'unknown', ends: null });
  });
});
