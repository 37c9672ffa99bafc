// The patient being looked after: the look-up, its answer (eligibility at a glance the moment SHA
// answers it; then the phones and the station core's defaults — the covered scheme, the suggested
// service), and this shift's recent look-ups.
import { create } from 'zustand';
import type { StationError } from '../../bridge/types';
import type { PatientSummary } from '../../../electron/contract';
import { call } from '../../state/bridge';
import { go } from '../../state/navigation';
import { holdsPatientData } from '../../state/patient-data';
import { loadServices, offerSuggestion } from '../services/store';

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
  /** The phones and the suggested service, asked of SHA after eligibility: on their way, in, or failed. */
  readonly details: 'loading' | 'ready' | StationError;
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
  details: 'ready',
} as const;

export const usePatient = create<PatientState>()(() => ({ idType: 'National ID', ...empty }));
const set = usePatient.setState;

export function setIdType(idType: IdType): void {
  set({ idType });
}

export function setIdNumber(idNumber: string): void {
  set({ idNumber, error: null });
}

/** Which look-up is current: a cancelled or superseded one's answer is dropped. */
let lookUps = 0;

/**
 * Eligibility first: the patient screen opens on "Covered"/"Not covered" the moment SHA answers
 * it; the phones and the suggested service follow (loadDetails), then the services.
 */
export async function lookUp(): Promise<void> {
  const { idType, idNumber, busy } = usePatient.getState();
  const number = idNumber.trim();
  if (busy || number === '') return;
  const mine = ++lookUps;
  set({ busy: true, error: null, asked: { idType, idNumber: number } });
  const answer = await call('patient.lookUp', { idType, idNumber: number, answerAt: 'eligibility' });
  if (mine !== lookUps) return;
  if (!answer.ok) {
    set({ busy: false, error: answer.error });
    return;
  }
  const summary = answer.value;
  set({ busy: false, summary, idNumber: '', schemeError: null, details: summary.detailsLoading ? 'loading' : 'ready' });
  go({ name: 'patient', patientRef: summary.patientRef });
  // The services beside the details, not after them: the nurse may search while the phones come.
  if (summary.covered) loadServices(summary.patientRef, summary.suggestedIntervention?.code ?? null);
  if (summary.detailsLoading) void loadDetails();
  void loadRecent();
}

/** Stops waiting for a look-up: its answer, when it comes, is dropped, and the form is the nurse's again. */
export function cancelLookUp(): void {
  lookUps++;
  set({ busy: false });
}

/** The phones and the suggested service (asked of SHA again after a failure), chosen unless the nurse chose first. */
export async function loadDetails(): Promise<void> {
  const patientRef = usePatient.getState().summary?.patientRef;
  if (patientRef === undefined) return;
  set({ details: 'loading' });
  const answer = await call('patient.details', { patientRef });
  if (usePatient.getState().summary?.patientRef !== patientRef) return;
  if (!answer.ok) {
    set({ details: answer.error });
    return;
  }
  set({ summary: answer.value, details: 'ready' });
  if (answer.value.covered) offerSuggestion(patientRef, answer.value.suggestedIntervention?.code ?? null);
}

/**
 * The patient screen reopened by its ref (a reload, Back or Forward, the lock opened again): the
 * station's look-up asked for again. Where the station no longer holds it (over a day old), the
 * look-up screen says so.
 */
export async function reopenPatient(patientRef: string): Promise<void> {
  if (reopening === patientRef) return;
  reopening = patientRef;
  const mine = ++lookUps;
  set({ busy: true, error: null, summary: null, asked: null, details: 'loading' });
  const answer = await call('patient.details', { patientRef });
  if (reopening === patientRef) reopening = null;
  if (mine !== lookUps) return;
  if (!answer.ok) {
    set({ busy: false, error: answer.error, details: 'ready' });
    go({ name: 'lookup' });
    return;
  }
  set({ busy: false, summary: answer.value, schemeError: null, details: 'ready' });
  if (answer.value.covered) loadServices(patientRef, answer.value.suggestedIntervention?.code ?? null);
  void loadRecent();
}
let reopening: string | null = null;

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
  set({ summary: null, error: null, asked: null, details: 'ready' });
}

holdsPatientData(() => set({ ...empty }));
