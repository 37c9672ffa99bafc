// createExchangeClient: the operation table bound to one exchange, one connection pool and one
// token. Methods are grouped by resource: `client.consent.authorizeBiometric(input, {signal})`.
import { ExchangeError } from './errors';
import { Executor, type CallOptions, type ExchangeEvent } from './executor';
import type { Operation } from './operation';
import { operationGroups } from './operations';
import { defaultRetryPolicy, type RetryPolicy } from './retry';
import { TokenManager, untilAborted } from './token';
import { Transport } from './transport';

export interface ExchangeClientOptions {
  /** The exchange's `{base_url}` without `/api/v1`, e.g. `http://127.0.0.1:8080` for the sandbox. */
  readonly baseUrl: string;
  /** Kept inside the client: never logged, never returned. */
  readonly credentials: { readonly clientId: string; readonly clientSecret: string };
  /** Scope every call to one facility (X-Facility-Id / X-Facility-Id-Type, default `fr-code`). */
  readonly facility?: { readonly id: string; readonly idType?: string };
  /** Default deadline of each call, ms (20 000). */
  readonly timeoutMs?: number;
  /** Retries of operations that are safe to repeat (3 tries, 200 ms doubling, 2 s cap). */
  readonly retry?: Partial<RetryPolicy>;
  /** Keep-alive connections to the exchange at most (8). */
  readonly connections?: number;
  /** Telemetry of every HTTP attempt, free of secrets and patient data. */
  readonly onEvent?: (event: ExchangeEvent) => void;
  /** Refresh the token this long before it expires, ms (60 000; at most half its lifetime). */
  readonly tokenRefreshMarginMs?: number;
  /** The clock token lifetimes are measured by (tests and the sandbox's training time). */
  readonly now?: () => number;
  /** Answers larger than this are refused as malformed, bytes (16 MiB). */
  readonly maxResponseBytes?: number;
}

/** Inputs are only read, so callers may pass readonly arrays and frozen objects. */
export type ReadonlyInput<T> = T extends Uint8Array
  ? T
  : T extends readonly (infer U)[]
    ? readonly ReadonlyInput<U>[]
    : T extends object
      ? { readonly [K in keyof T]: ReadonlyInput<T[K]> }
      : T;

type MethodOf<Op> =
  Op extends Operation<infer I, infer O>
    ? object extends I
      ? (input?: ReadonlyInput<I>, options?: CallOptions) => Promise<O>
      : (input: ReadonlyInput<I>, options?: CallOptions) => Promise<O>
    : never;

type ResourceClient<G> = { readonly [K in keyof G]: MethodOf<G[K]> };

type Groups = typeof operationGroups;

export type ExchangeClient = { readonly [G in Exclude<keyof Groups, 'auth'>]: ResourceClient<Groups[G]> } & {
  readonly auth: {
    /** Obtains a fresh token now: checks the credentials (e.g. on a settings screen). */
    readonly authenticate: (options?: Pick<CallOptions, 'signal'>) => Promise<void>;
  };
  /**
   * Closes the connection pool after the calls under way; later calls fail with kind `network`.
   * Calling it again returns the same promise.
   */
  readonly close: () => Promise<void>;
};

function invalidOption(field: string, message: string): ExchangeError {
  return new ExchangeError({ kind: 'validation', operation: 'createExchangeClient', field, message: `${field}: ${message}` });
}

export function createExchangeClient(options: ExchangeClientOptions): ExchangeClient {
  let url: URL;
  try {
    url = new URL(options.baseUrl);
  } catch {
    throw invalidOption('baseUrl', 'not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalidOption('baseUrl', 'http or https only');
  if (!options.credentials?.clientId || !options.credentials.clientSecret) {
    throw invalidOption('credentials', 'clientId and clientSecret are required');
  }
  const timeoutMs = options.timeoutMs ?? 20_000;
  const retry: RetryPolicy = { ...defaultRetryPolicy, ...options.retry };
  if (!(retry.attempts >= 1) || !(retry.baseDelayMs >= 0) || !(retry.maxDelayMs >= 0)) {
    throw invalidOption('retry', 'attempts ≥ 1 and delays ≥ 0');
  }

  let closed = false;
  const transport = new Transport(url.href, {
    connections: options.connections ?? 8,
    maxResponseBytes: options.maxResponseBytes ?? 16 * 1024 * 1024,
  });
  const credentials = { client_id: options.credentials.clientId, client_secret: options.credentials.clientSecret };
  // The executor needs the token manager and the token manager fetches through the executor
  // (so token requests get the same retries, errors and telemetry); the closure runs only after
  // both exist.
  const tokens: TokenManager = new TokenManager(
    () => executor.run(operationGroups.auth.token, credentials, { timeoutMs }),
    options.now ?? Date.now,
    options.tokenRefreshMarginMs ?? 60_000,
  );
  const executor: Executor = new Executor({
    transport,
    tokens,
    retry,
    timeoutMs,
    facility: options.facility === undefined ? undefined : { id: options.facility.id, idType: options.facility.idType ?? 'fr-code' },
    onEvent: options.onEvent,
    isClosed: () => closed,
  });

  const bound: Record<string, unknown> = {};
  for (const [groupName, group] of Object.entries(operationGroups)) {
    if (groupName === 'auth') continue;
    const methods: Record<string, unknown> = {};
    for (const [key, op] of Object.entries(group)) {
      methods[key] = (input: unknown, callOptions?: CallOptions) => executor.run(op as Operation<unknown, unknown>, input, callOptions);
    }
    bound[groupName] = Object.freeze(methods);
  }
  bound.auth = Object.freeze({
    authenticate: async (callOptions?: Pick<CallOptions, 'signal'>) => {
      tokens.clear();
      const signal = callOptions?.signal ?? new AbortController().signal;
      try {
        await untilAborted(tokens.refresh(), signal);
      } catch (error) {
        if (error instanceof ExchangeError) throw error;
        throw new ExchangeError({ kind: 'aborted', operation: 'auth.token', message: 'aborted by the caller', cause: signal.reason });
      }
    },
  });
  let closing: Promise<void> | undefined;
  bound.close = () => {
    closed = true;
    tokens.clear();
    closing ??= transport.close().finally(() => executor.stop());
    return closing;
  };
  return Object.freeze(bound) as ExchangeClient;
}
