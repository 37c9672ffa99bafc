// The browser host: the built renderer and the station contract over loopback, for browser mode
// and every end-to-end test (docs/bridge-protocol.md). HTTP serves the renderer with its CSP; the
// WebSocket at /bridge carries the contract. A connection counts only after its first frame shows
// the per-launch secret, which reaches the page in the launch URL's fragment and so never travels in
// a request line, a Referer or a log — or a one-time launch code (issueLaunchCode), good for one
// hello within two minutes, answered with the secret: what `npm start` hands the window it opens, so
// the secret itself is on no command line and in no terminal. The upgrade is refused unless the Origin is this host's own,
// and every request unless its Host is this host (a DNS-rebinding page cannot reach it).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import Fastify from 'fastify';
import type { WebSocket } from 'ws';
import { checkEvent, invokeChecked, makeError, validateInvoke } from '../contract';
import type { HostedCore, Invocation, Outcome } from '../contract';
import { browserCsp, securityHeaders } from './csp';

/** pino's call shape. */
export interface HostLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

export interface BrowserHostOptions {
  /** The station core (`station.hosted`): this host validates calls and checks answers and events. */
  core: HostedCore;
  /** The built renderer (dist/renderer). */
  rendererDir: string;
  /** 0 (default) for any free port. */
  port?: number;
  /** Default: 32 random bytes. */
  secret?: string;
  log: HostLog;
  helloTimeoutMs?: number;
  /** Default CALLS_IN_FLIGHT_PER_CONNECTION (tests prove the bound on a smaller one). */
  callsInFlightPerConnection?: number;
}

export interface BrowserHost {
  /** http://127.0.0.1:N */
  readonly url: string;
  /** The URL to open: the host's URL with the per-launch secret in the fragment. */
  readonly launchUrl: string;
  readonly port: number;
  /** A URL with a fresh one-time launch code in its fragment instead of the secret. */
  issueLaunchUrl(): string;
  close(): Promise<void>;
}

/** How long a one-time launch code may wait for its window. */
const LAUNCH_CODE_MS = 120_000;

/** Close codes of the bridge socket. */
export const CLOSE_UNAUTHORIZED = 4401;
export const CLOSE_BAD_FRAME = 4400;

const MAX_FRAME_BYTES = 1024 * 1024;

/**
 * Calls one connection may have under way at once. The renderer's look-up asks for every group of
 * services at once (30 for a sandbox patient; the core works three at a time), beside the details,
 * the balance, the queue and a workflow command, and while SHA is slow they all wait together —
 * for the patients looked up before this one too: bounds of 16 and then 64 answered the nurse's
 * consent BUSY (flow B's held-services test; the bench's ward profile after a few look-ups). A page
 * that pipelines more than this is answered BUSY at once for the rest, so it cannot hold the station's memory or its queue (1000 pipelined
 * look-ups once took 19.5 s and doubled the memory).
 */
export const CALLS_IN_FLIGHT_PER_CONNECTION = 256;

export class RendererNotBuiltError extends Error {
  override readonly name = 'RendererNotBuiltError';
}

export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const { core, log } = options;
  const rendererDir = path.resolve(options.rendererDir);
  if (!existsSync(path.join(rendererDir, 'index.html'))) {
    throw new RendererNotBuiltError(`The renderer is not built: ${path.join(rendererDir, 'index.html')} is missing (npm run build:renderer).`);
  }
  const secret = options.secret ?? randomBytes(32).toString('base64url');
  const secretDigest = digest(secret);
  const helloTimeoutMs = options.helloTimeoutMs ?? 5000;

  let origin = '';
  let allowedHosts = new Set<string>();
  // Made once the port is known, and again as settings pass through: not for every response.
  let csp = '';
  const followSettings = (allowedLinkOrigins: readonly string[]) => (csp = browserCsp({ hostOrigin: origin, frameOrigins: allowedLinkOrigins }));
  const ready = new Set<WebSocket>();
  /** Every connection until its close event has run (which logs): close() waits for them. */
  const closing = new Map<WebSocket, Promise<void>>();
  /** Launch codes not yet used (their digests), with when each stops being good. */
  const launchCodes = new Map<string, number>();
  const spendLaunchCode = (code: string): boolean => {
    const key = digest(code).toString('hex');
    const until = launchCodes.get(key);
    launchCodes.delete(key);
    return until !== undefined && Date.now() <= until;
  };

  const app = Fastify({ logger: false, forceCloseConnections: true, bodyLimit: 64 * 1024 });
  await app.register(fastifyWebsocket, { options: { maxPayload: MAX_FRAME_BYTES } });

  app.addHook('onRequest', async (request, reply) => {
    if (!allowedHosts.has(request.headers.host ?? '')) {
      log.warn({ path: request.url.split('?')[0]?.slice(0, 120) }, 'request refused: foreign Host header');
      return reply.code(421).header('content-type', 'text/plain; charset=utf-8').send('Misdirected request');
    }
  });
  app.addHook('onSend', async (request, reply, payload) => {
    void reply.header('content-security-policy', csp);
    for (const [name, value] of Object.entries(securityHeaders)) void reply.header(name, value);
    if (request.url === '/' || request.url.startsWith('/index.html')) void reply.header('cache-control', 'no-store');
    return payload;
  });

  await app.register(fastifyStatic, { root: rendererDir, index: ['index.html'], dotfiles: 'deny', wildcard: true });

  app.get(
    '/bridge',
    {
      websocket: true,
      preValidation: async (request, reply) => {
        if (request.headers.origin !== origin) {
          log.warn({ origin: request.headers.origin ?? '(none)' }, 'bridge upgrade refused: foreign Origin');
          return reply.code(403).send({ error: 'FORBIDDEN_ORIGIN' });
        }
      },
    },
    (socket) => {
      const connection = randomBytes(4).toString('hex');
      let inFlight = 0;
      log.info({ connection }, 'bridge connection opened');
      closing.set(socket, new Promise((resolve) => socket.once('close', () => resolve())));
      const timer = setTimeout(() => refuse('no hello'), helloTimeoutMs);
      const refuse = (why: string) => {
        log.warn({ connection, why }, 'bridge connection refused');
        socket.close(CLOSE_UNAUTHORIZED, 'unauthorized');
      };
      socket.on('close', (code) => {
        clearTimeout(timer);
        ready.delete(socket);
        closing.delete(socket);
        log.info({ connection, code }, 'bridge connection closed');
      });
      socket.on('error', () => socket.terminate());
      socket.on('message', (data, isBinary) => {
        const frame = isBinary ? null : parseFrame(data.toString());
        if (!ready.has(socket)) {
          clearTimeout(timer);
          if (frame?.type === 'hello' && typeof frame.secret === 'string' && timingSafeEqual(digest(frame.secret), secretDigest)) {
            ready.add(socket);
            socket.send(JSON.stringify({ type: 'ready' }));
            log.info({ connection }, 'bridge connection ready');
          } else if (frame?.type === 'hello' && typeof frame.code === 'string' && spendLaunchCode(frame.code)) {
            ready.add(socket);
            socket.send(JSON.stringify({ type: 'ready', secret }));
            log.info({ connection }, 'bridge connection ready (launch code spent)');
          } else {
            refuse(frame?.type === 'hello' ? 'wrong secret or launch code' : 'first frame was not a hello');
          }
          return;
        }
        if (frame?.type !== 'invoke' || typeof frame.id !== 'number' || !Number.isSafeInteger(frame.id)) {
          log.warn({ connection }, 'bridge frame refused: not an invoke');
          socket.close(CLOSE_BAD_FRAME, 'bad frame');
          return;
        }
        const id = frame.id;
        const send = (outcome: Outcome<unknown>) => {
          if (socket.readyState === socket.OPEN) socket.send(JSON.stringify({ type: 'result', id, outcome }));
        };
        if (inFlight >= (options.callsInFlightPerConnection ?? CALLS_IN_FLIGHT_PER_CONNECTION)) {
          send({ ok: false, error: makeError('BUSY', 'Too many requests from this window at once: nothing was done; try again in a moment.') });
          return;
        }
        inFlight += 1;
        void answer(frame.name, frame.input)
          .then(send)
          .finally(() => {
            inFlight -= 1;
          });
      });
    },
  );

  async function answer(name: unknown, input: unknown): Promise<Outcome<unknown>> {
    const call = validateInvoke(name, input);
    if (!call.ok) return call;
    // In browser mode the renderer shows the link itself, in a sandboxed iframe under frame-src.
    if (call.value.name === 'authorizationView.setArea') return { ok: true, value: { shownBy: 'renderer' } };
    return dispatch(call.value);
  }

  async function dispatch(call: Invocation): Promise<Outcome<unknown>> {
    const outcome = await invokeChecked(core, call, log);
    if (outcome.ok && (call.name === 'settings.get' || call.name === 'settings.update')) {
      followSettings((outcome.value as { allowedLinkOrigins: string[] }).allowedLinkOrigins);
    }
    return outcome;
  }

  const unsubscribe = core.subscribe((event) => {
    const checked = checkEvent(event);
    if (!checked.ok) {
      log.error({}, 'station event refused: outside the contract');
      return;
    }
    const message = JSON.stringify({ type: 'event', event: checked.value });
    for (const socket of ready) socket.send(message);
  });

  try {
    await app.listen({ host: '127.0.0.1', port: options.port ?? 0 });
  } catch (error) {
    unsubscribe();
    await app.close();
    throw error;
  }
  const port = (app.server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  followSettings([]);
  await dispatch({ name: 'settings.get', input: {} });

  return {
    url: origin,
    launchUrl: `${origin}/#k=${secret}`,
    port,
    issueLaunchUrl() {
      const code = randomBytes(24).toString('base64url');
      launchCodes.set(digest(code).toString('hex'), Date.now() + LAUNCH_CODE_MS);
      return `${origin}/#c=${code}`;
    },
    async close() {
      unsubscribe();
      // A connection's close event can come after the server has closed (a page that went away
      // just before): waited for, so the host logs nothing once its owner has ended the log.
      const waits = [...closing.values()];
      for (const socket of closing.keys()) socket.terminate();
      await app.close();
      await Promise.all(waits);
    },
  };
}

interface Frame {
  type?: unknown;
  secret?: unknown;
  code?: unknown;
  id?: unknown;
  name?: unknown;
  input?: unknown;
}

function parseFrame(text: string): Frame | null {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Frame) : null;
  } catch {
    return null;
  }
}

/** Fixed-length digests, so the secret comparison takes the same time whatever was sent. */
function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
