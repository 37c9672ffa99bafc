// Emergency (ECCIF): protocols, the doctor's consent OTP, the emergency authorize, and the claim
// created for an unidentified patient and later identified on the same path.
import { z } from 'zod';
import {
  amount,
  list,
  nonEmpty,
  optionalBoolean,
  optionalNumber,
  optionalStatus,
  optionalText,
  otpDigits,
  pageOf,
  pageQuery,
  record,
  requireExactlyOne,
  text,
  type JsonValue,
} from './common';
import type { WorkflowState } from './claims';

export const modesOfArrival = ['AMBULANCE', 'WALK-IN', 'OTHER'] as const;
export const broughtBy = ['RELATIVE', 'UNKNOWN', 'SAMARITAN', 'PARAMEDICS'] as const;

export const protocolsQuery = z.strictObject({
  active: z.boolean().optional(),
  intervention_code: nonEmpty.optional(),
  ...pageQuery,
});

export interface EmergencyProtocol {
  readonly protocolCode: string;
  readonly name: string | undefined;
  readonly interventionCode: string | undefined;
  readonly applicableTariff: number | undefined;
  readonly active: boolean | undefined;
}

const protocol = z
  .looseObject({
    protocolCode: optionalText,
    protocol_code: optionalText,
    name: optionalText,
    intervention_code: optionalText,
    applicableTariff: optionalNumber,
    active: optionalBoolean,
  })
  .refine((p) => (p.protocolCode ?? p.protocol_code) !== undefined, { message: 'protocol without protocolCode', path: ['protocolCode'] })
  .transform(
    (p): EmergencyProtocol => ({
      protocolCode: String(p.protocolCode ?? p.protocol_code),
      name: p.name,
      interventionCode: p.intervention_code,
      applicableTariff: p.applicableTariff,
      active: p.active,
    }),
  );

export const protocolsResponse = pageOf(protocol);

/** The doctor who takes responsibility: identified by all three fields. */
const doctor = {
  identification_number: nonEmpty,
  identification_type: nonEmpty,
  regulation_body: nonEmpty,
};

/** POST /claims/doctor-consent, emergency shape: an OTP goes to the doctor. */
export const emergencyDoctorOtpRequest = z.strictObject({ ...doctor, intervention_code: nonEmpty });

/** POST /claims/authorize, emergency shape: the doctor's OTP yields the claim's consent_token. */
export const emergencyAuthorizeRequest = z.strictObject({
  otp: otpDigits,
  ...doctor,
  intervention_code: nonEmpty,
});

export interface EmergencyAuthorization {
  /** authorization_code (= token): the consent_token of the emergency claim. */
  readonly consentToken: string;
  readonly status: string | undefined;
}

export const emergencyAuthorizeResponse = z
  .looseObject({ authorization_code: optionalText, token: optionalText, status: optionalStatus })
  .refine((a) => (a.authorization_code ?? a.token) !== undefined, {
    message: 'emergency authorization without authorization_code',
    path: ['authorization_code'],
  })
  .transform((a): EmergencyAuthorization => ({ consentToken: String(a.authorization_code ?? a.token), status: a.status }));

const claimFields = {
  consent_token: nonEmpty,
  /** Exactly one intervention per emergency claim: this, or `interventions` with one entry. */
  intervention_code: nonEmpty.optional(),
  interventions: z.array(nonEmpty).length(1, 'an emergency claim has exactly one intervention').optional(),
  protocol_code: nonEmpty,
  unit_price: amount,
  mode_of_arrival: z.enum(modesOfArrival),
  brought_by: z.enum(broughtBy),
  reference_number: nonEmpty.optional(),
  ...doctor,
  notes: z.string().optional(),
};

const oneIntervention = (v: Record<string, unknown>, ctx: Parameters<typeof requireExactlyOne>[2]) =>
  requireExactlyOne(v, ['intervention_code', 'interventions'], ctx, 'emergency intervention (exactly one per claim)');

/** Creation for a patient not (yet) identified: no beneficiary_cr_id, no patient OTP. */
export const createEmergencyClaimRequest = z.strictObject(claimFields).superRefine(oneIntervention);

/** Identification re-posts the original payload plus beneficiary_cr_id and the patient's OTP. */
export const identifyEmergencyClaimRequest = z
  .strictObject({
    ...claimFields,
    beneficiary_cr_id: nonEmpty,
    otp: otpDigits,
  })
  .superRefine(oneIntervention);

export interface EmergencyClaim {
  readonly consentToken: string;
  readonly workflowState: WorkflowState | undefined;
  readonly emergencyAt: string | undefined;
  /** Submit before this (24 hours after the emergency). */
  readonly submitDeadline: string | undefined;
  readonly beneficiaryCrId: string | undefined;
  readonly protocols: Record<string, JsonValue>[];
}

export const emergencyClaimResponse = z
  .looseObject({
    consent_token: text,
    workflow_state: optionalStatus,
    emergency_at: optionalText,
    submit_deadline: optionalText,
    beneficiary_cr_id: optionalText,
    protocols: list(record),
  })
  .transform(
    (c): EmergencyClaim => ({
      consentToken: c.consent_token,
      workflowState: c.workflow_state,
      emergencyAt: c.emergency_at,
      submitDeadline: c.submit_deadline,
      beneficiaryCrId: c.beneficiary_cr_id,
      protocols: c.protocols,
    }),
  );
