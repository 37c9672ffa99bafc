// Between a validated call from the renderer and the station core: the shell answers the one
// command that is about the shell itself (authorizationView.setArea), passes every other to the
// core, and checks what comes back against the contract, error envelopes included, so nothing
// outside it (a token riding along, say) reaches the renderer.
import { invokeChecked } from '../contract';
import type { CommandName, HostedCore, Invocation, Outcome } from '../contract';
import type { ShellLog } from './electron-api';

export type AnyOutcome = Outcome<unknown>;

export interface DispatcherDeps {
  core: HostedCore;
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
    const outcome = await invokeChecked(deps.core, call, deps.log);
    deps.observe(call.name, outcome);
    return outcome;
  };
}
