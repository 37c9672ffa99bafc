// Preauthorization: create, preview, cancel, and removing a diagnosis or the doctor.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { SandboxContext } from '../context';
import { fail } from '../errors';
import { notifyDoctor, requireInterventions } from '../state/consent';
import { findPreauth } from '../state/preauths';
import type { PreauthRecord } from '../state/store';
import { tenantOf } from '../tenancy';
import { byConsentToken, diagnosis, doctorRemoval, money, parse, practitionerFields, practitionerFrom, text } from '../validation';
import { preauthView } from '../views';
import type { Facility } from '../world/facilities';
import { doctorRecord, requireProfessional } from './shared';

const PREAUTH_TYPES = ['normal', 'surgical', 'renal', 'oncology', 'optical', 'imaging', 'dental'] as const;

const preauthCreate = z.object({
  consent_token: text,
  intervention_code: text,
  preauth_type: z.enum(PREAUTH_TYPES),
  form: z.record(z.string(), z.unknown()).default({}),
  ...practitionerFields,
  diagnoses: z.array(diagnosis).min(1, 'at least one diagnosis'),
  requested_amount: money,
  attachments: z.array(z.record(z.string(), z.unknown())).max(10).default([]),
});

const preauthCancel = z
  .object({
    consent_token: text.optional(),
    preauth_id: z.union([z.number().int(), text]).transform(String).optional(),
    intervention_code: text.optional(),
    reason: text,
  })
  .refine((v) => v.consent_token !== undefined || v.preauth_id !== undefined, {
    path: ['consent_token'],
    message: 'consent_token or preauth_id is required',
  });
const diagnosisRemoval = z.object({ consent_token: text, icd_code: text.optional(), intervention_code: text });

const LIVE: readonly string[] = ['PENDING_DOCTOR_APPROVAL', 'ACTIVE', 'FINALISED'];
const EDITABLE: readonly string[] = ['PENDING_DOCTOR_APPROVAL', 'ACTIVE'];

/** The latest preauth of this consent token and intervention that is not cancelled or rejected. */
function livePreauth(ctx: SandboxContext, facility: Facility, consentToken: string, interventionCode: string): PreauthRecord {
  const p = [...ctx.state.preauths.values()]
    .reverse()
    .find((q) => q.facility === facility.code && q.consent_token === consentToken && q.intervention_code === interventionCode && LIVE.includes(q.status));
  if (p === undefined) throw fail.notFound(`No preauthorization for ${interventionCode} with that consent_token`);
  return p;
}

export function preauthRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post('/preauths', async (request) => {
    const facility = tenantOf(request);
    const body = parse(preauthCreate, request.body);
    const practitioner = practitionerFrom(body);
    if (practitioner === null) {
      throw fail.validation(
        ['practitioner_identification_type', 'practitioner_identification_number', 'practitioner_regulation_body'].map((field) => ({
          field,
          message: 'a preauthorization needs the requesting doctor',
        })),
      );
    }
    ctx.sweep();
    const a = ctx.state.authorizationByToken(facility.code, body.consent_token);
    if (a === undefined) throw fail.notFound('No authorization with that consent_token at this facility');
    const [intervention] = requireInterventions([body.intervention_code]);
    if (intervention === undefined) throw fail.field('intervention_code', 'required');
    if (!a.interventions.includes(intervention.intervention_code)) {
      throw fail.rule('AUTHORIZATION_MISMATCH', `The authorization was given for ${a.interventions.join(', ')}, not ${intervention.intervention_code}`);
    }
    if (!intervention.needsPreauth) {
      throw fail.rule('INTERVENTION_NOT_ALLOWED', `${intervention.intervention_code} needs no preauthorization`);
    }
    const existing = [...ctx.state.preauths.values()].find(
      (p) => p.facility === facility.code && p.consent_token === a.token && p.intervention_code === intervention.intervention_code && LIVE.includes(p.status),
    );
    // A repeated create (e.g. after a crash) returns the preauth already made, not a second one.
    if (existing !== undefined) return preauthView(existing);
    if (a.status !== 'AUTHORIZED_PENDING_VISIT') {
      throw fail.rule('AUTHORIZATION_NOT_AUTHORIZED', `A preauthorization needs a consent in AUTHORIZED_PENDING_VISIT; this one is ${a.status}`, [
        { status: a.status },
      ]);
    }
    const professional = requireProfessional(practitioner.identification_type, practitioner.identification_number, practitioner.regulation_body);
    const now = ctx.now();
    const preauth: PreauthRecord = {
      id: ctx.state.nextSerial(),
      guid: ctx.rng.uuid(),
      facility: facility.code,
      consent_token: a.token,
      authorization_guid: a.guid,
      patient_id: a.patient_id ?? '',
      intervention_code: intervention.intervention_code,
      preauth_type: body.preauth_type,
      status: 'PENDING_DOCTOR_APPROVAL',
      form: body.form,
      doctor: doctorRecord(professional, practitioner.identification_type, practitioner.identification_number),
      diagnoses: body.diagnoses,
      requested_amount: body.requested_amount,
      approved_amount: null,
      attachments: body.attachments,
      created_at: now,
      updated_at: now,
      cancel_reason: null,
      claim_consent_token: null,
    };
    ctx.state.preauths.set(preauth.id, preauth);
    ctx.state.created('preauth', facility.code, preauth.guid, preauth.consent_token, preauth.status);
    notifyDoctor(
      ctx,
      facility,
      professional,
      'preauth_doctor_consent',
      `${facility.name} asks you to confirm preauthorization ${preauth.id} for ${preauth.intervention_code}.`,
    );
    return preauthView(preauth);
  });

  app.get('/preauths', async (request) => {
    const facility = tenantOf(request);
    const query = parse(byConsentToken, request.query, 'query');
    const known = ctx.state.authorizationByToken(facility.code, query.consent_token) ?? ctx.state.claimByToken(facility.code, query.consent_token);
    if (known === undefined) throw fail.notFound('No authorization or claim with that consent_token at this facility');
    const results = [...ctx.state.preauths.values()].filter((p) => p.facility === facility.code && p.consent_token === query.consent_token).map(preauthView);
    return { pageSize: results.length, results };
  });

  app.post('/preauths/cancel', async (request) => {
    const facility = tenantOf(request);
    const body = parse(preauthCancel, request.body);
    let preauth: PreauthRecord;
    if (body.preauth_id !== undefined) {
      preauth = findPreauth(ctx, body.preauth_id);
      if (preauth.facility !== facility.code) throw fail.notFound(`No preauthorization ${body.preauth_id}`);
    } else {
      const candidates = [...ctx.state.preauths.values()].filter(
        (p) =>
          p.facility === facility.code &&
          p.consent_token === body.consent_token &&
          (body.intervention_code === undefined || p.intervention_code === body.intervention_code) &&
          LIVE.includes(p.status),
      );
      const first = candidates[0];
      if (first === undefined) throw fail.notFound('No preauthorization with that consent_token to cancel');
      if (candidates.length > 1) throw fail.field('preauth_id', 'several preauthorizations share this consent_token: name one with preauth_id or intervention_code');
      preauth = first;
    }
    ctx.state.firePreauth(preauth, 'cancel', 'PREAUTH_NOT_CANCELLABLE', body.reason);
    preauth.cancel_reason = body.reason;
    return { message: 'Preauthorization cancelled', preauth: preauthView(preauth) };
  });

  app.delete<{ Params: { icd_code: string } }>('/preauths/diagnoses/:icd_code', async (request) => {
    const facility = tenantOf(request);
    const body = parse(diagnosisRemoval, request.body);
    const code = request.params.icd_code;
    if (body.icd_code !== undefined && body.icd_code !== code) throw fail.field('icd_code', `does not match the path (${code})`);
    const preauth = livePreauth(ctx, facility, body.consent_token, body.intervention_code);
    if (!EDITABLE.includes(preauth.status)) throw fail.conflict('PREAUTH_NOT_EDITABLE', `The preauthorization is ${preauth.status}: its diagnoses are final`);
    const index = preauth.diagnoses.findIndex((d) => d.code === code);
    if (index < 0) throw fail.notFound(`Diagnosis ${code} is not on the preauthorization`);
    preauth.diagnoses.splice(index, 1);
    preauth.updated_at = ctx.now();
    return preauthView(preauth);
  });

  app.delete('/preauths/doctors', async (request, reply) => {
    const facility = tenantOf(request);
    const body = parse(doctorRemoval, request.body);
    const preauth = livePreauth(ctx, facility, body.consent_token, body.intervention_code);
    if (preauth.status !== 'PENDING_DOCTOR_APPROVAL') {
      throw fail.conflict('PREAUTH_NOT_EDITABLE', `The preauthorization is ${preauth.status}: the doctor has already approved it`);
    }
    if (preauth.doctor?.registration_number !== body.practitioner_registration_number) {
      throw fail.notFound(`Doctor ${body.practitioner_registration_number} is not on the preauthorization`);
    }
    preauth.doctor = null;
    preauth.updated_at = ctx.now();
    return reply.code(200).send();
  });
}
