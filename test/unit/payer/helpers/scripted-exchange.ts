// A tiny real HTTP server (node:http, 127.0.0.1, port 0) that plays scripted answers, records
// what arrived, and counts token requests and connections. Tests of the exchange client use it
// instead of mocks so the undici transport, headers and bodies are exercised for real.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RecordedRequest {
  readonly method: string;
  /** Path without the query string. */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  readonly text: string;
  /** The body parsed as JSON when it is JSON. */
  readonly json: unknown;
  readonly receivedAt: number;
}

export type Answer =
  | { readonly status: number; readonly json?: unknown; readonly text?: string; readonly headers?: Record<string, string>; readonly delayMs?: number }
  /** Destroy the socket without answering (a dropped connection). */
  | { readonly drop: true }
  /** Never answer (for timeouts and aborts); the server's close() ends it. */
  | { readonly hang: true };

/** Answers a request; `n` counts the calls to this route from 1. */
export type Route = (request: RecordedRequest, n: number) => Answer | Promise<Answer>;

export interface ScriptedExchangeOptions {
  /** Keyed by "METHOD /path" (no query). Unknown routes answer 404 NOT_FOUND. */
  readonly routes?: Record<string, Route>;
  /** Answer of the token endpoint; by default 201 with a fresh token `token-<n>` valid 3600 s. */
  readonly token?: Route;
}

export interface ScriptedExchange {
  readonly url: string;
  /** Every request except the token endpoint's. */
  readonly requests: RecordedRequest[];
  readonly tokenRequests: RecordedRequest[];
  /** TCP connections accepted so far. */
  connections(): number;
  /** Requests to one route. */
  to(route: string): RecordedRequest[];
  close(): Promise<void>;
}

export const tokenPath = '/api/v1/tenants/token';

export function defaultToken(_request: RecordedRequest, n: number): Answer {
  return { status: 201, json: { access_token: `token-${n}`, expires_in: 3600, token_type: 'Bearer' } };
}

export async function startScriptedExchange(options: ScriptedExchangeOptions = {}): Promise<ScriptedExchange> {
  const requests: RecordedRequest[] = [];
  const tokenRequests: RecordedRequest[] = [];
  const counts = new Map<string, number>();
  const sockets = new Set<Socket>();
  let connections = 0;
  const hanging = new Set<ServerResponse>();

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        const body = Buffer.concat(chunks);
        const text = body.toString('utf8');
        let json: unknown;
        try {
          json = text === '' ? undefined : (JSON.parse(text) as unknown);
        } catch {
          json = undefined;
        }
        const recorded: RecordedRequest = {
          method: req.method ?? 'GET',
          path: url.pathname,
          query: url.searchParams,
          headers: req.headers,
          body,
          text,
          json,
          receivedAt: Date.now(),
        };
        const key = `${recorded.method} ${recorded.path}`;
        const n = (counts.get(key) ?? 0) + 1;
        counts.set(key, n);
        let route: Route | undefined;
        if (recorded.path === tokenPath && recorded.method === 'POST') {
          tokenRequests.push(recorded);
          route = options.token ?? defaultToken;
        } else {
          requests.push(recorded);
          route = options.routes?.[key];
        }
        const answer: Answer = route
          ? await route(recorded, n)
          : { status: 404, json: { error: 'NOT_FOUND', message: `no route ${key}`, trace_id: 'trace-404' } };
        if ('drop' in answer) {
          req.socket.destroy();
          return;
        }
        if ('hang' in answer) {
          hanging.add(res);
          return;
        }
        if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
        const headers: Record<string, string> = { ...answer.headers };
        let payload = '';
        if (answer.json !== undefined) {
          payload = JSON.stringify(answer.json);
          headers['content-type'] ??= 'application/json';
        } else if (answer.text !== undefined) {
          payload = answer.text;
        }
        res.writeHead(answer.status, headers);
        res.end(payload);
      })();
    });
  });
  server.on('connection', (socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    tokenRequests,
    connections: () => connections,
    to: (route) => requests.filter((r) => `${r.method} ${r.path}` === route),
    close: async () => {
      for (const res of hanging) res.destroy();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The JSON error body the exchange sends (docs/exchange-wire.md, "Errors"). */
export function exchangeError(status: number, error: string, message: string, extra: Record<string, unknown> = {}): Answer {
  return { status, json: { error, message, trace_id: `trace-${status}`, ...extra } };
}
