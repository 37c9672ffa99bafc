// What the verification step offers now, read once from the view for both halves of the screen: the
// panel (what the nurse reads and fills in) and the action bar (the one next step). The core decides
// the route and the commands (`next`); the only choice kept here is the route the nurse picked.
import type { VerificationStep, WorkflowView } from '../../../electron/contract';
import { run, useWorkflows } from '../../state/workflows';
import { useRoutePreference } from './preference';

export interface VerificationState {
  readonly workflowId: string;
  readonly next: readonly string[];
  readonly canFingerprint: boolean;
  readonly canSms: boolean;
  /** The SMS panel is shown: chosen, the only way, or a code already sent. */
  readonly showSms: boolean;
  /** Rejected, expired or cancelled: the routes are offered again. */
  readonly ended: boolean;
  /** Three wrong codes: the fingerprint or the whitelist request instead. */
  readonly escape: boolean;
  readonly blocked: boolean;
  /** Where the code opens the visit it confirms itself once complete. */
  readonly opensVisit: boolean;
  /** The code was accepted and opened the visit: kept on screen, read-only. */
  readonly codeAccepted: boolean;
}

export function useVerificationState(view: WorkflowView, step: VerificationStep): VerificationState {
  const workflowId = view.workflowId;
  const next: readonly string[] = view.next;
  const smsChosen = useRoutePreference((s) => s.smsChosen[workflowId] ?? false);
  const { route, stage } = step;
  const canFingerprint = route.fingerprintAllowed && next.includes('consent.startFingerprint');
  const canSms = route.smsAllowed && next.includes('consent.sendSms');
  const ended = stage === 'rejected' || stage === 'expired' || stage === 'cancelled';
  const opensVisit = step.purpose === 'visit' || step.purpose === 'visit-day';
  const codeAccepted = opensVisit && stage === 'verified' && step.verifiedBy === 'sms';
  const showSms =
    stage === 'sms-sent' || codeAccepted || (canSms && (stage === 'ready' || ended || stage === 'awaiting-fingerprint') && (smsChosen || !route.fingerprintAllowed));
  return {
    workflowId,
    next,
    canFingerprint,
    canSms,
    showSms,
    ended,
    escape: step.sms?.escapeOffered === true && stage !== 'verified',
    blocked: (stage === 'blocked' || route.route === 'blocked') && stage !== 'verified',
    opensVisit,
    codeAccepted,
  };
}

/** The forms the action bar's buttons submit (they live in the panel). */
export const smsSendForm = (workflowId: string) => `sms-send-${workflowId}`;
export const smsCodeForm = (workflowId: string) => `sms-code-${workflowId}`;

/**
 * Stops taking consent: a fingerprint request still open is withdrawn at SHA first (the core's
 * consent.cancel does one thing at a time), then the step, and with it the consent, the visit end or
 * the patient's identification, is given up. False when the station refused (its error is shown).
 */
export async function cancelVerification(workflowId: string): Promise<boolean> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const view = useWorkflows.getState().views[workflowId];
    if (view === undefined || view.state === 'cancelled' || !(view.next as readonly string[]).includes('consent.cancel')) return true;
    const answer = await run(workflowId, 'consent.cancel', { workflowId });
    if (!answer.ok) return false;
  }
  return true;
}
