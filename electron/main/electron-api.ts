// The slices of the Electron API each service of the shell uses. Services take these through their
// constructor (Signal-Desktop style): index.ts passes the real Electron objects — tsc checks there
// that they fit — and test/unit/shell passes small fakes. Signatures are borrowed from electron.d.ts
// so a fake cannot drift from the real API.
import type {
  CallbackResponse,
  DownloadItem,
  Event,
  HandlerDetails,
  IpcMainInvokeEvent,
  OnBeforeRequestListenerDetails,
  RenderProcessGoneDetails,
  Session,
  WebContents,
  WebContentsWillFrameNavigateEventParams,
  WebContentsWillNavigateEventParams,
  WebContentsWillRedirectEventParams,
  WebPreferences,
  WebRequestFilter,
  WindowOpenHandlerResponse,
} from 'electron';

/** What the permission policy sets on a session. */
export interface SessionApi {
  setPermissionRequestHandler: Session['setPermissionRequestHandler'];
  setPermissionCheckHandler: Session['setPermissionCheckHandler'];
  setDevicePermissionHandler: Session['setDevicePermissionHandler'];
  on(event: 'will-download', listener: (event: Event, item: DownloadItem, webContents: WebContents) => void): unknown;
}

/** What the navigation guard needs of a webContents. */
export interface GuardedContentsApi {
  readonly id: number;
  on(event: 'will-navigate', listener: (details: Event<WebContentsWillNavigateEventParams>) => void): unknown;
  on(event: 'will-frame-navigate', listener: (details: Event<WebContentsWillFrameNavigateEventParams>) => void): unknown;
  on(event: 'will-redirect', listener: (details: Event<WebContentsWillRedirectEventParams>) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: Event, webPreferences: WebPreferences, params: Record<string, string>) => void): unknown;
  setWindowOpenHandler(handler: (details: HandlerDetails) => WindowOpenHandlerResponse): void;
}

/** The parts of an IPC invoke event the sender check reads. */
export type InvokeEvent = Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>;

export interface IpcMainApi {
  handle(channel: string, listener: (event: InvokeEvent, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

/** The station window's webContents, as the IPC bridge, the recovery and the idle lock use it. */
export interface StationContentsApi {
  readonly id: number;
  send(channel: string, ...args: unknown[]): void;
  isDestroyed(): boolean;
  loadURL(url: string): Promise<void>;
  getZoomFactor(): number;
  on(event: 'render-process-gone', listener: (event: Event, details: RenderProcessGoneDetails) => void): unknown;
}

/** The session the station window renders in, cleared when the idle lock engages. */
export interface StationSessionApi {
  clearStorageData: Session['clearStorageData'];
  clearCache: Session['clearCache'];
}

/** A WebContentsView as the authorization view uses it. */
export interface LinkViewApi {
  readonly webContents: GuardedContentsApi & {
    loadURL(url: string): Promise<void>;
    close(): void;
    isDestroyed(): boolean;
    on(event: 'render-process-gone', listener: (event: Event, details: RenderProcessGoneDetails) => void): unknown;
  };
  setBounds(bounds: { x: number; y: number; width: number; height: number }): void;
}

/** The request hook the link session's guard sets (link-requests.ts). */
export interface WebRequestApi {
  onBeforeRequest(filter: WebRequestFilter, listener: (details: OnBeforeRequestListenerDetails, callback: (response: CallbackResponse) => void) => void): void;
}

/**
 * An in-memory session for authorization links: one at a time, wiped before it serves the next
 * link (authorization-view.ts keeps a small pool, since Electron never frees a partition's session).
 */
export interface LinkSessionApi extends SessionApi {
  readonly webRequest: WebRequestApi;
  /** The session's own resolver: the link request guard judges a name by the addresses it leads to. */
  resolveHost: Session['resolveHost'];
  clearStorageData: Session['clearStorageData'];
  clearCache: Session['clearCache'];
  clearAuthCache: Session['clearAuthCache'];
  closeAllConnections: Session['closeAllConnections'];
}

/** What the idle lock reads of powerMonitor. */
export interface PowerMonitorApi {
  getSystemIdleTime(): number;
  on(event: 'lock-screen' | 'suspend', listener: () => void): unknown;
}

/** safeStorage, by its non-deprecated calls plus the Linux backend probe. */
export interface SafeStorageApi {
  isAsyncEncryptionAvailable(): Promise<boolean>;
  encryptStringAsync(plainText: string): Promise<Buffer>;
  decryptStringAsync(encrypted: Buffer): Promise<{ shouldReEncrypt: boolean; result: string }>;
  getSelectedStorageBackend(): 'basic_text' | 'gnome_libsecret' | 'kwallet' | 'kwallet5' | 'kwallet6' | 'unknown';
}

/** pino's call shape, so the shell logs through the station's redacting logger. */
export interface ShellLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}
