// The workflow engine: keeps every workflow (in memory, sealed in SQLite), moves them through their
// transition tables, journals each exchange call that changes state (intent before it is sent,
// outcome after, in the same transaction as the workflow change it causes), writes the audit log,
// serialises commands per workflow and pushes a `workflow.updated` event after each change.
import type { Logger } from 'pino';
import { isExchangeError, type ExchangeError } from '../../payer';
import type { ErrorCode, StationError, WorkflowKind, WorkflowView } from '../../contract';
import type { AuditEntry, AuditLog } from '../audit';
import type { Db } from '../db';
import type { Clock, JournalPoint } from '../deps';
import { StationFailure, toStationError, type Scrub } from '../errors';
import { isTerminal, transitionOf, type MachineEvent, type StateOf } from '../machines';
import type { Sealer } from '../sealing';
import type { AnyWorkflow, WorkflowOf } from './types';

export interface CallRecord {
  readonly id: number;
  readonly workflowId: string;
  readonly operation: string;
  readonly status: 'started' | 'succeeded' | 'failed' | 'unknown' | 'reconciled';
  readonly request: Record<string, unknown>;
}

/** A state-changing call whose answer was lost (timeout, connection cut after sending): reconcile before anything is re-sent. */
export class OutcomeUnknown extends Error {
  override readonly name = 'OutcomeUnknown';
  constructor(
    readonly callId: number,
    readonly exchangeError: ExchangeError,
  ) {
    super(`The answer to ${exchangeError.operation} was lost: the station will check with the exchange before anything is sent again.`);
  }
}

interface Row {
  id: string;
  kind: string;
  state: string;
  sealed: string;
  created_at: string;
  updated_at: string;
}

export interface EngineOptions {
  readonly db: Db;
  readonly sealer: Sealer;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly log: Logger;
  readonly scrub: Scrub;
  readonly onJournalPoint: ((point: JournalPoint) => void) | undefined;
}

export class Engine {
  private readonly workflows = new Map<string, AnyWorkflow>();
  private readonly locks = new Map<string, Promise<unknown>>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly pending: AnyWorkflow[] = [];
  private depth = 0;
  private viewer: ((wf: AnyWorkflow) => WorkflowView) | undefined;
  private listener: ((view: WorkflowView) => void) | undefined;
  private stopped = false;
  // Prepared once: save() and call() run on every transition and every exchange call.
  private readonly insertWorkflow;
  private readonly updateWorkflow;
  private readonly insertCall;
  private readonly finishCallStatement;
  private readonly selectOpenCalls;

  constructor(private readonly o: EngineOptions) {
    this.insertWorkflow = o.db.prepare('INSERT INTO workflows (id, kind, state, patient_ref, created_at, updated_at, ended, sealed) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    this.updateWorkflow = o.db.prepare('UPDATE workflows SET state = ?, patient_ref = ?, updated_at = ?, ended = ?, sealed = ? WHERE id = ?');
    this.insertCall = o.db.prepare("INSERT INTO calls (workflow_id, operation, status, started_at, sealed) VALUES (?, ?, 'started', ?, ?)");
    this.finishCallStatement = o.db.prepare('UPDATE calls SET status = ?, finished_at = ?, error_code = ? WHERE id = ?');
    this.selectOpenCalls = o.db.prepare("SELECT id, workflow_id, operation, status, sealed FROM calls WHERE workflow_id = ? AND status IN ('started', 'unknown') ORDER BY id");
  }

  /** The view function and the listener for workflow.updated; set once by the station. */
  connect(viewer: (wf: AnyWorkflow) => WorkflowView, listener: (view: WorkflowView) => void): void {
    this.viewer = viewer;
    this.listener = listener;
  }

  now(): string {
    return new Date(this.o.clock.now()).toISOString();
  }

  /** Loads the unfinished workflows and those ended in the last week. Unreadable ones are logged and left out. */
  load(): void {
    const since = new Date(this.o.clock.now() - 7 * 24 * 60 * 60 * 1000).toISOString();
    const rows = this.o.db
      .prepare('SELECT id, kind, state, sealed, created_at, updated_at FROM workflows WHERE ended = 0 OR julianday(updated_at) >= julianday(?) ORDER BY created_at')
      .all(since) as Row[];
    for (const row of rows) {
      try {
        const wf = this.o.sealer.open<AnyWorkflow>(row.sealed);
        this.workflows.set(wf.id, wf);
      } catch (error) {
        this.o.log.error({ workflowId: row.id, kind: row.kind, err: (error as Error).message }, 'a workflow could not be read from the journal');
      }
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

  /** Runs `fn` in one transaction; events for the workflows it changed go out after the commit. */
  commit<T>(fn: () => T): T {
    this.depth += 1;
    let result: T;
    try {
      result = this.o.db.transaction(fn)();
    } catch (error) {
      this.depth -= 1;
      if (this.depth === 0) this.pending.length = 0;
      throw error;
    }
    this.depth -= 1;
    if (this.depth === 0) this.flush();
    return result;
  }

  create<W extends AnyWorkflow>(wf: W, summary: string): W {
    return this.commit(() => {
      this.workflows.set(wf.id, wf);
      this.insertWorkflow.run(wf.id, wf.kind, wf.state, patientRefOf(wf), wf.createdAt, wf.updatedAt, 0, this.o.sealer.seal(wf));
      this.audit({ action: `${wf.kind}.created`, workflowId: wf.id, workflowKind: wf.kind, outcome: 'succeeded', summary: `${summary} (state ${wf.state})` });
      this.pending.push(wf);
      return wf;
    });
  }

  /** Persists the workflow as it is now and queues its view. */
  save(wf: AnyWorkflow): void {
    this.commit(() => {
      wf.updatedAt = this.now();
      this.updateWorkflow.run(wf.state, patientRefOf(wf), wf.updatedAt, this.isEnded(wf) ? 1 : 0, this.o.sealer.seal(wf), wf.id);
      if (!this.pending.includes(wf)) this.pending.push(wf);
    });
  }

  /** Moves a workflow along its table (WRONG_STATE when the table has no such move) and journals it. */
  transition<K extends WorkflowKind>(wf: WorkflowOf<K>, event: MachineEvent<K>, summary?: string): void {
    const from = wf.state as StateOf<K>;
    const to = transitionOf(wf.kind as K, from, event);
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
      if (this.isEnded(wf)) this.cancelTimer(wf.id);
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
   * One state-changing exchange call, journaled: the intent is written before it is sent; the
   * outcome is written after, together with the workflow change `settle` makes, in one
   * transaction. A lost answer is recorded as unknown and thrown as OutcomeUnknown.
   */
  async call<T>(
    wf: AnyWorkflow,
    operation: string,
    request: Record<string, unknown>,
    send: () => Promise<T>,
    settle: (result: T) => void,
    refused?: (error: StationError, cause: unknown) => void,
  ): Promise<T> {
    const callId = this.commit(() => {
      const info = this.insertCall.run(wf.id, operation, this.now(), this.o.sealer.seal({ request }));
      this.audit({ action: `exchange.${operation}`, workflowId: wf.id, workflowKind: wf.kind, outcome: 'started', summary: `${operation} sent` });
      return Number(info.lastInsertRowid);
    });
    this.point(operation, 'before-send', wf);
    let result: T;
    try {
      result = await send();
    } catch (cause) {
      const error = toStationError(cause, this.o.scrub);
      const unknown = isExchangeError(cause) && cause.outcomeUnknown;
      this.commit(() => {
        this.finishCall(callId, unknown ? 'unknown' : 'failed', error.code);
        this.audit({
          action: `exchange.${operation}`,
          workflowId: wf.id,
          workflowKind: wf.kind,
          outcome: 'failed',
          errorCode: error.code,
          summary: unknown ? `${operation}: no answer; to be reconciled` : `${operation} refused (${error.details?.exchangeCode ?? error.code})`,
        });
        if (!unknown) refused?.(error, cause);
      });
      if (unknown) throw new OutcomeUnknown(callId, cause);
      throw cause instanceof StationFailure ? cause : new StationFailure(error);
    }
    this.point(operation, 'after-answer', wf);
    this.commit(() => {
      this.finishCall(callId, 'succeeded', null);
      this.audit({ action: `exchange.${operation}`, workflowId: wf.id, workflowKind: wf.kind, outcome: 'succeeded', summary: `${operation} done` });
      settle(result);
    });
    this.point(operation, 'after-outcome', wf);
    return result;
  }

  /** Calls whose outcome is not known: started and never finished (a crash), or answered by silence. */
  openCalls(workflowId: string): CallRecord[] {
    const rows = this.selectOpenCalls.all(workflowId) as { id: number; workflow_id: string; operation: string; status: CallRecord['status']; sealed: string }[];
    return rows.map((r) => ({
      id: r.id,
      workflowId: r.workflow_id,
      operation: r.operation,
      status: r.status,
      request: this.o.sealer.open<{ request: Record<string, unknown> }>(r.sealed).request,
    }));
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

  schedule(key: string, delayMs: number, fn: () => void): void {
    if (this.stopped) return;
    this.cancelTimer(key);
    const timer = setTimeout(() => {
      this.timers.delete(key);
      fn();
    }, delayMs);
    this.timers.set(key, timer);
  }

  /**
   * Reconciles one workflow under its lock after `delayMs`, and again every `retryMs` while that
   * throws (the exchange out of reach). One timer per workflow: a newer request replaces it.
   */
  reconcileLater(wf: AnyWorkflow, delayMs: number, retryMs: number, reconcile: () => Promise<void>): void {
    this.schedule(`reconcile:${wf.id}`, delayMs, () => {
      void this.lock(wf.id, reconcile).catch((error: unknown) => {
        this.o.log.info({ workflowId: wf.id, kind: wf.kind, err: (error as Error).message }, 'reconciliation will be tried again');
        this.reconcileLater(wf, retryMs, retryMs, reconcile);
      });
    });
  }

  cancelTimer(key: string): void {
    const timer = this.timers.get(key);
    if (timer !== undefined) clearTimeout(timer);
    this.timers.delete(key);
  }

  hasTimer(key: string): boolean {
    return this.timers.has(key);
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

function patientRefOf(wf: AnyWorkflow): string | null {
  const patient = 'patient' in wf.data ? wf.data.patient : null;
  return patient?.ref ?? null;
}
