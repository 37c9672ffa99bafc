// Turns a non-2xx answer into an ExchangeError. The live exchange words its errors several ways
// (docs/exchange-wire.md, "Errors"): `{error, message, trace_id, details}`, `error` holding a
// JSON-encoded `{error, message}`, bare `{field: ["msg"]}` maps, validation failures answered 500,
// and proxies answer HTML pages or nothing at all. Every one of them ends up here as one shape.
import { ExchangeError, type ExchangeErrorDetail, type ExchangeErrorKind } from './errors';
import { isRecord } from './wire/common';

const machineCode = /^[A-Z][A-Z0-9_]{2,}$/;
/** Nested JSON strings are unwrapped this deep; deeper nesting is reported as text. */
const maxDepth = 4;

interface Unwrapped {
  code?: string;
  /** A human title given where a code was expected, e.g. "Forbidden - Tenant context required". */
  title?: string;
  message?: string;
  traceId?: string;
  details: ExchangeErrorDetail[];
  /** The body was a bare `{field: ["msg"]}` map: a validation failure whatever the status. */
  fieldMap: boolean;
}

const empty = (): Unwrapped => ({ details: [], fieldMap: false });

function parseJsonish(text: string): unknown {
  const trimmed = text.trim();
  if (!(trimmed.startsWith('{') || trimmed.startsWith('[') || trimmed.startsWith('"'))) return undefined;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return undefined;
  }
}

function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    const parts = value.map(textOf).filter((p): p is string => p !== undefined);
    return parts.length > 0 ? parts.join('; ') : undefined;
  }
  return undefined;
}

/** `{field: ["msg", …]}` or `{field: "msg"}`: every value a message or a list of messages. */
function asFieldMap(value: Record<string, unknown>): ExchangeErrorDetail[] | undefined {
  const entries = Object.entries(value);
  if (entries.length === 0) return undefined;
  const details: ExchangeErrorDetail[] = [];
  for (const [field, messages] of entries) {
    const isMessageList = Array.isArray(messages) && messages.length > 0 && messages.every((m) => typeof m === 'string');
    if (!isMessageList && typeof messages !== 'string') return undefined;
    details.push({ field, message: textOf(messages) ?? '' });
  }
  return details;
}

function detailsOf(value: unknown): ExchangeErrorDetail[] {
  if (Array.isArray(value)) {
    return value.flatMap((entry): ExchangeErrorDetail[] => {
      if (typeof entry === 'string') return [{ message: entry }];
      if (!isRecord(entry)) return [];
      const field = textOf(entry.field) ?? textOf(entry.loc) ?? textOf(entry.path);
      const message = textOf(entry.message) ?? textOf(entry.msg);
      return [{ ...entry, ...(field === undefined ? {} : { field }), ...(message === undefined ? {} : { message }) }];
    });
  }
  if (isRecord(value)) return asFieldMap(value) ?? [{ ...value }];
  return [];
}

function merge(outer: Unwrapped, inner: Unwrapped): Unwrapped {
  return {
    code: inner.code ?? outer.code,
    title: inner.title ?? outer.title,
    message: inner.message ?? outer.message,
    traceId: outer.traceId ?? inner.traceId,
    details: outer.details.length > 0 ? outer.details : inner.details,
    fieldMap: outer.fieldMap || inner.fieldMap,
  };
}

function unwrap(body: unknown, depth: number): Unwrapped {
  if (depth > maxDepth) return { ...empty(), message: textOf(body) };
  if (typeof body === 'string') {
    const parsed = parseJsonish(body);
    if (parsed !== undefined && typeof parsed !== 'string') return unwrap(parsed, depth + 1);
    const text = textOf(typeof parsed === 'string' ? parsed : body);
    if (text === undefined) return empty();
    return machineCode.test(text) ? { ...empty(), code: text } : { ...empty(), message: text };
  }
  if (Array.isArray(body)) {
    const details = detailsOf(body);
    return { ...empty(), details, message: details.map((d) => d.message).filter(Boolean).join('; ') || undefined };
  }
  if (!isRecord(body)) return { ...empty(), message: textOf(body) };

  const known = ['error', 'message', 'trace_id', 'traceId', 'details', 'errors', 'detail', 'error_description', 'status', 'statusCode', 'code'];
  if (!Object.keys(body).some((k) => known.includes(k))) {
    const fields = asFieldMap(body);
    if (fields) return { ...empty(), details: fields, fieldMap: true, message: fields.map((d) => `${d.field}: ${d.message}`).join('; ') };
  }

  let result: Unwrapped = {
    ...empty(),
    traceId: textOf(body.trace_id) ?? textOf(body.traceId),
    details: detailsOf(body.details ?? body.errors),
  };
  const error = body.error;
  if (typeof error === 'string') {
    const parsed = parseJsonish(error);
    if (parsed !== undefined && typeof parsed !== 'string') result = merge(result, unwrap(parsed, depth + 1));
    else {
      const text = textOf(typeof parsed === 'string' ? parsed : error);
      if (text !== undefined && machineCode.test(text)) result.code = text;
      else if (text !== undefined) result.title = text;
    }
  } else if (isRecord(error) || Array.isArray(error)) {
    result = merge(result, unwrap(error, depth + 1));
  }
  if (result.code === undefined && typeof body.code === 'string' && machineCode.test(body.code)) result.code = body.code;

  const message = body.message ?? body.detail ?? body.error_description;
  if (typeof message === 'string') {
    const parsed = parseJsonish(message);
    if (parsed !== undefined && typeof parsed !== 'string') {
      const inner = unwrap(parsed, depth + 1);
      result = { ...merge(result, inner), message: inner.message ?? result.message };
    } else result.message = textOf(typeof parsed === 'string' ? parsed : message) ?? result.message;
  } else if (isRecord(message)) {
    const fields = asFieldMap(message);
    if (fields) {
      result.details = result.details.length > 0 ? result.details : fields;
      result.fieldMap = true;
      result.message = fields.map((d) => `${d.field}: ${d.message}`).join('; ');
    } else result = merge(result, unwrap(message, depth + 1));
  } else if (message !== undefined) {
    result.message = textOf(message) ?? result.message;
  }
  return result;
}

function kindFor(status: number, unwrapped: Unwrapped): ExchangeErrorKind {
  const looksLikeValidation = unwrapped.fieldMap || unwrapped.code === 'VALIDATION_ERROR';
  if (status === 400 || status === 413 || status === 415) return 'validation';
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 408) return 'timeout';
  if (status === 409) return 'conflict';
  if (status === 422) return looksLikeValidation ? 'validation' : 'rule_violation';
  if (status === 429) return 'server';
  if (status >= 400 && status < 500) return 'validation';
  // Some live validation failures are answered 500 (field notes, [1x]).
  if (status >= 500 && status < 600) return looksLikeValidation ? 'validation' : 'server';
  return 'malformed_response';
}

/** Parses Retry-After (seconds or an HTTP date) into milliseconds from `now`. */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export interface ErrorResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly bodyText: string;
  readonly operation: string;
}

function htmlTitle(text: string): string | undefined {
  const match = /<title[^>]*>([^<]{1,200})<\/title>/i.exec(text);
  return match?.[1]?.trim() || undefined;
}

/**
 * The trace id a header carries: the sandbox's X-Trace-Id, or the X-Request-Id the live gateway
 * (APISIX) puts on every answer (R `docs/api/WORKFLOWS.md` §9, `transport.py`).
 */
export function headerTraceId(headers: Readonly<Record<string, string | undefined>>): string | undefined {
  return headers['x-trace-id'] ?? headers['x-request-id'];
}

/** A non-2xx answer as an ExchangeError; never throws, whatever the body. */
export function errorFromResponse(response: ErrorResponse): ExchangeError {
  const { status, headers, bodyText, operation } = response;
  const headerTrace = headerTraceId(headers);
  const retryAfterMs = parseRetryAfter(headers['retry-after']);
  let unwrapped: Unwrapped;
  let fallback: string;
  if (bodyText.trim() === '') {
    unwrapped = empty();
    fallback = `HTTP ${status} with an empty body`;
  } else {
    const parsed = parseJsonish(bodyText);
    if (parsed !== undefined) {
      unwrapped = unwrap(parsed, 0);
      fallback = `HTTP ${status}`;
    } else {
      // Not JSON: a proxy's HTML page or plain text. Keep its title or first words, never all of it.
      unwrapped = empty();
      const title = htmlTitle(bodyText);
      fallback = title
        ? `HTTP ${status}: ${title} (HTML page)`
        : /^\s*</.test(bodyText)
          ? `HTTP ${status} (HTML page)`
          : `HTTP ${status}: ${bodyText.trim().slice(0, 200)}`;
    }
  }
  const firstFieldDetail = unwrapped.details.find((d) => typeof d.field === 'string');
  const message =
    unwrapped.title !== undefined && unwrapped.message !== undefined
      ? `${unwrapped.title}: ${unwrapped.message}`
      : (unwrapped.message ?? unwrapped.title ?? firstFieldDetail?.message ?? unwrapped.code ?? fallback);
  return new ExchangeError({
    kind: kindFor(status, unwrapped),
    message,
    operation,
    status,
    code: unwrapped.code,
    traceId: unwrapped.traceId ?? headerTrace,
    field: firstFieldDetail?.field,
    details: unwrapped.details.length > 0 ? unwrapped.details : undefined,
    retryAfterMs,
    // A gateway failure or a 500 may come after the exchange acted: the caller must reconcile.
    outcomeUnknown: status === 500 || status === 502 || status === 504,
  });
}

/**
 * Whether an error says the bearer token expired: 401 TOKEN_EXPIRED (or a 401 whose message says
 * it expired), or a 403 whose message says the token expired. Those, and only those, earn a replay.
 */
export function isExpiredTokenError(error: ExchangeError): boolean {
  const words = `${error.code ?? ''} ${error.message}`;
  if (error.status === 401) return error.code === 'TOKEN_EXPIRED' || /expired/i.test(words);
  if (error.status === 403) return /token/i.test(words) && /expired/i.test(words);
  return false;
}
