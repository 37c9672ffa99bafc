// Runs any operation of the table: refuse bad input before sending, attach the bearer token,
// replay once on an expired token, retry reads on transient failures, bound the whole call by
// one deadline, and turn every outcome into a domain value or an ExchangeError.
import { setTimeout as sleep } from 'node:timers/promises';
import { errorFromResponse, headerTraceId, isExpiredTokenError } from './error-body';
import { ExchangeError, type ExchangeErrorKind } from './errors';
import { formatPath, refusal, type EncodedRequest, type Operation } from './operation';
import { retryableStatuses, retryDelay, type RetryPolicy } from './retry';
import type { TokenManager } from './token';
import { MissingPathParameter, type Cancellation, type Transport, type TransportResponse } from './transport';

/**
 * What the station may log about each HTTP attempt. By construction it holds no secret and no
 * patient data: the path is the template (no ids, no query), never a token, OTP or name.
 */
export interface ExchangeEvent {
  readonly operation: string;
  readonly method: string;
  /** The path template, e.g. `/api/v1/claims/authorizations/{token}/reject`. */
  readonly path: string;
  /** HTTP status, when the exchange answered. */
  readonly status: number | undefined;
  readonly durationMs: number;
  /** 1 for the first try of a call; the replay after an expired token and each retry count up. */
  readonly attempt: number;
  /** This attempt replays the call with a fresh token. */
  readonly replay: boolean;
  readonly outcome: 'ok' | 'error';
  readonly errorKind: ExchangeErrorKind | undefined;
  /** The exchange's machine code (e.g. BIOMETRICS_REQUIRED), never its free text. */
  readonly errorCode: string | undefined;
  readonly traceId: string | undefined;
}

export interface CallOptions {
  /** Aborting rejects the call with kind `aborted`; it is never retried. */
  readonly signal?: AbortSignal;
  /** Deadline for the whole call (token, replay, retries and their waits included). */
  readonly timeoutMs?: number;
}

export interface ExecutorDependencies {
  readonly transport: Transport;
  readonly tokens: TokenManager;
  readonly retry: RetryPolicy;
  readonly timeoutMs: number;
  readonly facility: { readonly id: string; readonly idType: string } | undefined;
  readonly onEvent: ((event: ExchangeEvent) => void) | undefined;
  readonly isClosed: () => boolean;
}

/** Why a call's own signal fired: its deadline, or the caller. */
class DeadlinePassed {
  constructor(readonly timeoutMs: number) {}
}
class CallerAborted {
  constructor(readonly reason: unknown) {}
}

/**
 * One call's deadline and the caller's signal, folded into one cancellation for everything the
 * call awaits. The request in flight listens through a plain callback slot (cheap on every call);
 * an AbortSignal is made only for the rare waits that need one (a token fetch, a retry's sleep).
 */
class CallScope implements Cancellation {
  readonly deadline: number;
  private readonly detach: () => void;
  private why: DeadlinePassed | CallerAborted | undefined;
  private listener: (() => void) | undefined;
  private controller: AbortController | undefined;

  constructor(
    private readonly timeoutMs: number,
    callerSignal: AbortSignal | undefined,
    private readonly deadlines: Deadlines,
  ) {
    this.deadline = Date.now() + timeoutMs;
    deadlines.add(this);
    if (callerSignal === undefined) {
      this.detach = () => undefined;
    } else {
      const onCallerAbort = () => this.abort(new CallerAborted(callerSignal.reason));
      if (callerSignal.aborted) onCallerAbort();
      else callerSignal.addEventListener('abort', onCallerAbort, { once: true });
      this.detach = () => callerSignal.removeEventListener('abort', onCallerAbort);
    }
  }

  get aborted(): boolean {
    return this.why !== undefined;
  }

  /** Why the call was stopped, once it was. */
  get reason(): DeadlinePassed | CallerAborted | undefined {
    return this.why;
  }

  onAbort(listener: () => void): () => void {
    this.listener = listener;
    return () => {
      if (this.listener === listener) this.listener = undefined;
    };
  }

  /** An AbortSignal that fires with this scope, for APIs that take one. */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.why !== undefined) this.controller.abort(this.why);
    }
    return this.controller.signal;
  }

  remainingMs(): number {
    return this.deadline - Date.now();
  }

  /** Called by the deadline watch once the deadline has passed. */
  expire(): void {
    this.abort(new DeadlinePassed(this.timeoutMs));
  }

  dispose(): void {
    this.deadlines.remove(this);
    this.detach();
  }

  private abort(why: DeadlinePassed | CallerAborted): void {
    if (this.why !== undefined) return;
    this.why = why;
    const listener = this.listener;
    this.listener = undefined;
    listener?.();
    this.controller?.abort(why);
  }
}

/**
 * One timer for the deadlines of every call under way, armed for the earliest. Calls made one after
 * another with the same timeout find it already armed for an earlier deadline and cost no timer of
 * their own; a per-call setTimeout/clearTimeout pair was a measurable share of a fast read.
 */
class Deadlines {
  private readonly active = new Set<CallScope>();
  private timer: NodeJS.Timeout | undefined;
  private armedFor = Number.POSITIVE_INFINITY;

  add(scope: CallScope): void {
    this.active.add(scope);
    if (scope.deadline < this.armedFor) this.arm(scope.deadline);
  }

  remove(scope: CallScope): void {
    this.active.delete(scope);
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.armedFor = Number.POSITIVE_INFINITY;
  }

  private arm(at: number): void {
    clearTimeout(this.timer);
    this.armedFor = at;
    // Unref'd: a call under way keeps the process alive through its socket or its wait, not this.
    this.timer = setTimeout(() => this.fire(), Math.max(0, at - Date.now())).unref();
  }

  private fire(): void {
    this.timer = undefined;
    this.armedFor = Number.POSITIVE_INFINITY;
    const now = Date.now();
    let next = Number.POSITIVE_INFINITY;
    for (const scope of this.active) {
      if (scope.deadline <= now) {
        this.active.delete(scope);
        scope.expire();
      } else if (scope.deadline < next) {
        next = scope.deadline;
      }
    }
    if (next !== Number.POSITIVE_INFINITY) this.arm(next);
  }
}

const notSentCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

function errorCodeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  return errorCodeOf((error as { cause?: unknown }).cause);
}

/** A failure without an HTTP answer, as an ExchangeError. */
function failureOf(error: unknown, scope: CallScope, operation: string, sent: boolean): ExchangeError {
  if (error instanceof ExchangeError) return error;
  const reason = scope.reason;
  if (reason instanceof DeadlinePassed) {
    return new ExchangeError({
      kind: 'timeout',
      operation,
      message: `no answer within ${reason.timeoutMs} ms`,
      outcomeUnknown: sent,
      cause: error,
    });
  }
  if (reason instanceof CallerAborted) {
    return new ExchangeError({ kind: 'aborted', operation, message: 'aborted by the caller', outcomeUnknown: sent, cause: reason.reason });
  }
  const code = errorCodeOf(error);
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new ExchangeError({ kind: 'timeout', operation, message: 'the exchange stopped answering', outcomeUnknown: sent, cause: error });
  }
  const notSent = !sent || (code !== undefined && notSentCodes.has(code));
  const detail = error instanceof Error && error.message ? error.message : String(error);
  return new ExchangeError({
    kind: 'network',
    operation,
    message: `network failure${code ? ` (${code})` : ''}: ${detail}`,
    outcomeUnknown: !notSent,
    cause: error,
  });
}

/**
 * A 2xx answer the client cannot read. For a write the exchange did answer 2xx, so it most likely
 * did the work: its outcome is unknown (to be reconciled), never a refusal.
 */
function malformed(op: Pick<Operation<never, unknown>, 'name' | 'safeToRepeat'>, status: number, field: string, message: string, traceId: string | undefined): ExchangeError {
  return new ExchangeError({
    kind: 'malformed_response',
    operation: op.name,
    status,
    field,
    traceId,
    outcomeUnknown: !op.safeToRepeat,
    message: field === '' ? `unexpected answer: ${message}` : `unexpected answer at ${field}: ${message}`,
  });
}

/**
 * A 2xx body as the operation's domain value, or malformed_response naming the offending path.
 * Pure and total: exported so the property tests can feed it any body.
 */
export function decodeResponse<O>(op: Operation<never, O>, response: Pick<TransportResponse, 'status' | 'headers' | 'bodyText'> & { truncated?: boolean }): O {
  const traceId = headerTraceId(response.headers);
  if (response.truncated) return fail('', 'the answer is larger than the client accepts');
  let body: unknown;
  if (!/\S/.test(response.bodyText)) {
    if (!op.response.emptyBody) return fail('', 'an empty body where JSON was expected');
    body = undefined;
  } else {
    try {
      body = JSON.parse(response.bodyText) as unknown;
    } catch {
      if (!op.response.textBody) return fail('', `not JSON (${response.headers['content-type'] ?? 'no content-type'})`);
      body = response.bodyText;
    }
  }
  let parsed;
  try {
    parsed = op.response.schema.safeParse(body);
  } catch (error) {
    return fail('', `could not be read (${error instanceof Error ? error.message : String(error)})`);
  }
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  return fail(issue ? formatPath(issue.path) : '', issue?.message ?? 'does not fit the expected shape');

  function fail(field: string, message: string): never {
    throw malformed(op, response.status, field, message, traceId);
  }
}

export class Executor {
  private readonly deadlines = new Deadlines();

  constructor(private readonly deps: ExecutorDependencies) {}

  /** Stops the deadline watch (the client is closing). */
  stop(): void {
    this.deadlines.stop();
  }

  async run<I, O>(op: Operation<I, O>, input: I, options: CallOptions = {}): Promise<O> {
    if (this.deps.isClosed()) {
      throw new ExchangeError({ kind: 'network', operation: op.name, message: 'the exchange client is closed' });
    }
    const prepared = op.prepare(input);
    if (!prepared.ok) throw refusal(op.name, prepared.issues);
    const scope = new CallScope(options.timeoutMs ?? this.deps.timeoutMs, options.signal, this.deadlines);
    try {
      return await this.attempts(op, prepared.request, scope);
    } finally {
      scope.dispose();
    }
  }

  private async attempts<I, O>(op: Operation<I, O>, request: EncodedRequest, scope: CallScope): Promise<O> {
    let attempt = 0;
    let retries = 0;
    let replayed = false;
    let replayNext = false;
    for (;;) {
      attempt += 1;
      const replay = replayNext;
      replayNext = false;
      // Nothing is in flight between attempts: an abort noticed here certainly sent nothing.
      if (scope.aborted) throw failureOf(scope.reason, scope, op.name, false);
      let bearer: string | undefined;
      if (op.auth === 'bearer') {
        // A token with lifetime left is used as is; only a fetch is awaited (with the scope's signal).
        bearer = this.deps.tokens.current();
        if (bearer === undefined) {
          try {
            bearer = await this.deps.tokens.get(scope.signal);
          } catch (error) {
            throw failureOf(error, scope, op.name, false);
          }
        }
      }

      const started = performance.now();
      let response: TransportResponse;
      try {
        response = await this.deps.transport.send({
          method: op.method,
          path: op.path,
          params: request.params,
          query: request.query,
          body: request.body,
          headers: this.headers(bearer, request),
          cancel: scope,
        });
      } catch (error) {
        if (error instanceof MissingPathParameter) {
          throw new ExchangeError({ kind: 'validation', operation: op.name, field: error.parameter, message: error.message });
        }
        const failure = failureOf(error, scope, op.name, true);
        this.emit(op, { started, attempt, replay, status: undefined, error: failure, traceId: undefined });
        if (op.safeToRepeat && failure.kind === 'network' && retries + 1 < this.deps.retry.attempts) {
          retries += 1;
          await this.wait(retryDelay(retries, this.deps.retry, undefined), failure, scope, op.name);
          continue;
        }
        throw failure;
      }

      if (response.status >= 200 && response.status < 300) {
        try {
          const value = decodeResponse(op as Operation<never, O>, response);
          this.emit(op, { started, attempt, replay, status: response.status, error: undefined, traceId: headerTraceId(response.headers) });
          return value;
        } catch (error) {
          const failure = failureOf(error, scope, op.name, true);
          this.emit(op, { started, attempt, replay, status: response.status, error: failure, traceId: failure.traceId });
          throw failure;
        }
      }

      const failure = errorFromResponse({ status: response.status, headers: response.headers, bodyText: response.bodyText, operation: op.name });
      this.emit(op, { started, attempt, replay, status: response.status, error: failure, traceId: failure.traceId });
      // The exchange refused the token before doing anything: replaying is safe for any call,
      // but only once, so a token that expires again at once cannot loop.
      if (bearer !== undefined && !replayed && isExpiredTokenError(failure)) {
        this.deps.tokens.invalidate(bearer);
        replayed = true;
        replayNext = true;
        continue;
      }
      if (op.safeToRepeat && retryableStatuses.has(response.status) && retries + 1 < this.deps.retry.attempts) {
        retries += 1;
        await this.wait(retryDelay(retries, this.deps.retry, failure.retryAfterMs), failure, scope, op.name);
        continue;
      }
      throw failure;
    }
  }

  /** Waits before a retry, or gives up with the last failure when the wait cannot end in time. */
  private async wait(delayMs: number | undefined, failure: ExchangeError, scope: CallScope, operation: string): Promise<void> {
    if (delayMs === undefined || delayMs >= scope.remainingMs()) throw failure;
    try {
      await sleep(delayMs, undefined, { signal: scope.signal });
    } catch (error) {
      throw failureOf(error, scope, operation, failure.outcomeUnknown);
    }
  }

  private headers(bearer: string | undefined, request: EncodedRequest): Record<string, string> {
    const headers: Record<string, string> = { ...request.headers };
    if (bearer !== undefined) {
      headers.authorization = `Bearer ${bearer}`;
      if (this.deps.facility !== undefined) {
        headers['x-facility-id'] = this.deps.facility.id;
        headers['x-facility-id-type'] = this.deps.facility.idType;
      }
    }
    return headers;
  }

  private emit(
    op: { readonly name: string; readonly method: string; readonly path: string },
    a: { started: number; attempt: number; replay: boolean; status: number | undefined; error: ExchangeError | undefined; traceId: string | undefined },
  ): void {
    const listener = this.deps.onEvent;
    if (listener === undefined) return;
    try {
      listener({
        operation: op.name,
        method: op.method,
        path: op.path,
        status: a.status,
        durationMs: Math.round((performance.now() - a.started) * 100) / 100,
        attempt: a.attempt,
        replay: a.replay,
        outcome: a.error === undefined ? 'ok' : 'error',
        errorKind: a.error?.kind,
        errorCode: a.error?.code,
        traceId: a.traceId,
      });
    } catch {
      // Logging must never break a call to the exchange.
    }
  }
}
