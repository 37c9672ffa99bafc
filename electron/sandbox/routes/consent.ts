// Consent: OTP sending, the four shapes of claims/authorize, the authorization look-up and reject,
// and the doctor consent requests.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { SandboxContext } from '../context';
import { fail } from '../errors';
import {
  OTP_TTL_MS,
  checkOtp,
  createAuthorization,
  effectiveScheme,
  notifyDoctor,
  phaseFor,
  requireCapitationServiceType,
  requireFitsServiceType,
  requireInterventions,
  requireNoPendingAuthorization,
  requireOtpConsentAllowed,
  requirePatient,
  sendDoctorOtp,
  sendPatientOtp,
  startBiometricAuthorization,
} from '../state/consent';
import type { ClaimRecord } from '../state/store';
import { tenantOf } from '../tenancy';
import { interventionList, otpField, parse, practitionerIdType, regulator, text } from '../validation';
import { authorizationView, biometricAuthorizeView } from '../views';
import { CATALOGUE, isEmergencyIntervention } from '../world/catalogue';
import type { Facility } from '../world/facilities';
import { requireClaim, requireEditable, requireProfessional } from './shared';

const contactId = z.union([z.string().trim().min(1), z.number().int()]).transform(String);

const otpRequest = z.object({
  patient_id: text,
  intervention_codes: interventionList,
  // A sends beneficiary_contact_id; one docs page (V) says contact_id: both are accepted.
  beneficiary_contact_id: contactId.optional(),
  contact_id: contactId.optional(),
});

/** The portal lists OUTPATIENT and INPATIENT; UAT accepts CAPITATION (R WORKFLOWS). */
const authorizeServiceType = z.enum(['CAPITATION', 'OUTPATIENT', 'INPATIENT']);

/**
 * The twelve fields of a biometric authorize (K, A, R). The live service refuses a capture without
 * the agent or the workstation (R); the device OS is one of two values (K).
 */
const biometricFields = {
  patient_id: text,
  service_type: authorizeServiceType,
  interventions: interventionList,
  agent_id: text,
  work_station_id: text,
  authorizing_device_os: z.enum(['windows', 'android']).optional(),
  factors: z.array(z.string().max(50)).max(10).optional(),
  ekyc_provider_id: z.string().trim().max(200).optional(),
  provider: z.string().trim().max(100).optional(),
  is_integration: z.boolean().optional(),
  is_emergency: z.boolean().optional(),
  is_biometrics_discharge_authorization: z.boolean().optional(),
};

const biometricAuthorize = z.object(biometricFields);

/** Visit-end consent: the live twelve-field body naming the patient (A), or the contract's consent_token. */
const dischargeAuthorize = z.union([
  z.object({ consent_token: text, work_station_id: z.string().trim().max(200).optional() }),
  z.object(biometricFields).extend({ is_biometrics_discharge_authorization: z.literal(true) }),
]);

/** Elective pre-visit consent by OTP: interventions and service_type required (R docs, A). */
const otpAuthorize = z.object({
  patient_id: text,
  otp: otpField,
  interventions: interventionList,
  service_type: authorizeServiceType,
  beneficiary_contact_id: contactId.optional(),
});

const emergencyAuthorize = z.object({
  is_emergency: z.literal(true),
  otp: otpField,
  identification_number: text,
  identification_type: practitionerIdType,
  regulation_body: regulator,
  intervention_code: text,
});

const emergencyDoctorConsent = z.object({
  is_emergency: z.literal(true),
  identification_number: text,
  identification_type: practitionerIdType,
  regulation_body: regulator,
  intervention_code: text,
});

const preauthDoctorConsent = z.object({ consent_token: text, intervention_code: text });
const dischargeOtpRequest = z.object({ consent_token: text, patient_id: text.optional() });
const authorizationLookup = z
  .object({ token: text.optional(), guid: text.optional(), beneficiary_code: z.string().optional() })
  .refine((v) => v.token !== undefined || v.guid !== undefined, { path: ['token'], message: 'token or guid is required' });

function requireEmergencyIntervention(code: string) {
  const intervention = CATALOGUE.interventionByCode.get(code);
  if (intervention === undefined || !isEmergencyIntervention(intervention)) {
    throw fail.rule('INTERVENTION_NOT_ALLOWED', `${code} is not an emergency intervention (SHA-01…)`);
  }
  return intervention;
}

/**
 * The claim a visit-end consent is for: named by consent_token, or the patient's one open claim
 * (of these interventions, when named).
 */
function dischargeClaim(
  ctx: SandboxContext,
  facility: Facility,
  body: { consent_token?: string | undefined; patient_id?: string | undefined; interventions?: readonly string[] | undefined },
): ClaimRecord {
  let claim: ClaimRecord;
  if (body.consent_token !== undefined) {
    claim = requireClaim(ctx, facility, body.consent_token);
  } else {
    const open = [...ctx.state.claims.values()].filter(
      (c) =>
        c.facility === facility.code &&
        c.patient_id === body.patient_id &&
        c.workflow_state === 'DRAFT' &&
        (body.interventions === undefined || body.interventions.every((code) => c.interventions.includes(code))),
    );
    const only = open[0];
    if (only === undefined) throw fail.notFound(`No open claim for patient ${body.patient_id ?? ''} at ${facility.code}`);
    if (open.length > 1) throw fail.field('consent_token', 'the patient has several open claims: name one with consent_token');
    claim = only;
  }
  if (body.patient_id !== undefined && body.patient_id !== claim.patient_id) {
    throw fail.rule('AUTHORIZATION_MISMATCH', `Claim ${claim.consent_token} is not patient ${body.patient_id}'s`);
  }
  if (claim.kind === 'emergency') {
    throw fail.rule('NOT_APPLICABLE_TO_EMERGENCY', 'Emergency claims have no visit-end consent: submit them directly');
  }
  requireEditable(claim);
  return claim;
}

export function consentRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post('/claims/otp', async (request) => {
    const facility = tenantOf(request);
    const body = parse(otpRequest, request.body);
    const patient = requirePatient(body.patient_id);
    const interventions = requireInterventions(body.intervention_codes);
    // Identifying an emergency patient is by OTP only, whatever the facility enforces, and the
    // emergency fund does not depend on the member's cover.
    const emergencyOnly = interventions.every(isEmergencyIntervention);
    if (!emergencyOnly) effectiveScheme(ctx, patient);
    requireNoPendingAuthorization(ctx, facility, patient.crId);
    if (!emergencyOnly) requireOtpConsentAllowed(ctx, facility, patient);
    const sent = sendPatientOtp(ctx, {
      facility,
      purpose: 'consent',
      patient,
      contactId: body.beneficiary_contact_id ?? body.contact_id,
      interventions: interventions.map((i) => i.intervention_code),
      claimToken: null,
    });
    return { message: `OTP sent to ${sent.contact}`, contact: sent.contact, expires_in: OTP_TTL_MS / 1000 };
  });

  app.post('/claims/otp/discharge', async (request) => {
    const facility = tenantOf(request);
    const body = parse(dischargeOtpRequest, request.body);
    const claim = dischargeClaim(ctx, facility, body);
    const patient = requirePatient(claim.patient_id ?? '');
    const sent = sendPatientOtp(ctx, {
      facility,
      purpose: 'discharge',
      patient,
      interventions: claim.interventions,
      claimToken: claim.consent_token,
    });
    return { message: `Discharge OTP sent to ${sent.contact}`, contact: sent.contact, expires_in: OTP_TTL_MS / 1000 };
  });

  app.post('/claims/authorize', async (request) => {
    const facility = tenantOf(request);
    const raw = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<string, unknown>;

    if (raw['is_emergency'] === true && raw['otp'] !== undefined && raw['patient_id'] === undefined) {
      const body = parse(emergencyAuthorize, raw);
      const doctor = requireProfessional(body.identification_type, body.identification_number, body.regulation_body);
      requireEmergencyIntervention(body.intervention_code);
      const otp = checkOtp(ctx, { facility, purpose: 'emergency_consent', code: body.otp, doctorRegistrationNumber: doctor.registrationNumber });
      if (!otp.interventions.includes(body.intervention_code)) {
        throw fail.rule('AUTHORIZATION_MISMATCH', `The doctor's code was sent for ${otp.interventions.join(', ')}, not ${body.intervention_code}`);
      }
      otp.used_at = ctx.now();
      const a = createAuthorization(ctx, {
        facility,
        patient: null,
        interventions: [body.intervention_code],
        serviceType: 'EMERGENCY',
        phase: 'emergency',
        method: 'otp',
        status: 'EMERGENCY_AUTHORIZED',
        doctor: { identification_type: body.identification_type, identification_number: body.identification_number, regulation_body: body.regulation_body },
        request: raw,
      });
      return { status: a.status, token: a.token, authorization_code: a.token, guid: a.guid };
    }

    if (raw['otp'] !== undefined) {
      const body = parse(otpAuthorize, raw);
      const patient = requirePatient(body.patient_id);
      effectiveScheme(ctx, patient);
      requireNoPendingAuthorization(ctx, facility, patient.crId);
      requireOtpConsentAllowed(ctx, facility, patient);
      const interventions = requireInterventions(body.interventions);
      requireFitsServiceType(interventions, body.service_type);
      requireCapitationServiceType(interventions, body.service_type);
      const otp = checkOtp(ctx, { facility, purpose: 'consent', code: body.otp, patientId: patient.crId });
      const outside = body.interventions.filter((c) => !otp.interventions.includes(c));
      if (outside.length > 0) throw fail.rule('AUTHORIZATION_MISMATCH', `The OTP was not sent for ${outside.join(', ')}`);
      const phase = phaseFor(ctx, facility, patient.crId, interventions);
      otp.used_at = ctx.now();
      const a = createAuthorization(ctx, {
        facility,
        patient,
        interventions: interventions.map((i) => i.intervention_code),
        serviceType: body.service_type,
        phase,
        method: 'otp',
        status: phase === 'pre_visit' ? 'AUTHORIZED_PENDING_VISIT' : 'AUTHORIZED',
        request: { ...raw, otp: '******' },
      });
      return { token: a.token, guid: a.guid, status: a.status, label: a.label, ...(a.patient_id === null ? {} : { beneficiaryCode: a.patient_id }) };
    }

    if (raw['consent_token'] !== undefined || raw['is_biometrics_discharge_authorization'] === true) {
      const body = parse(dischargeAuthorize, raw);
      if ('service_type' in body) requireCapitationServiceType(requireInterventions(body.interventions), body.service_type);
      const claim = dischargeClaim(ctx, facility, body);
      const patient = requirePatient(claim.patient_id ?? '');
      const a = startBiometricAuthorization(ctx, {
        facility,
        patient,
        interventions: claim.interventions,
        serviceType: claim.service_type,
        phase: 'discharge',
        claimToken: claim.consent_token,
        workStationId: body.work_station_id ?? null,
        request: raw,
      });
      return biometricAuthorizeView(ctx, a);
    }

    const body = parse(biometricAuthorize, raw);
    const patient = requirePatient(body.patient_id);
    effectiveScheme(ctx, patient);
    const interventions = requireInterventions(body.interventions);
    requireFitsServiceType(interventions, body.service_type);
    requireCapitationServiceType(interventions, body.service_type);
    const a = startBiometricAuthorization(ctx, {
      facility,
      patient,
      interventions: interventions.map((i) => i.intervention_code),
      serviceType: body.service_type,
      phase: phaseFor(ctx, facility, patient.crId, interventions),
      workStationId: body.work_station_id ?? null,
      request: raw,
    });
    return biometricAuthorizeView(ctx, a);
  });

  app.get('/claims/authorizations', async (request) => {
    const facility = tenantOf(request);
    const query = parse(authorizationLookup, request.query, 'query');
    ctx.sweep();
    const a =
      query.guid !== undefined ? ctx.state.authorizationByGuid(facility.code, query.guid) : ctx.state.authorizationByToken(facility.code, query.token ?? '');
    if (a === undefined || (query.token !== undefined && a.token !== query.token)) {
      throw fail.notFound('No authorization with that token/guid at this facility');
    }
    return authorizationView(a);
  });

  app.post<{ Params: { token: string } }>('/claims/authorizations/:token/reject', async (request) => {
    const facility = tenantOf(request);
    ctx.sweep();
    const a = ctx.state.authorizationByToken(facility.code, request.params.token) ?? ctx.state.authorizationByGuid(facility.code, request.params.token);
    if (a === undefined) throw fail.notFound(`No authorization with token ${request.params.token} at this facility`);
    ctx.state.fireAuthorization(a, 'reject', 'AUTHORIZATION_NOT_PENDING', 'rejected by the facility');
    a.reason = 'REJECTED_BY_FACILITY';
    return { message: 'The authorization has been closed.' };
  });

  app.post('/claims/doctor-consent', async (request) => {
    const facility = tenantOf(request);
    const raw = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<string, unknown>;
    if (raw['is_emergency'] === true) {
      const body = parse(emergencyDoctorConsent, raw);
      const doctor = requireProfessional(body.identification_type, body.identification_number, body.regulation_body);
      requireEmergencyIntervention(body.intervention_code);
      const sent = sendDoctorOtp(ctx, facility, doctor, body.intervention_code);
      return { message: `Emergency consent code sent to the doctor at ${sent.contact}`, contact: sent.contact, expires_in: OTP_TTL_MS / 1000 };
    }
    const body = parse(preauthDoctorConsent, raw);
    const preauth = [...ctx.state.preauths.values()]
      .reverse()
      .find((p) => p.facility === facility.code && p.consent_token === body.consent_token && p.intervention_code === body.intervention_code);
    if (preauth === undefined) throw fail.notFound(`No preauthorization for ${body.intervention_code} with that consent_token`);
    if (preauth.status !== 'PENDING_DOCTOR_APPROVAL') {
      throw fail.conflict('PREAUTH_NOT_EDITABLE', `The preauthorization is ${preauth.status}: the doctor's consent is no longer awaited`);
    }
    if (preauth.doctor === null) throw fail.rule('NO_DOCTOR_ATTACHED', 'The preauthorization has no doctor to ask');
    const doctor = requireProfessional('registration_number', preauth.doctor.registration_number, preauth.doctor.regulation_body);
    notifyDoctor(
      ctx,
      facility,
      doctor,
      'preauth_doctor_consent',
      `Reminder: ${facility.name} asks you to confirm preauthorization ${preauth.id} for ${preauth.intervention_code}.`,
    );
    return { message: `Doctor consent request resent to ${preauth.doctor.name}` };
  });
}

