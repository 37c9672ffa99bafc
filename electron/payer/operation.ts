// An operation is a row of a table: method, path template, whether it may be repeated, the strict
// request schema, how the validated input goes on the wire, and the lenient response schema that
// turns the answer into a domain object. The executor (client.ts) runs any row the same way.
import type { z } from 'zod';
import { ExchangeError } from './errors';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface FilePart {
  readonly field: string;
  readonly fileName: string;
  readonly contentType: string;
  readonly data: Uint8Array;
}

export type RequestBody =
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'form'; readonly value: Readonly<Record<string, string>> }
  | { readonly kind: 'multipart'; readonly fields: Readonly<Record<string, string>>; readonly files: readonly FilePart[] };

export type QueryValue = string | number | boolean | undefined;

export interface EncodedRequest {
  /** Values for the `{name}` placeholders of the path template. */
  readonly params?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, QueryValue>>;
  readonly body?: RequestBody;
  /** Operation-specific headers (e.g. X-Consent-Token on the shared health record). */
  readonly headers?: Readonly<Record<string, string>>;
}

export interface ResponseSpec<O> {
  /** Lenient wire schema with its transform to the domain type. */
  readonly schema: z.ZodType<O>;
  /** An empty 2xx body is fed to the schema as `undefined` (e.g. 204 on a removal). */
  readonly emptyBody?: boolean;
  /** A body that is not JSON is fed to the schema as its text (e.g. a bare confirmation sentence). */
  readonly textBody?: boolean;
}

export type Prepared = { readonly ok: true; readonly request: EncodedRequest } | { readonly ok: false; readonly issues: z.ZodError };

export interface Operation<I, O> {
  /** `group.method`, e.g. `claims.submit`; assigned from the operation's place in the table. */
  readonly name: string;
  readonly method: HttpMethod;
  /** The path template, e.g. `/api/v1/claims/authorizations/{token}/reject`. */
  readonly path: string;
  /**
   * True when sending it twice does no harm (reads, and read-only POSTs such as claims/preview):
   * only those are retried automatically.
   */
  readonly safeToRepeat: boolean;
  /** `none` only for the token endpoint itself. */
  readonly auth: 'bearer' | 'none';
  /** Validates and encodes the caller's input; a refusal never reaches the network. */
  readonly prepare: (input: I) => Prepared;
  readonly response: ResponseSpec<O>;
}

export interface OperationDefinition<S extends z.ZodType, O> {
  readonly method: HttpMethod;
  readonly path: string;
  readonly safeToRepeat: boolean;
  readonly auth?: 'bearer' | 'none';
  readonly request: S;
  /**
   * How the validated input goes on the wire. Left out, a GET sends it as the query and any other
   * method as a JSON body: only operations with path values, headers or multipart say more.
   */
  readonly encode?: (input: z.output<S>) => EncodedRequest;
  readonly response: ResponseSpec<O>;
}

/** "items", 0, "code" → "items[0].code" */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

/** The first refusal of a request schema as a validation ExchangeError naming the field. */
export function refusal(operation: string, error: z.ZodError): ExchangeError {
  const details = error.issues.map((issue) => {
    const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
    const field = formatPath([...issue.path, ...(keys.length > 0 ? [keys[0] as string] : [])]);
    const message = issue.code === 'unrecognized_keys' ? `not a field of this request: ${keys.join(', ')}` : issue.message;
    return { field, message };
  });
  const first = details[0];
  return new ExchangeError({
    kind: 'validation',
    operation,
    // An empty path is the request as a whole (e.g. not an object): no field to name.
    field: first?.field === '' ? undefined : first?.field,
    message: first ? `${first.field || 'request'}: ${first.message}` : 'invalid request',
    details,
  });
}

/** An operation whose name is filled in by the table it is placed in (see `nameOperations`). */
export type UnnamedOperation<I, O> = Omit<Operation<I, O>, 'name'>;

export function defineOperation<S extends z.ZodType, O>(definition: OperationDefinition<S, O>): UnnamedOperation<z.input<S>, O> {
  const encode =
    definition.encode ??
    (definition.method === 'GET'
      ? (v: z.output<S>): EncodedRequest => ({ query: queryOf(v as Record<string, unknown>) })
      : (v: z.output<S>): EncodedRequest => ({ body: jsonBody(v as Record<string, unknown>) }));
  return {
    method: definition.method,
    path: definition.path,
    safeToRepeat: definition.safeToRepeat,
    auth: definition.auth ?? 'bearer',
    response: definition.response,
    prepare: (input) => {
      // The caller's input is only typed at compile time: validate what actually arrived.
      const parsed = definition.request.safeParse(input ?? {});
      if (!parsed.success) return { ok: false, issues: parsed.error };
      return { ok: true, request: encode(parsed.data) };
    },
  };
}

/** JSON body of the validated input without the fields that travel elsewhere (path, headers). */
export function jsonBody(value: Record<string, unknown>, ...without: string[]): RequestBody {
  const body: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) if (v !== undefined && !without.includes(key)) body[key] = v;
  return { kind: 'json', value: body };
}

/** Query parameters from the validated input (undefined ones are left out by the transport). */
export function queryOf(value: Record<string, unknown>, ...without: string[]): Record<string, QueryValue> {
  const query: Record<string, QueryValue> = {};
  for (const [key, v] of Object.entries(value)) {
    if (without.includes(key)) continue;
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') query[key] = v;
  }
  return query;
}

type Table = Record<string, UnnamedOperation<never, unknown>>;
export type Named<T extends Table> = { readonly [K in keyof T]: T[K] & { readonly name: string } };

/** Names each operation `group.key`, so a name can never drift from where the operation lives. */
export function nameOperations<T extends Table>(group: string, table: T): Named<T> {
  const named: Record<string, unknown> = {};
  for (const [key, op] of Object.entries(table)) named[key] = { ...op, name: `${group}.${key}` };
  return named as Named<T>;
}
