// HTTP over one undici Pool per exchange origin: keep-alive connections reused across calls, every
// request bound to an AbortSignal (the executor's deadline and the caller's abort), bodies read
// whole with a ceiling so a runaway answer cannot exhaust the station's memory.
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
  readonly signal: AbortSignal;
}

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
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) search.append(key, String(value));
  const encoded = search.toString();
  return encoded === '' ? '' : `?${encoded}`;
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

function flattenHeaders(headers: Dispatcher.ResponseData['headers']): Record<string, string | undefined> {
  const flat: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) {
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
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

  async send(request: TransportRequest): Promise<TransportResponse> {
    const path = `${this.prefix}${fillPath(request.path, request.params)}${queryString(request.query)}`;
    const { payload, contentType } = encodeBody(request.body);
    const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
    if (contentType !== undefined) headers['content-type'] = contentType;
    const response = await this.pool.request({
      method: request.method,
      path,
      headers,
      body: payload ?? null,
      signal: request.signal,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    for await (const chunk of response.body) {
      const buffer = chunk as Buffer;
      size += buffer.length;
      if (size > this.options.maxResponseBytes) {
        truncated = true;
        response.body.destroy();
        break;
      }
      chunks.push(buffer);
    }
    return {
      status: response.statusCode,
      headers: flattenHeaders(response.headers),
      bodyText: Buffer.concat(chunks).toString('utf8'),
      truncated,
    };
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}
