// A tiny loopback HTTP server that records every request the station or the client sends (method,
// path, query, headers, and the body decoded by its content type: JSON, form, or multipart with its
// text parts and file parts) and every answer, and either forwards each request to a target
// exchange (proxy mode, e.g. the sandbox) or answers it itself (stand-in mode: a function of the
// request, usually `fixtureStandIn` of ./wire-fixtures.ts). Tests read `records` and hold each
// request to docs/exchange-wire.md with ./wire-check.ts.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { listenOnLoopback } from './loopback';

export interface RecordedFile {
  /** The part's name, e.g. `file_blob` or `attachments_0_file_blob`. */
  readonly field: string;
  readonly fileName: string;
  readonly contentType: string;
  readonly size: number;
}

export type DecodedBody =
  | { readonly encoding: 'none' }
  | { readonly encoding: 'json'; readonly value: unknown }
  /** Form and multipart text parts, by name; a name sent twice has two values. */
  | { readonly encoding: 'form'; readonly fields: Readonly<Record<string, readonly string[]>> }
  | { readonly encoding: 'multipart'; readonly fields: Readonly<Record<string, readonly string[]>>; readonly files: readonly RecordedFile[] }
  /** A body of another content type, or one its content type could not read. */
  | { readonly encoding: 'other'; readonly contentType: string; readonly problem: string };

export interface RecordedRequest {
  readonly method: string;
  /** The path without the query. */
  readonly path: string;
  readonly query: Readonly<Record<string, readonly string[]>>;
  /** Lower-case names, as node:http gives them. */
  readonly headers: IncomingHttpHeaders;
  readonly body: DecodedBody;
}

export interface RecordedAnswer {
  readonly status: number;
  readonly contentType: string | undefined;
  readonly text: string;
  /** The body as JSON, when it is JSON. */
  readonly json: unknown;
}

export interface Recorded extends RecordedRequest {
  /** 1, 2, … in the order the requests arrived (with `oneWriteAtATime`, writes in the order they were forwarded). */
  readonly seq: number;
  /** When it was forwarded or answered, by the recorder's clock (`RecorderOptions.now`). */
  readonly at: number;
  /** The body's bytes as they came. */
  readonly raw: Buffer;
  /** Filled in once the answer is sent; undefined while it is under way or when the connection dropped. */
  answer: RecordedAnswer | undefined;
  /** What the stand-in took the request for (stand-in mode), e.g. `claims.createVisit`. */
  operation: string | undefined;
}

export interface Answer {
  readonly status: number;
  /** Sent as application/json. */
  readonly json?: unknown;
  /** Sent as text/plain (a bare confirmation sentence); neither json nor text: an empty body. */
  readonly text?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** The operation the stand-in took the request for, kept on the record. */
  readonly operation?: string;
}

export type StandIn = (request: RecordedRequest) => Answer | Promise<Answer>;

export type RecorderMode = { readonly target: string } | { readonly standIn: StandIn };

export interface RecorderOptions {
  /** The clock each record's `at` is read from (default: the machine's); e.g. the sandbox's time. */
  readonly now?: () => number;
  /**
   * Forward a request that may change something (any method but GET and HEAD) only once the one
   * before it is answered, so the order of the records is the order the target applied them in
   * (a replay of them then reaches the same state).
   */
  readonly oneWriteAtATime?: boolean;
}

export interface WireRecorder {
  /** http://127.0.0.1:port, to give the station or the client as the exchange's base URL. */
  readonly url: string;
  readonly records: readonly Recorded[];
  /** The records from this point on: `const mark = recorder.mark(); …; recorder.since(mark)`. */
  mark(): number;
  since(mark: number): Recorded[];
  close(): Promise<void>;
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function groupFields(entries: Iterable<[string, string]>): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const [name, value] of entries) (fields[name] ??= []).push(value);
  return fields;
}

/** A body as its content type says to read it. */
export async function decodeBody(contentType: string | undefined, raw: Buffer): Promise<DecodedBody> {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  // An empty body is no body, whatever content type came with it.
  if (raw.length === 0) return { encoding: 'none' };
  if (type === 'application/json' || type.endsWith('+json')) {
    try {
      return { encoding: 'json', value: JSON.parse(raw.toString('utf8')) as unknown };
    } catch (error) {
      return { encoding: 'other', contentType: type, problem: `not JSON: ${(error as Error).message}` };
    }
  }
  if (type === 'application/x-www-form-urlencoded') {
    return { encoding: 'form', fields: groupFields(new URLSearchParams(raw.toString('utf8'))) };
  }
  if (type === 'multipart/form-data') {
    let form: FormData;
    try {
      // The platform's own multipart reader (undici), so no parser of ours stands between the
      // station and the check.
      form = await new Response(raw, { headers: { 'content-type': contentType ?? '' } }).formData();
    } catch (error) {
      return { encoding: 'other', contentType: type, problem: `unreadable multipart: ${(error as Error).message}` };
    }
    const texts: [string, string][] = [];
    const files: RecordedFile[] = [];
    for (const [field, value] of form.entries()) {
      if (typeof value === 'string') texts.push([field, value]);
      else files.push({ field, fileName: value.name, contentType: value.type, size: value.size });
    }
    return { encoding: 'multipart', fields: groupFields(texts), files };
  }
  return { encoding: 'other', contentType: type, problem: `content type ${type || '(none)'}` };
}

/** Hop-by-hop headers and those the forwarding recomputes. */
const notForwarded = new Set(['host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'content-encoding', 'upgrade', 'proxy-connection']);

export async function forward(target: string, method: string, url: string, headers: IncomingHttpHeaders, raw: Buffer): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  const outgoing = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || notForwarded.has(name)) continue;
    for (const v of Array.isArray(value) ? value : [value]) outgoing.append(name, v);
  }
  const response = await fetch(new URL(url, target), { method, headers: outgoing, body: raw.length === 0 ? undefined : raw, redirect: 'manual' });
  const back: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!notForwarded.has(name)) back[name] = value;
  });
  return { status: response.status, headers: back, body: Buffer.from(await response.arrayBuffer()) };
}

function answerOf(status: number, contentType: string | undefined, body: Buffer): RecordedAnswer {
  const text = body.toString('utf8');
  let json: unknown;
  try {
    json = text.trim() === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    json = undefined;
  }
  return { status, contentType, text, json };
}

export async function startWireRecorder(mode: RecorderMode, options: RecorderOptions = {}): Promise<WireRecorder> {
  const records: Recorded[] = [];
  const now = options.now ?? Date.now;
  let writes: Promise<unknown> = Promise.resolve();
  const send = (res: ServerResponse, status: number, headers: Record<string, string>, body: Buffer) => {
    res.writeHead(status, { ...headers, 'content-length': String(body.length) });
    res.end(body);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const method = req.method ?? 'GET';
      const handle = async () => {
        const raw = Buffer.concat(chunks);
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        const query: Record<string, string[]> = groupFields(url.searchParams);
        const body = await decodeBody(firstHeader(req.headers['content-type']), raw);
        // Numbered and stamped as it is pushed: no await between, so two requests never share a number.
        const record: Recorded = {
          seq: records.length + 1,
          at: now(),
          raw,
          method,
          path: url.pathname,
          query,
          headers: req.headers,
          body,
          answer: undefined,
          operation: undefined,
        };
        records.push(record);
        try {
          if ('target' in mode) {
            const answered = await forward(mode.target, record.method, req.url ?? '/', req.headers, raw);
            record.answer = answerOf(answered.status, answered.headers['content-type'], answered.body);
            send(res, answered.status, answered.headers, answered.body);
            return;
          }
          const answer = await mode.standIn(record);
          record.operation = answer.operation;
          const headers: Record<string, string> = { ...answer.headers };
          let body = Buffer.alloc(0);
          if (answer.json !== undefined) {
            body = Buffer.from(JSON.stringify(answer.json));
            headers['content-type'] ??= 'application/json';
          } else if (answer.text !== undefined) {
            body = Buffer.from(answer.text);
            headers['content-type'] ??= 'text/plain; charset=utf-8';
          }
          record.answer = answerOf(answer.status, headers['content-type'], body);
          send(res, answer.status, headers, body);
        } catch (error) {
          // The recorder's own failure is an answer the test sees, never a hang.
          const body = Buffer.from(JSON.stringify({ error: 'RECORDER_FAILED', message: (error as Error).message, trace_id: `recorder-${record.seq}` }));
          record.answer = answerOf(502, 'application/json', body);
          send(res, 502, { 'content-type': 'application/json' }, body);
        }
      };
      if (options.oneWriteAtATime === true && method !== 'GET' && method !== 'HEAD') {
        const turn = writes.then(handle);
        writes = turn.catch(() => undefined);
        void turn;
      } else {
        void handle();
      }
    });
  });
  const listener = await listenOnLoopback(server);
  return {
    url: listener.url,
    records,
    mark: () => records.length,
    since: (mark) => records.slice(mark),
    close: () => listener.close(),
  };
}
