// What the core answered, checked against the contract before it crosses to the page: outputs by
// the command's schema, errors by the error envelope; anything else becomes INTERNAL. (The Electron
// shell runs the same check in electron/main/dispatch.ts; the two shells may not import each other.)
import { checkOutput, makeError, stationError } from '../contract';
import type { CommandName, Outcome } from '../contract';

export type AnyOutcome = Outcome<unknown>;

export function checkOutcome(name: CommandName, outcome: unknown): AnyOutcome {
  if (outcome !== null && typeof outcome === 'object' && 'ok' in outcome) {
    if (outcome.ok === true && 'value' in outcome) return checkOutput(name, outcome.value);
    if (outcome.ok === false && 'error' in outcome) {
      const error = stationError.safeParse(outcome.error);
      if (error.success) return { ok: false, error: error.data };
    }
  }
  return { ok: false, error: makeError('INTERNAL', `The station answered ${name} outside the contract.`) };
}
