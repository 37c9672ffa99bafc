// The station brought up and down. Up: composed (composition.ts), its engine connected to the views
// and the events, what it knows loaded from the journal, the readers following settings, the
// facility's session resumed, every unfinished workflow reconciled with the exchange (start waits
// only so long for it) and every claim watched. Down: in the reverse order, once start is over.
import { followSettings, composeStation, type RunningStation, type StationBase } from './composition';
import { watchClockJumps } from './events';
import { followClaim, watchClaims } from './workflows/claims';
import { checkWaitingPapers, releaseSentPapers } from './workflows/elective';
import { resumeAll, resumeWorkflow, settleUnknownOutcome } from './workflows/recovery';

export class StationLifecycle {
  private starting: Promise<RunningStation> | undefined;
  private stopped = false;
  private readonly teardown: (() => void)[] = [];
  /** The station's parts as soon as they are put together, while it is still coming up. */
  composed: RunningStation | undefined;

  constructor(private readonly base: StationBase) {}

  /** The running station once started; undefined before start is asked for and after stop. */
  get running(): Promise<RunningStation> | undefined {
    return this.stopped ? undefined : this.starting;
  }

  start(): Promise<RunningStation> {
    this.starting ??= this.bringUp();
    return this.starting;
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    const running = await this.starting?.catch(() => undefined);
    for (const off of this.teardown.splice(0)) off();
    if (running !== undefined) {
      running.services.lock.stop();
      await running.ctx.engine.stop();
      await running.ctx.session.close();
      // A checkpoint: the audit's committed head anchored in the secret store before the file closes.
      await running.services.audit.checkpoint();
      running.db.close();
    }
    this.base.events.clear();
  }

  private async bringUp(): Promise<RunningStation> {
    const running = await composeStation(this.base);
    this.composed = running;
    const { ctx, services } = running;
    const { events, readers, log, host, timing, clock } = this.base;
    ctx.engine.connect({
      viewer: services.viewOf,
      listener: (view) => {
        if (!(view.kind === 'emergency' && (view.state === 'creating' || view.state === 'not-created'))) events.emit({ type: 'workflow.updated', view });
        followClaim(ctx, view.workflowId);
        releaseSentPapers(ctx, view.workflowId);
      },
      reconciler: (wf) => resumeWorkflow(ctx, wf),
      unknownOutcome: (wf, call) => settleUnknownOutcome(ctx, wf, call),
    });
    this.teardown.push(
      ctx.session.onChange(services.statusChanged),
      readers.onChange((snapshot) => events.emit({ type: 'readers.changed', readers: snapshot })),
      readers.onCaptureRequested((capture) => events.emit({ type: 'capture.requested', capture })),
    );
    ctx.patients.load();
    ctx.engine.load();
    await checkWaitingPapers(ctx);
    await followSettings(this.base, ctx);
    await ctx.session.resume();
    ctx.engine.audit({ action: 'station.start', outcome: 'succeeded', summary: `station started (${host})` });
    log.info({ host, workflows: ctx.engine.all().filter((wf) => !ctx.engine.isEnded(wf)).length }, 'station started');
    if (!services.lock.locked) services.lock.activity();
    this.teardown.push(watchClockJumps(clock, timing.clockCheckMs, services.statusChanged));
    // Reconciliation holds each unfinished workflow's lock until it is done; start waits for it
    // only so long, so that an unreachable exchange does not keep the station from opening.
    if (ctx.session.hasClient) await Promise.race([resumeAll(ctx), new Promise((r) => setTimeout(r, timing.exchangeTimeoutMs).unref())]);
    else {
      // Started without a client (no stored secret, or one for another exchange): the waits in
      // flight resume once the facility signs in, not at the next start.
      const off = ctx.session.onChange(() => {
        if (!ctx.session.hasClient) return;
        off();
        void resumeAll(ctx);
      });
      this.teardown.push(off);
    }
    watchClaims(ctx);
    return running;
  }
}
