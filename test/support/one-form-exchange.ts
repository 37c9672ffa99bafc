// A stand-in exchange that serves a returned claim's resubmission in one documented form only (the
// sources name three: docs/exchange-wire.md, `claims.resubmit`): a loopback proxy in front of the
// sandbox that answers the other two as an exchange without them would, and forwards everything else.
// A missing dedicated route answers 404 with the body of the live gateway's own unknown route
// (APISIX's; R WORKFLOWS §9 names the gateway), or 405; where AMPATH's form is not served, the
// consent token alone on /claims/submit is a submit lacking its fields, refused 400 as the sandbox
// refuses one. It lists the requests it saw, so a test can tell which forms were tried, in what order.
import { createServer } from 'node:http';
import { listenOnLoopback } from './loopback';
import { forward } from './wire-recorder';

export type ResubmissionRoute = 'POST /api/v1/claims/lines/resubmit' | 'POST /api/v1/claims/resubmit' | 'POST /api/v1/claims/submit';

export const RESUBMISSION_ROUTES: readonly ResubmissionRoute[] = ['POST /api/v1/claims/lines/resubmit', 'POST /api/v1/claims/resubmit', 'POST /api/v1/claims/submit'];

export interface OneFormExchange {
  readonly url: string;
  /** `METHOD /path` of every request, in order. */
  readonly seen: readonly string[];
  /** The requests seen since `mark()`. */
  since(mark: number): string[];
  mark(): number;
  close(): Promise<void>;
}

function isBareSubmit(raw: Buffer): boolean {
  try {
    const body = JSON.parse(raw.toString('utf8')) as unknown;
    return typeof body === 'object' && body !== null && Object.keys(body).every((k) => k === 'consent_token');
  } catch {
    return false;
  }
}

export async function startOneFormExchange(target: string, served: ResubmissionRoute, missingAs: 404 | 405 = 404): Promise<OneFormExchange> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const raw = Buffer.concat(chunks);
        const kind = `${req.method ?? 'GET'} ${(req.url ?? '/').split('?')[0] ?? '/'}`;
        seen.push(kind);
        const reply = (status: number, body: unknown) => {
          const text = Buffer.from(JSON.stringify(body));
          res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(text.length) });
          res.end(text);
        };
        const route = RESUBMISSION_ROUTES.find((r) => r === kind);
        if (route !== undefined && route !== served) {
          if (route !== 'POST /api/v1/claims/submit') {
            reply(missingAs, missingAs === 404 ? { error_msg: '404 Route Not Found' } : { error: 'Method Not Allowed', message: `${kind} is not allowed` });
            return;
          }
          if (isBareSubmit(raw)) {
            reply(400, { error: 'VALIDATION_ERROR', message: 'discharge_reason: required', trace_id: 'one-form-exchange' });
            return;
          }
        }
        try {
          const answered = await forward(target, req.method ?? 'GET', req.url ?? '/', req.headers, raw);
          res.writeHead(answered.status, { ...answered.headers, 'content-length': String(answered.body.length) });
          res.end(answered.body);
        } catch (error) {
          reply(502, { error: 'STAND_IN_FAILED', message: (error as Error).message });
        }
      })();
    });
  });
  const listener = await listenOnLoopback(server);
  return {
    url: listener.url,
    seen,
    mark: () => seen.length,
    since: (mark) => seen.slice(mark),
    close: () => listener.close(),
  };
}
