// The command line of `npm run station:web`: training on its own sandbox, or another exchange. Pure
// reading and checking, so every refusal is one clear usage error before anything starts.
import { readFileSync } from 'node:fs';
import { FAULT_PROFILES, type FaultProfileName } from '../electron/sandbox';
import { parseOptions, portOption, repeatedOption, UsageError } from './start-support';

export const STATION_WEB_USAGE = `usage:
  npm run station:web -- --port N [--sandbox-port M] [--data-dir DIR] [--staff "NAME:PIN"]… [--admin "NAME:PIN"]… [--profile ward]
      training: the station on http://127.0.0.1:N with its own sandbox on M (default N+1), signed
      in as the demo "Training nurse" (PIN 1234)
      --staff, --admin  staff members who may sign in with that PIN (a nurse, an administrator);
                      repeatable, with either mode. A PIN is 4 to 20 letters or digits, one per person
      --profile ward  gives the sandbox a ward's network (each route's own waits, slow tails, the
                      odd 503), so a nurse learns with the waits she will meet
  npm run station:web -- --port N --exchange URL [--client-id ID --client-secret-file FILE]
      [--facility-code CODE] [--facility-name NAME] [--agent-id NATIONAL_ID]
      [--link-origins ORIGIN[,ORIGIN…]] [--reader auto|hardware-service|station-reader]
      [--device-service-port P] [--data-dir DIR]
      another exchange (a test environment, or a stand-in on loopback), training mode off:
      URL             the exchange's base URL, without /api/v1; https, or http on loopback only
                      (127.0.0.0/8, ::1, localhost)
      --client-id, --client-secret-file
                      the facility's credentials; the secret is read from FILE (its only line) and
                      never taken from the command line, printed or logged. Without them the
                      first-run screen asks
      --facility-code, --facility-name, --agent-id
                      the facility registry code, its name, and the national ID of its biometrics
                      agent: what the fingerprint request carries. Kept in the data folder; what is
                      neither given nor kept is asked on the first-run screen
      --link-origins  origins the payer's authorization page may load from (default: the exchange's)
      --reader        which reader takes fingerprints (default: as kept in settings, else auto)
      --device-service-port
                      where the station's own device service prefers to listen (default 18065,
                      where the payer's page looks, when the exchange's hardware service is absent)`;

export const readerSources = ['auto', 'hardware-service', 'station-reader'] as const;
export type ReaderSource = (typeof readerSources)[number];

/** A staff member the launcher provisions: name, role and PIN, as `--staff` / `--admin` give them. */
export interface LauncherStaff {
  readonly name: string;
  readonly role: 'nurse' | 'administrator';
  readonly pin: string;
}

export interface TrainingPlan {
  readonly mode: 'training';
  readonly port: number;
  readonly sandboxPort: number;
  readonly dataDir: string | undefined;
  readonly staff: readonly LauncherStaff[];
  /** The sandbox's network profile (--profile). */
  readonly profile: FaultProfileName | undefined;
}

export interface ExchangePlan {
  readonly mode: 'exchange';
  readonly port: number;
  /** Checked: https, or http on a loopback host. */
  readonly exchangeUrl: string;
  readonly clientId: string | undefined;
  /** The file the secret is read from at start; never the secret itself. */
  readonly clientSecretFile: string | undefined;
  readonly facilityCode: string | undefined;
  readonly facilityName: string | undefined;
  readonly agentNationalId: string | undefined;
  readonly linkOrigins: readonly string[] | undefined;
  readonly reader: ReaderSource | undefined;
  readonly deviceServicePort: number | undefined;
  readonly dataDir: string | undefined;
  readonly staff: readonly LauncherStaff[];
}

export type StationWebPlan = TrainingPlan | ExchangePlan;

const trainingOptions = ['port', 'sandbox-port', 'data-dir', 'staff', 'admin', 'profile'];
const exchangeOptions = [
  'staff',
  'admin',
  'port',
  'exchange',
  'client-id',
  'client-secret-file',
  'facility-code',
  'facility-name',
  'agent-id',
  'link-origins',
  'reader',
  'device-service-port',
  'data-dir',
];

/** Whether a URL's host is this machine: 127.0.0.0/8, ::1 or localhost. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (host === 'localhost' || host === '::1') return true;
  // The URL parser has already written any IPv4 form (0x7f.1, 2130706433) as four decimal octets.
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** The exchange's base URL, refused unless https, or plain http on loopback. */
export function checkExchangeUrl(raw: string): string {
  if (!URL.canParse(raw)) throw new UsageError(`--exchange must be a URL such as https://exchange.example.org, got ${raw}`);
  const url = new URL(raw);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UsageError(`--exchange must be https (or http on loopback), got ${url.protocol.replace(/:$/, '')}`);
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new UsageError(`--exchange: plain http is accepted only on loopback (127.0.0.0/8, ::1, localhost); use https for ${url.host}`);
  }
  if (url.username !== '' || url.password !== '') throw new UsageError('--exchange must not carry credentials in the URL: give --client-id and --client-secret-file');
  if (url.search !== '' || url.hash !== '') throw new UsageError('--exchange is the base URL only: no query or fragment');
  return url.href.replace(/\/+$/, '');
}

/** Reads `npm run station:web`'s arguments; a UsageError says what is wrong. */
export function parseStationWebArgs(argv: readonly string[]): StationWebPlan {
  const secretOnCommandLine = argv.find((a) => a === '--client-secret' || a.startsWith('--client-secret='));
  if (secretOnCommandLine !== undefined) {
    throw new UsageError('--client-secret is not accepted: a secret on the command line shows in the process list. Put it alone in a file and give --client-secret-file FILE');
  }
  const exchange = argv.includes('--exchange');
  if (exchange && argv.includes('--sandbox-port')) throw new UsageError('--sandbox-port does not go with --exchange: no sandbox is started against another exchange');
  const options = parseOptions(argv, exchange ? exchangeOptions : trainingOptions);
  const port = portOption(options, 'port');
  if (port === undefined) throw new UsageError('--port N is required');
  const dataDir = options.get('data-dir');
  const staff = staffOptions(argv, !exchange);
  if (!exchange) {
    const sandboxPort = portOption(options, 'sandbox-port') ?? (port === 0 ? 0 : port + 1);
    if (sandboxPort !== 0 && sandboxPort === port) throw new UsageError('--sandbox-port must differ from --port');
    if (sandboxPort > 65535) throw new UsageError(`the sandbox port ${sandboxPort} is out of range: give --sandbox-port`);
    const profile = options.get('profile');
    if (profile !== undefined && !(FAULT_PROFILES as readonly string[]).includes(profile)) throw new UsageError(`--profile must be one of ${FAULT_PROFILES.join(', ')}, got ${profile}`);
    return { mode: 'training', port, sandboxPort, dataDir, staff, profile: profile as FaultProfileName | undefined };
  }
  const clientId = options.get('client-id');
  const clientSecretFile = options.get('client-secret-file');
  if ((clientId === undefined) !== (clientSecretFile === undefined)) throw new UsageError('--client-id and --client-secret-file go together: give both, or neither');
  const reader = options.get('reader');
  if (reader !== undefined && !(readerSources as readonly string[]).includes(reader)) throw new UsageError(`--reader must be one of ${readerSources.join(', ')}, got ${reader}`);
  const origins = options.get('link-origins');
  return {
    mode: 'exchange',
    port,
    exchangeUrl: checkExchangeUrl(options.get('exchange') ?? ''),
    clientId,
    clientSecretFile,
    facilityCode: options.get('facility-code'),
    facilityName: options.get('facility-name'),
    agentNationalId: options.get('agent-id'),
    linkOrigins: origins?.split(',').map((o) => o.trim()),
    reader: reader as ReaderSource | undefined,
    deviceServicePort: portOption(options, 'device-service-port'),
    dataDir,
    staff,
  };
}

/** `--staff "NAME:PIN"` and `--admin "NAME:PIN"`, each checked; a PIN given twice is refused (a PIN alone says who signs in). */
export function staffOptions(argv: readonly string[], training: boolean): LauncherStaff[] {
  const staff = [
    ...repeatedOption(argv, 'staff').map((spec) => staffOf(spec, 'nurse', '--staff')),
    ...repeatedOption(argv, 'admin').map((spec) => staffOf(spec, 'administrator', '--admin')),
  ];
  const pins = [...staff.map((member) => member.pin), ...(training ? [TRAINING_PIN] : [])];
  if (new Set(pins).size !== pins.length) throw new UsageError(`two staff members may not share a PIN${training ? ` (${TRAINING_PIN} is the Training nurse's)` : ''}`);
  return staff;
}

const TRAINING_PIN = '1234';

function staffOf(spec: string, role: LauncherStaff['role'], option: string): LauncherStaff {
  const colon = spec.lastIndexOf(':');
  const name = spec.slice(0, colon).trim();
  const pin = spec.slice(colon + 1);
  if (colon < 0 || name === '' || name.length > 200) throw new UsageError(`${option} must be "NAME:PIN", got ${JSON.stringify(spec.replace(/:.*/, ':…'))}`);
  if (!/^[A-Za-z0-9]{4,20}$/.test(pin)) throw new UsageError(`${option} "${name}": the PIN must be 4 to 20 letters or digits`);
  return { name, role, pin };
}

/**
 * The client secret from its file: the file's only line, surrounding whitespace dropped. Errors
 * name the file, never what is in it.
 */
export function readClientSecret(file: string, read: (file: string) => string = (f) => readFileSync(f, 'utf8')): string {
  let text: string;
  try {
    text = read(file);
  } catch (error) {
    throw new UsageError(`cannot read the client secret file ${file} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
  const secret = text.trim();
  if (secret === '') throw new UsageError(`the client secret file ${file} is empty`);
  if (/[\r\n]/.test(secret)) throw new UsageError(`the client secret file ${file} holds more than one line: it must hold the secret alone`);
  return secret;
}
