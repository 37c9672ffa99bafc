// The services the patient is covered for: sub-benefits and every intervention (loaded once per
// patient, filtered locally), the one chosen, and its utilization balance.
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
  readonly loading: boolean;
  readonly error: StationError | null;
  readonly index: InterventionIndex;
  readonly subBenefits: readonly SubBenefit[];
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
  search: '',
  subBenefitCode: '',
  scenario: '',
  selected: null,
  utilization: {},
} as const;

export const useServices = create<ServicesState>()(() => ({ ...empty }));
const set = useServices.setState;

const pageSize = 1000;

export function loadServices(patientRef: string, suggested: string | null): void {
  set({ ...empty, patientRef, loading: true, selected: suggested });
  if (suggested !== null) void loadUtilization(suggested);
  void (async () => {
    const [subBenefits, first] = await Promise.all([
      call('benefits.subBenefits', { patientRef, pageSize }),
      call('benefits.interventions', { patientRef, page: 1, pageSize }),
    ]);
    if (useServices.getState().patientRef !== patientRef) return;
    if (!first.ok) {
      set({ loading: false, error: first.error });
      return;
    }
    const rest = await Promise.all(
      Array.from({ length: Math.max(0, first.value.totalPages - 1) }, (_, i) => call('benefits.interventions', { patientRef, page: i + 2, pageSize })),
    );
    const failed = rest.find((answer) => !answer.ok);
    const items: Intervention[] = [...first.value.items, ...rest.flatMap((answer) => (answer.ok ? answer.value.items : []))];
    if (useServices.getState().patientRef !== patientRef) return;
    set({
      loading: false,
      error: failed !== undefined && !failed.ok ? failed.error : null,
      index: indexInterventions(items),
      subBenefits: subBenefits.ok ? subBenefits.value.items : [],
    });
  })();
}

export function retryServices(): void {
  const { patientRef, selected } = useServices.getState();
  if (patientRef !== null) loadServices(patientRef, selected);
}

export function setSearch(search: string): void {
  set({ search });
}

export function setSubBenefit(subBenefitCode: string): void {
  set({ subBenefitCode });
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
  if (state.selected === null) return null;
  return state.index.items.find((item) => item.code === state.selected) ?? null;
}

holdsPatientData(() => set({ ...empty }));
