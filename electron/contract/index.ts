// The station contract: the one typed boundary between the renderer and the main side. This file
// assembles the area tables into the command table and the event union, defines the bridge type
// both shells must satisfy, and the checks both shells run on every message that crosses.
import { z } from 'zod';
import { auditCommands } from './audit';
import { claimsCommands } from './claims';
import type { CommandSpec } from './common';
import { consentCommands } from './consent';
import { correctionCommands } from './corrections';
import { dischargeCommands } from './discharge';
import { electiveCommands } from './elective';
import { emergencyCommands } from './emergency';
import { makeError, stationError } from './errors';
import { lookupCommands } from './lookups';
import { prescriptionCommands } from './prescriptions';
import type { Outcome, StationError } from './errors';
import { patientCommands } from './patient';
import { programmeCommands } from './programmes';
import { readerCommands, readerEvents } from './readers';
import { scannerCommands } from './scanner';
import { settingsCommands } from './settings';
import { staffCommands } from './staff';
import { statusCommands, statusEvents } from './status';
import { visitCommands } from './visit';
import { workCommands } from './work';
import { workflowCommands, workflowEvents } from './workflows';

export const commandGroups = {
  settings: settingsCommands,
  staff: staffCommands,
  patient: patientCommands,
  consent: consentCommands,
  visit: visitCommands,
  discharge: dischargeCommands,
  elective: electiveCommands,
  emergency: emergencyCommands,
  readers: readerCommands,
  audit: auditCommands,
  status: statusCommands,
  workflows: workflowCommands,
  work: workCommands,
  programmes: programmeCommands,
  corrections: correctionCommands,
  claims: claimsCommands,
  lookups: lookupCommands,
  prescriptions: prescriptionCommands,
  scanner: scannerCommands,
} as const;

export const commands = {
  ...settingsCommands,
  ...staffCommands,
  ...patientCommands,
  ...consentCommands,
  ...visitCommands,
  ...dischargeCommands,
  ...electiveCommands,
  ...emergencyCommands,
  ...readerCommands,
  ...auditCommands,
  ...statusCommands,
  ...workflowCommands,
  ...workCommands,
  ...programmeCommands,
  ...correctionCommands,
  ...claimsCommands,
  ...lookupCommands,
  ...prescriptionCommands,
  ...scannerCommands,
} satisfies Record<string, CommandSpec>;

export type Commands = typeof commands;
export type CommandName = keyof Commands;
/** What the renderer sends. */
export type CommandInput<N extends CommandName> = z.input<Commands[N]['input']>;
/** What the station core receives once the input has been validated. */
export type ValidInput<N extends CommandName> = z.output<Commands[N]['input']>;
export type CommandOutput<N extends CommandName> = z.output<Commands[N]['output']>;
export type CommandOutcome<N extends CommandName> = Outcome<CommandOutput<N>>;

export const commandNames = Object.keys(commands) as CommandName[];

/**
 * Commands a shell answers itself and the station core never does: where the authorization link is
 * shown is the shell's to say (the Electron shell's own view, or the renderer's iframe in browser
 * mode), so each shell owns `authorizationView.setArea`.
 */
export const shellCommandNames = ['authorizationView.setArea'] as const satisfies readonly CommandName[];
export type ShellCommandName = (typeof shellCommandNames)[number];
/** What the station core answers: every command but the shell's own. */
export type CoreCommandName = Exclude<CommandName, ShellCommandName>;

export function isShellCommand(name: CommandName): name is ShellCommandName {
  return (shellCommandNames as readonly CommandName[]).includes(name);
}

export const stationEvent = z.discriminatedUnion('type', [...workflowEvents, ...readerEvents, ...statusEvents]);
export type StationEvent = z.infer<typeof stationEvent>;
export type StationEventType = StationEvent['type'];
export const eventTypes = stationEvent.options.map((option) => option.shape.type.value) as StationEventType[];

/**
 * The one contract both shells expose to the renderer: the Electron preload (over IPC) and the
 * browser host's client (over loopback HTTP/WebSocket) are each declared `satisfies StationBridge`.
 */
export interface StationBridge {
  invoke<N extends CommandName>(name: N, input: CommandInput<N>): Promise<CommandOutcome<N>>;
  /** Returns the function that unsubscribes. */
  subscribe(listener: (event: StationEvent) => void): () => void;
}

/**
 * The station core as a shell hosts it. The shell is where a message crosses from the renderer,
 * so it validates each call (validateInvoke) and checks each answer and event (checkOutcome,
 * checkEvent), once; the core takes the validated call as it is and hands answers and events to
 * the shell without checking them a second time. (The core's own `StationBridge` does both checks
 * itself, for callers in its process that no shell stands in front of: launchers, tests.)
 */
export interface HostedCore {
  invoke(call: Invocation): Promise<unknown>;
  subscribe(listener: (event: unknown) => void): () => void;
}

/** A validated inbound call, narrowed by its name. */
export type Invocation = { [N in CommandName]: { name: N; input: ValidInput<N> } }[CommandName];

export function isCommandName(name: unknown): name is CommandName {
  return typeof name === 'string' && Object.hasOwn(commands, name);
}

/**
 * Checks one inbound call (an IPC message, a WebSocket frame) before the core sees it. Refusals are
 * ready to send back as they are; they name the bad field and never echo the values sent.
 */
export function validateInvoke(name: unknown, input: unknown): Outcome<Invocation> {
  if (!isCommandName(name)) {
    const shown = typeof name === 'string' ? `"${name.slice(0, 60)}"` : typeof name;
    return { ok: false, error: makeError('UNKNOWN_COMMAND', `Unknown command ${shown}.`, { field: 'name' }) };
  }
  const parsed = commands[name].input.safeParse(input);
  if (!parsed.success) return { ok: false, error: validationError(name, parsed.error) };
  return { ok: true, value: { name, input: parsed.data } as Invocation };
}

/**
 * Checks what the core answered before it crosses to the renderer: an output outside the contract
 * (an unknown key, say, that might carry a token) is replaced by an INTERNAL error.
 */
export function checkOutput<N extends CommandName>(name: N, value: unknown): CommandOutcome<N> {
  const parsed = commands[name].output.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data as CommandOutput<N> };
  return {
    ok: false,
    error: makeError('INTERNAL', `The station answered ${name} outside the contract.`, { issues: issuesOf(parsed.error) }),
  };
}

/**
 * Checks a whole answer of the core, `{ok, value}` or `{ok: false, error}`, before it crosses to the
 * renderer: a value by the command's output schema (checkOutput), an error by the error envelope,
 * so no extra key rides along on either; anything not shaped as an outcome becomes INTERNAL. Both
 * shells run it on every answer (they may not import each other, so it lives here).
 */
export function checkOutcome<N extends CommandName>(name: N, outcome: unknown): CommandOutcome<N> {
  if (outcome !== null && typeof outcome === 'object' && 'ok' in outcome) {
    if (outcome.ok === true && 'value' in outcome) return checkOutput(name, outcome.value);
    if (outcome.ok === false && 'error' in outcome) {
      const error = stationError.safeParse(outcome.error);
      if (error.success) return { ok: false, error: error.data };
    }
  }
  return { ok: false, error: makeError('INTERNAL', `The station answered ${name} outside the contract.`) };
}

/** What a shell logs through: pino's calling shape, and the Electron shell's own ShellLog. */
export interface ErrorLog {
  error(fields: Record<string, unknown>, message: string): void;
}

/**
 * A validated call, handed to the core and its answer checked (checkOutcome): what both shells do
 * with every call the renderer makes. A core that throws becomes INTERNAL, logged by the error's
 * class only, since its message might quote what the exchange sent.
 */
export async function invokeChecked(core: HostedCore, call: Invocation, log: ErrorLog): Promise<Outcome<unknown>> {
  let answered: unknown;
  try {
    answered = await core.invoke(call);
  } catch (error) {
    log.error({ command: call.name, error: error instanceof Error ? error.name : typeof error }, 'station core threw');
    return { ok: false, error: makeError('INTERNAL', `The station failed while handling ${call.name}.`) };
  }
  const outcome = checkOutcome(call.name, answered);
  if (!outcome.ok && outcome.error.code === 'INTERNAL') log.error({ command: call.name }, 'station answer refused: outside the contract');
  return outcome;
}

/** Checks an event before it is pushed to the renderer. */
export function checkEvent(value: unknown): Outcome<StationEvent> {
  const parsed = stationEvent.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, error: makeError('INTERNAL', 'The station emitted an event outside the contract.', { issues: issuesOf(parsed.error) }) };
}

function issuesOf(error: z.ZodError): { field: string; message: string }[] {
  return error.issues.slice(0, 50).flatMap((issue) => {
    const path = issue.path.map(String);
    // An unknown key is reported on its parent; name the key itself.
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ field: [...path, key].join('.'), message: 'is not part of the contract' }));
    }
    return [{ field: path.join('.') || '(input)', message: issue.message }];
  });
}

function validationError(name: CommandName, error: z.ZodError): StationError {
  const issues = issuesOf(error);
  const first = issues[0] ?? { field: '(input)', message: 'is invalid' };
  return makeError('VALIDATION', `${name}: ${first.field}: ${first.message}`, { field: first.field, issues });
}

export * from './activity';
export * from './audit';
export * from './claims';
export * from './common';
export * from './consent';
export * from './corrections';
export * from './discharge';
export * from './elective';
export * from './emergency';
export * from './errors';
export * from './lookups';
export * from './prescriptions';
export * from './patient';
export * from './programmes';
export * from './readers';
export * from './scanner';
export * from './settings';
export * from './staff';
export * from './status';
export * from './visit';
export * from './work';
export * from './workflows';
