// Permission policy for every session: deny everything, in both the request and the check handler
// (Chromium asks the check first and many APIs never get as far as a request), refuse device access
// and downloads. One exception, and only in an authorization link's session: the loopback permission
// of Local Network Access, granted to a page whose origin is on the payer allowlist, because the
// payer's page talks to the workstation's hardware service on localhost:18065 and Chromium gates
// that behind it. Deny-all would silently break the real fingerprint flow. `local-network` (the
// hospital LAN) and `local-network-access` (the older name covering both) stay denied; the link
// session's request guard (link-requests.ts) also cancels every loopback request to another port.
import type { SessionApi, ShellLog } from './electron-api';
import { originOf } from './origins';

/** Local Network Access's permission for the loopback alone (electron.d.ts, setPermissionRequestHandler). */
export const LOOPBACK_PERMISSION = 'loopback-network';
/** Electron 45's Local Network Access names that reach beyond this machine: never granted. */
export const LAN_PERMISSIONS: ReadonlySet<string> = new Set(['local-network', 'local-network-access']);

export interface PermissionPolicyOptions {
  /** Origins whose pages may reach the loopback (the payer allowlist); none for the station's own session. */
  localNetworkOrigins?: () => ReadonlySet<string>;
  log: ShellLog;
  /** Names the session in the log. */
  label: string;
}

/**
 * Whether a permission may be granted. `origins` are the frames involved: the requesting frame's
 * and, for a subframe, the frame embedding it; each must be allowlisted (an allowlisted page
 * cannot lend the grant to a foreign frame, nor a foreign page embed an allowlisted one to get it).
 */
function decidePermission(permission: string, origins: readonly (string | undefined)[], allowed: ReadonlySet<string>): boolean {
  if (permission !== LOOPBACK_PERMISSION) return false;
  const present = origins.filter((o): o is string => o !== undefined && o !== '');
  if (present.length === 0) return false;
  return present.every((candidate) => {
    const origin = originOf(candidate);
    return origin !== null && allowed.has(origin);
  });
}

export function applyPermissionPolicy(session: SessionApi, options: PermissionPolicyOptions): void {
  const { log, label } = options;
  const allowed = (): ReadonlySet<string> => options.localNetworkOrigins?.() ?? new Set<string>();

  session.setPermissionRequestHandler((webContents, permission, callback, details) => {
    const requesting = details.requestingUrl || webContents.getURL();
    const granted = decidePermission(permission, [requesting], allowed());
    log[granted ? 'info' : 'warn']({ session: label, permission, origin: originOf(requesting) ?? '(other)', granted }, 'permission request');
    callback(granted);
  });

  session.setPermissionCheckHandler((_webContents, permission, requestingOrigin, details) => {
    return decidePermission(permission, [requestingOrigin, details.embeddingOrigin], allowed());
  });

  // WebHID, WebUSB and Web Serial: readers are driven by the main side, never by a page.
  session.setDevicePermissionHandler(() => false);

  session.on('will-download', (event) => {
    event.preventDefault();
    log.warn({ session: label }, 'download refused');
  });
}
