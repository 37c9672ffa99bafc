// What a facility's IT officer decides for a station before any nurse sits at it: where the exchange
// is and who the station is to it, where the authorization link may load from, training mode, how
// soon the station locks, and who may sign in. Two ways in, both outside the station window:
// - the provisioning file an installer (or a fleet tool) drops in a folder only administrators may
//   write; every setting it names is fixed, for the station window and its administrator alike;
// - a launcher (`npm run station:web`, a test and training command): its options are applied at
//   start like an administrator's, and only a launcher may allow plain http to a loopback stand-in.
// The client secret is never in the file: an administrator gives it once at the station, and the OS
// keystore keeps it, bound to the exchange's origin.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { stationSettings, type TerminologySources } from '../contract';
import { isPinHash, type ProvisionedStaff } from './staff';

/** The settings an administrator decides, by the names settings.get answers. */
export interface ProvisionedSettings {
  readonly exchangeBaseUrl?: string;
  readonly trainingMode?: boolean;
  readonly clientId?: string;
  readonly facilityCode?: string;
  readonly facilityName?: string;
  readonly agentNationalId?: string;
  readonly allowedLinkOrigins?: readonly string[];
  readonly idleLockMinutes?: number;
  /** The pharmacy window's stations are provisioned as such; a ward's need not say. */
  readonly stationRole?: 'ward' | 'pharmacy';
  /** The terminology search's owner and source the facility was given, for medicines and diagnoses. */
  readonly terminology?: TerminologySources;
  /** The scanner's folder (a full path on this computer). */
  readonly scannerFolder?: string;
  /** A launcher's reader choice (station:web --reader); the ward may change it later. */
  readonly reader?: { readonly source: 'auto' | 'hardware-service' | 'station-reader' | 'virtual'; readonly readerId: string | null };
}

export interface StationProvisioning {
  /** 'file': the settings named are fixed; 'launcher': applied at start, changeable by an administrator. */
  readonly source: 'file' | 'launcher';
  readonly settings: ProvisionedSettings;
  /** Read afresh at every start: someone taken off the list can no longer sign in. */
  readonly staff: readonly ProvisionedStaff[];
  /** A launcher's stand-in exchange on loopback over plain http (never the file's, never the Electron shell's). */
  readonly allowLoopbackHttp?: boolean;
}

const shape = stationSettings.shape;

/** The provisioning file's format (version 1): every key optional but `version`; no other key. */
export const provisioningFile = z.strictObject({
  version: z.literal(1),
  exchangeBaseUrl: shape.exchangeBaseUrl.unwrap().optional(),
  trainingMode: shape.trainingMode.optional(),
  clientId: z.string().min(1).max(200).optional(),
  facilityCode: shape.facilityCode.unwrap().optional(),
  facilityName: shape.facilityName.unwrap().optional(),
  agentNationalId: shape.agentNationalId.unwrap().optional(),
  allowedLinkOrigins: shape.allowedLinkOrigins.optional(),
  idleLockMinutes: shape.idleLockMinutes.optional(),
  stationRole: shape.stationRole.optional(),
  terminology: shape.terminology.optional(),
  scannerFolder: shape.scannerFolder.unwrap().optional(),
  staff: z
    .array(
      z.strictObject({
        name: z.string().min(1).max(200),
        role: z.enum(['nurse', 'administrator']),
        nationalId: z.string().regex(/^[0-9]{5,12}$/, 'must be 5 to 12 digits').optional(),
        pinHash: z.string().refine(isPinHash, 'must be a PIN hash as `npm run pin-hash` prints it (scrypt$N$r$p$salt$key)'),
      }),
    )
    .max(500)
    .optional(),
});

export class ProvisioningError extends Error {
  override readonly name = 'ProvisioningError';
}

/**
 * Where the installer drops the provisioning file: a machine-wide folder only administrators may
 * write. Windows: %ProgramData%\Idhini\provisioning.json; Linux: /etc/idhini/provisioning.json;
 * macOS: /Library/Application Support/Idhini/provisioning.json.
 */
export function provisioningFilePath(platform: string, env: Readonly<Record<string, string | undefined>>): string {
  if (platform === 'win32') return path.win32.join(env.ProgramData ?? env.PROGRAMDATA ?? 'C:\\ProgramData', 'Idhini', 'provisioning.json');
  if (platform === 'darwin') return path.posix.join('/Library', 'Application Support', 'Idhini', 'provisioning.json');
  return path.posix.join('/etc', 'idhini', 'provisioning.json');
}

/** The file's provisioning, null when there is no file; a file that is there but wrong stops the station, saying what is wrong. */
export function readProvisioningFile(file: string, read: (file: string) => string = (f) => readFileSync(f, 'utf8')): StationProvisioning | null {
  let text: string;
  try {
    text = read(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new ProvisioningError(`The provisioning file ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'unreadable'}).`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ProvisioningError(`The provisioning file ${file} is not valid JSON.`);
  }
  const parsed = provisioningFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined ? '' : issue.path.join('.') || '(the file)';
    throw new ProvisioningError(`The provisioning file ${file} is not valid: ${where}: ${issue?.message ?? 'invalid'}.`);
  }
  const { version: _version, staff = [], ...settings } = parsed.data;
  if (settings.exchangeBaseUrl !== undefined && !exchangeUrlAllowed(settings.exchangeBaseUrl, { trainingMode: settings.trainingMode === true, allowLoopbackHttp: false })) {
    throw new ProvisioningError(`The provisioning file ${file} is not valid: exchangeBaseUrl must be https (plain http only to the loopback in training mode).`);
  }
  return { source: 'file', settings, staff };
}

/** https; plain http only to this machine, and then only in training mode or for a launcher's stand-in. */
export function exchangeUrlAllowed(url: string, options: { trainingMode: boolean; allowLoopbackHttp: boolean }): boolean {
  if (!URL.canParse(url)) return false;
  const parsed = new URL(url);
  if (parsed.username !== '' || parsed.password !== '') return false;
  if (parsed.protocol === 'https:') return true;
  return parsed.protocol === 'http:' && isLoopback(parsed.hostname) && (options.trainingMode || options.allowLoopbackHttp);
}

function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
