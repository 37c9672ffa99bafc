// Between a validated call from the renderer and the station core: the shell answers the one
// command that is about the shell itself (authorizationView.setArea), passes every other to the
// core, and checks what comes back against the contract, error envelopes included, so nothing
// outside it (a token riding along, say) reaches the renderer.
import { checkOutcome, makeError } from '../contract';
import type { CommandName, Invocation, Outcome, StationBridge } from '../contract';
import type { ShellLog } from './electron-api';

export type AnyOutcome = Outcome<unknown>;

export interface DispatcherDeps {
  core: StationBridge;
  /** The shell's own answer to authorizationView.setArea. */
  setArea(input: Extract<Invocation, { name: 'authorizationView.setArea' }>['input']): AnyOutcome;
  /** Sees every checked outcome (the shell learns links and the link allowlist from them). */
  observe(name: CommandName, outcome: AnyOutcome): void;
  log: ShellLog;
}

export type Dispatch = (call: Invocation) => Promise<AnyOutcome>;

export function createDispatcher(deps: DispatcherDeps): Dispatch {
  return async (call) => {
    if (call.name === 'authorizationView.setArea') return deps.setArea(call.input);
    let answered: unknown;
    try {
      // The core's invoke is generic in the command name; a validated Invocation is one of them.
      answered = await (deps.core.invoke as (name: CommandName, input: unknown) => Promise<unknown>)(call.name, call.input);
    } catch (error) {
      // Only the error's class: its message might quote what the exchange sent.
      deps.log.error({ command: call.name, error: error instanceof Error ? error.name : typeof error }, 'station core threw');
      return { ok: false, error: makeError('INTERNAL', `The station failed while handling ${call.name}.`) };
    }
    const outcome = checkOutcome(call.name, answered);
    if (!outcome.ok && outcome.error.code === 'INTERNAL') deps.log.error({ command: call.name }, 'station answer refused: outside the contract');
    deps.observe(call.name, outcome);
    return outcome;
  };
}
