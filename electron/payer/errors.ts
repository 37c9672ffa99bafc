// The one error type every operation of the client rejects with. Callers branch on `kind`; `code`
// carries the exchange's machine code when it sent one (e.g. BIOMETRICS_NOT_FOUND_OTP_ALLOWED).

export const exchangeErrorKinds = [
  'network',
  'timeout',
  'aborted',
  'unauthorized',
  'forbidden',
  'validation',
  'not_found',
  'conflict',
  'rule_violation',
  'server',
  'malformed_response',
] as const;

export type ExchangeErrorKind = (typeof exchangeErrorKinds)[number];

/** One entry of an error's `details`: a field and its message, or whatever context the exchange sent. */
export interface ExchangeErrorDetail {
  readonly field?: string;
  readonly message?: string;
  readonly [key: string]: unknown;
}

export interface ExchangeErrorInit {
  readonly kind: ExchangeErrorKind;
  readonly message: string;
  readonly operation: string;
  readonly status?: number;
  readonly code?: string;
  readonly traceId?: string;
  readonly field?: string;
  readonly details?: readonly ExchangeErrorDetail[];
  readonly retryAfterMs?: number;
  readonly outcomeUnknown?: boolean;
  readonly cause?: unknown;
}

export class ExchangeError extends Error {
  override readonly name = 'ExchangeError';
  readonly kind: ExchangeErrorKind;
  /** The operation that failed, e.g. `claims.submit`. */
  readonly operation: string;
  /** HTTP status when the exchange answered. */
  readonly status: number | undefined;
  /** The exchange's machine code (`error` of the body) when it sent one. */
  readonly code: string | undefined;
  /** The exchange's `trace_id` (body or `X-Trace-Id`): quote it to the payer's support desk. */
  readonly traceId: string | undefined;
  /**
   * The field at fault: a request field for `validation` (as the contract spells it, e.g.
   * `discharge_reason`, `items[0].generic_concept_code`), the response path for `malformed_response`.
   */
  readonly field: string | undefined;
  readonly details: readonly ExchangeErrorDetail[] | undefined;
  /** The server's Retry-After, in milliseconds, when it sent one. */
  readonly retryAfterMs: number | undefined;
  /**
   * True when the request may have reached the exchange and changed state although no answer says
   * so (connection lost after sending, timeout, caller abort, a gateway error). A state-changing
   * call that fails this way must be reconciled (e.g. `claims.preview`) before it is sent again.
   */
  readonly outcomeUnknown: boolean;

  constructor(init: ExchangeErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.operation = init.operation;
    this.status = init.status;
    this.code = init.code;
    this.traceId = init.traceId;
    this.field = init.field;
    this.details = init.details;
    this.retryAfterMs = init.retryAfterMs;
    this.outcomeUnknown = init.outcomeUnknown ?? false;
  }

  /**
   * What a log may keep. `details` are left out: they can carry a pending authorization's token
   * (PENDING_AUTHORIZATION_EXISTS) that the station needs but no log may hold.
   */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      kind: this.kind,
      operation: this.operation,
      status: this.status,
      code: this.code,
      traceId: this.traceId,
      field: this.field,
      message: this.message,
      outcomeUnknown: this.outcomeUnknown,
    };
  }
}

export function isExchangeError(value: unknown): value is ExchangeError {
  return value instanceof ExchangeError;
}
