// What a packaged station refuses to start with. Chromium and Node read their switches from the
// command line before any of the app's code runs, and the fuses (build/fuses.ts) stop only Node's
// --inspect family and NODE_OPTIONS: a shortcut edited to add --remote-debugging-port gives anyone
// on the machine the station window, its consent tokens and its session; --proxy-server or
// --host-resolver-rules send the authorization link (and the exchange's traffic seen by Chromium)
// wherever they say. So the first thing the packaged shell does is read its own command line and,
// if it carries any switch of the families below, log which and why, tell the user, and exit.
// A development run (`npm start`, `npm run smoke:electron`, whose Playwright passes
// --remote-debugging-port) is only warned.
//
// The families (README "A packaged station's command line"): a debugger or a program wrapped
// around Chromium's processes; the network's route (proxies, host and resolver rules, IP address
// space overrides); TLS and origin checks weakened; traffic or logs written where the station does
// not decide (net log, TLS keys, Chromium's log with page console lines); the sandbox or site
// isolation turned off, and Chromium's feature switches, through which any of the above can be
// reached under another name.

/** Why a switch is refused. */
export type SwitchFamily = 'debugger' | 'network-route' | 'tls-and-origins' | 'recording' | 'sandbox-and-features';

/** Switches refused by exact name (lower case, without dashes). */
export const REFUSED_SWITCHES: Readonly<Record<string, SwitchFamily>> = {
  'remote-debugging-port': 'debugger',
  'remote-debugging-pipe': 'debugger',
  'remote-debugging-address': 'debugger',
  'remote-debugging-io-pipes': 'debugger',
  'remote-debugging-targets': 'debugger',
  'remote-allow-origins': 'debugger',
  'auto-open-devtools-for-tabs': 'debugger',
  'wait-for-debugger': 'debugger',
  'wait-for-debugger-children': 'debugger',
  'wait-for-debugger-on-navigation': 'debugger',
  'js-flags': 'debugger',
  'renderer-cmd-prefix': 'debugger',
  'utility-cmd-prefix': 'debugger',
  'gpu-launcher': 'debugger',
  'browser-subprocess-path': 'debugger',
  'proxy-server': 'network-route',
  'proxy-pac-url': 'network-route',
  'proxy-bypass-list': 'network-route',
  'proxy-auto-detect': 'network-route',
  'no-proxy-server': 'network-route',
  'winhttp-proxy-resolver': 'network-route',
  'host-rules': 'network-route',
  'host-resolver-rules': 'network-route',
  'ip-address-space-overrides': 'network-route',
  'origin-to-force-quic-on': 'network-route',
  'ignore-certificate-errors': 'tls-and-origins',
  'ignore-certificate-errors-spki-list': 'tls-and-origins',
  'ignore-urlfetcher-cert-requests': 'tls-and-origins',
  'allow-insecure-localhost': 'tls-and-origins',
  'unsafely-treat-insecure-origin-as-secure': 'tls-and-origins',
  'disable-web-security': 'tls-and-origins',
  'log-net-log': 'recording',
  'net-log-capture-mode': 'recording',
  'ssl-key-log-file': 'recording',
  'enable-logging': 'recording',
  'log-file': 'recording',
  'no-sandbox': 'sandbox-and-features',
  'disable-gpu-sandbox': 'sandbox-and-features',
  'no-zygote': 'sandbox-and-features',
  'single-process': 'sandbox-and-features',
  'in-process-gpu': 'sandbox-and-features',
  'disable-site-isolation-trials': 'sandbox-and-features',
  'enable-features': 'sandbox-and-features',
  'disable-features': 'sandbox-and-features',
  'force-fieldtrials': 'sandbox-and-features',
  'force-fieldtrial-params': 'sandbox-and-features',
};

/** Node's inspector, under all its names (the fuse stops them too; refused here as well). */
const REFUSED_PREFIXES: readonly (readonly [string, SwitchFamily])[] = [
  ['inspect', 'debugger'],
  ['debug', 'debugger'],
  ['remote-debugging', 'debugger'],
  ['proxy-', 'network-route'],
];

/**
 * Environment variables with the same effect as a refused switch. NODE_OPTIONS and
 * ELECTRON_RUN_AS_NODE are not here: their fuses are off, so a packaged station ignores them (and a
 * ward PC may have NODE_OPTIONS set for another program). Proxy variables are not either: on Linux
 * they are how the system's proxy is given, which is the facility's to set.
 */
export const REFUSED_ENVIRONMENT: Readonly<Record<string, SwitchFamily>> = {
  SSLKEYLOGFILE: 'recording',
  ELECTRON_ENABLE_LOGGING: 'recording',
  ELECTRON_LOG_FILE: 'recording',
};

export interface RefusedItem {
  /** `--name` for a switch, the variable's name for the environment. */
  readonly item: string;
  readonly family: SwitchFamily;
}

/**
 * The switch name an argument sets, as Chromium reads it: `--name`, `-name` (and `/name` on
 * Windows), up to `=`, lower-cased (Windows switch names are case-insensitive). Null for an argument
 * that is not a switch.
 */
export function switchName(argument: string, platform: string): string | null {
  const prefix = /^--?/.exec(argument)?.[0] ?? (platform === 'win32' && argument.startsWith('/') ? '/' : '');
  if (prefix === '') return null;
  const name = argument.slice(prefix.length).split('=', 1)[0]!.toLowerCase();
  return name === '' ? null : name;
}

function familyOf(name: string): SwitchFamily | null {
  const exact = REFUSED_SWITCHES[name];
  if (exact !== undefined) return exact;
  return REFUSED_PREFIXES.find(([prefix]) => name.startsWith(prefix))?.[1] ?? null;
}

export interface LaunchInputs {
  /** process.argv */
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly platform: string;
  /** app.commandLine: Chromium's own reading of the switches (also those it took from elsewhere). */
  readonly commandLine: { hasSwitch(name: string): boolean };
}

/** Every refused switch and variable this launch carries, in the order found. */
export function refusedLaunchItems(inputs: LaunchInputs): RefusedItem[] {
  const found = new Map<string, SwitchFamily>();
  // Chromium reads no switch after a lone "--".
  const end = inputs.argv.indexOf('--');
  for (const argument of end < 0 ? inputs.argv : inputs.argv.slice(0, end)) {
    const name = switchName(argument, inputs.platform);
    const family = name === null ? null : familyOf(name);
    if (name !== null && family !== null) found.set(`--${name}`, family);
  }
  for (const [name, family] of Object.entries(REFUSED_SWITCHES)) {
    if (inputs.commandLine.hasSwitch(name)) found.set(`--${name}`, family);
  }
  for (const [name, family] of Object.entries(REFUSED_ENVIRONMENT)) {
    if ((inputs.env[name] ?? '') !== '') found.set(name, family);
  }
  return [...found].map(([item, family]) => ({ item, family }));
}

export interface LaunchGuardDeps extends LaunchInputs {
  readonly isPackaged: boolean;
  readonly log: { error(fields: Record<string, unknown>, message: string): void; warn(fields: Record<string, unknown>, message: string): void };
  /** Tells the person who started it (dialog.showErrorBox). */
  tell(title: string, body: string): void;
  /** Ends the process at once (app.exit): no window, no core, nothing else runs. */
  exit(code: number): void;
}

/**
 * Run first thing in the main process. A packaged station with a refused switch or variable logs
 * each (names only, never values: a proxy URL may carry credentials), tells the user and exits 1;
 * answers whether the start may go on. A development run is only warned.
 */
export function guardLaunch(deps: LaunchGuardDeps): boolean {
  const refused = refusedLaunchItems(deps);
  if (refused.length === 0) return true;
  const names = refused.map((r) => r.item);
  if (!deps.isPackaged) {
    deps.log.warn({ refused: names }, 'development run with switches a packaged station refuses');
    return true;
  }
  deps.log.error({ refused: refused.map((r) => `${r.item} (${r.family})`) }, 'refused to start: a debugger or a different network route was asked for on the command line');
  deps.tell(
    'Idhini will not start',
    `Idhini was started with ${names.join(', ')}, which would open it to a debugger or send its traffic another way. ` +
      'Start it from its own shortcut, without added options; the facility’s IT officer can see this in the station log.',
  );
  deps.exit(1);
  return false;
}
