// HTTP over one undici Pool per exchange origin: keep-alive connections reused across calls, every
// request cancellable by the executor's deadline and the caller's abort, bodies read whole with a
// ceiling so a runaway answer cannot exhaust the station's memory.
//
// Requests go through the pool's dispatch() with a handler that collects the body, rather than
// request(): every answer is read whole anyway, so request()'s per-response stream and its
// AbortSignal listeners were pure cost on the station's most frequent calls (bench:
// client_overhead_ratio).
import { FormData, Pool } from 'undici';
import type { Dispatcher } from 'undici';
import type { HttpMethod, QueryValue, RequestBody } from './operation';

export interface TransportOptions {
  /** Keep-alive connections to the exchange at most (undici Pool `connections`). */
  readonly connections: number;
  /** Answers larger than this are cut off and reported as malformed. */
  readonly maxResponseBytes: number;
}

export interface TransportRequest {
  readonly method: HttpMethod;
  /** Path template and its values: `/api/v1/tenants/{tenant}/endpoints`, `{tenant: 'FID-…'}`. */
  readonly path: string;
  readonly params?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, QueryValue>>;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: RequestBody;
  /** Stops the request in flight: the call's deadline or its caller's abort. */
  readonly cancel: Cancellation;
}

/**
 * What can stop a request: the executor's call scope. One listener per request, so a plain
 * callback slot does what an AbortSignal's EventTarget would, without its cost on every call.
 */
export interface Cancellation {
  readonly aborted: boolean;
  /** Calls `listener` once when the call is cancelled; the returned function removes it. */
  onAbort(listener: () => void): () => void;
}

/** The reason a request was stopped by its call: the executor reads the why from its scope. */
export class RequestCancelled extends Error {
  constructor() {
    super('request cancelled by its call');
  }
}

class ResponseTooLarge extends Error {}

export interface TransportResponse {
  readonly status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly bodyText: string;
  /** True when the body exceeded maxResponseBytes and was not read to the end. */
  readonly truncated: boolean;
}

export class MissingPathParameter extends Error {
  constructor(readonly parameter: string) {
    super(`path parameter ${parameter} has no value`);
  }
}

export function fillPath(template: string, params: Readonly<Record<string, string>> = {}): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === '') throw new MissingPathParameter(name);
    return encodeURIComponent(value);
  });
}

function queryString(query: Readonly<Record<string, QueryValue>> | undefined): string {
  if (query === undefined) return '';
  let encoded = '';
  for (const key in query) {
    const value = query[key];
    if (value === undefined) continue;
    encoded += `${encoded === '' ? '?' : '&'}${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`;
  }
  return encoded;
}

/** A fresh body per attempt: a replayed or retried request must not reuse a consumed stream. */
function encodeBody(body: RequestBody | undefined): { payload?: string | FormData; contentType?: string } {
  if (body === undefined) return {};
  switch (body.kind) {
    case 'json':
      return { payload: JSON.stringify(body.value), contentType: 'application/json' };
    case 'form':
      return { payload: new URLSearchParams(body.value).toString(), contentType: 'application/x-www-form-urlencoded' };
    case 'multipart': {
      const form = new FormData();
      for (const [name, value] of Object.entries(body.fields)) form.append(name, value);
      for (const file of body.files) form.append(file.field, new Blob([file.data], { type: file.contentType }), file.fileName);
      // undici writes the multipart content-type with its boundary itself.
      return { payload: form };
    }
  }
}

/** Header names arrive lower-case from undici; a repeated header is joined with ", ". */
function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string | undefined> {
  const flat: Record<string, string | undefined> = {};
  for (const name in headers) {
    const value = headers[name];
    flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/** Collects one answer: status, headers, the body up to the ceiling; settles exactly once. */
class Collector implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  private status = 0;
  private headers: Record<string, string | undefined> = {};
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private settled = false;
  private readonly detach: () => void;

  constructor(
    private readonly maxBytes: number,
    private readonly resolve: (response: TransportResponse) => void,
    private readonly reject: (error: unknown) => void,
    cancel: Cancellation,
  ) {
    // Settle at once on cancel, even while the request still waits for a connection; undici
    // drops it when (if) it reaches a socket.
    this.detach = cancel.onAbort(() => {
      this.controller?.abort(new RequestCancelled());
      this.fail(new RequestCancelled());
    });
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.settled) controller.abort(new RequestCancelled());
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    this.status = statusCode;
    this.headers = flattenHeaders(headers);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.settled) return;
    this.size += chunk.length;
    if (this.size > this.maxBytes) {
      this.finish(true);
      controller.abort(new ResponseTooLarge('the answer is larger than the client accepts'));
      return;
    }
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    this.finish(false);
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    this.fail(error);
  }

  private finish(truncated: boolean): void {
    if (this.settled) return;
    this.settled = true;
    this.detach();
    const [only] = this.chunks;
    const bodyText = this.chunks.length === 1 && only !== undefined ? only.toString('utf8') : Buffer.concat(this.chunks).toString('utf8');
    this.resolve({ status: this.status, headers: this.headers, bodyText, truncated });
  }

  private fail(error: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.detach();
    this.reject(error);
  }
}

export class Transport {
  private readonly pool: Pool;
  private readonly prefix: string;

  /** @param baseUrl the exchange's `{base_url}`, without `/api/v1` (it may carry a path prefix). */
  constructor(
    baseUrl: string,
    private readonly options: TransportOptions,
  ) {
    const url = new URL(baseUrl);
    this.prefix = url.pathname.replace(/\/+$/, '');
    this.pool = new Pool(url.origin, {
      connections: options.connections,
      // Each call is bounded by its own deadline (an AbortSignal); undici's header and body
      // timeouts keep their defaults as a backstop for a socket nobody is waiting on.
      keepAliveTimeout: 30_000,
    });
  }

  send(request: TransportRequest): Promise<TransportResponse> {
    let options: Dispatcher.DispatchOptions;
    try {
      const path = `${this.prefix}${fillPath(request.path, request.params)}${queryString(request.query)}`;
      const { payload, contentType } = encodeBody(request.body);
      const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
      if (contentType !== undefined) headers['content-type'] = contentType;
      options = { method: request.method, path, headers, body: payload ?? null };
    } catch (error) {
      return Promise.reject(error);
    }
    if (request.cancel.aborted) return Promise.reject(new RequestCancelled());
    return new Promise<TransportResponse>((resolve, reject) => {
      this.pool.dispatch(options, new Collector(this.options.maxResponseBytes, resolve, reject, request.cancel));
    });
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}
