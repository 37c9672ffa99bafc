// The renderer's Content-Security-Policy in browser mode: the Electron shell's policy, plus the
// loopback WebSocket to this host, plus frame-src limited to the allowed authorization-link
// origins from settings (the renderer shows the link in a sandboxed iframe here).
// test/integration/browser-host/browser-host.test.ts holds it to electron/main/csp.ts, which this
// folder may not import.
import { origin } from '../contract';

/**
 * The allowlist entries that may go into frame-src: each a bare origin with a plain host by the
 * contract's own rule (https, or http on the loopback for the training sandbox), so no entry can
 * smuggle a space, a semicolon or a wildcard into the policy even if settings were written
 * around the contract.
 */
function frameSources(entries: readonly string[]): string[] {
  return [...new Set(entries.filter((entry) => origin.safeParse(entry).success))];
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
