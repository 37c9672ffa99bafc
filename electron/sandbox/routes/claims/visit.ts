// Opening a visit: POST /claims/visit with the patient's consent (an SMS code or a fingerprint
// authorization's guid). The visit is the claim: its consent_token is every later call's key.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { SandboxContext } from '../../context';
import { fail } from '../../errors';
import {
  checkOtp,
  createAuthorization,
  effectiveScheme,
  finalisedPreauthFor,
  requireCapitationServiceType,
  requireFitsServiceType,
  requireInterventions,
  requireNoPendingAuthorization,
  requireOtpConsentAllowed,
  requirePatient,
  verifyTextedAuthorization,
} from '../../state/consent';
import type { AuthorizationRecord, OtpRecord, PreauthRecord } from '../../state/store';
import { tenantOf } from '../../tenancy';
import { interventionList, otpField, parse, practitionerFields, practitionerFrom, serviceType, text } from '../../validation';
import { visitView } from '../../views';
import { attachDoctor, newClaim } from './records';

/**
 * `intervention_codes` is a required array on the live service (R docs, A, R): a visit naming its
 * intervention with the singular `intervention_code` is refused, naming the field.
 */
const visitRequest = z
  .object({
    patient_id: text,
    intervention_code: z.unknown().optional(),
    intervention_codes: interventionList.optional(),
    service_type: serviceType,
    otp: otpField.optional(),
    auth_guid: text.optional(),
    ...practitionerFields,
    workstation_id: z.string().trim().max(200).optional(),
    device_id: z.string().trim().max(200).optional(),
    device_name: z.string().trim().max(200).optional(),
    is_biometrics: z.boolean().optional(),
    request_user_national_id: z.string().trim().max(50).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.intervention_codes === undefined) {
      const singular = v.intervention_code === undefined ? '' : ' (the singular intervention_code is not accepted)';
      ctx.addIssue({ code: 'custom', path: ['intervention_codes'], message: `required: an array of intervention codes${singular}` });
    } else if (v.intervention_code !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['intervention_code'], message: 'not a field of the visit: give the codes in intervention_codes only' });
    }
    if ((v.otp === undefined) === (v.auth_guid === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['otp'], message: 'exactly one consent strategy: otp or auth_guid' });
    }
  })
  .transform(({ intervention_code: _singular, intervention_codes, ...v }) => ({ ...v, intervention_codes: intervention_codes ?? [] }));

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}

export function visitRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post('/claims/visit', async (request) => {
    const facility = tenantOf(request);
    const body = parse(visitRequest, request.body);
    const practitioner = practitionerFrom(body);
    const patient = requirePatient(body.patient_id);
    const codes = [...new Set(body.intervention_codes)];
    ctx.sweep();

    // A re-post with the consent that opened a visit returns that visit (crash recovery).
    const reopened = [...ctx.state.claims.values()].find(
      (c) =>
        c.facility === facility.code &&
        c.patient_id === patient.crId &&
        ((body.otp !== undefined && c.opened_with.otp === body.otp && sameSet(c.interventions, codes)) ||
          (body.auth_guid !== undefined && c.opened_with.auth_guid === body.auth_guid)),
    );
    if (reopened !== undefined) return visitView(reopened);
    let a: AuthorizationRecord | undefined;
    if (body.auth_guid !== undefined) {
      a = ctx.state.authorizationByGuid(facility.code, body.auth_guid);
      if (a === undefined) throw fail.notFound(`No authorization ${body.auth_guid} at this facility`);
      if (a.patient_id !== patient.crId) throw fail.rule('AUTHORIZATION_MISMATCH', `Authorization ${a.guid} belongs to another patient`);
      const linked = a.claim_consent_token === null ? undefined : ctx.state.claimByToken(facility.code, a.claim_consent_token);
      if (linked !== undefined && a.phase !== 'discharge') return visitView(linked);
    }

    effectiveScheme(ctx, patient);
    const interventions = requireInterventions(codes);
    requireFitsServiceType(interventions, body.service_type);
    requireCapitationServiceType(interventions, body.service_type);

    let otp: OtpRecord | undefined;
    if (body.otp !== undefined) {
      requireNoPendingAuthorization(ctx, facility, patient.crId);
      requireOtpConsentAllowed(ctx, facility, patient);
      otp = checkOtp(ctx, { facility, purpose: 'consent', code: body.otp, patientId: patient.crId });
      const outside = codes.filter((c) => !otp?.interventions.includes(c));
      if (outside.length > 0) throw fail.rule('AUTHORIZATION_MISMATCH', `The OTP was not sent for ${outside.join(', ')}`);
    } else if (a !== undefined) {
      if (a.phase === 'discharge' || a.phase === 'emergency') {
        throw fail.rule('AUTHORIZATION_MISMATCH', `Authorization ${a.guid} is a ${a.phase} consent and cannot open a visit`);
      }
      const outside = codes.filter((c) => !a?.interventions.includes(c));
      if (outside.length > 0) throw fail.rule('AUTHORIZATION_MISMATCH', `Authorization ${a.guid} does not cover ${outside.join(', ')}`);
      if (a.status === 'AUTHORIZED_PENDING_VISIT') {
        throw fail.rule('PREAUTH_REQUIRED', 'The preauthorization of this consent is not FINALISED yet: the visit cannot open', [{ status: a.status }]);
      }
      if (a.status !== 'AUTHORIZED' && a.status !== 'AUTHORIZED_MULTISESSION') {
        throw fail.rule('AUTHORIZATION_NOT_AUTHORIZED', `Authorization ${a.guid} is ${a.status}, not AUTHORIZED`, [{ status: a.status }]);
      }
    }

    // Rule 1: an elective intervention needs an approved (FINALISED) preauth of this patient.
    const preauths: PreauthRecord[] = [];
    for (const i of interventions.filter((x) => x.needsPreauth)) {
      const p = finalisedPreauthFor(ctx, facility, patient.crId, i.intervention_code);
      if (p === undefined) {
        throw fail.rule('PREAUTH_REQUIRED', `${i.intervention_code} needs a FINALISED preauthorization of patient ${patient.crId} before the visit`);
      }
      preauths.push(p);
    }

    // An open visit for the same patient and interventions is returned, not duplicated.
    const open = [...ctx.state.claims.values()].find(
      (c) => c.facility === facility.code && c.patient_id === patient.crId && c.workflow_state === 'DRAFT' && sameSet(c.interventions, codes),
    );
    if (open !== undefined) {
      if (otp !== undefined) otp.used_at = ctx.now();
      return visitView(open);
    }

    if (a === undefined) {
      // OTP visit: the elective's own consent carries the preauth; a code an authorize texted
      // verifies that authorization; otherwise a new consent is made.
      const previsit = preauths[0] === undefined ? undefined : ctx.state.authorizations.get(preauths[0].authorization_guid);
      a =
        previsit !== undefined && previsit.status === 'AUTHORIZED' && previsit.claim_consent_token === null
          ? previsit
          : ((otp === undefined ? undefined : verifyTextedAuthorization(ctx, otp, 'visit')) ??
            createAuthorization(ctx, {
              facility,
              patient,
              interventions: codes,
              serviceType: body.service_type,
              phase: 'visit',
              method: 'otp',
              status: 'AUTHORIZED',
            }));
    }
    if (otp !== undefined) otp.used_at = ctx.now();
    const claim = newClaim(ctx, facility, {
      consentToken: a.token,
      patientId: patient.crId,
      kind: body.service_type === 'EMERGENCY' ? 'emergency' : 'visit',
      serviceType: body.service_type,
      interventions,
      authorization: a,
      claimAuthStatus: 'AUTHORIZED',
      openedWith: { otp: body.otp ?? null, auth_guid: body.auth_guid ?? null },
      emergency:
        body.service_type === 'EMERGENCY'
          ? { emergency_at: ctx.now(), mode_of_arrival: 'WALK-IN', brought_by: 'RELATIVE', reference_number: null, protocols: [], identified_at: ctx.now() }
          : null,
    });
    for (const p of preauths) {
      p.claim_consent_token = claim.consent_token;
      claim.preauth_id = p.id;
    }
    attachDoctor(claim, practitioner);
    return visitView(claim);
  });

}
