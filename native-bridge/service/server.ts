// The station's own local device service, for when the exchange's hardware service does not run
// (training mode, open-protocol readers): the same GET /status shape and /ws/devices events on
// loopback, plus POST /capture, which the sandbox's authorization page calls to take a finger.
//
// Two checks come before anything else. The Host header must name this service as a browser on
// this machine reaches it (127.0.0.1, localhost or [::1], with its port): a page on another name
// that resolves here (DNS rebinding) is refused, so no page reads /status through its own origin.
// And only configured origins (the sandbox's, the payer's) may use it from a browser: any other
// Origin gets 403 and no CORS headers. The origins change without a restart (setAllowedOrigins):
// one removed loses access at once, open WebSocket connections and a capture under way included.
// A request without an Origin header does not come from a web page (browsers send one on
// cross-origin calls): a program on this machine may read the status, but a fingerprint is taken
// only for an allowed origin's page. Every capture request is announced as an event.
import os from 'node:os';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';
import { STATION_SERVICE_PROVIDER } from '../agent/status';
import { ReaderError, type ReaderErrorCode } from '../drivers/reader';
import type { HintedWaitOptions } from '../drivers/virtual-reader';
import { deviceStatus, type DeviceSource } from './device-source';
import { HARDWARE_SERVICE_PORT, PortUnavailableError, somethingListens } from './port';

export interface LocalDeviceServiceOptions {
  readonly devices: DeviceSource;
  /** Origins allowed from a browser, e.g. the sandbox's and the payer's ('https://ekyc.example'). */
  readonly allowedOrigins: readonly string[];
  /**
   * A number: exactly that port (refused if anything already answers there). 'auto' (default):
   * `preferredPort` if nothing answers there, else any free port.
   */
  readonly port?: number | 'auto';
  /** Default 18065, the hardware service's port, so a payer page finds the station's readers. */
  readonly preferredPort?: number;
  readonly workstationID?: string;
  readonly version?: string;
  readonly captureTimeoutMs?: { readonly default: number; readonly max: number };
  readonly now?: () => Date;
}

/** Why a request was refused before it was served. */
export type RefusalReason = 'origin-not-allowed' | 'origin-required' | 'host-not-allowed';

export type LocalDeviceServiceEvent =
  | { readonly type: 'capture-requested'; readonly origin: string; readonly deviceId: string | null; readonly at: string }
  | {
      readonly type: 'capture-completed';
      readonly origin: string;
      readonly deviceId: string;
      readonly templateBytes: number;
      readonly durationMs: number;
      readonly at: string;
    }
  | {
      readonly type: 'capture-failed';
      readonly origin: string;
      readonly deviceId: string | null;
      readonly error: string;
      readonly message: string;
      readonly at: string;
    }
  | {
      readonly type: 'request-refused';
      /** The Origin header, or null when the request had none (a program on this machine). */
      readonly origin: string | null;
      readonly reason: RefusalReason;
      readonly method: string;
      readonly path: string;
      readonly at: string;
    };

/** "capture requested by https://payer.example" — for the station's screen and its audit log. */
export function describeServiceEvent(event: LocalDeviceServiceEvent): string {
  switch (event.type) {
    case 'capture-requested':
      return `capture requested by ${event.origin}`;
    case 'capture-completed':
      return `capture for ${event.origin} done (${event.templateBytes}-byte template from ${event.deviceId})`;
    case 'capture-failed':
      return `capture for ${event.origin} failed: ${event.message}`;
    case 'request-refused': {
      const who = event.origin ?? 'a program on this computer';
      const why = event.reason === 'host-not-allowed' ? ' (not addressed to this machine: DNS rebinding?)' : event.reason === 'origin-required' ? ' (no Origin: a capture is only for an allowed page)' : '';
      return `refused ${event.method} ${event.path} from ${who}${why}`;
    }
  }
}

export interface LocalDeviceService {
  readonly url: string;
  readonly port: number;
  /**
   * Replaces the origins allowed from a browser, without a restart: a capture under way for an
   * origin still allowed goes on. An origin removed loses access at once: its next request is
   * refused, its open /ws/devices connections are closed and its capture under way is cancelled.
   * Throws a RangeError (and changes nothing) when one of them is not an origin.
   */
  setAllowedOrigins(origins: readonly string[]): void;
  onEvent(listener: (event: LocalDeviceServiceEvent) => void): () => void;
  close(): Promise<void>;
}

interface CaptureBody {
  hint?: { patient_id?: string | number };
  finger?: string;
  timeout_ms?: number;
}

const captureBodySchema = {
  type: 'object',
  additionalProperties: true,
  properties: {
    hint: {
      type: 'object',
      additionalProperties: true,
      properties: { patient_id: { anyOf: [{ type: 'string', minLength: 1, maxLength: 64 }, { type: 'integer', minimum: 0 }] } },
    },
    finger: { type: 'string', minLength: 1, maxLength: 32 },
    timeout_ms: { type: 'integer', minimum: 1 },
  },
} as const;

export async function startLocalDeviceService(options: LocalDeviceServiceOptions): Promise<LocalDeviceService> {
  let allowed = new Set(options.allowedOrigins.map(normaliseOrigin));
  /** Captures under way, by the origin of the page that asked. */
  const captures = new Set<{ readonly origin: string; readonly abort: AbortController }>();
  /** The origin of each open /ws/devices connection. */
  const sockets = new Map<WebSocket, string | undefined>();
  const listeners = new Set<(event: LocalDeviceServiceEvent) => void>();
  const now = options.now ?? (() => new Date());
  const timeouts = options.captureTimeoutMs ?? { default: 20_000, max: 60_000 };
  const emit = (event: LocalDeviceServiceEvent) => {
    for (const listener of [...listeners]) listener(event);
  };
  let capturing = false;

  // On close, drop every connection at once: a page's kept-alive socket must not hold the station up.
  const app: FastifyInstance = Fastify({ logger: false, bodyLimit: 16 * 1024, forceCloseConnections: true });

  /** The Host values a browser on this machine sends to this service, set once the port is known. */
  let ownHosts: ReadonlySet<string> = new Set();

  // The Host first (a rebinding page's requests carry its own name), then CORS by hand:
  // @fastify/cors answers an unlisted origin without CORS headers but still serves it; here such a
  // request is refused outright, so a page of another origin cannot even trigger a capture whose
  // answer it would not be allowed to read.
  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    const refuse = (code: number, reason: RefusalReason, message: string) => {
      emit({ type: 'request-refused', origin: origin ?? null, reason, method: request.method, path: request.url, at: now().toISOString() });
      return reply.code(code).send({ error: REFUSAL_ERRORS[reason], message });
    };
    if (!ownHosts.has((request.headers.host ?? '').toLowerCase())) {
      return refuse(421, 'host-not-allowed', 'This device service answers only requests addressed to 127.0.0.1, localhost or [::1] with its port.');
    }
    if (origin === undefined) {
      if (request.method === 'POST' && request.url.split('?')[0] === '/capture') {
        return refuse(403, 'origin-required', 'A fingerprint is taken only for the authorization page of an allowed origin.');
      }
      return;
    }
    if (!allowed.has(origin)) return refuse(403, 'origin-not-allowed', `The origin ${origin} may not use this device service.`);
    reply.header('access-control-allow-origin', origin);
    reply.header('vary', 'Origin');
    if (request.method === 'OPTIONS') {
      reply.header('access-control-allow-methods', 'GET, POST');
      reply.header('access-control-allow-headers', 'content-type');
      reply.header('access-control-max-age', '600');
      // Chromium's Private Network Access preflight, for a public payer page calling loopback.
      if (request.headers['access-control-request-private-network'] === 'true') {
        reply.header('access-control-allow-private-network', 'true');
      }
      return reply.code(204).send();
    }
    return undefined;
  });

  app.options('/*', async (_request, reply) => reply.code(204).send());

  app.setErrorHandler(async (error: { statusCode?: number; message: string }, _request, reply) => {
    const code = error.statusCode ?? 500;
    return reply.code(code).send({ error: code < 500 ? 'VALIDATION_ERROR' : 'INTERNAL_ERROR', message: error.message });
  });

  const status = () => ({
    workstationID: options.workstationID ?? os.hostname(),
    devices: options.devices.readers().map(({ reader, info }) => ({
      deviceId: reader.id,
      status: deviceStatus(reader.state),
      type: 'fingerprint',
      ...(info ? { protocol: info.protocol, transport: info.transport, ...(info.model ? { model: info.model } : {}) } : {}),
    })),
    card_readers: [],
    // Nobody signs in to the station's own service: it is always ready for the facility's agent.
    isAuthed: true,
    version: options.version ?? 'idhini-local',
    // So that a monitor of port 18065 can tell this service from the exchange's.
    provider: STATION_SERVICE_PROVIDER,
  });

  app.get('/status', async () => status());

  app.post('/capture', { schema: { body: captureBodySchema } }, async (request: FastifyRequest<{ Body: CaptureBody | undefined }>, reply: FastifyReply) => {
    // The hook above let through only an allowed page's capture.
    const origin = request.headers.origin ?? '';
    const body = request.body ?? {};
    const reader = options.devices.chosen();
    emit({ type: 'capture-requested', origin, deviceId: reader?.id ?? null, at: now().toISOString() });
    const refuse = (code: number, error: string, message: string) => {
      emit({ type: 'capture-failed', origin, deviceId: reader?.id ?? null, error, message, at: now().toISOString() });
      return reply.code(code).send({ error, message });
    };
    if (!reader) return refuse(503, 'NO_READER', 'No fingerprint reader is connected to this station.');
    const timeoutMs = body.timeout_ms ?? timeouts.default;
    if (timeoutMs > timeouts.max) return refuse(400, 'VALIDATION_ERROR', `timeout_ms may be at most ${timeouts.max}.`);
    if (capturing) return refuse(409, 'READER_BUSY', 'Another capture is already waiting for a finger.');

    // A page that goes away (closed, navigated) stops waiting for the finger.
    const abort = new AbortController();
    const onClose = () => {
      if (!reply.sent) abort.abort();
    };
    request.raw.socket.once('close', onClose);
    const underWay = { origin, abort };
    captures.add(underWay);
    capturing = true;
    try {
      const patientId = body.hint?.patient_id;
      const captureOptions: HintedWaitOptions = {
        timeoutMs,
        signal: abort.signal,
        ...(patientId !== undefined ? { hint: { patientId: String(patientId) } } : {}),
        ...(body.finger ? { finger: body.finger } : {}),
      };
      const capture = await reader.capture(captureOptions);
      const info = options.devices.readers().find((r) => r.reader === reader)?.info;
      emit({
        type: 'capture-completed',
        origin,
        deviceId: reader.id,
        templateBytes: capture.templateBytes,
        durationMs: capture.durationMs,
        at: now().toISOString(),
      });
      return {
        template: Buffer.from(capture.template).toString('base64'),
        templateBytes: capture.templateBytes,
        deviceId: reader.id,
        protocol: info?.protocol ?? capture.protocol,
        capturedAt: capture.capturedAt,
      };
    } catch (error) {
      const failure = error instanceof ReaderError ? error : new ReaderError('device', String(error));
      const [code, name] = HTTP_FOR_READER_ERROR[failure.code];
      return refuse(code, name, failure.message);
    } finally {
      capturing = false;
      captures.delete(underWay);
      request.raw.socket.off('close', onClose);
    }
  });

  // /ws/devices: the status on connect, then again on every change of the readers.
  const wss = new WebSocketServer({ noServer: true });
  app.server.on('upgrade', (request: IncomingMessage, socket: Socket, head: Buffer) => {
    const origin = request.headers.origin;
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const refusal: RefusalReason | null = !ownHosts.has((request.headers.host ?? '').toLowerCase())
      ? 'host-not-allowed'
      : origin !== undefined && !allowed.has(origin)
        ? 'origin-not-allowed'
        : null;
    if (refusal !== null || path !== '/ws/devices') {
      if (refusal !== null) emit({ type: 'request-refused', origin: origin ?? null, reason: refusal, method: 'GET', path, at: now().toISOString() });
      const status = refusal === 'host-not-allowed' ? '421 Misdirected Request' : refusal !== null ? '403 Forbidden' : '404 Not Found';
      socket.end(`HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws: WebSocket) => {
      sockets.set(ws, origin);
      ws.once('close', () => sockets.delete(ws));
      ws.send(JSON.stringify({ event: 'status', ...status() }));
    });
  });
  const stopWatching = options.devices.onChange(() => {
    const message = JSON.stringify({ event: 'devices', ...status() });
    for (const client of wss.clients) client.send(message);
  });

  try {
    await listen(app, options);
  } catch (error) {
    stopWatching();
    await app.close();
    throw error;
  }
  const bound = (app.server.address() as AddressInfo).port;
  ownHosts = new Set([`127.0.0.1:${bound}`, `localhost:${bound}`, `[::1]:${bound}`]);

  return {
    url: `http://127.0.0.1:${bound}`,
    port: bound,
    setAllowedOrigins(origins) {
      allowed = new Set(origins.map(normaliseOrigin));
      const removed = (origin: string | undefined) => origin !== undefined && !allowed.has(origin);
      for (const [ws, origin] of sockets) {
        if (!removed(origin)) continue;
        sockets.delete(ws);
        ws.terminate();
      }
      for (const capture of captures) if (removed(capture.origin)) capture.abort.abort();
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      stopWatching();
      for (const client of wss.clients) client.terminate();
      wss.close();
      await app.close();
    },
  };
}

async function listen(app: FastifyInstance, options: LocalDeviceServiceOptions): Promise<void> {
  const at = (port: number) => app.listen({ port, host: '127.0.0.1', listenTextResolver: () => '' });
  const requested = options.port ?? 'auto';
  if (requested !== 'auto') {
    if (requested !== 0 && (await somethingListens(requested))) {
      throw new PortUnavailableError(`Port ${requested} is taken (something answers there); the local device service will not share it.`);
    }
    try {
      await at(requested);
    } catch (error) {
      throw new PortUnavailableError(`The local device service could not listen on 127.0.0.1:${requested}: ${String(error)}`);
    }
    return;
  }
  const preferred = options.preferredPort ?? HARDWARE_SERVICE_PORT;
  if (!(await somethingListens(preferred))) {
    try {
      await at(preferred);
      return;
    } catch {
      // Taken between the check and the bind: any free port will do.
    }
  }
  await at(0);
}

const REFUSAL_ERRORS: Record<RefusalReason, string> = {
  'origin-not-allowed': 'ORIGIN_NOT_ALLOWED',
  'origin-required': 'ORIGIN_REQUIRED',
  'host-not-allowed': 'HOST_NOT_ALLOWED',
};

const HTTP_FOR_READER_ERROR: Record<ReaderErrorCode, readonly [number, string]> = {
  'no-finger': [408, 'NO_FINGER'],
  busy: [409, 'READER_BUSY'],
  cancelled: [499, 'CANCELLED'],
  disconnected: [503, 'READER_GONE'],
  closed: [503, 'READER_GONE'],
  timeout: [502, 'READER_ERROR'],
  checksum: [502, 'READER_ERROR'],
  protocol: [502, 'READER_ERROR'],
  device: [502, 'READER_ERROR'],
  'not-supported': [422, 'NOT_SUPPORTED'],
};

function normaliseOrigin(origin: string): string {
  try {
    return new URL(origin).origin;
  } catch {
    throw new RangeError(`'${origin}' is not an origin (scheme://host[:port]).`);
  }
}
