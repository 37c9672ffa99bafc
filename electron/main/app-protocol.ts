// The app:// protocol: the built renderer served from one folder, never from file://. The scheme is
// registered as privileged before 'ready' (standard and secure, so the renderer has a real origin,
// web storage and fetch) but without bypassCSP: every response carries the renderer's CSP.
// A request is answered only for a file that really lies inside the folder: '..', encoded slashes
// and backslashes, NUL, drive letters and symlinks leading out are all refused.
import { readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { CustomScheme } from 'electron';
import { rendererSecurityHeaders } from './csp';
import type { ShellLog } from './electron-api';
import { APP_HOST, APP_SCHEME } from './origins';

/** For protocol.registerSchemesAsPrivileged, which must run before the app is ready. */
export const appScheme: CustomScheme = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true, bypassCSP: false, corsEnabled: false, stream: false },
};

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

export type AppPath = { ok: true; relative: string } | { ok: false; status: 400 | 403; reason: string };

/**
 * The file a request URL names, relative to the renderer folder, or why it is refused. Pure, so the
 * refusals are tested one by one.
 */
export function resolveAppPath(url: string): AppPath {
  if (!URL.canParse(url)) return { ok: false, status: 400, reason: 'unparseable URL' };
  const parsed = new URL(url);
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) return { ok: false, status: 403, reason: 'foreign host' };
  if (parsed.username !== '' || parsed.password !== '') return { ok: false, status: 403, reason: 'credentials in URL' };
  const segments: string[] = [];
  for (const raw of parsed.pathname.split('/')) {
    if (raw === '') continue;
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return { ok: false, status: 400, reason: 'malformed escape' };
    }
    if (segment === '.' || segment === '..' || /[/\\\0:]/.test(segment)) return { ok: false, status: 403, reason: 'path traversal' };
    segments.push(segment);
  }
  return { ok: true, relative: segments.length === 0 ? 'index.html' : segments.join('/') };
}

export interface AppProtocolOptions {
  /** The folder of the built renderer (dist/renderer). */
  root: string;
  log: ShellLog;
}

/** The handler for protocol.handle('app', …) on the station window's session. */
export function createAppProtocolHandler(options: AppProtocolOptions): (request: Request) => Promise<Response> {
  let realRoot: Promise<string> | null = null;
  const root = () => (realRoot ??= realpath(options.root));

  const refuse = (status: number, reason: string, url: string) => {
    options.log.warn({ status, reason, path: safePath(url) }, 'app:// request refused');
    return new Response(null, { status, headers: rendererSecurityHeaders });
  };

  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return refuse(405, 'method', request.url);
    const resolved = resolveAppPath(request.url);
    if (!resolved.ok) return refuse(resolved.status, resolved.reason, request.url);
    const base = await root();
    const candidate = path.join(base, ...resolved.relative.split('/'));
    let file: string;
    try {
      file = await realpath(candidate);
      if (!(await stat(file)).isFile()) return refuse(404, 'not a file', request.url);
    } catch {
      return refuse(404, 'not found', request.url);
    }
    // A symlink inside the folder may point anywhere: judge where it really leads.
    const relative = path.relative(base, file);
    if (relative === '' || relative.split(path.sep)[0] === '..' || path.isAbsolute(relative)) return refuse(403, 'outside the renderer folder', request.url);
    const body = request.method === 'HEAD' ? null : await readFile(file);
    const type = CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
    const cache = resolved.relative === 'index.html' ? 'no-store' : 'no-cache';
    return new Response(body, { status: 200, headers: { ...rendererSecurityHeaders, 'content-type': type, 'cache-control': cache } });
  };
}

/** The path of a request for the log, cut short; the renderer's URLs carry nothing secret. */
function safePath(url: string): string {
  return URL.canParse(url) ? new URL(url).pathname.slice(0, 120) : '(unparseable)';
}
