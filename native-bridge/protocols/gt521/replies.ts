// Which responses each GT-521 command can produce (reference §2.4 commands and error codes). A
// response does not name the command it answers. One the command cannot produce — a NACK
// "finger not pressed" in reply to CmosLed, an ACK carrying IsPressFinger's "not pressed" where
// Identify1_N's template ID is due — is the late answer to an earlier command (abandoned by a
// timeout, or by a host that crashed mid-poll), and a host must keep waiting for its own.

import { hex } from '../hex';
import { Gt521Command, Gt521Error, GT521_ERRORS, gt521CommandName, type Gt521CommandName } from './commands';
import { GT521_ACK, type Gt521Packet } from './packet';

interface ReplyRule {
  /** What an ACK's parameter may be, as an inclusive range; by default anything but an error code. */
  readonly ack?: readonly [min: number, max: number] | 'any';
  /** NACK error codes of this command, besides those any command can meet. */
  readonly nacks?: readonly number[];
  /** A NACK below 0x1000 names the enrolled template this one duplicates (Enroll3, SetTemplate). */
  readonly duplicates?: boolean;
}

const E = Gt521Error;

/** Failures any command can meet: a garbled packet, an unsupported command, a device fault, a bad parameter. */
const ANY_COMMAND: readonly number[] = [E.communication, E.notSupported, E.deviceError, E.invalidParameter];

/** Template IDs run 0..2999 (GT-521F52; the F32 stops at 199). */
const TEMPLATE_ID: readonly [number, number] = [0, 2999];
const enrollStep: ReplyRule = { nacks: [E.turnError, E.badFinger, E.enrollFailed, E.fingerNotPressed] };

const rules: Readonly<Partial<Record<Gt521CommandName, ReplyRule>>> = {
  ChangeBaudrate: { nacks: [E.invalidBaud] },
  GetEnrollCount: { ack: [0, 3000] },
  CheckEnrolled: { nacks: [E.invalidPosition, E.notUsed] },
  EnrollStart: { nacks: [E.invalidPosition, E.alreadyUsed, E.databaseFull] },
  Enroll1: enrollStep,
  Enroll2: enrollStep,
  Enroll3: { ...enrollStep, duplicates: true },
  // The one ACK whose parameter may be an error code: 0 is pressed, anything else (0x1012) is not.
  IsPressFinger: { ack: 'any' },
  DeleteId: { nacks: [E.invalidPosition, E.notUsed] },
  DeleteAll: { nacks: [E.databaseEmpty] },
  Verify1_1: { nacks: [E.invalidPosition, E.notUsed, E.verifyFailed, E.fingerNotPressed] },
  Identify1_N: { ack: TEMPLATE_ID, nacks: [E.identifyFailed, E.databaseEmpty, E.fingerNotPressed] },
  VerifyTemplate1_1: { nacks: [E.invalidPosition, E.verifyFailed, E.fingerNotPressed] },
  IdentifyTemplate1_N: { ack: TEMPLATE_ID, nacks: [E.identifyFailed, E.databaseEmpty, E.fingerNotPressed] },
  CaptureFinger: { nacks: [E.timeout, E.captureCancelled, E.fingerNotPressed] },
  MakeTemplate: { nacks: [E.badFinger, E.fingerNotPressed] },
  GetImage: { nacks: [E.fingerNotPressed] },
  GetRawImage: { nacks: [E.fingerNotPressed] },
  GetTemplate: { nacks: [E.invalidPosition, E.notUsed] },
  SetTemplate: { nacks: [E.invalidPosition], duplicates: true },
};

const commandCodes: ReadonlyMap<number, ReplyRule> = new Map(
  (Object.keys(Gt521Command) as Gt521CommandName[]).map((name) => [Gt521Command[name], rules[name] ?? {}]),
);

/**
 * Why `response` cannot be the answer to `command` (then it is a stale reply to an earlier
 * command), or undefined when it can. A command outside the table accepts any response.
 */
export function implausibleGt521Reply(command: number, response: Gt521Packet): string | undefined {
  const rule = commandCodes.get(command);
  if (!rule) return undefined;
  const name = gt521CommandName(command);
  const { parameter } = response;
  if (response.code === GT521_ACK) {
    const allowed = rule.ack ?? 'not-an-error';
    if (allowed === 'any') return undefined;
    if (allowed === 'not-an-error' ? !GT521_ERRORS.has(parameter) : parameter >= allowed[0] && parameter <= allowed[1]) return undefined;
    return `an ACK with parameter 0x${hex(parameter, 4)}, which ${name} cannot give`;
  }
  if (ANY_COMMAND.includes(parameter) || rule.nacks?.includes(parameter)) return undefined;
  if (rule.duplicates && parameter < 0x1000) return undefined;
  const known = GT521_ERRORS.get(parameter);
  return `a NACK 0x${hex(parameter, 4)}${known ? ` (${known.message})` : ''}, which ${name} cannot give`;
}
