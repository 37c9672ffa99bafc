// Consent: contacts, OTPs, the four shapes of POST /claims/authorize, the authorization look-up
// and reject, the doctor's consent request, and the OTP whitelist.
import { z } from 'zod';
import { authorizeServiceTypes, deviceOperatingSystems, otpWhitelistReasons, type authorizationStatuses, type doctorConsentRequestTypes } from '../../vocabulary';
import {
  doctorFields,
  fileInput,
  interventionRef,
  list,
  nonEmpty,
  oneOrMany,
  optional,
  optionalBoolean,
  optionalNumber,
  optionalText,
  otpDigits,
  pageOf,
  practitionerIdentificationType,
  regulationBody,
  requireAllOrNone,
  status,
  text,
} from './common';

// ---------------------------------------------------------------- contacts and OTP

export const contactsQuery = z.strictObject({ patient_id: nonEmpty });

export interface Contact {
  readonly id: string;
  /** Masked by the exchange, e.g. +254714***898. */
  readonly value: string | undefined;
  /** PHO for a phone. */
  readonly type: string | undefined;
  readonly confirmed: boolean | undefined;
  readonly active: boolean | undefined;
  readonly main: boolean;
}

const contact = z
  .looseObject({
    id: text,
    contactValue: optionalText,
    contactType: optionalText,
    isConfirmed: optionalBoolean,
    active: optionalBoolean,
    isMainContact: optionalBoolean,
  })
  .transform(
    (c): Contact => ({
      id: c.id,
      value: c.contactValue,
      type: c.contactType,
      confirmed: c.isConfirmed,
      active: c.active,
      main: c.isMainContact ?? false,
    }),
  );

/** `{count, results: [...]}` [doc] or a bare array (another page of the docs). */
export const contactsResponse = oneOrMany(contact);

export const sendOtpRequest = z.strictObject({
  patient_id: nonEmpty,
  intervention_codes: z.array(nonEmpty).min(1, 'give at least one intervention code'),
  /** The contact to send to (A sends `beneficiary_contact_id`; one docs page says `contact_id`). */
  beneficiary_contact_id: nonEmpty.optional(),
});

export const dischargeOtpRequest = z.strictObject({
  consent_token: nonEmpty,
  /** Every public client sends the patient with the claim's token (A, R). */
  patient_id: nonEmpty,
});

export interface OtpSent {
  readonly message: string | undefined;
  /** The masked contact it went to. */
  readonly contact: string | undefined;
  readonly expiresInSeconds: number | undefined;
}

export const otpSentResponse = z
  .union([
    z.looseObject({ message: optionalText, contact: optionalText, expires_in: optionalNumber }),
    z.string().transform((message) => ({ message, contact: undefined, expires_in: undefined })),
  ])
  .transform((o): OtpSent => ({ message: o.message, contact: o.contact, expiresInSeconds: o.expires_in }));

// ---------------------------------------------------------------- authorize

export type AuthorizationStatus = (typeof authorizationStatuses)[number] | (string & {});

const authorizeServiceType = z.enum(authorizeServiceTypes);

/** Elective pre-visit consent by OTP: interventions and service_type are required (R docs, A). */
export const authorizeOtpRequest = z.strictObject({
  patient_id: nonEmpty,
  otp: otpDigits,
  interventions: z.array(nonEmpty).min(1, 'give at least one intervention'),
  service_type: authorizeServiceType,
  /** A forwards the contact the code went to when it knows it. */
  beneficiary_contact_id: nonEmpty.optional(),
});


/** The twelve fields of a biometric authorize (K, A, R); the two flags are set by the operation. */
const biometricRequest = {
  patient_id: nonEmpty,
  service_type: authorizeServiceType,
  interventions: z.array(nonEmpty).min(1, 'give at least one intervention'),
  /** National ID of the facility's biometrics agent. */
  agent_id: nonEmpty,
  /** workstationID reported by the workstation's hardware service. */
  work_station_id: nonEmpty,
  authorizing_device_os: z.enum(deviceOperatingSystems),
  factors: z.array(nonEmpty).min(1).default(['SHA']),
  /** The facility's name. */
  ekyc_provider_id: nonEmpty,
  /** The facility's registry code. */
  provider: nonEmpty,
  is_integration: z.boolean().default(true),
};

export const authorizeBiometricRequest = z.strictObject(biometricRequest);

/**
 * Visit-end consent by fingerprint: the same body with is_biometrics_discharge_authorization true
 * (A `client-registry.controller.ts`); the claim is found by the patient, not by a consent_token.
 */
export const authorizeDischargeRequest = z.strictObject(biometricRequest);

export interface Authorization {
  /** The authorization token: consent_token of a preauth; keep it on the main side. */
  readonly token: string | undefined;
  /** Identifier of a biometric authorization: auth_guid of the visit. */
  readonly guid: string | undefined;
  readonly status: AuthorizationStatus;
  readonly label: string | undefined;
  /** When the authorization itself expires: the fingerprint page's time limit. */
  readonly expiry: string | undefined;
  /** The page where the patient matches fingerprints (the contract's "iframe link"). */
  readonly verificationUrl: string | undefined;
  /** `shaVerificationRequest.embedExpiry`: seconds (120, 0 in the examples), not a date. */
  readonly verificationExpiresInSeconds: number | undefined;
  readonly verificationRequestId: string | undefined;
  readonly workStationId: string | undefined;
  /** Visit-end (discharge) authorization identifier, used as discharge_auth_guid. */
  readonly dischargeAuthGuid: string | undefined;
}

const verificationRequest = z.looseObject({
  embedExpiry: optionalNumber,
  requestId: optionalText,
  requestUrl: optionalText,
});

const authorizationWire = z.looseObject({
  token: optionalText,
  guid: optionalText,
  status,
  label: optionalText,
  expiry: optionalText,
  workStationId: optionalText,
  shaVerificationRequest: optional(verificationRequest),
  discharge_auth_guid: optionalText,
});

function toAuthorization(a: z.output<typeof authorizationWire>): Authorization {
  return {
    token: a.token,
    guid: a.guid,
    status: a.status,
    label: a.label,
    expiry: a.expiry,
    verificationUrl: a.shaVerificationRequest?.requestUrl,
    verificationExpiresInSeconds: a.shaVerificationRequest?.embedExpiry,
    verificationRequestId: a.shaVerificationRequest?.requestId,
    workStationId: a.workStationId,
    dischargeAuthGuid: a.discharge_auth_guid,
  };
}

/** OTP authorize: token and status (guid when the exchange sends one). */
export const authorizeOtpResponse = authorizationWire
  .refine((a) => a.token !== undefined, { message: 'authorization without token', path: ['token'] })
  .transform(toAuthorization);

/** Biometric authorize: PENDING with guid, token and the verification link. */
export const authorizeBiometricResponse = authorizationWire
  .refine((a) => a.token !== undefined, { message: 'authorization without token', path: ['token'] })
  .refine((a) => a.guid !== undefined, { message: 'biometric authorization without guid', path: ['guid'] })
  .transform(toAuthorization);

/** Visit-end authorize: the authorization's guid (or discharge_auth_guid), PENDING or immediately AUTHORIZED. */
export const authorizeDischargeResponse = authorizationWire
  .refine((a) => (a.discharge_auth_guid ?? a.guid) !== undefined, {
    message: 'discharge authorization without guid (or discharge_auth_guid)',
    path: ['guid'],
  })
  .transform((a) => {
    const auth = toAuthorization(a);
    return { ...auth, dischargeAuthGuid: auth.dischargeAuthGuid ?? auth.guid };
  });

// ---------------------------------------------------------------- look-up and reject

/** R docs mark both required; A sends the token alone; the station sends what it holds. */
export const authorizationQuery = z
  .strictObject({ token: nonEmpty.optional(), guid: nonEmpty.optional() })
  .superRefine((v, ctx) => {
    if (v.token === undefined && v.guid === undefined) {
      ctx.addIssue({ code: 'custom', path: ['token'], message: 'give token or guid (or both)' });
    }
  });

export interface AuthorizationRecord extends Authorization {
  /** `beneficiaryCode`: the patient's client registry id. */
  readonly patientId: string | undefined;
  readonly interventions: string[];
  /** `authorizationReason`, e.g. why it was rejected. */
  readonly reason: string | undefined;
}

const authorizationRecord = authorizationWire
  .extend({
    beneficiaryCode: optionalText,
    interventions: list(interventionRef),
    authorizationReason: optionalText,
  })
  .transform(
    (a): AuthorizationRecord => ({
      ...toAuthorization(a),
      patientId: a.beneficiaryCode,
      interventions: a.interventions,
      reason: a.authorizationReason,
    }),
  );

/**
 * The record [doc], a list of records (seen on UAT), or `{results: [record]}`: the first record is
 * the answer; an empty list means the exchange knows no such authorization (reported as
 * `results[0]` missing).
 */
export const authorizationLookupResponse = oneOrMany(authorizationRecord).transform((records, ctx): AuthorizationRecord => {
  const [first] = records;
  if (first === undefined) {
    ctx.addIssue({ code: 'custom', path: ['results', 0], message: 'no authorization in the answer', input: records });
    return z.NEVER;
  }
  return first;
});

/** The facility's authorizations: no query (UAT ignores `beneficiary_code`, R WORKFLOWS §9). */
export const facilityAuthorizationsQuery = z.strictObject({});

/**
 * Every authorization of the facility the credential names, a list (UAT) or `{results}`; empty when
 * it has none. The client does not filter: the patient's are picked out by `patientId` by the caller.
 */
export const facilityAuthorizationsResponse = oneOrMany(authorizationRecord);

export const rejectAuthorizationRequest = z.strictObject({ token: nonEmpty });

export interface AuthorizationRejected {
  readonly message: string | undefined;
}

/** `{message}` ("The authorization has been closed." on UAT), or an empty body. */
export const rejectAuthorizationResponse = z
  .union([z.undefined().transform(() => ({ message: undefined })), z.looseObject({ message: optionalText })])
  .transform((r): AuthorizationRejected => ({ message: r.message }));

// ---------------------------------------------------------------- doctor consent, OTP whitelist

export type DoctorConsentRequestType = (typeof doctorConsentRequestTypes)[number];

/**
 * The preauth doctor's approval request sent again. The doctor is named by registration number
 * (A, K), by the three identification fields (R), or both (R, for a registration number).
 */
export const doctorConsentResendRequest = z
  .strictObject({
    consent_token: nonEmpty,
    intervention_code: nonEmpty,
    practitioner_registration_number: nonEmpty.optional(),
    identification_number: nonEmpty.optional(),
    identification_type: practitionerIdentificationType.optional(),
    regulation_body: regulationBody.optional(),
  })
  .superRefine((v, ctx) => {
    requireAllOrNone(v, doctorFields, ctx, 'preauth doctor');
    if (v.practitioner_registration_number === undefined && v.identification_number === undefined) {
      ctx.addIssue({ code: 'custom', path: ['practitioner_registration_number'], message: 'name the doctor: practitioner_registration_number, or identification_number, identification_type and regulation_body' });
    }
  });


/** The one supporting document a whitelist request may carry; its part is named as A names it. */
export const otpWhitelistFilePart = 'attachments_file_blob';

export const otpWhitelistRequest = z.strictObject({
  beneficiary_cr_id: nonEmpty,
  reason_type: z.enum(otpWhitelistReasons),
  /** Why, in the nurse's words (A requires it, K and V send it). */
  reason: nonEmpty.max(2000, 'at most 2000 characters'),
  /** How many fingerprint attempts were made before asking (A, K, V). */
  biometric_attempts: z.number().int().min(0).max(1000),
  /** The facility's registry code (A adds it; V lists it). */
  facility_fr_code: nonEmpty,
  attachment: z
    .strictObject({
      document_title: nonEmpty,
      /** V's example value; no other type is published. */
      document_type: nonEmpty.default('SUPPORT_DOCUMENT'),
      file: fileInput,
    })
    .optional(),
});

/** The attachment's metadata as the multipart `attachments` text part: `[]` without one. */
export function otpWhitelistAttachments(attachment: z.output<typeof otpWhitelistRequest>['attachment']): string {
  if (attachment === undefined) return '[]';
  return JSON.stringify([
    {
      document_title: attachment.document_title,
      document_type: attachment.document_type,
      file_field_name: otpWhitelistFilePart,
      file_name: attachment.file.file_name,
    },
  ]);
}

/** V documents both; A sends the facility instead of the guid: the station sends all three. */
export const otpWhitelistStatusQuery = z.strictObject({
  beneficiary_cr_id: nonEmpty,
  guid: nonEmpty.optional(),
  facility_fr_code: nonEmpty.optional(),
});

export interface OtpWhitelistRequest {
  readonly guid: string;
  readonly status: string;
  readonly reasonType: string | undefined;
}

const otpWhitelistEntry = z
  .looseObject({ guid: text, status, reasonType: optionalText })
  .transform((w): OtpWhitelistRequest => ({ guid: w.guid, status: w.status, reasonType: w.reasonType }));

/** The created request, camelCase (A types, V). */
export const otpWhitelistResponse = otpWhitelistEntry;

/** The requests found, as a page `{count, results[]}` (V); a bare list is read the same way. */
export const otpWhitelistStatusResponse = pageOf(otpWhitelistEntry);
