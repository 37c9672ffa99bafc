// Origin checks for navigation, permissions and IPC senders. Every decision compares a parsed
// origin with an allowlist entry for equality: a string prefix would let
// https://payer.example.com.attacker.net or https://payer.example.com@attacker.net through.

/** The custom scheme the renderer is served from, and its one host. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'idhini';
const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The origin of a URL the shell may ever load, or null for everything else: https anywhere, http
 * only on the loopback (the training sandbox), and the renderer's own app:// origin. URLs carrying
 * credentials (user:pass@) are refused outright, whatever host they name. Node's URL gives custom
 * schemes an opaque origin ('null'), so app:// is rebuilt from its parts.
 */
export function originOf(url: string): string | null {
  if (!URL.canParse(url)) return null;
  const parsed = new URL(url);
  if (parsed.username !== '' || parsed.password !== '') return null;
  switch (parsed.protocol) {
    case 'https:':
      return parsed.origin;
    case 'http:':
      return LOOPBACK_HOSTS.has(parsed.hostname) ? parsed.origin : null;
    case `${APP_SCHEME}:`:
      return parsed.host === APP_HOST && parsed.port === '' ? APP_ORIGIN : null;
    default:
      return null;
  }
}

/** Normalises allowlist entries (settings) the same way, dropping any that is not a plain origin. */
export function normaliseOrigins(entries: readonly string[]): ReadonlySet<string> {
  const origins = new Set<string>();
  for (const entry of entries) {
    const origin = originOf(entry);
    if (origin === null) continue;
    const parsed = new URL(entry);
    if (parsed.pathname === '/' && parsed.search === '' && parsed.hash === '') origins.add(origin);
  }
  return origins;
}

/** Whether the URL's parsed origin is exactly one of the allowed origins. */
export function isAllowedUrl(url: string, allowed: ReadonlySet<string>): boolean {
  const origin = originOf(url);
  return origin !== null && allowed.has(origin);
}

/**
 * Whether a host (brackets already taken off an IPv6 literal) is this machine: 127.0.0.0/8, ::1,
 * localhost and its subdomains, and the IPv4-mapped loopback. The URL parser has already written
 * every IPv4 form (0x7f.1, 2130706433) as four decimal octets.
 */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^(?:::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** Whether the URL belongs to the renderer (app://idhini/...). */
export function isAppUrl(url: string): boolean {
  return originOf(url) === APP_ORIGIN;
}
