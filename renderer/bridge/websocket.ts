// The browser-mode transport (docs/bridge-protocol.md): one loopback WebSocket to the browser host,
// a hello frame with the per-launch secret, then invoke/result pairs and pushed events. A dropped
// connection is reopened with backoff; calls made meanwhile wait and are sent once the host is
// ready again. A call that was on the wire when the connection dropped is answered with an error,
// never re-sent: the station may already have acted on it.
import { transportFailure } from './electron';
import type { CommandInput, CommandName, CommandOutcome, Connection, ConnectionState, StationBridge, StationEvent } from './types';

/** The part of a WebSocket this client uses: the browser's, or the 'ws' package's in unit tests. */
export interface SocketLike {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

export interface WebSocketBridgeOptions {
  /** ws://127.0.0.1:N/bridge */
  readonly url: string;
  /**
   * The per-launch secret, or a one-time launch code (`npm start` opens the window with one): the
   * host answers a code's hello with the secret, which this tab then keeps for reconnecting.
   */
  readonly credential: { readonly secret: string } | { readonly code: string };
  /** Called with the secret the host handed over for a launch code. */
  readonly keepSecret?: (secret: string) => void;
  readonly openSocket?: (url: string) => SocketLike;
  readonly backoffMs?: { readonly first: number; readonly max: number };
}

/** The host closes with this code when the secret is wrong or the hello came too late. */
export const refusedCloseCode = 4401;

type Frame =
  | { type: 'ready'; secret?: string }
  | { type: 'result'; id: number; outcome: CommandOutcome<CommandName> }
  | { type: 'event'; event: StationEvent };

interface Waiting {
  readonly name: CommandName;
  readonly input: unknown;
  readonly resolve: (outcome: CommandOutcome<CommandName>) => void;
}

export type WebSocketBridge = StationBridge & Connection & { close(): void };

export function createWebSocketBridge(options: WebSocketBridgeOptions): WebSocketBridge {
  const openSocket = options.openSocket ?? browserSocket;
  const backoff = options.backoffMs ?? { first: 250, max: 5000 };
  const eventListeners = new Set<(event: StationEvent) => void>();
  const stateListeners = new Set<(state: ConnectionState) => void>();
  const onTheWire = new Map<number, (outcome: CommandOutcome<CommandName>) => void>();
  const outbox: Waiting[] = [];
  let state: ConnectionState = 'connecting';
  let socket: SocketLike | null = null;
  let nextId = 1;
  let delay = backoff.first;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let closedByPage = false;
  let credential = options.credential;

  const setState = (next: ConnectionState) => {
    if (next === state) return;
    state = next;
    for (const listener of stateListeners) listener(next);
  };

  const failOnTheWire = (message: string) => {
    for (const resolve of onTheWire.values()) resolve(transportFailure(message));
    onTheWire.clear();
  };

  const flush = () => {
    while (state === 'ready' && socket !== null && outbox.length > 0) {
      const waiting = outbox.shift();
      if (waiting === undefined) break;
      const id = nextId++;
      onTheWire.set(id, waiting.resolve);
      socket.send(JSON.stringify({ type: 'invoke', id, name: waiting.name, input: waiting.input }));
    }
  };

  const connect = () => {
    retryTimer = null;
    const current = openSocket(options.url);
    socket = current;
    current.onopen = () => current.send(JSON.stringify({ type: 'hello', ...credential }));
    current.onmessage = (message) => {
      const frame = parseFrame(message.data);
      if (frame === null) return;
      if (frame.type === 'ready') {
        // A launch code works once: from now on this tab says hello with the secret it was handed.
        if ('code' in credential && frame.secret !== undefined) {
          credential = { secret: frame.secret };
          options.keepSecret?.(frame.secret);
        }
        delay = backoff.first;
        setState('ready');
        flush();
      } else if (frame.type === 'result') {
        const resolve = onTheWire.get(frame.id);
        onTheWire.delete(frame.id);
        resolve?.(frame.outcome);
      } else {
        for (const listener of eventListeners) listener(frame.event);
      }
    };
    current.onerror = () => undefined; // onclose follows and decides
    current.onclose = (event) => {
      if (socket !== current) return;
      socket = null;
      if (closedByPage) return;
      if (event.code === refusedCloseCode) {
        setState('refused');
        failOnTheWire('The station refused this page: open the link the station printed at launch.');
        for (const waiting of outbox.splice(0)) waiting.resolve(transportFailure('The station refused this page.'));
        return;
      }
      failOnTheWire('The connection to the station dropped before it answered.');
      setState('reconnecting');
      retryTimer = setTimeout(connect, delay);
      delay = Math.min(delay * 2, backoff.max);
    };
  };

  connect();

  return {
    get state() {
      return state;
    },
    onChange(listener) {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },
    invoke<N extends CommandName>(name: N, input: CommandInput<N>): Promise<CommandOutcome<N>> {
      if (state === 'refused') return Promise.resolve(transportFailure('The station refused this page.'));
      return new Promise<CommandOutcome<N>>((resolve) => {
        outbox.push({ name, input, resolve: resolve as (outcome: CommandOutcome<CommandName>) => void });
        flush();
      });
    },
    subscribe(listener) {
      eventListeners.add(listener);
      return () => {
        eventListeners.delete(listener);
      };
    },
    close() {
      closedByPage = true;
      if (retryTimer !== null) clearTimeout(retryTimer);
      socket?.close(1000, 'page closed');
      socket = null;
      failOnTheWire('The page closed its connection to the station.');
    },
  } satisfies StationBridge & Connection & { close(): void };
}

function browserSocket(url: string): SocketLike {
  const Socket = (globalThis as unknown as { WebSocket: new (url: string) => SocketLike }).WebSocket;
  return new Socket(url);
}

function parseFrame(data: unknown): Frame | null {
  let value: unknown;
  try {
    value = JSON.parse(typeof data === 'string' ? data : String(data));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const frame = value as Record<string, unknown>;
  if (frame.type === 'ready') return typeof frame.secret === 'string' ? { type: 'ready', secret: frame.secret } : { type: 'ready' };
  if (frame.type === 'result' && typeof frame.id === 'number' && typeof frame.outcome === 'object' && frame.outcome !== null) {
    return frame as unknown as Frame;
  }
  if (frame.type === 'event' && typeof frame.event === 'object' && frame.event !== null) return frame as unknown as Frame;
  return null;
}
