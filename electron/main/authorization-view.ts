// The payer's authorization link, shown by the shell in its own WebContentsView laid over the area
// the renderer reserves (contract command authorizationView.setArea). The renderer knows the link by
// its handle only: its URL, embed token included, comes from the core (station.authorizationLink)
// and stays in the main process. Each link gets an in-memory session (a partition without
// 'persist:') that holds nothing of an earlier patient's authorization: Electron never frees a
// partition's session, so a closed link's session is wiped (storage, cache, HTTP auth, connections)
// and kept for the next link instead of a new one being made per link. The view may navigate only
// within the payer allowlist, may open no window, gets every permission denied except the loopback
// one for an allowlisted origin, its requests to other loopback ports and private addresses are
// cancelled (link-requests.ts), and it is closed as soon as the workflow it belongs to no longer
// shows the link (verified, cancelled, expired) or the station locks.
import { randomUUID } from 'node:crypto';
import { authorizationLink, makeError } from '../contract';
import type { Outcome, screenArea } from '../contract';
import type { z } from 'zod';
import type { LinkSessionApi, LinkViewApi, ShellLog } from './electron-api';
import type { NavigationPolicy } from './navigation';
import { describe } from './navigation';
import { isAllowedUrl } from './origins';
import { addressesOf, guardLinkRequests } from './link-requests';
import { applyPermissionPolicy } from './permissions';

type Area = z.output<typeof screenArea>;
interface KnownLink {
  workflowId: string | null;
}

export interface AuthorizationViewDeps<S extends LinkSessionApi, V extends LinkViewApi> {
  /** session.fromPartition(partition): the view names a fresh one per link (linkPartition). */
  createSession(partition: string): S;
  /** new WebContentsView({ webPreferences: linkWebPreferences(session) }) */
  createView(session: S): V;
  /** Lays the view over the station window (contentView.addChildView) and takes it off again. */
  attach(view: V): void;
  detach(view: V): void;
  /** The station window's zoom: the renderer measures in CSS pixels, views are placed in DIPs. */
  zoomFactor(): number;
  /** The payer origins from settings (allowedLinkOrigins). */
  allowedOrigins(): ReadonlySet<string>;
  /** The link's URL from the core (station.authorizationLink), or null when it no longer awaits a fingerprint. */
  linkUrl(handle: string): string | null;
  /** The ports the device service answers on: the only loopback ports the page may reach. */
  deviceServicePorts(): readonly number[];
  navigation: NavigationPolicy;
  log: ShellLog;
}

interface Shown<S, V> {
  handle: string;
  session: S;
  view: V;
  area: Area;
  restarts: number;
}

export class AuthorizationView<S extends LinkSessionApi, V extends LinkViewApi> {
  readonly #deps: AuthorizationViewDeps<S, V>;
  readonly #links = new Map<string, KnownLink>();
  #shown: Shown<S, V> | null = null;
  /** Wiped sessions waiting for the next link. */
  readonly #idleSessions: S[] = [];
  #sessionsMade = 0;

  constructor(deps: AuthorizationViewDeps<S, V>) {
    this.#deps = deps;
  }

  /** The handle of the link on screen, if any. */
  get shownHandle(): string | null {
    return this.#shown?.handle ?? null;
  }

  /** How many link sessions were ever made: bounded by the links open at once, not by the links shown. */
  get sessionsMade(): number {
    return this.#sessionsMade;
  }

  /**
   * Learns the links from everything the core answers or emits (workflow views carry them), and
   * forgets — closing it if shown — a link its workflow no longer awaits a fingerprint on.
   */
  learn(value: unknown): void {
    const handlesOf = new Map<string, Set<string>>();
    const handles = (workflowId: string) => {
      let set = handlesOf.get(workflowId);
      if (set === undefined) handlesOf.set(workflowId, (set = new Set()));
      return set;
    };
    collectLinks(
      value,
      null,
      (link, workflowId) => {
        this.#links.set(link.handle, { workflowId });
        if (workflowId !== null) handles(workflowId).add(link.handle);
      },
      handles,
    );
    for (const [handle, link] of this.#links) {
      if (link.workflowId === null) continue;
      const current = handlesOf.get(link.workflowId);
      if (current !== undefined && !current.has(handle)) this.#forget(handle);
    }
  }

  /** authorizationView.setArea: shows the link over the area, moves it, or (area null) closes it. */
  setArea(input: { handle: string; area: Area | null }): Outcome<{ shownBy: 'shell' }> {
    const { handle, area } = input;
    if (area === null) {
      if (this.#shown?.handle === handle) this.#close();
      return { ok: true, value: { shownBy: 'shell' } };
    }
    const url = this.#links.has(handle) ? this.#deps.linkUrl(handle) : null;
    if (url === null) {
      return { ok: false, error: makeError('NOT_FOUND', 'No authorization link with this handle is open.', { field: 'handle' }) };
    }
    if (!isAllowedUrl(url, this.#deps.allowedOrigins())) {
      this.#deps.log.warn({ target: describe(url) }, 'authorization link refused: origin not on the allowlist');
      return {
        ok: false,
        error: makeError('VALIDATION', "The authorization link's origin is not on the allowed link origins of the settings.", { field: 'handle' }),
      };
    }
    if (this.#shown?.handle === handle) {
      this.#shown.area = area;
      this.#shown.view.setBounds(this.#bounds(area));
      return { ok: true, value: { shownBy: 'shell' } };
    }
    this.#close();
    this.#open(handle, url, area, 0);
    return { ok: true, value: { shownBy: 'shell' } };
  }

  /** Takes the link off the screen and drops its session (idle lock, renderer gone, quit). */
  closeAll(): void {
    this.#close();
  }

  #open(handle: string, url: string, area: Area, restarts: number): void {
    const deps = this.#deps;
    const session = this.#idleSessions.pop() ?? this.#newSession();
    const view = deps.createView(session);
    const contents = view.webContents;
    deps.navigation.allow(contents.id, (target) => isAllowedUrl(target, deps.allowedOrigins()));
    const shown: Shown<S, V> = { handle, session, view, area, restarts };
    contents.on('render-process-gone', (_event, details) => {
      if (this.#shown !== shown) return;
      deps.log.warn({ reason: details.reason, exitCode: details.exitCode }, 'authorization view renderer gone');
      this.#close();
      // Once more with a fresh session; a page that keeps crashing is left closed for the nurse to retry.
      if (shown.restarts < 1 && this.#links.has(handle)) this.#open(handle, url, shown.area, shown.restarts + 1);
    });
    view.setBounds(this.#bounds(area));
    deps.attach(view);
    this.#shown = shown;
    contents.loadURL(url).catch((error: unknown) => {
      deps.log.warn({ target: describe(url), error: error instanceof Error ? error.name : 'unknown' }, 'authorization link failed to load');
    });
  }

  #close(): void {
    const shown = this.#shown;
    if (shown === null) return;
    this.#shown = null;
    const deps = this.#deps;
    deps.detach(shown.view);
    deps.navigation.forget(shown.view.webContents.id);
    if (!shown.view.webContents.isDestroyed()) shown.view.webContents.close();
    void this.#release(shown.session);
  }

  #newSession(): S {
    const deps = this.#deps;
    const session = deps.createSession(linkPartition());
    this.#sessionsMade += 1;
    // Set once per session: both read the allowlist and the ports at the moment they decide.
    applyPermissionPolicy(session, { label: 'authorization-link', localNetworkOrigins: () => deps.allowedOrigins(), log: deps.log });
    guardLinkRequests(session.webRequest, {
      allowedOrigins: () => deps.allowedOrigins(),
      deviceServicePorts: () => deps.deviceServicePorts(),
      resolveHost: addressesOf((host) => session.resolveHost(host)),
      log: deps.log,
    });
    return session;
  }

  /** Wipes a closed link's session; only a session wiped whole serves another link. */
  async #release(session: S): Promise<void> {
    try {
      await session.closeAllConnections();
      await Promise.all([session.clearStorageData(), session.clearCache(), session.clearAuthCache()]);
      this.#idleSessions.push(session);
    } catch (error) {
      this.#deps.log.warn({ error: error instanceof Error ? error.name : 'unknown' }, 'a link session could not be wiped: it is not used again');
    }
  }

  #forget(handle: string): void {
    this.#links.delete(handle);
    if (this.#shown?.handle === handle) this.#close();
  }

  #bounds(area: Area): { x: number; y: number; width: number; height: number } {
    const zoom = this.#deps.zoomFactor();
    return {
      x: Math.round(area.x * zoom),
      y: Math.round(area.y * zoom),
      width: Math.max(1, Math.round(area.width * zoom)),
      height: Math.max(1, Math.round(area.height * zoom)),
    };
  }
}

/** A partition name no session had before, without 'persist:': Electron keeps such a session in memory only. */
function linkPartition(): string {
  return `idhini-link-${randomUUID()}`;
}

type Link = z.output<typeof authorizationLink>;

/**
 * Walks a contract value (already checked against the contract, so bounded and plain) and reports
 * each open authorization link with the workflow it sits in, and each workflow view met on the way.
 */
function collectLinks(
  value: unknown,
  workflowId: string | null,
  onLink: (link: Link, workflowId: string | null) => void,
  onWorkflow: (workflowId: string) => void,
  depth = 0,
): void {
  if (depth > 12 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) collectLinks(item, workflowId, onLink, onWorkflow, depth + 1);
    return;
  }
  const record = value as Record<string, unknown>;
  let context = workflowId;
  if (typeof record.workflowId === 'string' && typeof record.kind === 'string' && typeof record.state === 'string') {
    context = record.workflowId;
    onWorkflow(context);
  }
  const link = authorizationLink.safeParse(record);
  if (link.success) {
    onLink(link.data, context);
    return;
  }
  // A verification step keeps its link after it is verified, cancelled or expired: only one still
  // awaiting the fingerprint counts as open.
  if ('fingerprint' in record && typeof record.stage === 'string' && record.stage !== 'awaiting-fingerprint') return;
  for (const child of Object.values(record)) collectLinks(child, context, onLink, onWorkflow, depth + 1);
}
