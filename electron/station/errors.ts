// Failures inside the core are thrown as StationFailure (a contract error) and turned into an
// outcome at the bridge. Exchange errors are mapped here, in one table, to the contract's codes;
// the exchange's own wording is passed on only after the scrubber has taken every known secret and
// patient identifier out of it.
import { makeError, type ErrorCode, type ErrorDetails, type StationError } from '../contract';
import { isExchangeError, type ExchangeError } from '../payer';

export class StationFailure extends Error {
  override readonly name = 'StationFailure';
  constructor(readonly error: StationError) {
    super(error.message);
  }
}

export function fail(code: ErrorCode, message: string, details?: ErrorDetails): never {
  throw new StationFailure(makeError(code, message, details));
}

/** The exchange's rule and conflict codes the station maps; anything else is EXCHANGE_ERROR. */
const exchangeCodes: Readonly<Record<string, { code: ErrorCode; message: string }>> = {
  BIOMETRICS_REQUIRED: { code: 'BIOMETRICS_REQUIRED', message: 'This facility requires the patient’s fingerprint: an SMS code is not accepted.' },
  INVALID_OTP: { code: 'OTP_INVALID', message: 'The SMS code is not right.' },
  OTP_EXPIRED: { code: 'OTP_EXPIRED', message: 'The SMS code has expired: send a new one.' },
  NO_CONTACT: { code: 'NO_CONTACT', message: 'The patient has no phone number to send a code to.' },
  PREAUTH_REQUIRED: { code: 'PREAUTH_NOT_FINALISED', message: 'The preauthorization is not approved yet.' },
  COVER_NOT_SET: { code: 'SCHEME_CHOICE_NEEDED', message: 'The patient is covered under two schemes: choose one first.' },
  NOT_COVERED: { code: 'NOT_COVERED', message: 'The patient is not covered.' },
  NO_DOCTOR_ATTACHED: { code: 'NO_DOCTOR', message: 'Attach the attending doctor before submitting.' },
  PROFESSIONAL_NOT_FOUND: { code: 'DOCTOR_NOT_FOUND', message: 'The doctor is not in the professionals registry.' },
  CLAIM_ALREADY_SUBMITTED: { code: 'CLAIM_ALREADY_SUBMITTED', message: 'The claim has already been submitted.' },
  CLAIM_NOT_EDITABLE: { code: 'CLAIM_NOT_EDITABLE', message: 'The claim is closed: it can no longer be changed.' },
  DOCTOR_ALREADY_ATTACHED: { code: 'DOCTOR_ALREADY_ATTACHED', message: 'SHA holds another doctor on the claim: one doctor per claim.' },
  PREAUTH_NOT_EDITABLE: { code: 'PREAUTH_NOT_EDITABLE', message: 'The preauthorization has moved on: it can no longer be changed.' },
  PREAUTH_NOT_CANCELLABLE: { code: 'PREAUTH_NOT_EDITABLE', message: 'A visit has used the preauthorization: it can no longer be cancelled.' },
  DOCUMENTS_MISSING: { code: 'DOCUMENTS_MISSING', message: 'SHA returned the claim for papers: attach each one it asked for, then send it back.' },
  EMERGENCY_WINDOW_EXPIRED: { code: 'EMERGENCY_WINDOW_EXPIRED', message: 'The 24 hours to submit this emergency claim have passed.' },
  INTERVENTION_NOT_ALLOWED: { code: 'INTERVENTION_NOT_ALLOWED', message: 'The exchange does not allow this intervention here.' },
  PENDING_AUTHORIZATION_EXISTS: {
    code: 'PENDING_AUTHORIZATION_BLOCKS_OTP',
    message: 'A fingerprint request for this patient is still open at the exchange.',
  },
  AUTHORIZATION_NOT_PENDING: { code: 'WRONG_STATE', message: 'The fingerprint request is no longer pending.' },
  AUTHORIZATION_NOT_AUTHORIZED: { code: 'WRONG_STATE', message: 'The patient’s consent is not authorized (yet).' },
  AUTHORIZATION_MISMATCH: { code: 'WRONG_STATE', message: 'The consent does not match this patient or intervention.' },
  DISCHARGE_CONSENT_REQUIRED: { code: 'WRONG_STATE', message: 'The patient must consent to the end of the visit first.' },
  INVALID_CLIENT: { code: 'SIGN_IN_FAILED', message: 'The exchange refused the facility’s client id or secret.' },
  TOKEN_EXPIRED: { code: 'NOT_SIGNED_IN', message: 'The facility’s session with the exchange has ended: sign in again.' },
};

export interface Scrub {
  (text: string): string;
}

/** An exchange error as a contract error; `scrub` takes secrets and patient identifiers out of its text. */
export function fromExchangeError(error: ExchangeError, scrub: Scrub): StationError {
  const common: ErrorDetails = {};
  if (error.code !== undefined) common.exchangeCode = error.code.slice(0, 100);
  if (error.traceId !== undefined) common.traceId = error.traceId.slice(0, 100);
  if (error.operation === 'auth.token' && error.kind === 'malformed_response') {
    // A token the station cannot send (a line break in it) or a lifetime that is none: taking it as
    // a sign-in would fail every later call as "unreachable", so the sign-in itself is refused.
    const field = error.field?.slice(0, 200);
    return makeError('SIGN_IN_TOKEN_UNUSABLE', `The exchange answered the sign-in with a token the station cannot use${field ? ` (${field})` : ''}: the facility is not signed in. Tell the exchange’s support, quoting the trace id.`, {
      ...common,
      ...(field ? { field } : {}),
    });
  }
  const known = error.code === undefined ? undefined : exchangeCodes[error.code];
  if (known !== undefined) return makeError(known.code, known.message, common);
  switch (error.kind) {
    case 'network':
      return makeError('EXCHANGE_UNREACHABLE', 'The exchange cannot be reached.', common);
    case 'timeout':
    case 'aborted':
      return makeError('EXCHANGE_TIMEOUT', 'The exchange did not answer in time.', common);
    case 'unauthorized':
    case 'forbidden':
      return error.operation === 'auth.token'
        ? makeError('SIGN_IN_FAILED', 'The exchange refused the facility’s sign-in.', common)
        : makeError('NOT_SIGNED_IN', 'The exchange refused the facility’s session: sign in again.', common);
    case 'malformed_response':
      // A read answered with something unreadable: asking again usually works (a write's unreadable
      // answer never gets here: its outcome is unknown and it is reconciled).
      return makeError('EXCHANGE_UNREADABLE', 'The exchange sent something the station could not read; try again.', common);
    case 'not_found':
      return makeError('NOT_FOUND', 'The exchange does not know it.', common);
    case 'validation':
      return makeError('VALIDATION', `The exchange refused a field: ${scrub(error.message).slice(0, 300)}`, {
        ...common,
        ...(error.field === undefined ? {} : { field: error.field.slice(0, 200) }),
      });
    case 'server':
      return error.status !== undefined && error.status >= 500
        ? makeError('EXCHANGE_UNREACHABLE', 'The exchange is not working right now.', common)
        : makeError('EXCHANGE_ERROR', scrub(error.message).slice(0, 500) || 'The exchange refused the call.', common);
    default:
      return makeError('EXCHANGE_ERROR', scrub(error.message).slice(0, 500) || 'The exchange refused the call.', common);
  }
}

/** Any thrown value as a contract error: station failures as they are, exchange errors mapped, the rest INTERNAL. */
export function toStationError(error: unknown, scrub: Scrub): StationError {
  if (error instanceof StationFailure) return error.error;
  if (isExchangeError(error)) return fromExchangeError(error, scrub);
  return makeError('INTERNAL', 'Something went wrong inside the station; it has been logged.');
}
