// Small fakes of the Electron objects the shell's services take through their constructors. Each
// records what was set on it and lets a test fire the events Electron would fire.
import { EventEmitter } from 'node:events';
import { isIP } from 'node:net';
import type { ShellLog } from '../../../electron/main/electron-api';

/**
 * Hands a fake to a service typed by electron.d.ts. The fakes implement the calls the services make,
 * not Electron's every overload; index.ts is where tsc checks the real objects against the same types.
 */
export function asApi<T>(fake: object): T {
  return fake as T;
}

export interface LogLine {
  level: 'info' | 'warn' | 'error';
  fields: Record<string, unknown>;
  message: string;
}

export function recordingLog(): ShellLog & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at = (level: LogLine['level']) => (fields: Record<string, unknown>, message: string) => void lines.push({ level, fields, message });
  return { lines, info: at('info'), warn: at('warn'), error: at('error') };
}

/** An Electron-style event: preventDefault marks it. */
export function fakeEvent<T extends object>(params: T): T & { preventDefault(): void; defaultPrevented: boolean } {
  const event = {
    ...params,
    defaultPrevented: false,
    preventDefault() {
      event.defaultPrevented = true;
    },
  };
  return event;
}

let nextId = 100;

export class FakeContents extends EventEmitter {
  readonly id = nextId++;
  windowOpenHandler: ((details: { url: string }) => { action: 'allow' | 'deny' }) | null = null;
  loaded: string[] = [];
  sent: { channel: string; args: unknown[] }[] = [];
  closed = false;
  zoom = 1;

  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'allow' | 'deny' }): void {
    this.windowOpenHandler = handler;
  }
  async loadURL(url: string): Promise<void> {
    this.loaded.push(url);
  }
  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args });
  }
  isDestroyed(): boolean {
    return this.closed;
  }
  close(): void {
    this.closed = true;
  }
  getZoomFactor(): number {
    return this.zoom;
  }
  getURL(): string {
    return this.loaded.at(-1) ?? '';
  }

  /** Fires a navigation event the way Electron does; returns whether it was let through. */
  navigate(kind: 'will-navigate' | 'will-frame-navigate' | 'will-redirect', url: string): boolean {
    const event = fakeEvent({ url, isMainFrame: true, isSameDocument: false, frame: null });
    this.emit(kind, event);
    return !event.defaultPrevented;
  }
}

type PermissionRequestHandler = (contents: { getURL(): string }, permission: string, callback: (granted: boolean) => void, details: { requestingUrl: string; isMainFrame: boolean }) => void;
type PermissionCheckHandler = (contents: unknown, permission: string, requestingOrigin: string, details: { embeddingOrigin?: string; isMainFrame: boolean }) => boolean;

type BeforeRequestListener = (details: { url: string; resourceType: string }, callback: (response: { cancel?: boolean }) => void) => void;

/** The names the fake sessions' resolver knows (session.resolveHost); any other name does not resolve. A test may add its own. */
export const fakeDns = new Map<string, string[]>([
  ['cdn.example.net', ['93.184.216.34']],
  ['ekyc.example.com', ['203.0.113.10']],
]);

export class FakeSession extends EventEmitter {
  static created: FakeSession[] = [];
  requestHandler: PermissionRequestHandler | null = null;
  checkHandler: PermissionCheckHandler | null = null;
  deviceHandler: ((details: unknown) => boolean) | null = null;
  beforeRequest: BeforeRequestListener | null = null;
  cleared: unknown[] = [];
  cacheCleared = 0;
  authCacheCleared = 0;
  connectionsClosed = 0;
  readonly webRequest = {
    onBeforeRequest: (filter: { urls: string[] }, listener: BeforeRequestListener) => {
      if (!filter.urls.includes('<all_urls>')) throw new Error('the guard must see every request');
      this.beforeRequest = listener;
    },
  };

  constructor(readonly partition: string) {
    super();
    FakeSession.created.push(this);
  }

  setPermissionRequestHandler(handler: PermissionRequestHandler | null): void {
    this.requestHandler = handler;
  }
  setPermissionCheckHandler(handler: PermissionCheckHandler | null): void {
    this.checkHandler = handler;
  }
  setDevicePermissionHandler(handler: ((details: unknown) => boolean) | null): void {
    this.deviceHandler = handler;
  }
  async clearStorageData(options?: unknown): Promise<void> {
    this.cleared.push(options ?? 'all');
  }
  async clearCache(): Promise<void> {
    this.cacheCleared += 1;
  }
  async clearAuthCache(): Promise<void> {
    this.authCacheCleared += 1;
  }
  async closeAllConnections(): Promise<void> {
    this.connectionsClosed += 1;
  }

  /** Every name resolved through this session. */
  resolved: string[] = [];

  async resolveHost(host: string): Promise<{ endpoints: { address: string; family: 'ipv4' | 'ipv6' }[] }> {
    this.resolved.push(host);
    const addresses = fakeDns.get(host);
    if (addresses === undefined) throw new Error(`net::ERR_NAME_NOT_RESOLVED (${host})`);
    return { endpoints: addresses.map((address) => ({ address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' })) };
  }

  /** Sends a request through the session's request guard; resolves with whether it went out. */
  send(url: string, resourceType = 'xhr'): Promise<boolean> {
    return new Promise((resolve) => {
      if (this.beforeRequest === null) return resolve(true);
      this.beforeRequest({ url, resourceType }, (response) => resolve(response.cancel !== true));
    });
  }

  /** Asks the request handler the way Chromium does; resolves with the decision. */
  request(permission: string, requestingUrl: string): Promise<boolean> {
    return new Promise((resolve) => {
      if (this.requestHandler === null) throw new Error('no request handler');
      this.requestHandler({ getURL: () => requestingUrl }, permission, resolve, { requestingUrl, isMainFrame: true });
    });
  }
  check(permission: string, requestingOrigin: string, embeddingOrigin?: string): boolean {
    if (this.checkHandler === null) throw new Error('no check handler');
    return this.checkHandler(null, permission, requestingOrigin, {
      isMainFrame: embeddingOrigin === undefined,
      ...(embeddingOrigin === undefined ? {} : { embeddingOrigin }),
    });
  }
}

export class FakeView {
  bounds: { x: number; y: number; width: number; height: number } | null = null;
  constructor(
    readonly session: FakeSession,
    readonly webContents: FakeContents = new FakeContents(),
  ) {}
  setBounds(bounds: { x: number; y: number; width: number; height: number }): void {
    this.bounds = bounds;
  }
}

type InvokeListener = (event: unknown, ...args: unknown[]) => unknown;

export class FakeIpcMain {
  readonly handlers = new Map<string, InvokeListener>();
  handle(channel: string, listener: InvokeListener): void {
    if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  /** Calls the handler as Electron would for a frame. */
  async invoke(channel: string, sender: { id: number }, frame: { url: string; parent: object | null } | null, ...args: unknown[]): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (handler === undefined) throw new Error(`no handler for ${channel}`);
    return handler({ sender, senderFrame: frame }, ...args);
  }
}

export class FakePowerMonitor extends EventEmitter {
  idleSeconds = 0;
  getSystemIdleTime(): number {
    return this.idleSeconds;
  }
}

export type Backend = 'basic_text' | 'gnome_libsecret' | 'kwallet' | 'kwallet5' | 'kwallet6' | 'unknown';

/** Reversible "encryption" that never leaves the plain text visible in what it returns. */
export class FakeSafeStorage {
  constructor(
    public backend: Backend = 'gnome_libsecret',
    public available = true,
  ) {}
  async isAsyncEncryptionAvailable(): Promise<boolean> {
    return this.available;
  }
  async encryptStringAsync(plainText: string): Promise<Buffer> {
    return Buffer.from(Buffer.from(plainText, 'utf8').map((byte) => byte ^ 0x5a));
  }
  async decryptStringAsync(encrypted: Buffer): Promise<{ shouldReEncrypt: boolean; result: string }> {
    return { shouldReEncrypt: false, result: Buffer.from(encrypted.map((byte) => byte ^ 0x5a)).toString('utf8') };
  }
  getSelectedStorageBackend(): Backend {
    return this.backend;
  }
}
