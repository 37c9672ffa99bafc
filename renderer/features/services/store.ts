// The services the patient is covered for: the sub-benefits, then the interventions of those SHA
// has been asked for — one sub-benefit at a time, 1–4 s each on a ward, so they arrive one group
// after another, and the search works over what has arrived. The station asks for a few lists by
// itself (the ward's usual and its own); the others are asked for when the nurse picks one, when
// her search finds nothing in what has arrived (the station turns it into the lists it points to)
// or when she asks for the rest. The one chosen, and its utilization balance, never in front of consent.
import { create } from 'zustand';
import type { StationError } from '../../bridge/types';
import type { Intervention } from '../../../electron/contract';
import type { CommandOutput } from '../../bridge/types';
import { call } from '../../state/bridge';
import { holdsPatientData } from '../../state/patient-data';
import { filterInterventions, indexInterventions } from './filter';
import type { InterventionIndex } from './filter';

type SubBenefit = CommandOutput<'benefits.subBenefits'>['items'][number];
type Utilization = CommandOutput<'benefits.utilization'>;

interface ServicesState {
  readonly patientRef: string | null;
  /** The list of sub-benefits is on its way. */
  readonly loading: boolean;
  readonly error: StationError | null;
  readonly index: InterventionIndex;
  readonly subBenefits: readonly SubBenefit[];
  /** Each sub-benefit's interventions, by its code, once they arrived. */
  readonly groups: Readonly<Record<string, readonly Intervention[]>>;
  /** Sub-benefits whose interventions are still being asked of SHA. */
  readonly waiting: readonly string[];
  /** Sub-benefits SHA has not been asked for (the station asks when one is picked, searched for, or all are). */
  readonly unasked: readonly string[];
  /** The last search turned into lists (benefits.lookFor): each search is turned once. */
  readonly lookedFor: string;
  /** Sub-benefits whose interventions SHA did not give, with the last error. */
  readonly failed: readonly string[];
  readonly groupError: StationError | null;
  readonly search: string;
  readonly subBenefitCode: string;
  readonly scenario: string;
  readonly selected: string | null;
  readonly utilization: Readonly<Record<string, Utilization | StationError | 'loading' | undefined>>;
}

const empty = {
  patientRef: null,
  loading: false,
  error: null,
  index: indexInterventions([]),
  subBenefits: [],
  groups: {},
  waiting: [],
  unasked: [],
  lookedFor: '',
  failed: [],
  groupError: null,
  search: '',
  subBenefitCode: '',
  scenario: '',
  selected: null,
  utilization: {},
} as const;

export const useServices = create<ServicesState>()(() => ({ ...empty }));
const set = useServices.setState;

const pageSize = 1000;
const current = (patientRef: string) => useServices.getState().patientRef === patientRef;

/**
 * The sub-benefits, then the interventions of those the station has asked SHA for (joining its
 * calls: `background` never hurries them); the others wait until the nurse needs them.
 */
export function loadServices(patientRef: string, suggested: string | null): void {
  set({ ...empty, patientRef, loading: true, selected: suggested });
  if (suggested !== null) void loadUtilization(suggested);
  void (async () => {
    const answer = await call('benefits.subBenefits', { patientRef, pageSize });
    if (!current(patientRef)) return;
    if (!answer.ok) {
      set({ loading: false, error: answer.error });
      return;
    }
    const asked = answer.value.items.filter((s) => s.listing !== 'unasked').map((s) => s.code);
    const unasked = answer.value.items.filter((s) => s.listing === 'unasked').map((s) => s.code);
    set({ loading: false, subBenefits: answer.value.items, waiting: asked, unasked });
    await Promise.all(asked.map((code) => loadGroup(patientRef, code, true)));
  })();
}

/**
 * The station's suggestion, once the details bring it: chosen unless the nurse has chosen already
 * (the services may have come first); the services loaded if they were not.
 */
export function offerSuggestion(patientRef: string, suggested: string | null): void {
  if (!current(patientRef)) {
    loadServices(patientRef, suggested);
    return;
  }
  if (suggested === null || useServices.getState().selected !== null) return;
  set({ selected: suggested });
  void loadUtilization(suggested);
}

/** Asks for lists not asked yet: taken out of `unasked`, into `waiting`, and loaded. */
async function ask(patientRef: string, codes: readonly string[], background: boolean): Promise<void> {
  const fresh = codes.filter((code) => useServices.getState().unasked.includes(code));
  if (fresh.length === 0) return;
  set((state) => ({ unasked: state.unasked.filter((c) => !fresh.includes(c)), waiting: [...state.waiting, ...fresh] }));
  await Promise.all(fresh.map((code) => loadGroup(patientRef, code, background)));
}

/** The nurse asks for every list not asked yet: in their turn, a few at a time. */
export function askForTheRest(): void {
  const { patientRef, unasked } = useServices.getState();
  if (patientRef !== null) void ask(patientRef, unasked, true);
}

const LOOK_FOR_AFTER_MS = 400;
let lookForTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * A search that finds nothing in what has arrived, once every list asked for is in, is turned by
 * the station into the lists it points to (benefits.lookFor), which are asked for at once.
 */
async function lookFor(): Promise<void> {
  const { patientRef, search, index, waiting, unasked, lookedFor } = useServices.getState();
  const needle = search.trim();
  if (patientRef === null || needle.length < 3 || needle === lookedFor || unasked.length === 0 || waiting.length > 0) return;
  if (filterInterventions(index, { search: needle, subBenefitCode: '', scenario: '' }).length > 0) return;
  set({ lookedFor: needle });
  const answer = await call('benefits.lookFor', { patientRef, search: needle });
  if (!current(patientRef) || !answer.ok) return;
  await ask(patientRef, answer.value.subBenefitCodes, false);
}

/** One sub-benefit's interventions, every page; added to the search as they arrive. */
async function loadGroup(patientRef: string, code: string, background: boolean): Promise<void> {
  const items: Intervention[] = [];
  for (let page = 1; ; page++) {
    const answer = await call('benefits.interventions', { patientRef, subBenefitCode: code, page, pageSize, ...(background ? { background } : {}) });
    if (!current(patientRef)) return;
    if (!answer.ok) {
      set((state) => ({ waiting: state.waiting.filter((c) => c !== code), failed: [...new Set([...state.failed, code])], groupError: answer.error }));
      return;
    }
    items.push(...answer.value.items);
    if (page >= answer.value.totalPages) break;
  }
  set((state) => {
    const groups = { ...state.groups, [code]: items };
    return {
      groups,
      index: indexOf(state.subBenefits, groups),
      waiting: state.waiting.filter((c) => c !== code),
      failed: state.failed.filter((c) => c !== code),
    };
  });
  // The lists asked for are in: a search they did not answer may point to others.
  if (useServices.getState().waiting.length === 0) void lookFor();
}

/** The arrived interventions in the exchange's order of sub-benefits; one listed under two is kept under the first. */
function indexOf(subBenefits: readonly SubBenefit[], groups: Readonly<Record<string, readonly Intervention[]>>): InterventionIndex {
  const seen = new Set<string>();
  const items: Intervention[] = [];
  for (const s of subBenefits) {
    for (const item of groups[s.code] ?? []) {
      if (seen.has(item.code)) continue;
      seen.add(item.code);
      items.push(item);
    }
  }
  return indexInterventions(items);
}

export function retryServices(): void {
  const { patientRef, selected, failed, error } = useServices.getState();
  if (patientRef === null) return;
  if (error !== null) {
    loadServices(patientRef, selected);
    return;
  }
  set((state) => ({ waiting: [...state.waiting, ...failed], failed: [], groupError: null }));
  for (const code of failed) void loadGroup(patientRef, code, false);
}

export function setSearch(search: string): void {
  set({ search });
  clearTimeout(lookForTimer);
  lookForTimer = setTimeout(() => void lookFor(), LOOK_FOR_AFTER_MS);
}

/** A sub-benefit chosen whose interventions have not arrived: the nurse waits for it, so it is asked for now. */
export function setSubBenefit(subBenefitCode: string): void {
  set({ subBenefitCode });
  const { patientRef, waiting, unasked } = useServices.getState();
  if (patientRef === null) return;
  if (unasked.includes(subBenefitCode)) void ask(patientRef, [subBenefitCode], false);
  else if (waiting.includes(subBenefitCode)) void loadGroup(patientRef, subBenefitCode, false);
}

/** Where each kind of service is offered (the sub-benefit's care setting); a kind not named here may be anywhere. */
const settingsOfKind: Readonly<Record<string, readonly SubBenefit['careSetting'][]>> = {
  capitation: ['outpatient', 'both'],
  'elective-preauth': ['inpatient', 'both'],
  'per-diem': ['inpatient', 'both'],
};

/**
 * A kind of service chosen that none of the lists in hand holds: the nurse waits for it, so the
 * lists not asked yet that may hold it (by their care setting) are asked for now.
 */
export function setScenario(scenario: string): void {
  set({ scenario });
  const { patientRef, index, unasked, subBenefits } = useServices.getState();
  if (patientRef === null || scenario === '' || unasked.length === 0) return;
  if (filterInterventions(index, { search: '', subBenefitCode: '', scenario }).length > 0) return;
  const settings = settingsOfKind[scenario];
  const fitting = subBenefits.filter((b) => unasked.includes(b.code) && (settings === undefined || settings.includes(b.careSetting))).map((b) => b.code);
  void ask(patientRef, fitting, false);
}

export function select(code: string): void {
  set({ selected: code });
  const known = useServices.getState().utilization[code];
  if (known === undefined || (typeof known === 'object' && 'retryable' in known)) void loadUtilization(code);
}

async function loadUtilization(code: string): Promise<void> {
  const patientRef = useServices.getState().patientRef;
  if (patientRef === null) return;
  set((state) => ({ utilization: { ...state.utilization, [code]: 'loading' } }));
  const answer = await call('benefits.utilization', { patientRef, interventionCode: code });
  if (useServices.getState().patientRef !== patientRef) return;
  set((state) => ({ utilization: { ...state.utilization, [code]: answer.ok ? answer.value : answer.error } }));
}

export function retryUtilization(code: string): void {
  void loadUtilization(code);
}

export function selectedIntervention(state: ServicesState): Intervention | null {
  return state.selected === null ? null : knownIntervention(state, state.patientRef, state.selected);
}

/** An intervention of this patient's as SHA listed it, if it has arrived (null for another patient's, or one not in yet). */
export function knownIntervention(state: ServicesState, patientRef: string | null, code: string): Intervention | null {
  if (patientRef === null || state.patientRef !== patientRef) return null;
  return state.index.items.find((item) => item.code === code) ?? null;
}

holdsPatientData(() => set({ ...empty }));
