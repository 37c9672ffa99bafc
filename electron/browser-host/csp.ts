// The renderer's Content-Security-Policy in browser mode: the Electron shell's policy, plus the
// loopback WebSocket to this host, plus frame-src limited to the allowed authorization-link
// origins from settings (the renderer shows the link in a sandboxed iframe here).

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The allowlist entries that may go into frame-src: https origins, and http on the loopback (the
 * training sandbox). Each is rebuilt from its parsed parts, so no entry can smuggle a space, a
 * semicolon or a wildcard into the policy.
 */
export function frameSources(entries: readonly string[]): string[] {
  const sources = new Set<string>();
  for (const entry of entries) {
    if (!URL.canParse(entry)) continue;
    const url = new URL(entry);
    if (url.username !== '' || url.password !== '' || url.pathname !== '/' || url.search !== '' || url.hash !== '') continue;
    if (url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))) sources.add(url.origin);
  }
  return [...sources];
}

export function browserCsp(options: { hostOrigin: string; frameOrigins: readonly string[] }): string {
  const websocket = options.hostOrigin.replace(/^http/, 'ws');
  const frames = frameSources(options.frameOrigins);
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ${websocket}`,
    "manifest-src 'self'",
    `frame-src ${frames.length > 0 ? frames.join(' ') : "'none'"}`,
    "worker-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const securityHeaders: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};
