// The workflow engine: keeps every workflow (in memory, sealed in SQLite), moves them through their
// transition tables, journals each exchange call that changes state (intent before it is sent,
// outcome after, in the same transaction as the workflow change it causes), writes the audit log,
// serialises commands per workflow and pushes a `workflow.updated` event after each change.
//
// Commit whole or not at all: the journal holds the truth, and the engine keeps the image of each
// workflow as last committed. A transaction that fails puts every workflow it touched back as the
// journal has it (a workflow first made in it is forgotten), and a command that fails drops what
// it changed without committing (`discardUncommitted`): memory never runs ahead of the journal.
// The one way the station comes back to a workflow by itself — a poll, a reconciliation, a wait
// resumed — is `repeat`: under the workflow's lock, again while it asks to, or after a failure.
// Every write to the exchange goes through `send`: journaled, sent, settled, and when its answer
// is lost or unreadable, acted on by its operation's declared reconcile policy (journal.ts) — no
// caller decides an unknown outcome for itself.
import type { Logger } from 'pino';
import { isExchangeError } from '../../payer';
import { makeError, type ErrorCode, type StationError, type WorkflowView } from '../../contract';
import type { AuditEntry, AuditLog } from '../audit';
import type { Db } from '../db';
import type { Clock, JournalPoint } from '../deps';
import { StationFailure, toStationError, type Scrub } from '../errors';
import { isTerminal, transitionOf, type MachineEvent } from '../machines';
import type { Quarantine } from '../quarantine';
import { SealError, type Sealer } from '../sealing';
import { envelopeOf, unwrap } from '../versioned';
import { policyOf, type JournalEntry, type ReconcilePolicy } from './journal';
import { forgetPatientInHand } from './patient-in-hand';
import { callRecord, readWorkflow, workflowToKeep, type SealedCall } from './records';
import type { AnyWorkflow } from './types';

export interface CallRecord {
  readonly id: number;
  readonly workflowId: string;
  readonly operation: string;
  /** `started`: the station stopped before an answer was journaled; `unknown`: the answer was lost or unreadable. */
  readonly status: 'started' | 'succeeded' | 'failed' | 'unknown' | 'reconciled';
  readonly request: Record<string, unknown>;
  /** How it is settled, as declared with its operation when it was journaled. */
  readonly reconcile: ReconcilePolicy;
}

/** What `repeat` does after one run: come back after so many ms, or stop. */
export type RepeatAgain = number | null;

/** The purposes the station comes back to a workflow for; one timer per purpose and workflow. */
export type RepeatPurpose = 'reconcile' | 'poll' | 'preauth' | 'whitelist' | 'window' | 'claim';

/** Purposes that outlive the workflow's end: SHA works on a claim long after its visit has closed. */
const AFTER_THE_END: ReadonlySet<RepeatPurpose> = new Set(['claim']);

/**
 * A write whose answer was lost or unreadable and whose policy could not settle it in the command
 * (nor did the workflow come to show it): the command answers OUTCOME_UNKNOWN. It carries its call
 * record; the station comes back to it by itself (`reconcileSoon`) while the call is open.
 */
export class OutcomeUnknown extends StationFailure {
  constructor(
    readonly call: CallRecord,
    error: StationError,
  ) {
    super(error);
  }
}

/** One write to the exchange, as `Engine.send` journals, sends and settles it. */
export interface WriteSpec<T> {
  readonly operation: JournalEntry;
  /** The intent as journaled (sealed): what a reconciliation may need to send again; never a file's bytes. */
  readonly request: Record<string, unknown>;
  readonly send: () => Promise<T>;
  /** The change the answer makes, in the transaction that records the outcome. Must not throw. */
  readonly settle: (result: T) => void;
  /** The change a refusal makes, in the transaction that records it. */
  readonly refused?: (error: StationError, cause: unknown) => void;
}

/**
 * What the station does with a write whose answer was lost, by the call's declared policy (the
 * station's `settleUnknownOutcome`): answers whether the workflow now shows what became of it (its
 * state or its view says so), in which case the command goes on and answers the workflow.
 */
export type UnknownOutcomeSettler = (wf: AnyWorkflow, call: CallRecord) => Promise<boolean>;

const NOT_CONFIRMED = 'SHA did not confirm the request: the station is checking what became of it before anything is sent again.';

interface Row {
  id: string;
  kind: string;
  state: string;
  sealed: string;
  created_at: string;
  updated_at: string;
  ended: number;
}

export interface EngineOptions {
  readonly db: Db;
  readonly sealer: Sealer;
  readonly audit: AuditLog;
  /** Where a workflow that cannot be read back is set aside. */
  readonly quarantine: Quarantine;
  readonly clock: Clock;
  readonly log: Logger;
  readonly scrub: Scrub;
  readonly onJournalPoint: ((point: JournalPoint) => void) | undefined;
  /** Between two tries of a repeat that failed (the exchange out of reach). */
  readonly retryMs: number;
}

export class Engine {
  private readonly workflows = new Map<string, AnyWorkflow>();
  private readonly locks = new Map<string, Promise<unknown>>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly pending: AnyWorkflow[] = [];
  private depth = 0;
  /** Each workflow as the journal last committed it (JSON), and the images staged by the transaction under way. */
  private readonly images = new Map<string, string>();
  private readonly staged = new Map<string, string>();
  private viewer: ((wf: AnyWorkflow) => WorkflowView) | undefined;
  private listener: ((view: WorkflowView) => void) | undefined;
  private reconciler: ((wf: AnyWorkflow) => Promise<void>) | undefined;
  private unknownOutcome: UnknownOutcomeSettler | undefined;
  private stopped = false;
  // Prepared once: save() and call() run on every transition and every exchange call.
  private readonly insertWorkflow;
  private readonly updateWorkflow;
  private readonly insertCall;
  private readonly finishCallStatement;
  private readonly selectOpenCalls;
  private readonly selectCallStatus;

  private get retryMs(): number {
    return this.o.retryMs;
  }

  constructor(private readonly o: EngineOptions) {
    this.insertWorkflow = o.db.prepare('INSERT INTO workflows (id, kind, state, patient_ref, created_at, updated_at, ended, sealed) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    this.updateWorkflow = o.db.prepare('UPDATE workflows SET state = ?, patient_ref = ?, updated_at = ?, ended = ?, sealed = ? WHERE id = ?');
    this.insertCall = o.db.prepare("INSERT INTO calls (workflow_id, operation, status, started_at, sealed) VALUES (?, ?, 'started', ?, ?)");
    this.finishCallStatement = o.db.prepare('UPDATE calls SET status = ?, finished_at = ?, error_code = ? WHERE id = ?');
    this.selectOpenCalls = o.db.prepare("SELECT id, workflow_id, operation, status, sealed FROM calls WHERE workflow_id = ? AND status IN ('started', 'unknown') ORDER BY id");
    this.selectCallStatus = o.db.prepare('SELECT status FROM calls WHERE id = ?');
  }

  /**
   * The view function, the listener for workflow.updated, the reconciliation of one workflow and
   * what an unknown outcome's policy does; set once by the station.
   */
  connect(o: {
    viewer: (wf: AnyWorkflow) => WorkflowView;
    listener: (view: WorkflowView) => void;
    reconciler: (wf: AnyWorkflow) => Promise<void>;
    unknownOutcome: UnknownOutcomeSettler;
  }): void {
    this.viewer = o.viewer;
    this.listener = o.listener;
    this.reconciler = o.reconciler;
    this.unknownOutcome = o.unknownOutcome;
  }

  now(): string {
    return new Date(this.o.clock.now()).toISOString();
  }

  /**
   * Loads the unfinished workflows and those ended in the last week, each through its kind's schema
   * and upgrade chain. One that cannot be read — nor any call of it whose outcome is open — is set
   * aside (kept, audited, said in the status) and the station starts without it.
   */
  load(): void {
    const since = new Date(this.o.clock.now() - 7 * 24 * 60 * 60 * 1000).toISOString();
    const rows = this.o.db
      .prepare('SELECT id, kind, state, sealed, created_at, updated_at, ended FROM workflows WHERE ended = 0 OR julianday(updated_at) >= julianday(?) ORDER BY created_at')
      .all(since) as Row[];
    for (const row of rows) {
      const read = this.readRow(row);
      if (!read.ok) {
        this.o.quarantine.hold('workflow', row.id, row.kind, read);
        this.o.log.error({ workflowId: row.id, kind: row.kind, reason: read.reason, detail: read.detail }, 'a workflow could not be read back: set aside');
        continue;
      }
      this.o.quarantine.release('workflow', row.id, row.kind);
      this.workflows.set(read.value.id, read.value);
      this.images.set(read.value.id, JSON.stringify(read.value));
    }
    this.o.quarantine.keepOnly('workflow', new Set(rows.map((r) => r.id)));
  }

  private readRow(row: Row): { ok: true; value: AnyWorkflow } | { ok: false; reason: 'unreadable' | 'newer' | 'invalid'; detail: string } {
    const payload = this.openSealed(row.sealed);
    if (!payload.ok) return payload;
    const read = readWorkflow(row.kind, payload.value);
    if (!read.ok) return read;
    if (read.value.id !== row.id) return { ok: false, reason: 'invalid', detail: 'the record names another workflow than its row' };
    if (row.ended === 0) {
      for (const call of this.selectOpenCalls.all(row.id) as { id: number; sealed: string }[]) {
        const opened = this.openSealed(call.sealed);
        if (!opened.ok) return { ...opened, detail: `its open call ${call.id}: ${opened.detail}` };
        const { version, record } = unwrap(opened.value);
        const sealedCall = callRecord.read(version, record);
        if (!sealedCall.ok) return { ...sealedCall, detail: `its open call ${call.id}: ${sealedCall.detail}` };
      }
    }
    return { ok: true, value: read.value };
  }

  private openSealed(sealed: string): { ok: true; value: unknown } | { ok: false; reason: 'unreadable'; detail: string } {
    try {
      return { ok: true, value: this.o.sealer.open(sealed) };
    } catch (error) {
      if (error instanceof SealError) return { ok: false, reason: 'unreadable', detail: error.message };
      throw error;
    }
  }

  all(): AnyWorkflow[] {
    return [...this.workflows.values()];
  }

  get(id: string): AnyWorkflow | undefined {
    return this.workflows.get(id);
  }

  isEnded(wf: AnyWorkflow): boolean {
    return isTerminal(wf.kind, wf.state);
  }

  /**
   * Runs `fn` in one transaction; events for the workflows it changed go out after the commit. A
   * transaction that fails leaves every workflow as the journal has it.
   */
  commit<T>(fn: () => T): T {
    this.depth += 1;
    let result: T;
    try {
      result = this.o.db.transaction(fn)();
    } catch (error) {
      this.depth -= 1;
      if (this.depth === 0) {
        this.pending.length = 0;
        this.staged.clear();
        this.revertAll();
      }
      throw error;
    }
    this.depth -= 1;
    if (this.depth === 0) {
      for (const [id, image] of this.staged) this.images.set(id, image);
      this.staged.clear();
      this.flush();
    }
    return result;
  }

  /**
   * A command that failed: whatever it changed in the workflow and did not commit is dropped, so
   * the workflow is again as the journal has it.
   */
  discardUncommitted(id: string): void {
    const wf = this.workflows.get(id);
    const image = this.images.get(id);
    if (wf !== undefined && image !== undefined && JSON.stringify(wf) !== image) restore(wf, image);
  }

  /** After a failed transaction: workflows made in it are forgotten, the others put back as committed. */
  private revertAll(): void {
    for (const [id, wf] of this.workflows) {
      const image = this.images.get(id);
      if (image === undefined) this.workflows.delete(id);
      else if (JSON.stringify(wf) !== image) restore(wf, image);
    }
  }

  create<W extends AnyWorkflow>(wf: W, summary: string): W {
    return this.commit(() => {
      this.workflows.set(wf.id, wf);
      this.staged.set(wf.id, JSON.stringify(wf));
      this.insertWorkflow.run(wf.id, wf.kind, wf.state, patientRefOf(wf), wf.createdAt, wf.updatedAt, 0, this.o.sealer.seal(workflowToKeep(wf)));
      this.audit({ action: `${wf.kind}.created`, workflowId: wf.id, workflowKind: wf.kind, outcome: 'succeeded', summary: `${summary} (state ${wf.state})` });
      this.pending.push(wf);
      return wf;
    });
  }

  /** Persists the workflow as it is now and queues its view. */
  save(wf: AnyWorkflow): void {
    this.commit(() => {
      wf.updatedAt = this.now();
      if (this.isEnded(wf)) forgetPatientInHand(wf);
      this.staged.set(wf.id, JSON.stringify(wf));
      this.updateWorkflow.run(wf.state, patientRefOf(wf), wf.updatedAt, this.isEnded(wf) ? 1 : 0, this.o.sealer.seal(workflowToKeep(wf)), wf.id);
      if (!this.pending.includes(wf)) this.pending.push(wf);
    });
  }

  /** Moves a workflow along its table (WRONG_STATE when the table has no such move) and journals it. */
  transition<W extends AnyWorkflow>(wf: W, event: MachineEvent<W['kind']>, summary?: string): void {
    const from = wf.state;
    const to = transitionOf(wf.kind, from, event);
    this.commit(() => {
      (wf as { state: string }).state = to;
      this.save(wf);
      this.audit({
        action: `${wf.kind}.${event}`,
        workflowId: wf.id,
        workflowKind: wf.kind,
        outcome: 'succeeded',
        summary: `${from} → ${to}${summary === undefined ? '' : `: ${summary}`}`,
      });
      if (this.isEnded(wf)) for (const key of [...this.timers.keys()]) if (key.endsWith(`:${wf.id}`)) this.cancelTimer(key);
    });
  }

  audit(entry: Omit<AuditEntry, 'at'>): void {
    this.o.audit.append({ ...entry, at: this.now() });
  }

  /** Records a refusal on the workflow's view without changing its state. */
  setError(wf: AnyWorkflow, error: StationError | null): void {
    wf.lastError = error;
    this.save(wf);
  }

  /**
   * The one write to the exchange. The intent (with its reconcile policy) is journaled before it is
   * sent; the outcome after, together with the workflow change `settle` makes, in one transaction.
   * A refusal is journaled with the change `refused` makes and thrown (StationFailure). A lost or
   * unreadable answer is journaled unknown and acted on at once by its policy (`connect`'s
   * `unknownOutcome`): settled there and then where it can be, else the station comes back to it
   * (`reconcileSoon`); the command goes on when the workflow shows what became of the write, and
   * answers OUTCOME_UNKNOWN (`OutcomeUnknown`, with the call record) when it does not. `settle`
   * must not throw; if it does, the workflow stays as it was, the call is journaled as answered but
   * not applied (never left `started`, which recovery reads as "the station stopped before the
   * exchange answered"), and the command fails with INTERNAL.
   */
  async send<T>(wf: AnyWorkflow, spec: WriteSpec<T>): Promise<void> {
    const { operation, request } = spec;
    const name = operation.name;
    const callId = this.commit(() => {
      const sealedCall: SealedCall = callRecord.check({ request, reconcile: operation.reconcile });
      const info = this.insertCall.run(wf.id, name, this.now(), this.o.sealer.seal(envelopeOf(callRecord.current, sealedCall)));
      this.audit({ action: `exchange.${name}`, workflowId: wf.id, workflowKind: wf.kind, outcome: 'started', summary: `${name} sent` });
      return Number(info.lastInsertRowid);
    });
    this.point(name, 'before-send', wf);
    let result: T;
    try {
      result = await spec.send();
    } catch (cause) {
      const error = toStationError(cause, this.o.scrub);
      const unknown = isExchangeError(cause) && cause.outcomeUnknown;
      this.commit(() => {
        this.finishCall(callId, unknown ? 'unknown' : 'failed', error.code);
        this.audit({
          action: `exchange.${name}`,
          workflowId: wf.id,
          workflowKind: wf.kind,
          outcome: 'failed',
          errorCode: error.code,
          summary: unknown
            ? `${name}: ${cause.kind === 'malformed_response' ? 'answered unreadably' : 'no answer'}; to be reconciled`
            : `${name} refused (${error.details?.exchangeCode ?? error.code})`,
        });
        if (!unknown) spec.refused?.(error, cause);
      });
      if (unknown) return this.unknown(wf, { id: callId, workflowId: wf.id, operation: name, status: 'unknown', request, reconcile: operation.reconcile });
      throw cause instanceof StationFailure ? cause : new StationFailure(error);
    }
    this.point(name, 'after-answer', wf);
    try {
      this.commit(() => {
        this.finishCall(callId, 'succeeded', null);
        this.audit({ action: `exchange.${name}`, workflowId: wf.id, workflowKind: wf.kind, outcome: 'succeeded', summary: `${name} done` });
        spec.settle(result);
      });
    } catch (error) {
      this.o.log.error({ workflowId: wf.id, operation: name, err: error instanceof Error ? error.message : String(error) }, 'an answer of the exchange could not be applied');
      this.commit(() => {
        this.finishCall(callId, 'failed', 'INTERNAL');
        this.audit({ action: `exchange.${name}`, workflowId: wf.id, workflowKind: wf.kind, outcome: 'failed', errorCode: 'INTERNAL', summary: `${name} answered, but the station could not apply the answer` });
      });
      throw error instanceof StationFailure ? error : new StationFailure(makeError('INTERNAL', 'The exchange answered, but the station could not apply its answer; it has been logged.'));
    }
    this.point(name, 'after-outcome', wf);
  }

  /** A write whose answer was lost: its policy acts now; what it leaves open is come back to. */
  private async unknown(wf: AnyWorkflow, call: CallRecord): Promise<void> {
    let shown = false;
    try {
      shown = (await this.unknownOutcome?.(wf, call)) ?? false;
    } catch (error) {
      // The look-up the policy makes failed too (the exchange out of reach): the call stays open.
      this.discardUncommitted(wf.id);
      this.o.log.info({ workflowId: wf.id, operation: call.operation, err: error instanceof Error ? error.message : String(error) }, 'an unknown outcome is left to reconciliation');
    }
    const open = this.isOpen(call.id);
    if (open) this.reconcileSoon(wf.id, this.retryMs);
    // Settled by a look-up, the workflow says what became of the write — unless its last word is
    // still that SHA never confirmed it (a fingerprint request withdrawn unconfirmed).
    const said = wf.lastError?.code === 'OUTCOME_UNKNOWN' ? wf.lastError.message : undefined;
    if (shown || (!open && call.reconcile !== 'cannot-look-up' && said === undefined)) return;
    throw new OutcomeUnknown(call, makeError('OUTCOME_UNKNOWN', said ?? NOT_CONFIRMED, { workflowId: wf.id }));
  }

  /** Whether a journaled call's outcome is still not known. */
  isOpen(callId: number): boolean {
    const row = this.selectCallStatus.get(callId) as { status: CallRecord['status'] } | undefined;
    return row?.status === 'started' || row?.status === 'unknown';
  }

  /** Calls whose outcome is not known: started and never finished (a crash), or answered by silence. */
  openCalls(workflowId: string): CallRecord[] {
    const rows = this.selectOpenCalls.all(workflowId) as { id: number; workflow_id: string; operation: string; status: CallRecord['status']; sealed: string }[];
    return rows.map((r) => {
      const { version, record } = unwrap(this.o.sealer.open(r.sealed));
      const sealed = callRecord.read(version, record);
      // The workflow was loaded with this call readable (load): a call that reads no more was altered since.
      if (!sealed.ok) throw new Error(`The journal's call ${r.id} cannot be read back (${sealed.detail}).`);
      return { id: r.id, workflowId: r.workflow_id, operation: r.operation, status: r.status, request: sealed.value.request, reconcile: policyOf(r.operation, sealed.value.reconcile) };
    });
  }

  /** Closes an open call once reconciliation has established what happened. */
  reconciled(call: CallRecord, summary: string, wf: AnyWorkflow): void {
    this.commit(() => {
      this.finishCall(call.id, 'reconciled', null);
      this.audit({ action: `reconcile.${call.operation}`, workflowId: wf.id, workflowKind: wf.kind, outcome: 'succeeded', summary });
    });
  }

  /** Serialises everything done to one workflow (commands, polls, reconciliation). */
  async lock<T>(id: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(id) ?? Promise.resolve();
    const run = previous.then(fn, fn);
    const tail = run.catch(() => undefined);
    this.locks.set(id, tail);
    try {
      return await run;
    } finally {
      if (this.locks.get(id) === tail) this.locks.delete(id);
    }
  }

  /**
   * The one way the station comes back to a workflow by itself: after `delayMs`, `run` gets the
   * workflow under its lock and answers when to come back (ms) or null to stop; a failure (the
   * exchange out of reach) comes back after `retryMs`. One timer per purpose and workflow: a newer
   * request replaces the one waiting. Nothing runs once the engine stops, nor once the workflow has
   * ended, except the claim's read-back.
   */
  repeat(purpose: RepeatPurpose, workflowId: string, delayMs: number, run: (wf: AnyWorkflow) => Promise<RepeatAgain>, retryMs = this.retryMs): void {
    this.setTimer(`${purpose}:${workflowId}`, delayMs, () => {
      void this.lock(workflowId, async () => {
        const wf = this.workflows.get(workflowId);
        if (wf === undefined || (this.isEnded(wf) && !AFTER_THE_END.has(purpose)) || this.stopped) return null;
        return run(wf);
      }).then(
        (again) => {
          if (again !== null) this.repeat(purpose, workflowId, again, run, retryMs);
        },
        (error: unknown) => {
          this.discardUncommitted(workflowId);
          this.o.log.info({ workflowId, purpose, err: error instanceof Error ? error.message : String(error) }, 'the station will come back to this workflow');
          this.repeat(purpose, workflowId, retryMs, run, retryMs);
        },
      );
    });
  }

  /** Reconciles the workflow with the exchange after `delayMs` (again while the exchange is out of reach). */
  reconcileSoon(workflowId: string, delayMs: number): void {
    this.repeat('reconcile', workflowId, delayMs, async (wf) => {
      await this.reconciler?.(wf);
      return null;
    });
  }

  /** Whether the station will come back to this workflow by itself (a poll, a reconciliation, a window). */
  isWatched(workflowId: string): boolean {
    for (const key of this.timers.keys()) if (key.endsWith(`:${workflowId}`)) return true;
    return false;
  }

  cancelRepeat(purpose: RepeatPurpose, workflowId: string): void {
    this.cancelTimer(`${purpose}:${workflowId}`);
  }

  private setTimer(key: string, delayMs: number, fn: () => void): void {
    if (this.stopped) return;
    this.cancelTimer(key);
    const timer = setTimeout(() => {
      this.timers.delete(key);
      fn();
    }, delayMs);
    this.timers.set(key, timer);
  }

  private cancelTimer(key: string): void {
    const timer = this.timers.get(key);
    if (timer !== undefined) clearTimeout(timer);
    this.timers.delete(key);
  }

  /** Stops every timer and waits for the work under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const key of [...this.timers.keys()]) this.cancelTimer(key);
    await Promise.allSettled([...this.locks.values()]);
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  private finishCall(id: number, status: CallRecord['status'], errorCode: ErrorCode | null): void {
    this.finishCallStatement.run(status, this.now(), errorCode, id);
  }

  private point(operation: string, phase: JournalPoint['phase'], wf: AnyWorkflow): void {
    this.o.onJournalPoint?.({ operation, phase, workflowKind: wf.kind });
  }

  private flush(): void {
    const changed = this.pending.splice(0);
    if (this.viewer === undefined || this.listener === undefined) return;
    for (const wf of new Set(changed)) {
      try {
        this.listener(this.viewer(wf));
      } catch (error) {
        this.o.log.error({ workflowId: wf.id, err: (error as Error).message }, 'a workflow view could not be built');
      }
    }
  }
}

/** Puts a workflow back as its committed image, in place: every holder of the object sees the journal's version. */
function restore(wf: AnyWorkflow, image: string): void {
  const committed = JSON.parse(image) as object;
  for (const key of Object.keys(wf)) if (!(key in committed)) Reflect.deleteProperty(wf, key);
  Object.assign(wf, committed);
}

/** The patient a workflow is about; an emergency may not know its patient yet. */
export function patientRefOf(wf: AnyWorkflow): string | null {
  const patient = 'patient' in wf.data ? wf.data.patient : null;
  return patient?.ref ?? null;
}
