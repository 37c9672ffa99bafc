// Writes whose outcome the journal does not know, settled by their declared policy (journal.ts),
// for every kind the same way: right after an answer was lost (`settleUnknownOutcome`, which the
// engine's `send` hands every lost answer to), and on start-up, after a grace period or before a
// command (`resumeWorkflow`). A rejection is sent again; a call nothing can look up is never sent
// again and the workflow says what it knows; a call the exchange can be asked about is looked up
// (the facility's authorizations list, the claim preview, the preauth look-up) or, for the visit,
// posted again and answered with the one already open. What each kind does with its own calls is
// its module's (kinds.ts); waits are resumed where they were.
import { isExchangeError } from '../../payer';
import type { Ctx } from './context';
import type { CallRecord } from './engine';
import { journal } from './journal';
import { hostOf, kindOf } from './kinds';
import type { AnyWorkflow } from './types';
import { isStepCall, pollNow, rejectAgain, schedulePoll, settleUnknowable, stepMeanwhile, withdrawStrayRequests } from './verification';

/**
 * A write nothing can look up: never sent again. The workflow's kind says what it knows of its own
 * calls, the verification step of its calls; a call of neither is closed as it is. In the caller's
 * transaction; answers whether the workflow shows it.
 */
function unknowable(ctx: Ctx, wf: AnyWorkflow, call: CallRecord): boolean {
  const own = kindOf(wf.kind).unknownOutcome.unknowable?.(ctx, wf, call);
  if (own !== undefined) return own;
  const host = hostOf(wf);
  if (host !== null) return settleUnknowable(ctx, host, wf, call);
  ctx.engine.reconciled(call, `${call.operation}: ${call.status === 'started' ? 'the station stopped before its answer was recorded' : 'its answer was lost'}; not sent again`, wf);
  return false;
}

/**
 * What each open call's own policy settles without the workflow's look-up: a rejection is sent
 * again; a call nothing can look up says what the station knows; a fingerprint request is looked
 * for in the facility's list. Answers the calls left for the kind's reconciliation.
 */
async function settleByPolicy(ctx: Ctx, wf: AnyWorkflow, calls: CallRecord[]): Promise<CallRecord[]> {
  const rest: CallRecord[] = [];
  const host = hostOf(wf);
  for (const call of calls) {
    if (call.reconcile === 'send-again' && call.operation === journal.rejectAuthorization.name) await rejectAgain(ctx, host, wf, call);
    else if (call.reconcile === 'cannot-look-up') ctx.engine.commit(() => unknowable(ctx, wf, call));
    else if (call.reconcile === 'look-up' && host !== null && isStepCall(call)) await withdrawStrayRequests(ctx, host, wf, call, false);
    else rest.push(call);
  }
  return rest;
}

/** These calls settled, and the workflow's state with them. Throws while the exchange cannot be reached. */
async function settle(ctx: Ctx, wf: AnyWorkflow, calls: CallRecord[]): Promise<void> {
  const rest = await settleByPolicy(ctx, wf, calls);
  await kindOf(wf.kind).reconcile(ctx, wf, rest);
}

/**
 * A write whose answer was just lost or unreadable, by its declared policy, in the same command:
 * the workflow first shows where it waits (its kind's `meanwhile`, or the step's); then a call
 * nothing can look up says what is known; a rejection or a visit is sent again now; a call the
 * exchange can be asked about is looked up now where that can tell already. Answers whether the
 * workflow shows what became of the write. What stays open the engine comes back to.
 */
export async function settleUnknownOutcome(ctx: Ctx, wf: AnyWorkflow, call: CallRecord): Promise<boolean> {
  const kind = kindOf(wf.kind);
  const host = isStepCall(call) ? hostOf(wf) : null;
  const shown = ctx.engine.commit(() => (host !== null ? stepMeanwhile(ctx, host, wf, call) : kind.unknownOutcome.meanwhile(ctx, wf, call)));
  switch (call.reconcile) {
    case 'cannot-look-up':
      return ctx.engine.commit(() => unknowable(ctx, wf, call));
    case 'look-up':
      if (host !== null) await withdrawStrayRequests(ctx, host, wf, call, true);
      else await kind.unknownOutcome.lookUpAtOnce?.(ctx, wf, call);
      return shown;
    case 'post-again':
    case 'send-again':
      await settle(ctx, wf, [call]);
      return shown;
  }
}

/** Brings one unfinished workflow back in line with the exchange. Throws while the exchange cannot be reached. */
export async function resumeWorkflow(ctx: Ctx, wf: AnyWorkflow): Promise<void> {
  if (ctx.engine.isEnded(wf)) return;
  await settle(ctx, wf, ctx.engine.openCalls(wf.id));
  kindOf(wf.kind).resume?.(ctx, wf);
  // A fingerprint request still pending: looked up at once, then every few seconds again.
  const host = hostOf(wf);
  if (host !== null && host.step(wf)?.stage === 'awaiting-fingerprint') {
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
