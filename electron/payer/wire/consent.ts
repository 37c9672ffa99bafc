// Consent: contacts, OTPs, the four shapes of POST /claims/authorize, the authorization look-up
// and reject, the doctor's consent request, and the OTP whitelist.
import { z } from 'zod';
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
  practitionerIdentificationType,
  regulationBody,
  requireAllOrNone,
  serviceType,
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
  /** The contract's name; the sandbox also accepts beneficiary_contact_id. */
  contact_id: nonEmpty.optional(),
});

export const dischargeOtpRequest = z.strictObject({
  consent_token: nonEmpty,
  /** Outpatient claims name the patient too. */
  patient_id: nonEmpty.optional(),
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

export const authorizationStatuses = [
  'PENDING',
  'AUTHORIZED',
  'AUTHORIZED_PENDING_VISIT',
  'REJECTED',
  'EXPIRED',
  'SUBMITTED_CLAIM',
  'AUTHORIZED_MULTISESSION',
  'EMERGENCY_AUTHORIZED',
  'CLOSED',
] as const;
export type AuthorizationStatus = (typeof authorizationStatuses)[number] | (string & {});

export const authorizeOtpRequest = z
  .strictObject({
    patient_id: nonEmpty,
    otp: otpDigits,
    intervention_codes: z.array(nonEmpty).min(1).optional(),
    interventions: z.array(nonEmpty).min(1).optional(),
    service_type: serviceType.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.intervention_codes !== undefined && v.interventions !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['interventions'], message: 'give intervention_codes or interventions, not both' });
    }
  });

export const deviceOperatingSystems = ['windows', 'android', 'linux', 'macos'] as const;

/** The fields every biometric authorize carries (field notes, [3x]). */
const biometricFields = {
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

export const authorizeBiometricRequest = z.strictObject({
  patient_id: nonEmpty,
  service_type: serviceType,
  interventions: z.array(nonEmpty).min(1, 'give at least one intervention'),
  ...biometricFields,
});

export const authorizeDischargeRequest = z.strictObject({
  consent_token: nonEmpty,
  patient_id: nonEmpty.optional(),
  service_type: serviceType.optional(),
  interventions: z.array(nonEmpty).min(1).optional(),
  ...biometricFields,
});

export interface Authorization {
  /** The authorization token: consent_token of a preauth; keep it on the main side. */
  readonly token: string | undefined;
  /** Identifier of a biometric authorization: auth_guid of the visit. */
  readonly guid: string | undefined;
  readonly status: AuthorizationStatus;
  readonly label: string | undefined;
  readonly expiry: string | undefined;
  /** The page where the patient matches fingerprints (the contract's "iframe link"). */
  readonly verificationUrl: string | undefined;
  readonly verificationExpiry: string | undefined;
  readonly verificationRequestId: string | undefined;
  readonly workStationId: string | undefined;
  /** Visit-end (discharge) authorization identifier, used as discharge_auth_guid. */
  readonly dischargeAuthGuid: string | undefined;
}

const verificationRequest = z.looseObject({
  embedExpiry: optionalText,
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
  iframe_link: optionalText,
  iframeLink: optionalText,
  discharge_auth_guid: optionalText,
});

function toAuthorization(a: z.output<typeof authorizationWire>): Authorization {
  return {
    token: a.token,
    guid: a.guid,
    status: a.status,
    label: a.label,
    expiry: a.expiry,
    verificationUrl: a.shaVerificationRequest?.requestUrl ?? a.iframe_link ?? a.iframeLink,
    verificationExpiry: a.shaVerificationRequest?.embedExpiry,
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

/** Visit-end authorize: discharge_auth_guid (or guid), PENDING or immediately AUTHORIZED. */
export const authorizeDischargeResponse = authorizationWire
  .refine((a) => (a.discharge_auth_guid ?? a.guid) !== undefined, {
    message: 'discharge authorization without discharge_auth_guid',
    path: ['discharge_auth_guid'],
  })
  .transform((a) => {
    const auth = toAuthorization(a);
    return { ...auth, dischargeAuthGuid: auth.dischargeAuthGuid ?? auth.guid };
  });

// ---------------------------------------------------------------- look-up and reject

export const authorizationQuery = z
  .strictObject({ token: nonEmpty.optional(), guid: nonEmpty.optional() })
  .superRefine((v, ctx) => {
    if (v.token === undefined && v.guid === undefined) {
      ctx.addIssue({ code: 'custom', path: ['token'], message: 'give token or guid (or both)' });
    }
  });

export interface AuthorizationRecord extends Authorization {
  readonly patientId: string | undefined;
  readonly interventions: string[];
  readonly serviceType: string | undefined;
  readonly reason: string | undefined;
  readonly createdAt: string | undefined;
}

const authorizationRecord = authorizationWire
  .extend({
    patient_id: optionalText,
    interventions: list(interventionRef),
    service_type: optionalText,
    reason: optionalText,
    created_at: optionalText,
  })
  .transform(
    (a): AuthorizationRecord => ({
      ...toAuthorization(a),
      patientId: a.patient_id,
      interventions: a.interventions,
      serviceType: a.service_type,
      reason: a.reason,
      createdAt: a.created_at,
    }),
  );

/**
 * The record [doc], or `{results: [record]}`: the first record is the answer; an empty list means
 * the exchange knows no such authorization (reported as `results` missing an entry).
 */
export const authorizationLookupResponse = oneOrMany(authorizationRecord).transform((records, ctx): AuthorizationRecord => {
  const [first] = records;
  if (first === undefined) {
    ctx.addIssue({ code: 'custom', path: ['results', 0], message: 'no authorization in the answer', input: records });
    return z.NEVER;
  }
  return first;
});

export const rejectAuthorizationRequest = z.strictObject({ token: nonEmpty });

export interface AuthorizationRejected {
  readonly message: string | undefined;
  readonly authorization: AuthorizationRecord | undefined;
}

export const rejectAuthorizationResponse = z
  .union([
    z.undefined().transform(() => ({ message: undefined, authorization: undefined })),
    z.looseObject({ message: optionalText, authorization: optional(authorizationRecord) }),
  ])
  .transform((r): AuthorizationRejected => ({ message: r.message, authorization: r.authorization }));

// ---------------------------------------------------------------- doctor consent, OTP whitelist

/** request_type of POST /claims/doctor-consent: required (portal; A's DTO; R `doctor_consent()`). */
export const doctorConsentRequestTypes = ['PREAUTH_DOCTOR_APPROVAL_REQUEST', 'EMERGENCY_CLAIM_DOCTOR_APPROVAL_REQUEST', 'PRESCRIPTION_REQUEST'] as const;
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

export const otpWhitelistReasons = [
  'OLD',
  'AMPUTEE',
  'MEDICAL_CONDITION',
  'MENTALLY_UNSTABLE',
  'ONCOLOGY_TREATMENT',
  'DIALYSIS_TREATMENT',
  'CONSTRUCTION_WORKER',
  'OTHER',
  'EXPIRED',
  'BIOMETRIC_FAILURE',
  'CHILD_BELOW_7_YEARS',
  'PRIVACY_CONCERNS',
  'TECHNICAL_ISSUES',
] as const;

export const otpWhitelistRequest = z
  .strictObject({
    beneficiary_cr_id: nonEmpty,
    reason_type: z.enum(otpWhitelistReasons),
    /** Free text; required when reason_type is OTHER, since no listed reason says why. */
    reason_text: z.string().optional(),
    attachment: fileInput.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.reason_type === 'OTHER' && (v.reason_text ?? '').trim() === '') {
      ctx.addIssue({ code: 'custom', path: ['reason_text'], message: 'reason_text is required when reason_type is OTHER: say why the patient needs OTP consent' });
    }
  });

export const otpWhitelistStatusQuery = z.strictObject({ beneficiary_cr_id: nonEmpty, guid: nonEmpty });

export interface OtpWhitelistRequest {
  readonly guid: string;
  readonly status: string;
}

export const otpWhitelistResponse = z
  .looseObject({ guid: text, status })
  .transform((w): OtpWhitelistRequest => ({ guid: w.guid, status: w.status }));

