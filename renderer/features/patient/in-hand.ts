// The patient in full for the banner of a workflow's screens (patient.inHand), asked of the station
// once per workflow and patient: after a reload, a lock or "Continue" from the queue the renderer
// holds no look-up, and the station keeps the patient of an open workflow for exactly this. Dropped
// with every other patient detail when the station locks.
import { create } from 'zustand';
import type { PatientInHand, PatientSummary } from '../../../electron/contract';
import { call } from '../../state/bridge';
import { holdsPatientData } from '../../state/patient-data';

interface InHandState {
  /** By `${workflowId}:${patientRef}`: the answer, null when the station holds none, absent while asked. */
  readonly known: Readonly<Record<string, PatientInHand | null>>;
}

export const useInHand = create<InHandState>()(() => ({ known: {} }));

const asked = new Set<string>();

export const inHandKey = (workflowId: string, patientRef: string) => `${workflowId}:${patientRef}`;

/** Asks the station once for the patient of a workflow (again for a new patient, as an emergency is identified). */
export function loadInHand(workflowId: string, patientRef: string): void {
  const key = inHandKey(workflowId, patientRef);
  if (asked.has(key)) return;
  asked.add(key);
  void call('patient.inHand', { workflowId }).then((answer) => {
    if (!asked.has(key)) return;
    if (answer.ok) useInHand.setState((s) => ({ known: { ...s.known, [key]: answer.value } }));
    else asked.delete(key);
  });
}

/** The look-up's answer as the banner shows it: the same facts, the scheme in use by name. */
export function inHandOfSummary(summary: PatientSummary): PatientInHand {
  const scheme = summary.schemes.find((s) => s.schemeId === summary.chosenSchemeId) ?? null;
  return {
    patientRef: summary.patientRef,
    identity: summary.identity,
    maskedName: summary.maskedName,
    idType: summary.idType,
    ageYears: summary.ageYears,
    scheme: scheme?.name ?? null,
  };
}

holdsPatientData(() => {
  asked.clear();
  useInHand.setState({ known: {} });
});
