// The authorization link's session lets its page reach this machine (the loopback permission of
// Local Network Access), because the payer's page talks to the device service on localhost:18065.
// A permission is per origin, not per port, and not every request asks for it: so every request of
// the link's session is judged here as well (session.webRequest.onBeforeRequest), and one to another
// loopback port or to a private address of the hospital network is cancelled. The page keeps its own
// origins (the allowlist: in training the sandbox on loopback) and the device service's port.
// A host is judged by where it leads, not by how it is spelled: a name is resolved through the link
// session's own resolver (session.resolveHost: the same DNS, host cache and resolver rules the
// request will use), and a name that resolves to this machine is held to the device service's port,
// one that resolves into a private range is cancelled, and one that does not resolve is cancelled.
import { isIP } from 'node:net';
import type { ShellLog, WebRequestApi } from './electron-api';
import { describe } from './navigation';
import { isLoopbackHost, originOf } from './origins';

export type LinkRequestVerdict = { allowed: true } | { allowed: false; reason: 'loopback port' | 'private network' | 'unresolved name' };

/** The addresses a host name leads to, as the link session's resolver answers (session.resolveHost). */
export type ResolveHost = (host: string) => Promise<readonly string[]>;

/** Schemes that reach the network; anything else (data:, blob:, about:) goes nowhere to judge. */
const NETWORK_SCHEMES: ReadonlySet<string> = new Set(['http:', 'https:', 'ws:', 'wss:']);

/**
 * Whether a request of the link's page may go out: anything on the allowlisted origins, and the
 * device service's ports on this machine, whatever name leads there; no other loopback port, no
 * private or link-local address, no name that does not resolve.
 */
export async function judgeLinkRequest(url: string, allowedOrigins: ReadonlySet<string>, deviceServicePorts: readonly number[], resolveHost: ResolveHost): Promise<LinkRequestVerdict> {
  if (!URL.canParse(url)) return { allowed: true };
  const parsed = new URL(url);
  if (!NETWORK_SCHEMES.has(parsed.protocol)) return { allowed: true };
  const origin = originOf(url);
  if (origin !== null && allowedOrigins.has(origin)) return { allowed: true };
  const host = parsed.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  const port = Number(parsed.port || (parsed.protocol === 'https:' || parsed.protocol === 'wss:' ? 443 : 80));
  // An address, or a name Chromium itself answers with the loopback (localhost), is judged as it is
  // written; any other name by the addresses it resolves to.
  let addresses: readonly string[];
  if (isIP(host) !== 0 || isLoopbackHost(host)) addresses = [host];
  else {
    try {
      addresses = await resolveHost(host);
    } catch {
      addresses = [];
    }
    if (addresses.length === 0) return { allowed: false, reason: 'unresolved name' };
  }
  if (addresses.some((address) => isLoopbackHost(address))) {
    return deviceServicePorts.includes(port) ? { allowed: true } : { allowed: false, reason: 'loopback port' };
  }
  if (addresses.some((address) => isPrivateHost(address.toLowerCase()))) return { allowed: false, reason: 'private network' };
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
  /** The link session's own resolver. */
  resolveHost: ResolveHost;
  log: ShellLog;
}

/** Installs the guard on a link session's requests (replacing any earlier one on a reused session). */
export function guardLinkRequests(webRequest: WebRequestApi, options: LinkRequestGuardOptions): void {
  webRequest.onBeforeRequest({ urls: ['<all_urls>'] }, (details, callback) => {
    // The request waits for the verdict; a verdict that cannot be reached cancels it.
    judgeLinkRequest(details.url, options.allowedOrigins(), options.deviceServicePorts(), options.resolveHost).then(
      (verdict) => {
        if (!verdict.allowed) options.log.warn({ target: describe(details.url), reason: verdict.reason, resource: details.resourceType }, 'authorization link request cancelled');
        callback({ cancel: !verdict.allowed });
      },
      () => callback({ cancel: true }),
    );
  });
}

/** session.resolveHost as the guard asks it: the addresses only. */
export function addressesOf(resolve: (host: string) => Promise<{ endpoints: readonly { address: string }[] }>): ResolveHost {
  return async (host) => (await resolve(host)).endpoints.map((endpoint) => endpoint.address);
}
