// A loopback proxy between the station and the sandbox that spoils one exchange call on purpose:
// the n-th request of a kind (method and path, without the query) meets one fault, every other
// request is forwarded untouched. The faults are those a ward's network and the exchange's own
// gateway produce:
//   503        the gateway refuses; nothing reaches the exchange
//   reset      the connection drops before anything reaches the exchange
//   timeout    no answer before the station gives up; the exchange does the work afterwards
//   malformed  the exchange does the work and answers 2xx with a body no one can read
//   lost       the exchange does the work; the connection drops before its answer arrives
// It also lists the kinds of request it saw, so a test can aim a fault at every call of a flow.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback } from './loopback';
import { forward } from './wire-recorder';

export const FAULTS = ['503', 'reset', 'timeout', 'malformed', 'lost'] as const;
export type Fault = (typeof FAULTS)[number];

export interface FaultPlan {
  /** `POST /api/v1/claims/visit` */
  readonly kind: string;
  /** 1 for the first request of that kind after arming. */
  readonly occurrence: number;
  readonly fault: Fault;
}

export interface FaultProxy {
  readonly url: string;
  /** Kinds of request seen since the last arming, in the order first seen, with how many of each. */
  readonly kinds: readonly { readonly kind: string; readonly count: number }[];
  /** Whether the armed fault was met. */
  readonly fired: boolean;
  arm(plan: FaultPlan | null): void;
  reset(): void;
  close(): Promise<void>;
}

/** `GET /api/v1/claims/authorizations`: a request's kind. */
export function kindOf(method: string, url: string): string {
  return `${method} ${url.split('?')[0] ?? url}`;
}

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  let plan: FaultPlan | null = null;
  let seen = new Map<string, number>();
  let fired = false;

  const pass = (req: IncomingMessage, raw: Buffer) => forward(target, req.method ?? 'GET', req.url ?? '/', req.headers, raw);
  const reply = (res: ServerResponse, status: number, headers: Record<string, string>, body: Buffer) => {
    res.writeHead(status, { ...headers, 'content-length': String(body.length) });
    res.end(body);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const raw = Buffer.concat(chunks);
        const kind = kindOf(req.method ?? 'GET', req.url ?? '/');
        const n = (seen.get(kind) ?? 0) + 1;
        seen.set(kind, n);
        const fault = plan !== null && !fired && plan.kind === kind && plan.occurrence === n ? plan.fault : null;
        if (fault !== null) fired = true;
        try {
          switch (fault) {
            case null: {
              const answered = await pass(req, raw);
              reply(res, answered.status, answered.headers, answered.body);
              return;
            }
            case '503':
              reply(res, 503, { 'content-type': 'application/json' }, Buffer.from(JSON.stringify({ error: 'SERVICE_UNAVAILABLE', message: 'Injected by the fault proxy', trace_id: 'proxy-503' })));
              return;
            case 'reset':
              req.socket.destroy();
              return;
            case 'timeout':
              // Held until the station gives up; the exchange then does the work all the same.
              await new Promise<void>((resolve) => res.once('close', resolve));
              await pass(req, raw);
              return;
            case 'malformed':
              await pass(req, raw);
              reply(res, 200, { 'content-type': 'application/json' }, Buffer.from('{"unreadable": '));
              return;
            case 'lost':
              await pass(req, raw);
              req.socket.destroy();
              return;
          }
        } catch (error) {
          reply(res, 502, { 'content-type': 'application/json' }, Buffer.from(JSON.stringify({ error: 'PROXY_FAILED', message: (error as Error).message })));
        }
      })();
    });
  });
  const listener = await listenOnLoopback(server);
  return {
    url: listener.url,
    get kinds() {
      return [...seen].map(([kind, count]) => ({ kind, count }));
    },
    get fired() {
      return fired;
    },
    arm(next) {
      plan = next;
      fired = false;
      seen = new Map();
    },
    reset() {
      plan = null;
      fired = false;
      seen = new Map();
    },
    close: () => listener.close(),
  };
}
