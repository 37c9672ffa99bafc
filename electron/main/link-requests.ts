// The authorization link's session lets its page reach this machine (the loopback permission of
// Local Network Access), because the payer's page talks to the device service on localhost:18065.
// A permission is per origin, not per port, and not every request asks for it: so every request of
// the link's session is judged here as well (session.webRequest.onBeforeRequest), and one to another
// loopback port or to a private address of the hospital network is cancelled. The page keeps its own
// origins (the allowlist: in training the sandbox on loopback) and the device service's port.
// A host name that only DNS turns into a private address cannot be told apart here; Chromium asks the
// `local-network` permission for it, which the link's session denies (permissions.ts).
import { isIP } from 'node:net';
import type { ShellLog, WebRequestApi } from './electron-api';
import { describe } from './navigation';
import { isLoopbackHost, originOf } from './origins';

export type LinkRequestVerdict = { allowed: true } | { allowed: false; reason: 'loopback port' | 'private network' };

/**
 * Whether a request of the link's page may go out: anything on the allowlisted origins and the
 * device service's ports on loopback; no other loopback address, no private or link-local one.
 */
export function judgeLinkRequest(url: string, allowedOrigins: ReadonlySet<string>, deviceServicePorts: readonly number[]): LinkRequestVerdict {
  if (!URL.canParse(url)) return { allowed: true };
  const parsed = new URL(url);
  const origin = originOf(url);
  if (origin !== null && allowedOrigins.has(origin)) return { allowed: true };
  const host = parsed.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (isLoopbackHost(host)) {
    const port = Number(parsed.port || (parsed.protocol === 'https:' || parsed.protocol === 'wss:' ? 443 : 80));
    return deviceServicePorts.includes(port) ? { allowed: true } : { allowed: false, reason: 'loopback port' };
  }
  if (isPrivateHost(host)) return { allowed: false, reason: 'private network' };
  return { allowed: true };
}

/** RFC 1918, link-local, carrier-grade NAT, "this network", IPv6 unique-local and link-local, mDNS names. */
export function isPrivateHost(host: string): boolean {
  if (host.endsWith('.local') || host === 'local') return true;
  if (isIP(host) === 4) return isPrivateV4(host);
  if (isIP(host) === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
    if (mapped !== null) return isPrivateV4(mapped[1]!) || isLoopbackHost(mapped[1]!);
    const first = Number.parseInt(host.split(':')[0] || '0', 16);
    return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80 || host === '::';
  }
  return false;
}

function isPrivateV4(host: string): boolean {
  const [a = 0, b = 0] = host.split('.').map(Number);
  return a === 10 || a === 0 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254) || (a === 100 && b >= 64 && b <= 127);
}

export interface LinkRequestGuardOptions {
  /** The payer allowlist of settings, read at each request. */
  allowedOrigins(): ReadonlySet<string>;
  /** The ports the device service answers on (the exchange's hardware service's 18065, or the station's own service's). */
  deviceServicePorts(): readonly number[];
  log: ShellLog;
}

/** Installs the guard on a link session's requests (replacing any earlier one on a reused session). */
export function guardLinkRequests(webRequest: WebRequestApi, options: LinkRequestGuardOptions): void {
  webRequest.onBeforeRequest({ urls: ['<all_urls>'] }, (details, callback) => {
    const verdict = judgeLinkRequest(details.url, options.allowedOrigins(), options.deviceServicePorts());
    if (!verdict.allowed) options.log.warn({ target: describe(details.url), reason: verdict.reason, resource: details.resourceType }, 'authorization link request cancelled');
    callback({ cancel: !verdict.allowed });
  });
}
