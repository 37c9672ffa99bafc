// The ward's queue (contract: work.queue): the workflows a nurse may pick up, each with when it came
// into the state it is in (how long it has waited) and the doctor's or SHA's latest answer to what
// she asked. A view over what the core already keeps: the engine's workflows and their views, and
// the audit log, where the engine writes every workflow's creation (`<kind>.created`) and every
// transition (`<kind>.<event>` of its machine). It keeps nothing but a cache of those times.
import { workflowKind, type WorkAnswer, type WorkItem, type WorkflowKind, type WorkflowView } from '../../contract';
import type { Db } from '../db';
import { kindOf } from '../workflows/kinds';
import { patientRefOf } from '../workflows/engine';
import { isShown } from '../workflows/emergency';
import type { AnyWorkflow } from '../workflows/types';

interface Workflows {
  all(): AnyWorkflow[];
  isEnded(wf: AnyWorkflow): boolean;
}

export interface WorkflowFilter {
  readonly patientRef?: string | undefined;
  readonly kind?: WorkflowKind | undefined;
  readonly includeEnded?: boolean | undefined;
}

/**
 * The workflows workflow.list and work.queue answer: those that mean something yet (an emergency
 * only once its first call is known), unfinished ones unless asked, of a patient or kind.
 */
export function selectWorkflows(engine: Workflows, filter: WorkflowFilter): AnyWorkflow[] {
  return engine
    .all()
    .filter(isShown)
    .filter((wf) => filter.includeEnded === true || !engine.isEnded(wf))
    .filter((wf) => filter.kind === undefined || wf.kind === filter.kind)
    .filter((wf) => filter.patientRef === undefined || patientRefOf(wf) === filter.patientRef);
}

/** The audit actions that mark a workflow of a kind coming into a state: its creation and each move of its machine. */
function stateActionsOf(kind: WorkflowKind): ReadonlySet<string> {
  const table: Readonly<Record<string, Readonly<Record<string, string>>>> = kindOf(kind).machine;
  return new Set([`${kind}.created`, ...Object.values(table).flatMap((row) => Object.keys(row).map((event) => `${kind}.${event}`))]);
}

const stateActions = new Map(workflowKind.options.map((kind) => [kind, stateActionsOf(kind)]));

export class WorkQueue {
  /** When each workflow came into its state, and which state that was (a new state is looked up again). */
  private readonly since = new Map<string, { readonly state: string; readonly at: string }>();
  private readonly records;

  constructor(db: Db) {
    this.records = db.prepare('SELECT workflow_id AS id, action, at FROM audit WHERE workflow_id IN (SELECT value FROM json_each(?)) ORDER BY seq');
  }

  /** The queue, longest waiting first. */
  items(workflows: readonly AnyWorkflow[], viewOf: (wf: AnyWorkflow) => WorkflowView): WorkItem[] {
    this.learn(workflows);
    return workflows
      .map((wf) => {
        const view = viewOf(wf);
        const since = this.since.get(wf.id)?.at ?? wf.createdAt;
        return { view, since, answer: answerOf(view, since) };
      })
      .sort((a, b) => Date.parse(a.since) - Date.parse(b.since));
  }

  /** One pass over the audit for the workflows whose state is new here. */
  private learn(workflows: readonly AnyWorkflow[]): void {
    const stale = workflows.filter((wf) => this.since.get(wf.id)?.state !== wf.state);
    if (stale.length === 0) return;
    const byId = new Map(stale.map((wf) => [wf.id, wf]));
    const found = new Map<string, string>();
    for (const row of this.records.iterate(JSON.stringify([...byId.keys()])) as Iterable<{ id: string; action: string; at: string }>) {
      const wf = byId.get(row.id);
      if (wf !== undefined && stateActions.get(wf.kind)?.has(row.action) === true) found.set(row.id, row.at);
    }
    for (const wf of stale) this.since.set(wf.id, { state: wf.state, at: found.get(wf.id) ?? wf.createdAt });
  }
}

/**
 * The doctor's or SHA's answer the nurse should hear about: a preauthorization the doctor approved
 * (waiting for SHA now), one SHA approved (ready for the admission day) or one rejected; a whitelist
 * request SHA answered. Its time is when the workflow came into that state (a whitelist answer
 * changes no state: no time is kept for it).
 */
function answerOf(view: WorkflowView, since: string): WorkAnswer | null {
  if (view.kind === 'elective') {
    if (view.state === 'awaiting-payer') return { by: 'doctor', about: 'preauth', outcome: 'approved', at: since };
    if (view.state === 'finalised') return { by: 'sha', about: 'preauth', outcome: 'approved', at: since };
    if (view.state === 'preauth-rejected') {
      const doctorApproved = view.preauth?.doctorStep === 'approved';
      return { by: doctorApproved ? 'sha' : 'doctor', about: 'preauth', outcome: 'rejected', at: since };
    }
  }
  const whitelist = view.kind === 'visit' ? null : view.verification?.whitelist;
  if (whitelist !== null && whitelist !== undefined && whitelist.status !== 'pending') {
    return { by: 'sha', about: 'whitelist', outcome: whitelist.status, at: null };
  }
  return null;
}
