// One module per kind of workflow, registered in one table. A kind's module says everything the
// station knows of that kind: its machine (machines.ts), its view, the consent it takes (its
// verification host), how it is brought back in line with the exchange and resumed, and what an
// unknown outcome of one of its writes means for it. The station (views, links) and recovery
// iterate the table; nothing else switches on a workflow's kind to find these.
import type { WorkflowKind, WorkflowView } from '../../contract';
import type { machines } from '../machines';
import { consentKind } from './consent';
import type { Ctx } from './context';
import { dischargeKind } from './discharge';
import { electiveKind } from './elective';
import { emergencyKind } from './emergency';
import type { CallRecord } from './engine';
import type { AnyWorkflow, WorkflowOf } from './types';
import type { VerificationHost } from './verification';
import { visitKind } from './visit';

export interface WorkflowKindModule<K extends WorkflowKind> {
  readonly kind: K;
  /** Its transition table: the contract's states, the moves the engine allows. */
  readonly machine: (typeof machines)[K];
  /** What the renderer is shown of it. */
  view(ctx: Ctx, wf: WorkflowOf<K>): WorkflowView;
  /** The consent it takes (the shared verification step), or null for a kind that takes none. */
  readonly verification: VerificationHost<WorkflowOf<K>> | null;
  // Its sealed record's schema, per version, with the upgrade from each older one: the slot for
  // the versioned records of issue 21 (a record is read today as it was written).
  /**
   * Its writes whose outcome the journal does not know, after a restart, a grace period or before
   * a command (the step's own calls are settled before: verification.ts): each settled from what
   * the exchange shows now, by the call's policy; then the workflow's state brought in line (a
   * visit never sent, a submission never made).
   */
  reconcile(ctx: Ctx, wf: WorkflowOf<K>, calls: CallRecord[]): Promise<void>;
  /** Its own waits, resumed where they were (the preauth's poll, the emergency's 24 hours). */
  resume?(ctx: Ctx, wf: WorkflowOf<K>): void;
  /** What an unknown outcome of one of its own writes means for it, right after the answer was lost. */
  readonly unknownOutcome: UnknownOutcomeMeaning<WorkflowOf<K>>;
}

export interface UnknownOutcomeMeaning<W extends AnyWorkflow> {
  /**
   * In the transaction that journals the outcome unknown: where the workflow waits meanwhile
   * (`reconciling`, say). Answers whether the workflow now shows the outcome unknown itself (the
   * command then answers the workflow) or the command must say OUTCOME_UNKNOWN.
   */
  meanwhile(ctx: Ctx, wf: W, call: CallRecord): boolean;
  /**
   * A write of its own that nothing can look up (`cannot-look-up`): never sent again; the workflow
   * says what it knows, in the caller's transaction. Answers as `meanwhile`. Absent, or answering
   * undefined, for a call the verification step settles.
   */
  unknowable?(ctx: Ctx, wf: W, call: CallRecord): boolean | undefined;
  /**
   * A write the look-up may settle in the same command (`look-up`), what the exchange already shows
   * settled now. A request that was only slow may still land, so one not found yet stays open for
   * `reconcile` after the grace period. Absent for calls only `reconcile` looks up.
   */
  lookUpAtOnce?(ctx: Ctx, wf: W, call: CallRecord): Promise<void>;
}

type KindTable = { readonly [K in WorkflowKind]: WorkflowKindModule<K> };

export const workflowKinds: KindTable = {
  consent: consentKind,
  visit: visitKind,
  discharge: dischargeKind,
  elective: electiveKind,
  emergency: emergencyKind,
};

/** A kind's module; for a workflow of any kind, `kindOf(wf.kind)` takes that workflow. */
export function kindOf<K extends WorkflowKind>(kind: K): WorkflowKindModule<K> {
  return workflowKinds[kind];
}

/** The workflow as the renderer is shown it. */
export function viewOf(ctx: Ctx, wf: AnyWorkflow): WorkflowView {
  return kindOf(wf.kind).view(ctx, wf);
}

/** The consent a workflow takes, or null (a visit takes none: its end is a discharge workflow). */
export function hostOf(wf: AnyWorkflow): VerificationHost<AnyWorkflow> | null {
  return kindOf(wf.kind).verification;
}
