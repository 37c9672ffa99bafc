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
// The allowlisted origins are held to the same rule when they are names: a payer's name that came to
// resolve to this machine reaches the device service's port and nothing else. Addresses are compared
// as addresses, not strings: the URL parser writes [::ffff:127.0.0.1] as [::ffff:7f00:1], which a
// pattern over dotted quads missed (it reached any loopback port).
import { BlockList, isIP } from 'node:net';
import type { ShellLog, WebRequestApi } from './electron-api';
import { describe } from './navigation';
import { isLoopbackHost, originOf } from './origins';

export type LinkRequestVerdict = { allowed: true } | { allowed: false; reason: 'loopback port' | 'private network' | 'unresolved name' };

/** The addresses a host name leads to, as the link session's resolver answers (session.resolveHost). */
export type ResolveHost = (host: string) => Promise<readonly string[]>;

/** Schemes that reach the network; anything else (data:, blob:, about:) goes nowhere to judge. */
const NETWORK_SCHEMES: ReadonlySet<string> = new Set(['http:', 'https:', 'ws:', 'wss:']);

/**
 * Whether a request of the link's page may go out: the device service's ports on this machine,
 * whatever name leads there; the allowlisted origins unless their name leads to another port here;
 * public addresses. No other loopback port, no private or link-local address, no name that does not
 * resolve.
 */
export async function judgeLinkRequest(url: string, allowedOrigins: ReadonlySet<string>, deviceServicePorts: readonly number[], resolveHost: ResolveHost): Promise<LinkRequestVerdict> {
  if (!URL.canParse(url)) return { allowed: true };
  const parsed = new URL(url);
  if (!NETWORK_SCHEMES.has(parsed.protocol)) return { allowed: true };
  const origin = originOf(url);
  const allowlisted = origin !== null && allowedOrigins.has(origin);
  const host = parsed.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  const port = Number(parsed.port || (parsed.protocol === 'https:' || parsed.protocol === 'wss:' ? 443 : 80));
  // An address, or a name Chromium itself answers with the loopback (localhost), is judged as it is
  // written; any other name by the addresses it resolves to. An allowlisted origin written so (the
  // training sandbox on 127.0.0.1) is the administrator's own word for where it is.
  const spelledAsAddress = isIP(host) !== 0 || isLoopbackHost(host);
  if (allowlisted && spelledAsAddress) return { allowed: true };
  let addresses: readonly string[];
  if (spelledAsAddress) addresses = [host];
  else {
    try {
      addresses = await resolveHost(host);
    } catch {
      addresses = [];
    }
    if (addresses.length === 0) return { allowed: false, reason: 'unresolved name' };
  }
  if (addresses.some(isThisMachine)) {
    return deviceServicePorts.includes(port) ? { allowed: true } : { allowed: false, reason: 'loopback port' };
  }
  // A payer reached over a private network (a facility's own DNS) is the administrator's choice.
  if (!allowlisted && addresses.some((address) => isPrivateHost(address.toLowerCase()))) return { allowed: false, reason: 'private network' };
  return { allowed: true };
}

/** This machine: 127.0.0.0/8 and ::1 in any form (a BlockList's IPv4 rules also match the IPv4-mapped ::ffff:7f00:1). */
const THIS_MACHINE = new BlockList();
THIS_MACHINE.addSubnet('127.0.0.0', 8, 'ipv4');
THIS_MACHINE.addAddress('::1', 'ipv6');

/**
 * Not the public internet: "this network" (0.0.0.0/8, which reaches this machine on some systems),
 * RFC 1918, carrier-grade NAT, link-local; IPv6 unspecified and IPv4-compatible (::/96), unique-local
 * and link-local — each in its IPv4-mapped form too.
 */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.168.0.0', 16]] as const) NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [['::', 96], ['fc00::', 7], ['fe80::', 10]] as const) NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');

function isThisMachine(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return isLoopbackHost(address);
  return THIS_MACHINE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** An address off the public internet (see NOT_PUBLIC), or an mDNS name. */
export function isPrivateHost(host: string): boolean {
  if (host.endsWith('.local') || host === 'local') return true;
  const family = isIP(host);
  return family !== 0 && NOT_PUBLIC.check(host, family === 4 ? 'ipv4' : 'ipv6');
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
