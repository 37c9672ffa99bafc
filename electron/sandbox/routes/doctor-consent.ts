// POST /claims/doctor-consent: a request to a doctor, told apart by its required request_type —
// the preauth doctor's approval (sent again), the attending doctor's approval of an emergency
// claim (once the claim exists), or a prescription's. Each is an SMS to the doctor; no state moves.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { doctorConsentRequestTypes } from '../../vocabulary';
import type { SandboxContext } from '../context';
import { fail } from '../errors';
import { notifyDoctor } from '../state/consent';
import { AWAITING_DOCTOR } from '../state/machines';
import { tenantOf } from '../tenancy';
import { listedPractitionerIdType, listedRegulator, parse, text } from '../validation';
import type { Facility } from '../world/facilities';
import { findProfessional, type Professional } from '../world/professionals';
import { requireClaim, requireEditable, requireProfessional } from './shared';

const doctorConsentRequest = z
  .object({
    request_type: z.enum(doctorConsentRequestTypes),
    intervention_code: text,
    consent_token: text.optional(),
    emergency_claim_id: z.union([text, z.number().int()]).transform(String).optional(),
    practitioner_registration_number: text.optional(),
    identification_number: text.optional(),
    identification_type: listedPractitionerIdType.optional(),
    regulation_body: listedRegulator.optional(),
    service_type: z.string().trim().max(50).optional(),
    created: z.string().trim().max(100).optional(),
  })
  .superRefine((v, issue) => {
    const named = [v.identification_number, v.identification_type, v.regulation_body].filter((x) => x !== undefined).length;
    if (named > 0 && named < 3) {
      for (const field of ['identification_number', 'identification_type', 'regulation_body'] as const) {
        if (v[field] === undefined) issue.addIssue({ code: 'custom', path: [field], message: "the doctor's three identification fields come together" });
      }
    }
  });
type DoctorConsent = z.output<typeof doctorConsentRequest>;

const sent = (message: string) => ({ data: { status: 'success' }, message });

/** The doctor the request names: by the three identification fields, else by registration number. */
function namedDoctor(body: DoctorConsent): Professional | null {
  if (body.identification_number !== undefined && body.identification_type !== undefined && body.regulation_body !== undefined) {
    return requireProfessional(body.identification_type, body.identification_number, body.regulation_body);
  }
  if (body.practitioner_registration_number !== undefined) {
    const p = findProfessional('registration_number', body.practitioner_registration_number);
    if (p === undefined) throw fail.rule('PROFESSIONAL_NOT_FOUND', `No professional with registration number ${body.practitioner_registration_number} in the registry`);
    return p;
  }
  return null;
}

function requireConsentToken(body: DoctorConsent): string {
  if (body.consent_token === undefined) throw fail.field('consent_token', `required for ${body.request_type}`);
  return body.consent_token;
}

function preauthRequest(ctx: SandboxContext, facility: Facility, body: DoctorConsent) {
  const token = requireConsentToken(body);
  const preauth = [...ctx.state.preauths.values()]
    .reverse()
    .find((p) => p.facility === facility.code && p.consent_token === token && p.intervention_code === body.intervention_code);
  if (preauth === undefined) throw fail.notFound(`No preauthorization for ${body.intervention_code} with that consent_token`);
  if (!AWAITING_DOCTOR.includes(preauth.status)) {
    throw fail.conflict('PREAUTH_NOT_EDITABLE', `The preauthorization is ${preauth.status}: the doctor's consent is no longer awaited`);
  }
  if (preauth.doctor === null) throw fail.rule('NO_DOCTOR_ATTACHED', 'The preauthorization has no doctor to ask');
  const named = namedDoctor(body);
  if (named !== null && named.registrationNumber !== preauth.doctor.registration_number) {
    throw fail.notFound(`${named.registrationNumber} is not the doctor of preauthorization ${preauth.id}`);
  }
  const doctor = requireProfessional('registration_number', preauth.doctor.registration_number, preauth.doctor.regulation_body);
  notifyDoctor(ctx, facility, doctor, 'preauth_doctor_consent', `Reminder: ${facility.name} asks you to confirm preauthorization ${preauth.id} for ${preauth.intervention_code}.`);
  // A request that failed to reach the doctor is sent again: the preauth waits for them once more.
  if (preauth.status === 'DOCTOR_REQUEST_FAILED') ctx.state.firePreauth(preauth, 'doctor_request_resent', 'PREAUTH_NOT_EDITABLE', 'doctor request sent again');
  return sent(`Doctor consent request resent to ${preauth.doctor.name}`);
}

function emergencyRequest(ctx: SandboxContext, facility: Facility, body: DoctorConsent) {
  const byId = body.emergency_claim_id === undefined ? undefined : [...ctx.state.claims.values()].find((c) => c.facility === facility.code && c.kind === 'emergency' && c.guid === body.emergency_claim_id);
  if (body.emergency_claim_id !== undefined && byId === undefined) throw fail.notFound(`No emergency claim ${body.emergency_claim_id} at ${facility.code}`);
  const claim = byId ?? requireClaim(ctx, facility, requireConsentToken(body));
  if (body.consent_token !== undefined && claim.consent_token !== body.consent_token) {
    throw fail.rule('AUTHORIZATION_MISMATCH', `Emergency claim ${body.emergency_claim_id ?? ''} has another consent_token`);
  }
  if (claim.kind !== 'emergency' || claim.emergency === null) throw fail.rule('INTERVENTION_NOT_ALLOWED', 'The claim is not an emergency claim');
  requireEditable(claim);
  if (!claim.interventions.includes(body.intervention_code)) {
    throw fail.rule('AUTHORIZATION_MISMATCH', `The emergency claim is for ${claim.interventions.join(', ')}, not ${body.intervention_code}`);
  }
  const doctor = namedDoctor(body);
  if (doctor === null) throw fail.field('identification_number', 'name the attending doctor (identification_number, identification_type, regulation_body)');
  claim.emergency.doctor_approval_requested_at = ctx.now();
  notifyDoctor(ctx, facility, doctor, 'emergency_doctor_approval', `${facility.name} asks you to approve emergency claim ${claim.visit_number} (${body.intervention_code}).`);
  return sent(`Emergency claim approval requested from the doctor`);
}

function prescriptionRequest(ctx: SandboxContext, facility: Facility, body: DoctorConsent) {
  const token = requireConsentToken(body);
  const prescription = [...ctx.state.prescriptions].reverse().find((p) => p.facility === facility.code && p.consent_token === token && p.intervention_code === body.intervention_code);
  if (prescription === undefined) throw fail.notFound(`No prescription for ${body.intervention_code} with that consent_token`);
  const doctors = prescription.doctors.map((d) => requireProfessional('registration_number', d.registration_number, d.regulation_body));
  if (doctors.length === 0) throw fail.rule('NO_DOCTOR_ATTACHED', 'The prescription names no doctor to ask');
  for (const doctor of doctors) notifyDoctor(ctx, facility, doctor, 'prescription_doctor_consent', `${facility.name} asks you to review prescription ${prescription.code}.`);
  return sent('Prescription review requested from the doctor');
}

export function doctorConsentRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post('/claims/doctor-consent', async (request) => {
    const facility = tenantOf(request);
    const body = parse(doctorConsentRequest, request.body);
    switch (body.request_type) {
      case 'PREAUTH_DOCTOR_APPROVAL_REQUEST':
        return preauthRequest(ctx, facility, body);
      case 'EMERGENCY_CLAIM_DOCTOR_APPROVAL_REQUEST':
        return emergencyRequest(ctx, facility, body);
      case 'PRESCRIPTION_REQUEST':
        return prescriptionRequest(ctx, facility, body);
    }
  });
}
