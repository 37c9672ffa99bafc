// What a reader CLI subcommand is: its options (node:util parseArgs) and a run function returning
// the one JSON object the command prints. Adding a subcommand is one file and one entry in the
// `commands` map of ../cli.ts.

import type { ParseArgsConfig } from 'node:util';

export type CliOptions = NonNullable<ParseArgsConfig['options']>;
export type CliValues = Record<string, string | boolean | undefined>;

export interface CliCommand {
  readonly summary: string;
  /** The options after the subcommand name, e.g. "--port PATH --protocol zfm|gt521 [--baud B]". */
  readonly usage: string;
  readonly options: CliOptions;
  /** Returns the result object (printed as JSON); `signal` aborts on Ctrl-C. */
  run(values: CliValues, signal: AbortSignal): Promise<object>;
}

/** A refusal of the command line itself (exit code 2). */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}

export function requiredString(values: CliValues, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new CliUsageError(`--${name} is required`);
  return value;
}

export function optionalInteger(values: CliValues, name: string, min: number, max: number): number | undefined {
  const value = values[name];
  if (value === undefined) return undefined;
  const number = Number(value);
  if (typeof value !== 'string' || !/^\d+$/.test(value) || number < min || number > max) {
    throw new CliUsageError(`--${name} must be a whole number from ${min} to ${max}, got '${String(value)}'`);
  }
  return number;
}
