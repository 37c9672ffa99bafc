// Every workflow view the renderer has seen, by id, kept current by workflow.updated events and by
// the answers to commands. Screens draw a view and offer only the commands in its `next`; the
// station core decides everything else.
import { create } from 'zustand';
import type { CommandInput, CommandName, CommandOutcome, StationError } from '../bridge/types';
import type { WorkflowView } from '../../electron/contract';
import { call } from './bridge';
import { holdsPatientData } from './patient-data';

/** A command that failed, kept so the screen can say why and offer to send it again. */
export interface Failure {
  readonly command: CommandName;
  readonly input: unknown;
  readonly error: StationError;
}

interface WorkflowsState {
  readonly views: Readonly<Record<string, WorkflowView>>;
  /** The command in progress on a workflow (or on a pseudo-key such as `patient`), if any. */
  readonly pending: Readonly<Record<string, CommandName | undefined>>;
  readonly failures: Readonly<Record<string, Failure | undefined>>;
  upsert(view: WorkflowView): void;
  clearFailure(key: string): void;
}

export const useWorkflows = create<WorkflowsState>()((set) => ({
  views: {},
  pending: {},
  failures: {},
  upsert: (view) =>
    set((state) => {
      const known = state.views[view.workflowId];
      // Events and answers can cross; keep the newer view.
      if (known !== undefined && Date.parse(known.updatedAt) > Date.parse(view.updatedAt)) return state;
      return { views: { ...state.views, [view.workflowId]: view } };
    }),
  clearFailure: (key) => set((state) => ({ failures: { ...state.failures, [key]: undefined } })),
}));

export function isWorkflowView(value: unknown): value is WorkflowView {
  return typeof value === 'object' && value !== null && 'workflowId' in value && 'kind' in value && 'state' in value;
}

/**
 * Runs a command on behalf of a workflow (or another key), recording it as pending, keeping the
 * returned view and remembering a failure for the screen to show with its way out.
 */
export async function run<N extends CommandName>(key: string, name: N, input: CommandInput<N>): Promise<CommandOutcome<N>> {
  useWorkflows.setState((state) => ({ pending: { ...state.pending, [key]: name }, failures: { ...state.failures, [key]: undefined } }));
  const outcome = await call(name, input);
  useWorkflows.setState((state) => ({
    pending: { ...state.pending, [key]: undefined },
    failures: outcome.ok ? state.failures : { ...state.failures, [key]: { command: name, input, error: outcome.error } },
  }));
  if (outcome.ok && isWorkflowView(outcome.value)) useWorkflows.getState().upsert(outcome.value);
  return outcome;
}

/** Sends the failed command again, as it was. */
export async function retry(key: string): Promise<void> {
  const failure = useWorkflows.getState().failures[key];
  if (failure === undefined) return;
  await run(key, failure.command, failure.input as CommandInput<typeof failure.command>);
}

export async function refreshView(workflowId: string): Promise<void> {
  const outcome = await call('workflow.get', { workflowId });
  if (outcome.ok) useWorkflows.getState().upsert(outcome.value);
}

/** After a reconnect, events may have been missed: fetch every view shown so far again. */
export async function refreshAllViews(): Promise<void> {
  await Promise.all(Object.keys(useWorkflows.getState().views).map(refreshView));
}

export type ViewOf<K extends WorkflowView['kind']> = Extract<WorkflowView, { kind: K }>;

holdsPatientData(() => useWorkflows.setState({ views: {}, pending: {}, failures: {} }));
