// Picks the transport: the Electron preload's window.idhini when present, otherwise the browser
// host's loopback WebSocket with the secret from the launch URL.
import { alwaysReady, preloadBridge } from './electron';
import { keepLaunchSecret, takeLaunchSecret } from './secret';
import type { Connection, StationBridge } from './types';
import { createWebSocketBridge } from './websocket';

export type { Connection, ConnectionState, StationBridge } from './types';

export interface Transport {
  readonly bridge: StationBridge;
  readonly connection: Connection;
  readonly host: 'electron' | 'browser';
}

/** Null when the page was opened without the station's launch link (no preload, no secret). */
export function connectToStation(): Transport | null {
  const fromPreload = (window as { idhini?: StationBridge }).idhini;
  if (fromPreload !== undefined) return { bridge: preloadBridge(fromPreload), connection: alwaysReady, host: 'electron' };
  const credential = takeLaunchSecret(window.location, window.history, window.sessionStorage);
  if (credential === null) return null;
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  const socket = createWebSocketBridge({
    url: `${scheme}://${window.location.host}/bridge`,
    credential,
    keepSecret: (secret) => keepLaunchSecret(window.sessionStorage, secret),
  });
  return { bridge: socket, connection: socket, host: 'browser' };
}
