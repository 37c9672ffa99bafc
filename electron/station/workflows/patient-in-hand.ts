// The patient of an open workflow in full, for the banner over every screen of it (issue 23): what
// the look-up showed is kept sealed with the workflow while it is open (PatientFacts.inHand), so a
// reload, a lock or work taken up from the queue names the patient as the look-up did; it is
// dropped once the workflow ends. Lists, events and the record stay masked.
import type { PatientInHand } from '../../contract';
import { ageOf } from '../patients/record';
import type { AnyWorkflow, PatientFacts, PatientInHandRecord } from './types';

/** The workflow's patient, once it has one (an emergency may not know its patient yet). */
function patientOf(wf: AnyWorkflow): PatientFacts | null {
  return 'patient' in wf.data ? wf.data.patient : null;
}

/**
 * An ended workflow keeps no more of its patient than its masked name. The facts are replaced, not
 * changed in place: a visit and its discharge may hold the same object until they are next sealed.
 */
export function forgetPatientInHand(wf: AnyWorkflow): void {
  const patient = patientOf(wf);
  if (patient?.inHand === undefined) return;
  const { inHand: _dropped, ...rest } = patient;
  (wf.data as { patient: PatientFacts }).patient = rest;
}

/**
 * The banner's answer: what the open workflow keeps, else the patient's look-up while the station
 * still holds it (work begun before the workflows kept it); null for an ended workflow or none.
 */
export function patientInHandOf(
  wf: AnyWorkflow,
  ended: boolean,
  lookedUp: (ref: string) => PatientInHandRecord | null,
  now: number,
): PatientInHand | null {
  const patient = patientOf(wf);
  if (patient === null || ended) return null;
  const kept = patient.inHand ?? lookedUp(patient.ref);
  if (kept === null) return null;
  return {
    patientRef: patient.ref,
    identity: { fullName: kept.fullName, sex: kept.sex, dateOfBirth: kept.dateOfBirth, idNumberEnd: kept.idNumberEnd },
    maskedName: patient.maskedName,
    idType: kept.idType as PatientInHand['idType'],
    ageYears: ageOf(kept.dateOfBirth ?? undefined, now),
    scheme: kept.scheme,
  };
}
