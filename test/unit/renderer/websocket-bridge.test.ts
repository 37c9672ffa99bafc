// The browser-mode transport against a real WebSocket server speaking docs/bridge-protocol.md:
// hello with the secret before anything else, invoke/result by id, pushed events, a refusal
// (4401) that stops the page, and a dropped line that is reopened with backoff — where a call on
// the wire is answered with an error, never sent twice, and calls made meanwhile go out once ready.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import type { WebSocket as ServerSocket } from 'ws';
import { createWebSocketBridge } from '../../../renderer/bridge/websocket';
import type { SocketLike, WebSocketBridge } from '../../../renderer/bridge/websocket';
import type { StationEvent } from '../../../electron/contract';

const secret = 'launch-secret-1234';

interface Host {
  readonly url: string;
  readonly frames: unknown[];
  readonly sockets: ServerSocket[];
  /** What the host does with an invoke: answer it, or keep it. */
  answer: (frame: { id: number; name: string }) => unknown | undefined;
  close(): Promise<void>;
}

async function startHost(): Promise<Host> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/bridge' });
  await once(server, 'listening');
  const host: Host = {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/bridge`,
    frames: [],
    sockets: [],
    answer: (frame) => ({ ok: true, value: { echoed: frame.name } }),
    close: () => {
      for (const socket of server.clients) socket.terminate();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  server.on('connection', (socket) => {
    host.sockets.push(socket);
    let ready = false;
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { type: string; id: number; name: string; secret?: string };
      host.frames.push(frame);
      if (!ready) {
        if (frame.type === 'hello' && frame.secret === secret) {
          ready = true;
          socket.send(JSON.stringify({ type: 'ready' }));
        } else socket.close(4401, 'refused');
        return;
      }
      const outcome = host.answer(frame);
      if (outcome !== undefined) socket.send(JSON.stringify({ type: 'result', id: frame.id, outcome }));
    });
  });
  return host;
}

const nodeSocket = (url: string) => new WebSocket(url) as unknown as SocketLike;
const opened: WebSocketBridge[] = [];
const hosts: Host[] = [];

function connect(url: string, withSecret = secret): WebSocketBridge {
  const bridge = createWebSocketBridge({ url, credential: { secret: withSecret }, openSocket: nodeSocket, backoffMs: { first: 20, max: 80 } });
  opened.push(bridge);
  return bridge;
}

async function waitFor(predicate: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not met in 5 s');
    await new Promise((r) => setTimeout(r, 10));
  }
}

afterEach(async () => {
  for (const bridge of opened.splice(0)) bridge.close();
  for (const host of hosts.splice(0)) await host.close();
});

describe('browser-mode bridge', () => {
  it('says hello with the secret first, then invokes by id and receives the result', async () => {
    const host = await startHost();
    hosts.push(host);
    const bridge = connect(host.url);
    const outcome = await bridge.invoke('station.status', {});
    expect(host.frames[0]).toEqual({ type: 'hello', secret });
    expect(host.frames[1]).toMatchObject({ type: 'invoke', name: 'station.status', input: {} });
    expect(outcome).toEqual({ ok: true, value: { echoed: 'station.status' } });
    expect(bridge.state).toBe('ready');
  });

  it('matches results to calls by id when they come back out of order', async () => {
    const host = await startHost();
    hosts.push(host);
    const held: { id: number; name: string }[] = [];
    host.answer = (frame) => {
      held.push(frame);
      return undefined;
    };
    const bridge = connect(host.url);
    const first = bridge.invoke('settings.get', {});
    const second = bridge.invoke('readers.state', {});
    await waitFor(() => held.length === 2);
    const socket = host.sockets[0] as ServerSocket;
    for (const frame of [...held].reverse()) socket.send(JSON.stringify({ type: 'result', id: frame.id, outcome: { ok: true, value: { name: frame.name } } }));
    expect(await first).toEqual({ ok: true, value: { name: 'settings.get' } });
    expect(await second).toEqual({ ok: true, value: { name: 'readers.state' } });
  });

  it('hands pushed events to every subscriber until it unsubscribes', async () => {
    const host = await startHost();
    hosts.push(host);
    const bridge = connect(host.url);
    await bridge.invoke('station.status', {});
    const seen: StationEvent[] = [];
    const unsubscribe = bridge.subscribe((event) => seen.push(event));
    const event = { type: 'station.unlocked', at: '2025-06-12T09:41:00.000Z' };
    (host.sockets[0] as ServerSocket).send(JSON.stringify({ type: 'event', event }));
    await waitFor(() => seen.length === 1);
    expect(seen[0]).toEqual(event);
    unsubscribe();
    (host.sockets[0] as ServerSocket).send(JSON.stringify({ type: 'event', event }));
    await new Promise((r) => setTimeout(r, 50));
    expect(seen).toHaveLength(1);
  });

  it('stops for good when the host refuses the secret (4401), answering calls with an error', async () => {
    const host = await startHost();
    hosts.push(host);
    const bridge = connect(host.url, 'wrong-secret');
    const outcome = await bridge.invoke('station.status', {});
    expect(outcome.ok).toBe(false);
    expect(bridge.state).toBe('refused');
    await new Promise((r) => setTimeout(r, 150));
    expect(host.sockets).toHaveLength(1); // no reconnect after a refusal
  });

  it('answers a call that was on the wire when the line dropped with an error, never re-sending it, and reconnects', async () => {
    const host = await startHost();
    hosts.push(host);
    host.answer = () => undefined; // the host never answers: the call is in flight when the line drops
    const bridge = connect(host.url);
    const states: string[] = [];
    bridge.onChange((state) => states.push(state));
    const inFlight = bridge.invoke('consent.sendSms', { workflowId: 'wf_abcdef12' });
    await waitFor(() => host.frames.some((f) => (f as { type: string }).type === 'invoke'));
    (host.sockets[0] as ServerSocket).terminate();
    const outcome = await inFlight;
    expect(outcome.ok).toBe(false);
    expect(outcome.ok ? null : outcome.error.retryable).toBe(false);
    await waitFor(() => bridge.state === 'ready' && host.sockets.length === 2);
    expect(states).toEqual(['ready', 'reconnecting', 'ready']);
    const sends = host.frames.filter((f) => (f as { name?: string }).name === 'consent.sendSms');
    expect(sends).toHaveLength(1);
  });

  it('holds calls made while reconnecting and sends them once the host is ready again', async () => {
    const host = await startHost();
    hosts.push(host);
    const bridge = connect(host.url);
    await bridge.invoke('station.status', {});
    (host.sockets[0] as ServerSocket).terminate();
    await waitFor(() => bridge.state === 'reconnecting');
    const later = bridge.invoke('workflow.list', {});
    expect(await later).toEqual({ ok: true, value: { echoed: 'workflow.list' } });
    const helloCount = host.frames.filter((f) => (f as { type: string }).type === 'hello').length;
    expect(helloCount).toBe(2);
  });
});
