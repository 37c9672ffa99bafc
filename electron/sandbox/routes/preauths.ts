// Preauthorization: create (multipart only), the look-up (a page, 404 while there is none), cancel
// by consent token and intervention, and removing a diagnosis or the doctor.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { SandboxContext } from '../context';
import { fail } from '../errors';
import { notifyDoctor, requireInterventions } from '../state/consent';
import { AWAITING_DOCTOR } from '../state/machines';
import type { PreauthRecord } from '../state/store';
import { tenantOf } from '../tenancy';
import { readMultipart, pairAttachments } from '../uploads';
import { byConsentToken, doctorRemoval, jsonField, listedPractitionerIdType, listedRegulator, money, parse, text } from '../validation';
import { preauthView, roundMoney } from '../views';
import { preauthDetailFields } from '../../vocabulary';
import type { Facility } from '../world/facilities';
import { doctorRecord, requireProfessional } from './shared';

const dateTime = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/, 'an ISO 8601 date-time with its offset, such as 2026-03-05T15:30:00+03:00');

/** The multipart parts of a preauth (A, K, R send this shape); the lists arrive as JSON text. */
const preauthCreate = z
  .object({
    consent_token: text,
    intervention_code: text,
    service_start: dateTime,
    service_end: dateTime,
    items: jsonField(z.array(z.object({ unit_price: money })).min(1, 'at least one item')),
    doctors: jsonField(
      z
        .array(
          z.object({
            identification_number: text,
            identification_type: listedPractitionerIdType,
            regulation_body: listedRegulator,
            intervention_code: text.optional(),
            is_primary: z.boolean().optional(),
            practitioner_registration_number: text.optional(),
          }),
        )
        .min(1, 'a preauthorization names the requesting doctor'),
    ),
    diagnoses: jsonField(z.array(z.object({ icd_code: text, consent_token: text.optional(), intervention_code: text.optional() })).min(1, 'at least one diagnosis')),
    // Sent as [] when there is none (R); left out then by K: both are taken.
    attachments: jsonField(z.array(z.object({ document_title: text, document_type: text, file_field_name: text })).max(10)).optional(),
    provider_notification_email: z.email('an email address'),
  })
  .refine((v) => Date.parse(v.service_end) >= Date.parse(v.service_start), { path: ['service_end'], message: 'service_end is before service_start' });

const preauthCancel = z.object({ consent_token: text, intervention_code: text });
const diagnosisRemoval = z.object({ consent_token: text, icd_code: text.optional(), intervention_code: text });

const LIVE: readonly string[] = ['DRAFT', 'PENDING_SUBMISSION', 'PENDING_DOCTOR_APPROVAL', 'DOCTOR_REQUEST_SENT', 'DOCTOR_REQUEST_FAILED', 'ACTIVE', 'CLARIFICATION_AFTER_AUTOMATIC_CHECKS', 'FINALISED'];
// DRAFT and PENDING_SUBMISSION (ours) are not refused: no source says the live service refuses a change there.
const EDITABLE: readonly string[] = ['DRAFT', 'PENDING_SUBMISSION', ...AWAITING_DOCTOR, 'ACTIVE', 'CLARIFICATION_AFTER_AUTOMATIC_CHECKS'];

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
    // A JSON preauth is refused 415: the exchange reads preauths as multipart only.
    const { fields, files } = await readMultipart(request);
    const body = parse(preauthCreate, fields);
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
    const requesting = body.doctors.find((d) => d.is_primary === true) ?? body.doctors[0];
    if (requesting === undefined) throw fail.field('doctors', 'a preauthorization names the requesting doctor');
    const professional = requireProfessional(requesting.identification_type, requesting.identification_number, requesting.regulation_body);
    const attachments = pairAttachments(body.attachments ?? [], files);
    const now = ctx.now();
    const preauth: PreauthRecord = {
      id: ctx.state.nextSerial(),
      guid: ctx.rng.uuid(),
      facility: facility.code,
      consent_token: a.token,
      authorization_guid: a.guid,
      patient_id: a.patient_id ?? '',
      intervention_code: intervention.intervention_code,
      status: 'PENDING_DOCTOR_APPROVAL',
      service_start: body.service_start,
      service_end: body.service_end,
      details: Object.fromEntries(preauthDetailFields.flatMap((f) => (fields[f] === undefined || fields[f].trim() === '' ? [] : [[f, fields[f]]]))),
      doctor: doctorRecord(professional, requesting.identification_type, requesting.identification_number),
      diagnoses: body.diagnoses.map((d) => ({ code: d.icd_code })),
      items: body.items.map((i) => i.unit_price),
      requested_amount: roundMoney(body.items.reduce((sum, i) => sum + i.unit_price, 0)),
      approved_amount: null,
      attachments: attachments.map(({ meta, file }) => ({
        attachment_id: ctx.rng.uuid(),
        intervention_code: intervention.intervention_code,
        document_type: meta.document_type,
        title: meta.document_title,
        file_name: file.filename,
        content_type: file.mimetype,
        size: file.data.length,
        uploaded_at: now,
      })),
      notification_email: body.provider_notification_email,
      notes: [],
      created_at: now,
      updated_at: now,
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
    const results = [...ctx.state.preauths.values()].filter((p) => p.facility === facility.code && p.consent_token === query.consent_token).map(preauthView);
    // No preauth yet for a consent token is a 404 (A's pre-auth service reads it as the empty state).
    if (results.length === 0) throw fail.notFound('No preauthorization with that consent_token at this facility');
    return { pageSize: results.length, results };
  });

  app.post('/preauths/cancel', async (request) => {
    const facility = tenantOf(request);
    const body = parse(preauthCancel, request.body);
    const preauth = livePreauth(ctx, facility, body.consent_token, body.intervention_code);
    // A FINALISED preauth a visit has used is final (ours: no source shows its cancellation).
    if (preauth.claim_consent_token !== null) throw fail.conflict('PREAUTH_NOT_CANCELLABLE', 'A visit has used the preauthorization: it can no longer be cancelled');
    ctx.state.firePreauth(preauth, 'cancel', 'PREAUTH_NOT_CANCELLABLE');
    return preauthView(preauth);
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
    if (!AWAITING_DOCTOR.includes(preauth.status)) {
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
