// On start-up (and after a lost answer), every unfinished workflow is reconciled with the exchange
// before anything is sent again: calls whose outcome the journal does not know are settled from
// what the exchange says now (the authorization look-up, the claim preview, the visit posted again
// and answered with the one already open), waits are resumed (fingerprint look-ups, preauth
// status, the emergency window), and what cannot be known is left for the nurse, with a message.
import { isExchangeError } from '../../payer';
import { verificationNext } from '../machines';
import type { Ctx } from './context';
import type { CallRecord } from './engine';
import { consentHost } from './consent';
import { dischargeHost, reconcileDischarge } from './discharge';
import { electiveHost, reconcileElective, schedulePreauthPoll } from './elective';
import { emergencyHost, reconcileEmergency, scheduleWindowCheck } from './emergency';
import type { AnyWorkflow } from './types';
import { journal } from './journal';
import { settlePrescriptionCreates } from './prescriptions';
import { pollNow, schedulePoll, settleUnknowable, type VerificationHost } from './verification';
import { reconcileOpenVisit, reconcileVisit } from './visit';

export function hostOf(wf: AnyWorkflow): VerificationHost<AnyWorkflow> | undefined {
  switch (wf.kind) {
    case 'consent':
      return consentHost as unknown as VerificationHost<AnyWorkflow>;
    case 'elective':
      return electiveHost as unknown as VerificationHost<AnyWorkflow>;
    case 'discharge':
      return dischargeHost as unknown as VerificationHost<AnyWorkflow>;
    case 'emergency':
      return emergencyHost as unknown as VerificationHost<AnyWorkflow>;
    case 'visit':
      return undefined;
  }
}

/**
 * Settles what each open call's own policy settles without the workflow's look-up: a rejection is
 * sent again; a call nothing can look up is never re-sent, and the workflow says what it knows
 * (settleUnknowable). Answers the calls left for the workflow's reconciliation.
 */
async function settleByPolicy(ctx: Ctx, wf: AnyWorkflow, calls: CallRecord[]): Promise<CallRecord[]> {
  const rest: CallRecord[] = [];
  const host = hostOf(wf);
  for (const call of calls) {
    if (call.reconcile === 'send-again' && call.operation === journal.rejectAuthorization.name) {
      const token = typeof call.request.token === 'string' ? call.request.token : undefined;
      if (token !== undefined) {
        try {
          await ctx.session.client().consent.rejectAuthorization({ token });
        } catch (error) {
          // Already rejected, expired or authorized: the look-up below tells.
          if (isExchangeError(error) && (error.outcomeUnknown || error.kind === 'network' || error.kind === 'timeout' || error.kind === 'server')) throw error;
        }
      }
      ctx.engine.reconciled(call, 'the fingerprint request is rejected', wf);
      const v = host?.step(wf);
      if (host !== undefined && v !== null && v !== undefined && v.stage === 'awaiting-fingerprint' && call.request.stale !== true) {
        ctx.engine.commit(() => {
          v.stage = verificationNext(v.stage, 'cancel');
          v.authToken = null;
          v.authGuid = null;
          v.link = null;
          ctx.engine.save(wf);
        });
      }
    } else if (call.reconcile === 'cannot-look-up' && host !== undefined) {
      ctx.engine.commit(() => settleUnknowable(ctx, host, wf, call));
    } else {
      rest.push(call);
    }
  }
  return rest;
}

/** Brings one unfinished workflow back in line with the exchange. Throws while the exchange cannot be reached. */
export async function resumeWorkflow(ctx: Ctx, wf: AnyWorkflow): Promise<void> {
  if (ctx.engine.isEnded(wf)) return;
  const calls = await settleByPolicy(ctx, wf, ctx.engine.openCalls(wf.id));
  switch (wf.kind) {
    case 'consent': {
      const visitCall = calls.find((c) => c.operation === journal.createVisit.name);
      if (visitCall !== undefined) await reconcileOpenVisit(ctx, wf, visitCall);
      else if (wf.state === 'opening-visit') ctx.engine.transition(wf, 'visitNotOpened', 'the visit was never sent');
      for (const call of calls.filter((c) => c !== visitCall)) ctx.engine.reconciled(call, `${call.operation}: nothing to re-send`, wf);
      break;
    }
    case 'visit': {
      const rest = await settlePrescriptionCreates(ctx, wf, calls);
      if (rest.length > 0) await reconcileVisit(ctx, wf, rest);
      break;
    }
    case 'discharge':
      if (calls.length > 0 || wf.state === 'sending' || wf.state === 'reconciling') await reconcileDischarge(ctx, wf, calls);
      break;
    case 'elective':
      if (calls.length > 0) await reconcileElective(ctx, wf, calls);
      else if (wf.state === 'creating-preauth') ctx.engine.transition(wf, 'refused', 'the preauthorization was never sent');
      else if (wf.state === 'opening-visit') ctx.engine.transition(wf, 'visitNotOpened', 'the visit was never sent');
      if (wf.state === 'awaiting-doctor' || wf.state === 'awaiting-payer') schedulePreauthPoll(ctx, wf.id, 0);
      break;
    case 'emergency':
      if (calls.length > 0 || wf.state === 'creating' || wf.state === 'submitting' || wf.state === 'reconciling') {
        if (wf.state === 'submitting' && calls.length === 0) ctx.engine.transition(wf, wf.data.patient === null ? 'refusedUnidentified' : 'refusedIdentified', 'the submission was never sent');
        else await reconcileEmergency(ctx, wf, calls);
      }
      scheduleWindowCheck(ctx, wf);
      break;
  }
  // Waits resume where they were.
  const host = hostOf(wf);
  const v = host?.step(wf);
  if (host !== undefined && v !== undefined && v !== null && v.stage === 'awaiting-fingerprint') {
    await pollNow(ctx, host, wf).catch(() => schedulePoll(ctx, host, wf.id));
  }
}

/**
 * Every unfinished workflow, together; each holds its own lock (taken at once, before any command
 * can) until it is reconciled. One the exchange cannot be asked about yet is tried again later.
 */
export async function resumeAll(ctx: Ctx): Promise<void> {
  await Promise.all(
    ctx.engine
      .all()
      .filter((wf) => !ctx.engine.isEnded(wf))
      .map((wf) =>
        ctx.engine
          .lock(wf.id, () => resumeWorkflow(ctx, wf))
          .catch((error: unknown) => {
            ctx.engine.discardUncommitted(wf.id);
            ctx.log.info({ workflowId: wf.id, kind: wf.kind, errorKind: isExchangeError(error) ? error.kind : 'internal' }, 'reconciliation will be tried again');
            ctx.engine.reconcileSoon(wf.id, ctx.timing.reconcileRetryMs);
          }),
      ),
  );
}
