// One error type and one error body for every route of the sandbox, so that status codes and
// machine codes stay exactly as docs/exchange-wire.md lists them.

/** 422 codes: a business rule of the contract refuses the call. */
export type RuleCode =
  | 'BIOMETRICS_REQUIRED'
  | 'BIOMETRICS_NOT_FOUND_OTP_ALLOWED'
  | 'INVALID_OTP'
  | 'OTP_EXPIRED'
  | 'NO_CONTACT'
  | 'PREAUTH_REQUIRED'
  | 'AUTHORIZATION_NOT_AUTHORIZED'
  | 'AUTHORIZATION_MISMATCH'
  | 'COVER_NOT_SET'
  | 'NOT_COVERED'
  | 'NO_DOCTOR_ATTACHED'
  | 'DISCHARGE_CONSENT_REQUIRED'
  | 'USE_DISCHARGE'
  | 'USE_SUBMIT'
  | 'EMERGENCY_WINDOW_EXPIRED'
  | 'NO_PARTIAL_DISCHARGE'
  | 'PROFESSIONAL_NOT_FOUND'
  | 'INTERVENTION_NOT_ALLOWED'
  // The sandbox's own additions where the wire doc names no code (listed in the README).
  | 'TOO_MANY_ATTACHMENTS'
  | 'DOCUMENTS_MISSING'
  | 'TARIFF_MISMATCH'
  | 'NOT_APPLICABLE_TO_EMERGENCY'
  | 'INVOICE_MISMATCH';

/** 409 codes: the entity is not in a state that allows the call. */
export type ConflictCode =
  | 'PENDING_AUTHORIZATION_EXISTS'
  | 'CLAIM_ALREADY_SUBMITTED'
  | 'AUTHORIZATION_NOT_PENDING'
  | 'DOCTOR_ALREADY_ATTACHED'
  | 'PREAUTH_NOT_CANCELLABLE'
  // A second add of an intervention the claim has ACTIVE (AE reads the live refusal; docs/exchange-wire.md).
  | 'INTERVENTION_ALREADY_ON_CLAIM'
  // The sandbox's own additions (listed in the README).
  | 'PREAUTH_NOT_EDITABLE'
  | 'CLAIM_NOT_EDITABLE'
  | 'CLAIM_ALREADY_IDENTIFIED'
  | 'INVALID_TRANSITION';

export type FieldProblem = {
  readonly field: string;
  readonly message: string;
};

export type ErrorDetail = Readonly<Record<string, unknown>>;

export class ExchangeError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: readonly ErrorDetail[],
  ) {
    super(message);
    this.name = 'ExchangeError';
  }
}

/** The live 403 body [doc]: the `error` is a sentence, not a code. */
export const TENANT_CONTEXT_REQUIRED = {
  error: 'Forbidden - Tenant context required',
  message: 'token missing required tenant_id claim',
} as const;

export const fail = {
  validation(problems: readonly FieldProblem[]): ExchangeError {
    const summary = problems.map((p) => `${p.field}: ${p.message}`).join('; ');
    return new ExchangeError(400, 'VALIDATION_ERROR', `Invalid request: ${summary}`, problems);
  },
  field(field: string, message: string): ExchangeError {
    return fail.validation([{ field, message }]);
  },
  tenantRequired(): ExchangeError {
    return new ExchangeError(403, TENANT_CONTEXT_REQUIRED.error, TENANT_CONTEXT_REQUIRED.message);
  },
  forbidden(message: string): ExchangeError {
    return new ExchangeError(403, 'FORBIDDEN', message);
  },
  notFound(message: string, details?: readonly ErrorDetail[]): ExchangeError {
    return new ExchangeError(404, 'NOT_FOUND', message, details);
  },
  conflict(code: ConflictCode, message: string, details?: readonly ErrorDetail[]): ExchangeError {
    return new ExchangeError(409, code, message, details);
  },
  rule(code: RuleCode, message: string, details?: readonly ErrorDetail[]): ExchangeError {
    return new ExchangeError(422, code, message, details);
  },
  tokenExpired(): ExchangeError {
    return new ExchangeError(401, 'TOKEN_EXPIRED', 'The access token has expired; request a new one');
  },
  invalidClient(): ExchangeError {
    return new ExchangeError(401, 'INVALID_CLIENT', 'Unknown client_id or wrong client_secret');
  },
  tooLarge(message: string): ExchangeError {
    return new ExchangeError(413, 'ATTACHMENT_TOO_LARGE', message);
  },
  unsupportedMediaType(message: string): ExchangeError {
    return new ExchangeError(415, 'UNSUPPORTED_MEDIA_TYPE', message);
  },
};

export interface ErrorBody {
  error: string;
  message: string;
  trace_id: string;
  details?: readonly ErrorDetail[];
}

export function errorBody(error: ExchangeError, traceId: string): ErrorBody {
  return {
    error: error.code,
    message: error.message,
    trace_id: traceId,
    ...(error.details === undefined ? {} : { details: error.details }),
  };
}

/** Turns what fastify and its plugins throw into the sandbox's own error. */
export function fromFrameworkError(error: unknown): ExchangeError {
  if (error instanceof ExchangeError) return error;
  const e = error as { code?: string; statusCode?: number; message?: string };
  switch (e.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return fail.tooLarge('The attachment is larger than 5 MiB');
    case 'FST_FILES_LIMIT':
      return fail.rule('TOO_MANY_ATTACHMENTS', 'At most 10 files may be sent in one request');
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new ExchangeError(413, 'PAYLOAD_TOO_LARGE', 'The multipart request has too many parts');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ExchangeError(413, 'PAYLOAD_TOO_LARGE', 'The request body is larger than 1 MiB');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return fail.unsupportedMediaType(e.message ?? 'Unsupported content type');
    default:
      break;
  }
  if (e instanceof SyntaxError || (typeof e.statusCode === 'number' && e.statusCode === 400)) {
    return fail.field('body', e.message ?? 'malformed request');
  }
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return new ExchangeError(e.statusCode, 'BAD_REQUEST', e.message ?? 'Bad request');
  }
  return new ExchangeError(500, 'INTERNAL_ERROR', 'The sandbox failed to handle the request');
}
