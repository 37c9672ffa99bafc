// How long SHA waits for the papers of a claim it returned (DRAFT_RESUBMIT_DOCUMENTS). SHA's Missing
// Documents Resubmission Module gives a facility 14 days from its notice to resubmit, then rejects
// the claim by itself (rgk.co.ke, 2025-09-16, "SHA gives hospitals 15 days…"; eastleighvoice.co.ke,
// "SHA gives hospitals 15 days to verify Sh3 billion flagged claims": "once notified, providers will
// have 14 days to make the corrections"). The wire carries no date of the return, so the days are
// counted from when this station first saw the claim returned: SHA's own clock may have started
// earlier, and the screens say so.
import type { ClaimSummary } from '../../contract';
import type { ClaimHolder } from './claims';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The Missing Documents Resubmission Module's days, from SHA's notice. */
export const RESUBMIT_DAYS = 14;
/** From this many days left the station warns the nurse (the claims tab and a notice). */
export const WARN_DAYS = 4;

/**
 * Keeps when the station first saw the claim returned for papers, and forgets it once the claim
 * leaves that state (a claim returned again is a new notice, with its own 14 days).
 */
export function noteDocumentsReturn(wf: ClaimHolder, nowIso: string): void {
  if (wf.data.claimStatus === 'DRAFT_RESUBMIT_DOCUMENTS') wf.data.documentsReturnSeenAt ??= nowIso;
  else delete wf.data.documentsReturnSeenAt;
}

/** The deadline of a claim returned for papers, counted from when the station first saw it; null otherwise. */
export function resubmitBy(wf: ClaimHolder, now: number): ClaimSummary['resubmitBy'] {
  const seen = wf.data.documentsReturnSeenAt;
  if (wf.data.claimStatus !== 'DRAFT_RESUBMIT_DOCUMENTS' || seen === undefined) return null;
  const deadline = Date.parse(seen) + RESUBMIT_DAYS * DAY_MS;
  return { returnSeenAt: seen, deadline: new Date(deadline).toISOString(), closeToDeadline: deadline - now <= WARN_DAYS * DAY_MS };
}
