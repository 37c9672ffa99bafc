// Issue 15's reads beside the consent path: facilities found in the registry (a referral's
// destination), the facility's bed occupancy, a POMSF member's balances, and the read-only view of
// a patient's shared health record with its security labels honoured. None of them changes
// anything at the exchange.
import { z } from 'zod';
import { regulationBodies } from '../vocabulary';
import { interventionCode, kes, noInput, patientRef, shortText, timestamp, workflowId } from './common';

/** A facility registry code (FR code), such as FID-00-000005-0. */
export const facilityCode = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9-]{2,39}$/, 'must be a facility registry code such as FID-00-000005-0');

/**
 * A facility as the registry answers it. `operational` is SHA's operational status read leniently
 * (suspended, closed or inactive is `no`; nothing said is `unknown`): a facility is shown either way,
 * with its status, since wrongly hiding one that could take the patient is the worse failure.
 */
export const facilitySummary = z.strictObject({
  code: facilityCode,
  name: shortText.nullable(),
  level: shortText.nullable(),
  operationalStatus: shortText.nullable(),
  operational: z.enum(['yes', 'no', 'unknown']),
  /** The registry's contract status: empty on live rows, which means unknown, never "not contracted". */
  contractStatus: shortText.nullable(),
});

/** Where a referred patient goes: the registry's code and the name it gave. */
export const referralDestination = z.strictObject({ code: facilityCode, name: shortText });

const count = z.number().int().min(0).max(1_000_000).nullable();

export const bedType = z.enum(['normal', 'icu', 'hdu', 'dialysis', 'newborn']);

export const bedOccupancyView = z.strictObject({
  facilityName: shortText.nullable(),
  level: shortText.nullable(),
  /** One row per bed type SHA counts; a count SHA did not give is null, never zero. */
  rows: z.array(z.strictObject({ bedType, beds: count, inUse: count })).max(10),
  totalBeds: count,
  totalInUse: count,
  readAt: timestamp,
});

export const pomsfBenefitView = z.strictObject({
  code: shortText.nullable(),
  name: shortText.nullable(),
  /** OUTPATIENT or INPATIENT, as SHA words it. */
  type: shortText.nullable(),
  /** A family-shared pot: the balance is the family's, not the patient's alone. */
  familyShared: z.boolean(),
  limitKes: kes.nullable(),
  /** What is left; null when SHA did not say (never read as zero: zero means the cover is spent). */
  balanceKes: kes.nullable(),
});

export const pomsfBalanceView = z.strictObject({
  /** The year the policy year starts in (policy years turn on 1 July). */
  policyYear: z.string().regex(/^\d{4}$/),
  policies: z
    .array(
      z.strictObject({
        name: shortText.nullable(),
        schemeName: shortText.nullable(),
        status: shortText.nullable(),
        benefits: z.array(pomsfBenefitView).max(50),
      }),
    )
    .max(10),
});

export const pomsfTariffsView = z.strictObject({
  items: z.array(z.strictObject({ interventionCode: shortText, name: shortText.nullable(), tariffKes: kes.nullable() })).max(20),
});

export const observationView = z.strictObject({
  id: shortText,
  name: shortText,
  value: shortText.nullable(),
  effectiveAt: timestamp.nullable(),
  status: shortText.nullable(),
});

export const serviceRequestView = z.strictObject({
  id: shortText,
  status: shortText.nullable(),
  requestedAt: timestamp.nullable(),
  /** The facility the request is addressed to, as SHA names it. */
  performer: shortText.nullable(),
});

export const healthRecordView = z.strictObject({
  patient: z.strictObject({ patientRef, maskedName: z.string().max(200) }),
  observations: z.array(observationView).max(100),
  /** More observations exist than the first page shows. */
  moreObservations: z.boolean(),
  serviceRequests: z.array(serviceRequestView).max(100),
  /** Entries left out because a security label restricts them: counted, never shown. */
  withheld: z.number().int().min(0),
  readAt: timestamp,
});

export const programmeCommands = {
  /** The facility registry, by name or by FR code; at most 50 facilities. */
  'facilities.search': {
    input: z.strictObject({ search: z.string().trim().min(2, 'type at least two letters').max(100) }),
    output: z.strictObject({ items: z.array(facilitySummary).max(50) }),
  },
  /** This facility's beds and how many are in use, by bed type. */
  'beds.occupancy': { input: noInput, output: bedOccupancyView },
  /** A POMSF member's policies and balances for the current policy year. NOT_FOUND: not a POMSF member. */
  'pomsf.balance': { input: z.strictObject({ patientRef }), output: pomsfBalanceView },
  /** POMSF tariffs at this facility for interventions given by a health worker. */
  'pomsf.tariffs': {
    input: z.strictObject({
      interventionCodes: z.array(interventionCode).min(1).max(20),
      doctor: z.strictObject({ registrationNumber: z.string().trim().min(2).max(40), regulationBody: z.enum(regulationBodies) }),
    }),
    output: pomsfTariffsView,
  },
  /**
   * The shared health record of an open visit's patient, read with the visit's consent: the
   * observations and the service requests (referrals) of this facility that concern the patient.
   * `practitionerId` is the reader's practitioner unique identifier (X-PUID).
   */
  'shr.record': {
    input: z.strictObject({ workflowId, practitionerId: z.string().trim().regex(/^[A-Za-z0-9/_-]{2,40}$/, 'must be your practitioner number') }),
    output: healthRecordView,
  },
};
