// Logging with pino, in two layers. Key-based: pino's redact censors fields whose names say secret
// (token, otp, secret, password, authorization, guid, name …). Value-based: every secret and patient
// identifier the core learns (client secret, consent tokens, guids, SMS codes, patients' names, ID
// numbers, registry ids) is registered with the Scrubber, which replaces it in every serialized line
// before the line reaches the destination — so a value that slipped into a message, an error or an
// unexpected key is still caught. The destination is injected (a file in Electron, a test's array).
import { pino, type Logger } from 'pino';
import type { LogDestination } from './deps';

const MIN_SCRUB_LENGTH = 4;

/** Known secret values and patient identifiers, replaced wherever they appear in text. */
export class Scrubber {
  private readonly values = new Map<string, string>();
  private pattern: RegExp | undefined;

  /** Registers a value; `label` says what it was ("[secret]", "[patient]"). Short values are ignored, so that "1" cannot eat every line. */
  add(value: string | undefined | null, label = '[secret]'): void {
    if (typeof value !== 'string') return;
    const v = value.trim();
    if (v.length < MIN_SCRUB_LENGTH || this.values.has(v)) return;
    this.values.set(v, label);
    this.pattern = undefined;
  }

  /** A person's name: the whole of it and each part (parts shorter than four letters are left: too common to scrub). */
  addName(fullName: string | undefined): void {
    if (fullName === undefined) return;
    this.add(fullName, '[patient]');
    for (const part of fullName.split(/\s+/)) this.add(part, '[patient]');
  }

  scrub(text: string): string {
    if (this.values.size === 0) return text;
    this.pattern ??= new RegExp(
      [...this.values.keys()]
        .sort((a, b) => b.length - a.length)
        .map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('|'),
      'gi',
    );
    return text.replace(this.pattern, (match) => this.values.get(match) ?? this.labelOf(match));
  }

  private labelOf(match: string): string {
    for (const [value, label] of this.values) if (value.toLowerCase() === match.toLowerCase()) return label;
    return '[secret]';
  }
}

/** Field names that are never logged, at any of the first three levels. */
const secretKeys = [
  'token',
  'accessToken',
  'access_token',
  'consentToken',
  'consent_token',
  'authToken',
  'auth_guid',
  'authGuid',
  'guid',
  'discharge_auth_guid',
  'otp',
  'code',
  'secret',
  'clientSecret',
  'client_secret',
  'password',
  'authorization',
  'cookie',
  'fullName',
  'patientName',
  'name',
  'idNumber',
  'identification_number',
  'patient_id',
  'patientId',
];

const redactPaths = secretKeys.flatMap((key) => [key, `*.${key}`, `*.*.${key}`]);

export interface StationLogger {
  readonly log: Logger;
  readonly scrubber: Scrubber;
}

export function createStationLogger(options: { destination?: LogDestination | undefined; level?: string | undefined; scrubber?: Scrubber }): StationLogger {
  const scrubber = options.scrubber ?? new Scrubber();
  const target = options.destination ?? process.stdout;
  const destination = {
    write(line: string): void {
      target.write(scrubber.scrub(line));
    },
  };
  // `component` is not a base binding: pino writes a child's bindings after its parent's, so a
  // child's own component (`log.child({component: 'shell'})`) would follow the base one in the same
  // line. A line whose logger binds none gets the core's through the mixin instead.
  const log = pino(
    {
      level: options.level ?? 'info',
      base: {},
      mixin: (_object, _level, logger) => (bindsComponent(logger) ? {} : { component: DEFAULT_COMPONENT }),
      redact: { paths: redactPaths, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
  return { log, scrubber };
}

const DEFAULT_COMPONENT = 'station';

/** Whether a logger (or one of its parents) was made with its own `component` binding; once per logger. */
const componentBound = new WeakMap<object, boolean>();
function bindsComponent(logger: Logger): boolean {
  let known = componentBound.get(logger);
  if (known === undefined) {
    known = Object.hasOwn(logger.bindings(), 'component');
    componentBound.set(logger, known);
  }
  return known;
}
