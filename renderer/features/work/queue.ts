// The ward's queue (work.queue) and the answers in it the nurse has not seen yet: a doctor's or SHA's
// answer to a preauthorization or a whitelist request counts on the Work in progress tab until she
// opens that work, and is told once in a notice under the top bar. The queue is read again when a
// workflow changes (events come in bursts: once they settle) and every minute, since SHA's answers
// arrive by the station's own polls.
import { create } from 'zustand';
import type { WorkAnswer, WorkItem } from '../../../electron/contract';
import type { StationError } from '../../bridge/types';
import { call } from '../../state/bridge';
import { useNavigation } from '../../state/navigation';
import { holdsPatientData } from '../../state/patient-data';

interface QueueState {
  readonly items: readonly WorkItem[] | null;
  readonly error: StationError | null;
  /** Answers opened (the workflow shown since): no longer counted. */
  readonly seen: ReadonlySet<string>;
  /** Answers whose notice was put aside ("Later"): still counted, not told again. */
  readonly noticed: ReadonlySet<string>;
}

export const useQueue = create<QueueState>()(() => ({ items: null, error: null, seen: new Set(), noticed: new Set() }));
const set = useQueue.setState;

export function answerKey(workflowId: string, answer: WorkAnswer): string {
  return `${workflowId}|${answer.about}|${answer.by}|${answer.outcome}`;
}

/** The items with an answer the nurse has not opened yet. */
export function unseenAnswers(state: Pick<QueueState, 'items' | 'seen'>): WorkItem[] {
  return (state.items ?? []).filter((item) => item.answer !== null && !state.seen.has(answerKey(item.view.workflowId, item.answer)));
}

let reading: Promise<void> | null = null;

export async function refreshQueue(): Promise<void> {
  reading ??= (async () => {
    const answer = await call('work.queue', {});
    set(answer.ok ? { items: answer.value.items, error: null } : { error: answer.error });
    // An answer that comes in while its work is on screen is seen as it comes.
    const route = useNavigation.getState().route;
    if (route.name === 'workflow') sawWorkflow(route.workflowId);
  })().finally(() => {
    reading = null;
  });
  await reading;
}

let settleTimer: ReturnType<typeof setTimeout> | undefined;
/** A workflow changed: the queue is read again once the burst of events has settled. */
export function queueMayHaveChanged(): void {
  clearTimeout(settleTimer);
  settleTimer = setTimeout(() => void refreshQueue(), 800);
}

/** The workflow is on screen: its answers have been seen. */
export function sawWorkflow(workflowId: string): void {
  const item = useQueue.getState().items?.find((i) => i.view.workflowId === workflowId);
  if (item?.answer == null) return;
  const key = answerKey(workflowId, item.answer);
  set((state) => ({ seen: new Set([...state.seen, key]) }));
}

export function putNoticeAside(keys: readonly string[]): void {
  set((state) => ({ noticed: new Set([...state.noticed, ...keys]) }));
}

// The queue names patients (masked): dropped with the rest when the station locks. What was seen stays.
holdsPatientData(() => set({ items: null, error: null }));
