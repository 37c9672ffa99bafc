// The patient being looked after: the look-up, its answer (eligibility at a glance, with the
// station core's defaults already chosen) and this shift's recent look-ups.
import { create } from 'zustand';
import type { StationError } from '../../bridge/types';
import type { PatientSummary } from '../../../electron/contract';
import { call } from '../../state/bridge';
import { go } from '../../state/navigation';
import { holdsPatientData } from '../../state/patient-data';
import { loadServices } from '../services/store';

export type IdType = PatientSummary['idType'];
type RecentPatient = { readonly patientRef: string; readonly maskedName: string; readonly idType: IdType; readonly maskedIdNumber: string; readonly covered: boolean; readonly lookedUpAt: string };

interface PatientState {
  readonly idType: IdType;
  readonly idNumber: string;
  readonly busy: boolean;
  readonly error: StationError | null;
  /** What the failed look-up asked for, to word the message ("National ID 99999999 was not found"). */
  readonly asked: { readonly idType: IdType; readonly idNumber: string } | null;
  readonly summary: PatientSummary | null;
  readonly choosingScheme: boolean;
  readonly schemeError: StationError | null;
  readonly recent: readonly RecentPatient[];
}

const empty = {
  idNumber: '',
  busy: false,
  error: null,
  asked: null,
  summary: null,
  choosingScheme: false,
  schemeError: null,
  recent: [],
} as const;

export const usePatient = create<PatientState>()(() => ({ idType: 'National ID', ...empty }));
const set = usePatient.setState;

export function setIdType(idType: IdType): void {
  set({ idType });
}

export function setIdNumber(idNumber: string): void {
  set({ idNumber, error: null });
}

export async function lookUp(): Promise<void> {
  const { idType, idNumber, busy } = usePatient.getState();
  const number = idNumber.trim();
  if (busy || number === '') return;
  set({ busy: true, error: null, asked: { idType, idNumber: number } });
  const answer = await call('patient.lookUp', { idType, idNumber: number });
  if (!answer.ok) {
    set({ busy: false, error: answer.error });
    return;
  }
  set({ busy: false, summary: answer.value, idNumber: '', schemeError: null });
  if (answer.value.covered) loadServices(answer.value.patientRef, answer.value.suggestedIntervention?.code ?? null);
  go({ name: 'patient' });
  void loadRecent();
}

/** Checks the same patient again (after paying contributions, say). */
export async function lookUpAgain(): Promise<void> {
  const asked = usePatient.getState().asked;
  if (asked === null) return;
  set({ idType: asked.idType, idNumber: asked.idNumber });
  await lookUp();
}

export async function chooseScheme(schemeId: string): Promise<void> {
  const summary = usePatient.getState().summary;
  if (summary === null) return;
  set({ choosingScheme: true, schemeError: null });
  const answer = await call('patient.chooseScheme', { patientRef: summary.patientRef, schemeId });
  if (!answer.ok) {
    set({ choosingScheme: false, schemeError: answer.error });
    return;
  }
  set({ choosingScheme: false, summary: answer.value });
  if (answer.value.covered) loadServices(answer.value.patientRef, answer.value.suggestedIntervention?.code ?? null);
}

export async function loadRecent(): Promise<void> {
  const answer = await call('patient.recent', {});
  if (answer.ok) set({ recent: answer.value.items });
}

export function forgetPatient(): void {
  set({ summary: null, error: null, asked: null });
}

holdsPatientData(() => set({ ...empty }));
