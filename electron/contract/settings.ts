// Station settings and the facility's sign-in to the exchange. The client secret goes in once, on
// facility.signIn, and is kept by the main side's secret store: no output ever carries it back.
import { z } from 'zod';
import { httpUrl, noInput, origin, serviceType, shortText, timestamp } from './common';
import { scannerFolderPath } from './scanner';

export const language = z.enum(['en', 'sw']);

/** Which reader takes fingerprints: `readerId` comes from readers.list. */
export const readerPreference = z.strictObject({
  source: z.enum(['auto', 'hardware-service', 'station-reader', 'virtual']),
  readerId: z.string().min(1).max(200).nullable(),
});

/**
 * Where the exchange's terminology search looks for one kind of concept: the `owner` and `source`
 * the facility was given (the search takes both; no source shows their values for SHA, so the
 * administrator sets them). Letters, digits and . _ - only: they go on the query string.
 */
export const conceptSource = z.strictObject({
  owner: z.string().trim().regex(/^[A-Za-z0-9._-]{1,100}$/, 'must be the owner the facility was given, such as MOH-PPB'),
  source: z.string().trim().regex(/^[A-Za-z0-9._-]{1,100}$/, 'must be the source the facility was given, such as HPT'),
});

/** Each kind of concept the station searches: null when this facility has not been given its owner and source. */
export const terminologySources = z.strictObject({
  /** Generic medicines for prescriptions: without them the nurse types the generic code. */
  medicines: conceptSource.nullable(),
  /** ICD-11 diagnoses: without them the search is sent with neither, as before. */
  diagnoses: conceptSource.nullable(),
});

const editable = {
  exchangeBaseUrl: httpUrl,
  /** Training mode talks to the built-in sandbox with its demo facilities and the virtual reader. */
  trainingMode: z.boolean(),
  facilityCode: z.string().regex(/^[A-Za-z0-9-]{3,40}$/, 'must be a facility registry code such as FID-00-000004-0'),
  facilityName: shortText,
  /** National ID of the facility's biometrics agent (agent_id of the fingerprint request). */
  agentNationalId: z.string().regex(/^[0-9]{5,12}$/, 'must be 5 to 12 digits'),
  /** Origins the authorization link may load from and navigate within. */
  allowedLinkOrigins: z.array(origin).max(20),
  language,
  idleLockMinutes: z.number().int().min(1).max(240),
  reader: readerPreference,
  /** The ward's usual service type, used to pick the one intervention that fits. */
  defaultServiceType: serviceType,
  /** What this station is for: a ward's consents and visits, or the pharmacy window's dispensing. */
  stationRole: z.enum(['ward', 'pharmacy']),
  /** The terminology search's owner and source for medicines and for diagnoses. */
  terminology: terminologySources,
  /** Where the facility's scanner saves its files, offered beside "From a file" wherever a document is attached; null: none. */
  scannerFolder: scannerFolderPath.nullable(),
};

const settingName = z.enum(['clientId', ...(Object.keys(editable) as [keyof typeof editable])]);

export const stationSettings = z.strictObject({
  exchangeBaseUrl: editable.exchangeBaseUrl.nullable(),
  trainingMode: editable.trainingMode,
  clientId: z.string().max(200).nullable(),
  /** Whether a client secret is held by the secret store; the secret itself never comes back. */
  credentialsStored: z.boolean(),
  facilityCode: editable.facilityCode.nullable(),
  facilityName: editable.facilityName.nullable(),
  agentNationalId: editable.agentNationalId.nullable(),
  allowedLinkOrigins: editable.allowedLinkOrigins,
  language: editable.language,
  idleLockMinutes: editable.idleLockMinutes,
  reader: editable.reader,
  defaultServiceType: editable.defaultServiceType,
  stationRole: editable.stationRole,
  terminology: editable.terminology,
  scannerFolder: editable.scannerFolder,
  /** Settings still to fill in before the station can work (first run). */
  missing: z.array(settingName),
  /** Settings the provisioning file fixes: read-only to the station window, the administrator included. */
  provisioned: z.array(settingName),
});

export const facilitySession = z.strictObject({
  signedIn: z.boolean(),
  facilityCode: z.string().nullable(),
  facilityName: z.string().nullable(),
  trainingMode: z.boolean(),
  exchangeOrigin: z.string().nullable(),
  signedInAt: timestamp.nullable(),
});

/**
 * What only an administrator may change (outside training mode's first run, see the station core's
 * README): where the exchange is and who the station is to it, where the link may load from, training
 * mode, how soon the station locks, and which folder on this computer documents may be read from.
 * Changing the exchange URL drops the stored client secret: the administrator gives it again
 * (facility.signIn) for the new address.
 */
export const administratorSettings = ['exchangeBaseUrl', 'trainingMode', 'clientId', 'facilityCode', 'facilityName', 'agentNationalId', 'allowedLinkOrigins', 'idleLockMinutes', 'stationRole', 'terminology', 'scannerFolder'] as const;

export const settingsCommands = {
  'settings.get': { input: noInput, output: stationSettings },
  /** Changes only the fields given. Secrets are not settings: see facility.signIn. The administrator's settings need an administrator. */
  'settings.update': { input: z.strictObject(editable).partial(), output: stationSettings },
  /**
   * Signs the facility in to the exchange. With a client secret (an administrator; in training mode
   * anyone signed in, for the built-in sandbox's demo facilities): checks it against the exchange and,
   * on success, stores it bound to the exchange's origin. Without: signs in again with the stored
   * one, which goes to the origin that accepted it and nowhere else.
   */
  'facility.signIn': {
    input: z.strictObject({
      clientId: z.string().min(1).max(200).optional(),
      clientSecret: z.string().min(1).max(500).optional(),
    }),
    output: facilitySession,
  },
  'facility.signOut': { input: z.strictObject({ forgetCredentials: z.boolean().optional() }), output: facilitySession },
};

export type StationSettings = z.infer<typeof stationSettings>;
export type ConceptSource = z.infer<typeof conceptSource>;
export type TerminologySources = z.infer<typeof terminologySources>;
