// A looked-up patient as the station keeps them for the shift (sealed: ID number, registry id,
// name): the shapes the record has been kept in, oldest first. A record that reads no more is set
// aside; the nurse looks the patient up again.
import { z } from 'zod';
import { idType, interventionBrief, patientIdentity, scheme, serviceType, smsContact } from '../../contract';
import { SealError, type Sealer } from '../sealing';
import { unwrap, versioned, type ReadOutcome } from '../versioned';
import type { Agrees } from '../workflows/records/shared';
import type { StoredPatient } from './record';

/** Version 1: as kept up to 2026-11-28 (unversioned then). */
const patientV1 = z.strictObject({
  ref: z.string(),
  lookedUpAt: z.string(),
  idType,
  idNumber: z.string(),
  patientId: z.string(),
  fullName: z.string().nullable(),
  maskedName: z.string(),
  ageYears: z.number().nullable(),
  sex: patientIdentity.shape.sex.optional(),
  dateOfBirth: z.string().nullable().optional(),
  covered: z.boolean(),
  message: z.string().nullable(),
  reason: z.string().nullable(),
  possibleSolution: z.string().nullable(),
  schemes: z.array(scheme),
  coverKeys: z.array(z.strictObject({ schemeId: z.string(), principalCrId: z.string().nullable(), policyNumber: z.string().nullable() })).optional(),
  chosenSchemeId: z.string().nullable(),
  memberType: z.string().nullable(),
  coverageStart: z.string().nullable(),
  coverageEnd: z.string().nullable(),
  whitelisted: z.boolean(),
  biometricsEnforced: z.boolean().optional(),
  contractedFunds: z.array(z.string()).nullable(),
  contacts: z.array(smsContact),
  serviceType,
  suggested: interventionBrief.nullable(),
  unusableUntil: z.number().nullable(),
  detailsLoaded: z.boolean().optional(),
});

export const patientRecord = versioned(patientV1);

const agrees: Agrees<typeof patientV1, StoredPatient> = true;
void agrees;

/** A patient row's sealed part, read through its version's schema; `unreadable` when it cannot be opened. */
export function readPatient(sealer: Sealer, sealed: string): ReadOutcome<StoredPatient> | { ok: false; reason: 'unreadable'; detail: string } {
  let payload: unknown;
  try {
    payload = sealer.open(sealed);
  } catch (error) {
    if (error instanceof SealError) return { ok: false, reason: 'unreadable', detail: error.message };
    throw error;
  }
  const { version, record } = unwrap(payload);
  return patientRecord.read(version, record);
}
