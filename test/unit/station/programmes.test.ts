// Issue 15's readings in the core: the security labels that keep an SHR entry off the screen, a
// facility's operational status read leniently, the POMSF policy year, the bed rows and the
// referral line of a discharge's notes.
import { describe, expect, it } from 'vitest';
import type { FhirBundle, JsonValue } from '../../../electron/payer';
import {
  bedOccupancyOf,
  facilityQuery,
  facilitySummaryOf,
  healthRecordOf,
  policyYearOf,
  pomsfTariffsOf,
  referralNotes,
  showable,
} from '../../../electron/station/programmes';

const CONF = 'http://terminology.hl7.org/CodeSystem/v3-Confidentiality';
const ACT = 'http://terminology.hl7.org/CodeSystem/v3-ActCode';
const labelled = (...security: { system?: string; code?: string }[]) => ({ resourceType: 'Observation', meta: { security } });

describe('security labels', () => {
  it.each([
    ['no meta', { resourceType: 'Observation' }, true],
    ['no labels', { meta: {} }, true],
    ['normal', labelled({ system: CONF, code: 'N' }), true],
    ['low, without a system', labelled({ code: 'L' }), true],
    ['restricted', labelled({ system: CONF, code: 'R' }), false],
    ['very restricted', labelled({ system: CONF, code: 'V' }), false],
    ['normal but HIV', labelled({ system: CONF, code: 'N' }, { system: ACT, code: 'HIV' }), false],
    ['psychiatry alone', labelled({ system: ACT, code: 'PSY' }), false],
    ['an unknown code', labelled({ system: CONF, code: 'Q' }), false],
    ['a label without a code', labelled({ system: CONF }), false],
    ['labels that are not a list', { meta: { security: 'R' } }, false],
  ] as const)('%s → shown: %s', (_what, resource, shown) => {
    expect(showable(resource as never)).toBe(shown);
  });

  it('counts what it withholds and shows only the patient’s own service requests', () => {
    const observations: FhirBundle = {
      total: 3,
      next: undefined,
      nextPageToken: undefined,
      resources: [
        { resourceType: 'Observation', id: 'a', code: { coding: [{ display: 'Heart rate' }] }, valueQuantity: { value: 70, unit: '/min' }, effectiveDateTime: '2026-11-20T08:00:00+03:00' },
        { ...labelled({ system: CONF, code: 'R' }), id: 'b', code: { text: 'Hidden result' } },
        { ...labelled({ system: CONF, code: 'N' }, { system: ACT, code: 'STD' }), id: 'c', code: { text: 'Hidden screen' } },
      ],
    };
    const requests: Record<string, JsonValue>[] = [
      { resourceType: 'ServiceRequest', id: 's1', status: 'active', subject: { reference: 'Patient/CR1' }, performer: [{ reference: 'Organization/FID-00-000005-0' }] },
      { resourceType: 'ServiceRequest', id: 's1', status: 'active', subject: { reference: 'Patient/CR1' } },
      { resourceType: 'ServiceRequest', id: 's2', status: 'active', subject: { reference: 'Patient/CR2' } },
      { ...labelled({ system: CONF, code: 'R' }), resourceType: 'ServiceRequest', id: 's3', subject: { reference: 'Patient/CR1' } },
    ];
    const record = healthRecordOf({ patientRef: 'pt_abcdef01', maskedName: 'W*** K***' }, 'CR1', observations, requests, '2026-11-25T10:00:00.000Z');
    expect(record.observations).toEqual([{ id: 'a', name: 'Heart rate', value: '70 /min', effectiveAt: '2026-11-20T05:00:00.000Z', status: null }]);
    expect(record.serviceRequests).toEqual([{ id: 's1', status: 'active', requestedAt: null, performer: 'FID-00-000005-0' }]);
    expect(record.withheld).toBe(3);
    expect(JSON.stringify(record)).not.toContain('Hidden');
  });
});

describe('facilities', () => {
  it('searches an FR code or an MFL number as an identifier and anything else as a name', () => {
    expect(facilityQuery(' fid-00-000005-0 ')).toEqual({ identifier: 'FID-00-000005-0', identifier_type: 'fr-code' });
    expect(facilityQuery('Mlima')).toEqual({ name: 'Mlima' });
    expect(facilityQuery('90005')).toEqual({ identifier: '90005', identifier_type: 'mfl' });
    expect(facilityQuery('Level 4')).toEqual({ name: 'Level 4' });
  });

  it.each([
    ['ACTIVE', 'yes'],
    ['Suspended', 'no'],
    ['CLOSED', 'no'],
    ['Under review', 'yes'],
    [undefined, 'unknown'],
  ] as const)('reads SHA status %s as operational %s, and an empty contract status as unknown', (status, operational) => {
    const summary = facilitySummaryOf({ code: 'FID-1', name: 'X', level: undefined, shaOperationalStatus: status, shaContractStatus: undefined, raw: {} });
    expect(summary).toMatchObject({ operational, contractStatus: null, level: null });
  });

  it('puts the destination first in the notes', () => {
    expect(referralNotes({ code: 'FID-00-000005-0', name: 'Mlima' }, 'For CT.')).toBe('Referred to Mlima (FID-00-000005-0). For CT.');
    expect(referralNotes({ code: 'FID-00-000005-0', name: 'Mlima' }, null)).toBe('Referred to Mlima (FID-00-000005-0).');
    expect(referralNotes(null, 'As is.')).toBe('As is.');
  });
});

describe('POMSF', () => {
  it('turns the policy year on 1 July', () => {
    expect(policyYearOf(new Date(2026, 5, 30, 23, 59).getTime())).toBe('2025');
    expect(policyYearOf(new Date(2026, 6, 1, 0, 0).getTime())).toBe('2026');
  });

  it('reads the one tariff shape seen and says so when SHA answers otherwise', () => {
    expect(pomsfTariffsOf({ tariffs: [{ intervention_code: 'SHA-04-001', name: 'Day', tariff: 4800 }, { name: 'no code' }] }).items).toEqual([
      { interventionCode: 'SHA-04-001', name: 'Day', tariffKes: 4800 },
    ]);
    expect(() => pomsfTariffsOf([{ tariff: 1 }])).toThrow(/cannot read/);
  });
});

describe('bed occupancy', () => {
  it('leaves out bed types the facility lacks, and totals from the rows when the total is 0 (R, UAT)', () => {
    const view = bedOccupancyOf(
      {
        name: 'KNH',
        level: 'LEVEL 6',
        beds: { total: 0, normal: 1889, icu: 93, hdu: 0, dialysis: undefined, babyCots: 0 },
        visits: { inpatient: undefined, normal: 1500, icu: 80, hdu: 0, dialysis: undefined, newborn: 0 },
      },
      '2026-11-25T10:00:00.000Z',
    );
    expect(view.rows).toEqual([
      { bedType: 'normal', beds: 1889, inUse: 1500 },
      { bedType: 'icu', beds: 93, inUse: 80 },
    ]);
    expect(view).toMatchObject({ totalBeds: 1982, totalInUse: 1580 });
  });
});
