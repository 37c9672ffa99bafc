// The closed set of errors a command can answer with, and the outcome envelope every command
// returns. Outcomes are plain data ({ok, value} or {ok, error}) rather than thrown errors, so they
// cross IPC and JSON without losing their code.
import { z } from 'zod';
import { timestamp, workflowId } from './common';

/** Each code with whether the same call may succeed if simply tried again (a transient failure). */
export const errorCatalogue = {
  EXCHANGE_UNREACHABLE: { retryable: true }, // no connection to the exchange
  EXCHANGE_TIMEOUT: { retryable: true },
  EXCHANGE_UNREADABLE: { retryable: true }, // the exchange answered a read with something the station could not read; asking again may work
  OUTCOME_UNKNOWN: { retryable: true }, // a write the exchange did not confirm: the station checks with the exchange before anything is sent again
  EXCHANGE_ERROR: { retryable: false }, // the exchange refused with a code the station does not map; see details.exchangeCode
  SIGN_IN_FAILED: { retryable: false }, // the exchange refused the facility's client id and secret
  SIGN_IN_TOKEN_UNUSABLE: { retryable: false }, // the exchange answered the sign-in with a token or lifetime the station cannot use (details.field); nothing is signed in
  NOT_SIGNED_IN: { retryable: false },
  SETTINGS_MISSING: { retryable: false }, // details.issues names the settings to fill in
  NOT_FOUND: { retryable: false }, // patient, workflow, line or protocol
  NOT_COVERED: { retryable: false }, // details.reason / details.possibleSolution from the exchange
  SCHEME_CHOICE_NEEDED: { retryable: false }, // covered under two schemes and none chosen yet
  INTERVENTION_NOT_ALLOWED: { retryable: false },
  BIOMETRICS_REQUIRED: { retryable: false }, // SMS code refused: the facility enforces fingerprints
  NO_CONTACT: { retryable: false }, // no phone to send an SMS code to
  OTP_INVALID: { retryable: false }, // details.attemptsLeft
  OTP_EXPIRED: { retryable: false },
  OTP_RESEND_TOO_SOON: { retryable: true }, // details.retryAt
  PENDING_AUTHORIZATION_BLOCKS_OTP: { retryable: true }, // a fingerprint request is still open; cancel it first
  AUTHORIZATION_REJECTED: { retryable: false },
  AUTHORIZATION_EXPIRED: { retryable: false },
  FALLBACK_WINDOW_CLOSED: { retryable: false }, // the SMS window after unusable fingerprints has ended
  PREAUTH_NOT_FINALISED: { retryable: false },
  PREAUTH_REJECTED: { retryable: false },
  NO_DOCTOR: { retryable: false }, // submit needs an attending doctor on the claim
  DOCTOR_NOT_FOUND: { retryable: false }, // not in the professionals registry
  CLAIM_ALREADY_SUBMITTED: { retryable: false },
  CLAIM_NOT_EDITABLE: { retryable: false }, // the claim is closed: nothing on it changes any more
  DOCTOR_ALREADY_ATTACHED: { retryable: false }, // SHA holds another doctor on the claim (one per claim)
  PREAUTH_NOT_EDITABLE: { retryable: false }, // the preauthorization moved on (the doctor approved, or a visit used it)
  DOCUMENTS_MISSING: { retryable: false }, // SHA returned the claim for papers and will not take it back without them
  PAPERS_GONE: { retryable: false }, // the documents of a request waiting on this station are gone from it: attach them again
  EMERGENCY_WINDOW_EXPIRED: { retryable: false }, // the 24 hours after the emergency have passed
  READER_ABSENT: { retryable: false },
  READER_ERROR: { retryable: true },
  HARDWARE_SERVICE_NOT_RUNNING: { retryable: true },
  WRONG_STATE: { retryable: false }, // not possible in the workflow's current state; details.state
  VALIDATION: { retryable: false }, // details.field names the first bad field
  UNKNOWN_COMMAND: { retryable: false },
  LOCKED: { retryable: false }, // the station is locked, or no staff member is signed in: a PIN opens it (station.unlock)
  PIN_WRONG: { retryable: false }, // no staff member has this PIN; details.attemptsLeft before the station locks out
  PIN_LOCKED: { retryable: true }, // five wrong PINs: no PIN is tried until details.retryAt
  ADMINISTRATOR_REQUIRED: { retryable: false }, // only a signed-in administrator may do this (details.field names the setting)
  PROVISIONED: { retryable: false }, // fixed by the station's provisioning file (details.field): the window cannot change it
  BUSY: { retryable: true }, // too many requests at once from this window (or at this station): nothing was done; try again
  INTERNAL: { retryable: false },
} as const satisfies Record<string, { retryable: boolean }>;

export type ErrorCode = keyof typeof errorCatalogue;
export const errorCodes = Object.keys(errorCatalogue) as [ErrorCode, ...ErrorCode[]];
export const errorCode = z.enum(errorCodes);

/** Closed on purpose: every key is known, so nothing secret can ride along in an error. */
export const errorDetails = z.strictObject({
  field: z.string().max(200).optional(),
  issues: z.array(z.strictObject({ field: z.string().max(200), message: z.string().max(500) })).max(50).optional(),
  attemptsLeft: z.number().int().min(0).optional(),
  retryAt: timestamp.optional(),
  windowEndsAt: timestamp.optional(),
  state: z.string().max(60).optional(),
  workflowId: workflowId.optional(),
  reason: z.string().max(500).optional(),
  possibleSolution: z.string().max(500).optional(),
  exchangeCode: z.string().max(100).optional(),
  traceId: z.string().max(100).optional(),
});

export const stationError = z.strictObject({
  code: errorCode,
  message: z.string().max(1000),
  retryable: z.boolean(),
  details: errorDetails.optional(),
});

export type StationError = z.infer<typeof stationError>;
export type ErrorDetails = z.infer<typeof errorDetails>;

/** Builds an error with the catalogue's retryable flag. */
export function makeError(code: ErrorCode, message: string, details?: ErrorDetails): StationError {
  return details === undefined
    ? { code, message, retryable: errorCatalogue[code].retryable }
    : { code, message, retryable: errorCatalogue[code].retryable, details };
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: StationError };

export const outcomeSchema = <T extends z.ZodType>(value: T) =>
  z.discriminatedUnion('ok', [z.strictObject({ ok: z.literal(true), value }), z.strictObject({ ok: z.literal(false), error: stationError })]);
