// The station's claims (claims.list) and how many need the nurse, for the Claims tab's count and
// its list. Read at start, when a workflow changes (once a burst of events settles: a visit ended,
// SHA's state read back) and every few minutes; the core reads SHA back itself on its own schedule.
import { create } from 'zustand';
import type { ClaimSummary } from '../../../electron/contract';
import type { StationError } from '../../bridge/types';
import { call } from '../../state/bridge';
import { holdsPatientData } from '../../state/patient-data';

interface ClaimsState {
  readonly items: readonly ClaimSummary[] | null;
  readonly needsNurse: number;
  /** Claims returned for papers with 4 days or fewer left (the tab warns). */
  readonly closeToDeadline: number;
  readonly error: StationError | null;
}

export const useClaims = create<ClaimsState>()(() => ({ items: null, needsNurse: 0, closeToDeadline: 0, error: null }));

let reading: Promise<void> | null = null;

/** The claims as the station last read them back; with `checkWithSha`, read back from SHA first. */
export async function refreshClaims(checkWithSha = false): Promise<void> {
  // A check with SHA waits for a plain read under way, then goes itself.
  if (checkWithSha && reading !== null) await reading;
  reading ??= (async () => {
    const answer = await call('claims.list', checkWithSha ? { checkWithSha } : {});
    useClaims.setState(answer.ok ? { items: answer.value.items, needsNurse: answer.value.needsNurse, closeToDeadline: answer.value.closeToDeadline, error: null } : { error: answer.error });
  })().finally(() => {
    reading = null;
  });
  await reading;
}

let settleTimer: ReturnType<typeof setTimeout> | undefined;
/** A workflow changed: the claims are read again once the burst of events has settled. */
export function claimsMayHaveChanged(): void {
  clearTimeout(settleTimer);
  settleTimer = setTimeout(() => void refreshClaims(), 1000);
}

/** One claim as the station answered it now: the list follows without asking again. */
export function claimAnswered(claim: ClaimSummary): void {
  const { items } = useClaims.getState();
  if (items === null) return;
  const next = items.map((i) => (i.workflowId === claim.workflowId ? pick(claim) : i));
  useClaims.setState({
    items: next,
    needsNurse: next.filter((i) => i.attention !== 'none').length,
    closeToDeadline: next.filter((i) => i.resubmitBy?.closeToDeadline === true).length,
  });
}

function pick(c: ClaimSummary): ClaimSummary {
  const { workflowId, kind, patient, intervention, invoiceNumber, visitNumber, status, attention, totalKes, checkedAt, nextCheckAt, resubmitBy } = c;
  return { workflowId, kind, patient, intervention, invoiceNumber, visitNumber, status, attention, totalKes, checkedAt, nextCheckAt, resubmitBy };
}

holdsPatientData(() => {
  clearTimeout(settleTimer);
  useClaims.setState({ items: null, needsNurse: 0, closeToDeadline: 0, error: null });
});
