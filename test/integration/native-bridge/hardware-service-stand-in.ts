// A stand-in for the exchange's hardware service (the Windows service on localhost:18065): GET
// /status and the /ws/devices WebSocket, over http or https (self-signed), on a free port. Tests
// change its status and push device events the way a plugged or pulled scanner would.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

const TLS_DIR = new URL('../../fixtures/tls/', import.meta.url);

export interface StandInStatus {
  workstationID: string;
  devices: { deviceId: string; status: string; type: string }[];
  card_readers: { deviceId: string; status: string; type: string }[];
  isAuthed: boolean;
  version: string;
}

export const SCANNER = { deviceId: 'U4500-0042', status: 'connected', type: 'FINGERPRINT' };

export function readyStatus(): StandInStatus {
  return { workstationID: 'WS-KNH-017', devices: [SCANNER], card_readers: [], isAuthed: true, version: '2.3.1' };
}

export interface StandIn {
  readonly baseUrl: string;
  readonly port: number;
  status: StandInStatus;
  /** When set, GET /status never answers (a hung service). */
  hang: boolean;
  statusRequests: number;
  /** Changes the status and tells every WebSocket client, like a device event. */
  deviceEvent(change: (status: StandInStatus) => void): void;
  readonly socketCount: () => number;
  stop(): Promise<void>;
}

export async function startStandIn(options: { tls?: boolean; port?: number } = {}): Promise<StandIn> {
  const sockets = new Set<WebSocket>();
  const handler: http.RequestListener = (request, response) => {
    if (request.url === '/status' && request.method === 'GET') {
      standIn.statusRequests++;
      if (standIn.hang) return;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(standIn.status));
      return;
    }
    response.writeHead(404).end();
  };
  const server = options.tls
    ? https.createServer({ cert: readFileSync(new URL('localhost.crt', TLS_DIR)), key: readFileSync(new URL('localhost.key', TLS_DIR)) }, handler)
    : http.createServer(handler);
  const wss = new WebSocketServer({ server, path: '/ws/devices' });
  wss.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const standIn: StandIn = {
    baseUrl: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    status: readyStatus(),
    hang: false,
    statusRequests: 0,
    deviceEvent(change) {
      change(standIn.status);
      const event = JSON.stringify({ event: 'devices', devices: standIn.status.devices });
      for (const socket of sockets) socket.send(event);
    },
    socketCount: () => sockets.size,
    async stop() {
      for (const socket of sockets) socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return standIn;
}

/** A port on 127.0.0.1 where nothing listens (bound, read, released). */
export async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
