// Consent: OTP sending, the shapes of claims/authorize, the authorization look-up and reject. The
// doctor consent requests are in doctor-consent.ts.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { authorizeServiceTypes, deviceOperatingSystems } from '../../vocabulary';
import type { SandboxContext } from '../context';
import { fail } from '../errors';
import {
  OTP_TTL_MS,
  checkOtp,
  createAuthorization,
  effectiveScheme,
  phaseFor,
  requireCapitationServiceType,
  requireFitsServiceType,
  requireInterventions,
  requireNoPendingAuthorization,
  requireOtpConsentAllowed,
  requirePatient,
  sendPatientOtp,
  startBiometricAuthorization,
  verifyTextedAuthorization,
} from '../state/consent';
import type { AuthorizationRecord, ClaimRecord } from '../state/store';
import { tenantOf } from '../tenancy';
import { interventionList, otpField, parse, text } from '../validation';
import { authorizationView, biometricAuthorizeView } from '../views';
import { isEmergencyIntervention } from '../world/catalogue';
import type { Facility } from '../world/facilities';
import { requireClaim, requireEditable } from './shared';

/** A contact's id, number or string; an empty one is none given (A sends `beneficiary_contact_id: ''` when it has none, `claims-otp.service.ts`). */
const contactId = z
  .union([z.string().trim(), z.number().int()])
  .transform(String)
  .transform((id) => (id === '' ? undefined : id));

const otpRequest = z.object({
  patient_id: text,
  intervention_codes: interventionList,
  // A sends beneficiary_contact_id; one docs page (V) says contact_id: both are accepted.
  beneficiary_contact_id: contactId.optional(),
  contact_id: contactId.optional(),
});

/** The portal lists OUTPATIENT and INPATIENT; UAT accepts CAPITATION (R WORKFLOWS). */
const authorizeServiceType = z.enum(authorizeServiceTypes);

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
  authorizing_device_os: z.enum(deviceOperatingSystems).optional(),
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

/**
 * R's two-step consent: an authorize with neither code nor biometric fields (R `requests.py`
 * `authorize()`: patient_id, service_type, interventions) answers PENDING and texts the patient a
 * code; the code then opens the visit (or is given to the OTP authorize) as one from POST
 * /claims/otp does (R CHANGELOG 0.1.2, WORKFLOWS §9 "two-step handshake").
 */
const codeSendingAuthorize = z.object({
  patient_id: text,
  service_type: authorizeServiceType,
  interventions: interventionList,
});

/** Fields only a biometric authorize carries: any of them makes the request one. */
const BIOMETRIC_ONLY = ['agent_id', 'work_station_id', 'authorizing_device_os', 'factors', 'ekyc_provider_id', 'provider', 'is_integration'] as const;

const dischargeOtpRequest = z.object({ consent_token: text, patient_id: text.optional() });
/** Without token or guid the facility's authorizations are listed; beneficiary_code is ignored, as on UAT (R WORKFLOWS §9). */
const authorizationLookup = z.object({ token: text.optional(), guid: text.optional(), beneficiary_code: z.string().optional() });

/**
 * A visit's authorization once its claim has moved on: R WORKFLOWS §9 names SUBMITTED_CLAIM and
 * CLOSED among the live statuses, but no source says at which step the live service moves it
 * (ours: from the claim's own state, submitted onwards or closed).
 */
function listedStatus(ctx: SandboxContext, a: AuthorizationRecord): string {
  if ((a.phase !== 'visit' && a.phase !== 'pre_visit') || a.claim_consent_token === null) return a.status;
  const claim = ctx.state.claimByToken(a.facility, a.claim_consent_token);
  if (claim === undefined || claim.workflow_state === 'DRAFT') return a.status;
  return claim.workflow_state === 'CLOSED' ? 'CLOSED' : 'SUBMITTED_CLAIM';
}

const listed = (ctx: SandboxContext, a: AuthorizationRecord) => ({ ...authorizationView(a), status: listedStatus(ctx, a) });

/**
 * The authorization that opened the patient's open visit, when it covers these interventions:
 * "authorize likewise returns the open AUTHORIZED record instead of a new PENDING one" (R
 * WORKFLOWS §9, item 2). Covering the interventions asked is ours: no source tries others.
 */
function openVisitAuthorization(ctx: SandboxContext, facility: string, patientId: string, interventions: readonly string[]): AuthorizationRecord | undefined {
  for (const a of ctx.state.authorizations.values()) {
    if (a.facility !== facility || a.patient_id !== patientId || a.phase !== 'visit') continue;
    if (a.status !== 'AUTHORIZED' && a.status !== 'AUTHORIZED_MULTISESSION') continue;
    const claim = a.claim_consent_token === null ? undefined : ctx.state.claimByToken(facility, a.claim_consent_token);
    if (claim?.workflow_state === 'DRAFT' && interventions.every((code) => claim.interventions.includes(code))) return a;
  }
  return undefined;
}

/**
 * What every authorize for a visit checks first, whichever way the patient is to consent: a covered
 * patient, known interventions fitting the service type (a capitation one only under CAPITATION),
 * and the patient's open visit covering them, if there is one (answered instead of a new consent).
 */
function visitConsentFor(ctx: SandboxContext, facility: Facility, body: { patient_id: string; service_type: string; interventions: readonly string[] }) {
  const patient = requirePatient(body.patient_id);
  effectiveScheme(ctx, patient);
  const interventions = requireInterventions(body.interventions);
  requireFitsServiceType(interventions, body.service_type);
  requireCapitationServiceType(interventions, body.service_type);
  return { patient, interventions, open: openVisitAuthorization(ctx, facility.code, patient.crId, body.interventions) };
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
      const a =
        verifyTextedAuthorization(ctx, otp, phase) ??
        createAuthorization(ctx, {
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

    if (!BIOMETRIC_ONLY.some((field) => raw[field] !== undefined)) {
      const body = parse(codeSendingAuthorize, raw);
      const { patient, interventions, open } = visitConsentFor(ctx, facility, body);
      if (open !== undefined) return listed(ctx, open);
      requireNoPendingAuthorization(ctx, facility, patient.crId);
      requireOtpConsentAllowed(ctx, facility, patient);
      const codes = interventions.map((i) => i.intervention_code);
      const a = createAuthorization(ctx, {
        facility,
        patient,
        interventions: codes,
        serviceType: body.service_type,
        phase: phaseFor(ctx, facility, patient.crId, interventions),
        method: 'otp',
        status: 'PENDING',
        request: raw,
      });
      const sent = sendPatientOtp(ctx, { facility, purpose: 'consent', patient, interventions: codes, claimToken: null, authorizationGuid: a.guid });
      // R saw guid, token, status PENDING, label and isOpen; the contact is the OTP send's word.
      return { token: a.token, guid: a.guid, status: a.status, label: a.label, isOpen: true, beneficiaryCode: patient.crId, contact: sent.contact };
    }

    const body = parse(biometricAuthorize, raw);
    const { patient, interventions, open } = visitConsentFor(ctx, facility, body);
    if (open !== undefined) return listed(ctx, open);
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
    if (query.token === undefined && query.guid === undefined) {
      return [...ctx.state.authorizations.values()].filter((a) => a.facility === facility.code).sort((x, y) => y.created_at - x.created_at).map((a) => listed(ctx, a));
    }
    const a =
      query.guid !== undefined ? ctx.state.authorizationByGuid(facility.code, query.guid) : ctx.state.authorizationByToken(facility.code, query.token ?? '');
    if (a === undefined || (query.token !== undefined && a.token !== query.token)) {
      throw fail.notFound('No authorization with that token/guid at this facility');
    }
    return listed(ctx, a);
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
}
