// What the command areas are handed by the running station (composition.ts), and the one helper every command on a
// workflow goes through (`workflowCommand`): the workflow found and locked, a call whose outcome is
// not known settled with the exchange before anything else, the command run, and what it changed
// without committing dropped when it fails.
import type { CoreCommandName, StationStatus, ValidInput, WorkflowKind, WorkflowView } from '../../contract';
import type { AuditLog } from '../audit';
import type { ActivityView } from '../views/activity';
import type { WorkQueue } from '../views/work-queue';
import type { StationDeps } from '../deps';
import { fail } from '../errors';
import type { IdleLock } from '../idle-lock';
import type { ReadersFacade } from '../readers';
import type { PinGuard, StaffMember, StaffRegistry } from '../staff';
import type { Ctx } from '../workflows/context';
import { hostOf } from '../workflows/kinds';
import { resumeWorkflow } from '../workflows/recovery';
import type { AnyWorkflow, AuthorizationLink, WorkflowOf } from '../workflows/types';
import type { VerificationHost } from '../workflows/verification';

export type Handler<N extends CoreCommandName> = (input: ValidInput<N>) => Promise<unknown>;
/** Every command the core answers (a shell answers its own: `shellCommandNames`). */
export type Handlers = { [N in CoreCommandName]: Handler<N> };

/** An area's commands: checked against the contract's inputs, each name at most once. */
export function defineCommands<T extends Partial<Handlers>>(commands: T): T {
  return commands;
}

/**
 * The running station as the areas see it: every part is there (handlers are made only once the
 * station has started), so no area asks whether it has.
 */
export interface StationServices {
  readonly deps: StationDeps;
  readonly host: 'electron' | 'browser';
  readonly readers: ReadersFacade;
  readonly lock: IdleLock;
  readonly ctx: Ctx;
  readonly audit: AuditLog;
  /** The audit records as the activity screen reads them, each with its patient masked. */
  readonly activity: ActivityView;
  readonly workQueue: WorkQueue;
  readonly staff: StaffRegistry;
  readonly pinGuard: PinGuard;
  /** Who works at the station now (kept while it is locked), and the change of her. */
  current(): StaffMember | null;
  setCurrent(member: StaffMember): void;
  viewOf(wf: AnyWorkflow): WorkflowView;
  status(): StationStatus;
  statusChanged(): void;
  emit(event: unknown): void;
  /** The readers' side following settings (origins, the preferred reader). */
  followSettings(): Promise<void>;
  /** The pending authorization link behind a handle. */
  findLink(handle: string): AuthorizationLink | null;
  workflowCommand: WorkflowCommand;
}

export interface WorkflowCommandOptions {
  /**
   * After settling an unknown outcome first: `answer` (default) answers the workflow as the
   * exchange now shows it, without running the command — the nurse sees what became of her last
   * request and decides again; `run` goes on (commands that look before they act).
   */
  readonly afterReconciling?: 'answer' | 'run';
}

export type WorkflowCommand = <K extends WorkflowKind, I extends { workflowId: string }, R, O = WorkflowView>(
  kinds: readonly K[],
  run: (wf: WorkflowOf<K>, c: Ctx, input: I) => Promise<R>,
  answer?: (wf: WorkflowOf<K>, c: Ctx, result: R | undefined) => O | Promise<O>,
  options?: WorkflowCommandOptions,
) => (input: I) => Promise<O>;

export function makeWorkflowCommand(services: Pick<StationServices, 'ctx' | 'viewOf'>): WorkflowCommand {
  return (kinds, run, answer, options = {}) =>
    async (input) => {
      const c = services.ctx;
      if (c.engine.get(input.workflowId) === undefined) fail('NOT_FOUND', 'No such workflow on this station.', { field: 'workflowId' });
      return c.engine.lock(input.workflowId, async () => {
        const wf = c.engine.get(input.workflowId)!;
        if (!(kinds as readonly string[]).includes(wf.kind)) fail('WRONG_STATE', `This is a ${wf.kind} workflow.`, { state: wf.kind });
        const typed = wf as WorkflowOf<(typeof kinds)[number]>;
        const respond = (result: Awaited<ReturnType<typeof run>> | undefined) =>
          answer === undefined ? (services.viewOf(wf) as never) : answer(typed, c, result);
        // A call whose outcome is not known is settled first: the nurse never acts on a guess.
        if (c.engine.openCalls(wf.id).length > 0) {
          try {
            await resumeWorkflow(c, wf);
          } catch {
            c.engine.discardUncommitted(wf.id);
            fail('EXCHANGE_UNREACHABLE', 'The station must first learn from the exchange what became of the last request; try again in a moment.', { workflowId: wf.id });
          }
          if ((options.afterReconciling ?? 'answer') === 'answer') return respond(undefined);
        }
        try {
          return await respond(await run(typed, c, input));
        } catch (error) {
          // An unknown outcome has been acted on by the write itself (Engine.send): only what was not committed goes.
          c.engine.discardUncommitted(wf.id);
          throw error;
        }
      });
    };
}

/** The kinds that take consent, and their verification step. */
export const consentTakingKinds = ['consent', 'elective', 'discharge', 'emergency'] as const;

export function requireHost(wf: AnyWorkflow): VerificationHost<AnyWorkflow> {
  const host = hostOf(wf);
  if (host === null) fail('WRONG_STATE', 'A visit takes no consent: use discharge.begin for the visit end.', { state: wf.state });
  return host;
}
