// What a shell (Electron main, the browser host) or a test hands the station core. Everything that
// touches the outside world — the exchange, time, randomness, the OS keystore, the readers, the
// log file — comes in here, so the core runs unchanged under Electron, plain Node and vitest.
import { randomBytes } from 'node:crypto';
import type { ExchangeClient, ExchangeClientOptions } from '../payer';
import type { StationProvisioning } from './provisioning';
import type { ReadersFacade } from './readers';

/** Where secrets live: Electron's safeStorage-backed store in the product, a map in tests. */
export interface SecretStore {
  get(key: string): Promise<string | undefined> | string | undefined;
  set(key: string, value: string): Promise<void> | void;
  delete(key: string): Promise<void> | void;
}

/** Anything with a write(line) method: a file stream, process.stdout, a test's array. */
export interface LogDestination {
  write(line: string): unknown;
}

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** The operating systems the exchange's biometric authorize knows (`authorizing_device_os`): two. */
export type DeviceOs = 'windows' | 'android';

/** A point just around an exchange call that changes state, for the crash-resume tests. */
export interface JournalPoint {
  readonly operation: string;
  /** before-send: the intent is journaled; after-answer: the exchange answered, nothing journaled yet; after-outcome: the outcome is journaled. */
  readonly phase: 'before-send' | 'after-answer' | 'after-outcome';
  readonly workflowKind: string;
}

export interface StationDeps {
  /** The SQLite file of the journal, audit log and settings (created if missing). */
  readonly databasePath: string;
  /** Where papers wait to go to SHA with a request sent later (default: `<database name>-papers-waiting` beside the database). */
  readonly papersDir?: string;
  readonly secrets: SecretStore;
  /** Builds the exchange client; tests and shells pass `createExchangeClient` from electron/payer. */
  readonly exchangeClientFactory: (options: ExchangeClientOptions) => ExchangeClient;
  readonly readers?: ReadersFacade;
  /** `process.platform` of the station (win32, linux, darwin …): sent as authorizing_device_os. */
  readonly platform?: string;
  readonly host?: 'electron' | 'browser';
  readonly appVersion?: string;
  readonly clock?: Clock;
  /**
   * The machine's clock, on which the idle lock counts real minutes at the ward (default the
   * system's): in training the station's clock is the sandbox's, which jumps. Tests move a fake one.
   */
  readonly idleClock?: Clock;
  /** Random bytes as URL-safe text, for opaque handles; default crypto.randomBytes. */
  readonly randomId?: () => string;
  readonly log?: { readonly destination?: LogDestination; readonly level?: 'trace' | 'debug' | 'info' | 'warn' | 'error' };
  /** Settings applied on first run only (an empty database), e.g. training mode on the built-in sandbox. */
  readonly initialSettings?: Readonly<Record<string, unknown>>;
  /**
   * The IT officer's decisions, applied at every start: the provisioning file's (those settings then
   * fixed), or a launcher's (station:web's options). Its staff replace the provisioned staff.
   */
  readonly provisioning?: StationProvisioning;
  /** The computer's name, sent as device_name when a visit opens (default os.hostname()). */
  readonly deviceName?: string;
  readonly timing?: Partial<StationTiming>;
  /** Commands the station takes on at once at most (64); past it, BUSY. */
  readonly maxCommandsInFlight?: number;
  /** Test hook: called synchronously at each journal point (the crash-resume tests SIGKILL here). */
  readonly onJournalPoint?: (point: JournalPoint) => void;
}

export interface StationTiming {
  /** Between two look-ups of a pending fingerprint authorization (3 s). */
  readonly authorizationPollMs: number;
  /** Between two look-ups of a preauth awaiting the doctor or the payer (15 s). */
  readonly preauthPollMs: number;
  /** Before an SMS code may be sent again (60 s). */
  readonly smsResendCooldownMs: number;
  /** How long a sent SMS code stays valid when the exchange does not say (5 min). */
  readonly smsCodeTtlMs: number;
  /** Between two reconciliation attempts while the exchange cannot be reached (10 s). */
  readonly reconcileRetryMs: number;
  /** Deadline of one exchange call (20 s). */
  readonly exchangeTimeoutMs: number;
  /** Between two comparisons of the station's clock with the machine's, to announce a jump (2 s). */
  readonly clockCheckMs: number;
  /** Between two read-backs of a claim just submitted (10 min); later states wait a multiple of it (workflows/claims.ts). */
  readonly claimReadBackMs: number;
  /** Between two looks at the idle time (5 s): the idle lock falls at most this late. */
  readonly idleCheckMs: number;
}

export const defaultTiming: StationTiming = {
  authorizationPollMs: 3000,
  preauthPollMs: 15_000,
  smsResendCooldownMs: 60_000,
  smsCodeTtlMs: 5 * 60_000,
  reconcileRetryMs: 10_000,
  exchangeTimeoutMs: 20_000,
  clockCheckMs: 2000,
  claimReadBackMs: 10 * 60_000,
  idleCheckMs: 5000,
};

export const systemClock: Clock = { now: () => Date.now() };

export function defaultRandomId(): string {
  return randomBytes(12).toString('base64url');
}

/**
 * `authorizing_device_os` for this workstation. The exchange knows only windows and android (K, A,
 * R): it names the kind of workstation its hardware service runs on, and that service is a Windows
 * service. A desktop station that is not Android (Linux, macOS, the BSDs) sends windows, as the
 * KenyaEMR client does for every platform it does not recognise as Android.
 */
export function deviceOsOf(platform: string): DeviceOs {
  return platform === 'android' ? 'android' : 'windows';
}

/** A secret store kept in memory: for tests and for browser mode without a keystore. */
export function memorySecretStore(initial: Record<string, string> = {}): SecretStore {
  const values = new Map(Object.entries(initial));
  return {
    get: (key) => values.get(key),
    set: (key, value) => {
      values.set(key, value);
    },
    delete: (key) => {
      values.delete(key);
    },
  };
}
