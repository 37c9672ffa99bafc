// The services the patient is covered for: the sub-benefits, then each one's interventions as SHA
// lists them — one sub-benefit at a time, 1–4 s each on a ward, so they arrive one group after
// another (the station asks for the ward's usual and most-used ones first, the rest in the
// background) and the search works over what has arrived; the one chosen, and its utilization
// balance beside it, never in front of consent.
import { create } from 'zustand';
import type { StationError } from '../../bridge/types';
import type { Intervention } from '../../../electron/contract';
import type { CommandOutput } from '../../bridge/types';
import { call } from '../../state/bridge';
import { holdsPatientData } from '../../state/patient-data';
import { indexInterventions } from './filter';
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
 * The sub-benefits, then every one's interventions, each asked for in its turn behind the nurse's
 * own calls (`background`): the station answers the ones it already has at once.
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
    const codes = answer.value.items.map((s) => s.code);
    set({ loading: false, subBenefits: answer.value.items, waiting: codes });
    await Promise.all(codes.map((code) => loadGroup(patientRef, code, true)));
  })();
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
}

/** A sub-benefit chosen whose interventions have not arrived: the nurse waits for it, so it is asked for now. */
export function setSubBenefit(subBenefitCode: string): void {
  set({ subBenefitCode });
  const { patientRef, waiting } = useServices.getState();
  if (patientRef !== null && waiting.includes(subBenefitCode)) void loadGroup(patientRef, subBenefitCode, false);
}

export function setScenario(scenario: string): void {
  set({ scenario });
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
