// Billing a claim: lines (one JSON line, or multipart with diagnoses and files), diagnoses, the
// attending doctor and attachments, each added and removed while the claim is a draft.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { iso } from '../../clock';
import type { SandboxContext } from '../../context';
import { fail } from '../../errors';
import type { LineRecord } from '../../state/store';
import { tenantOf } from '../../tenancy';
import { MAX_ATTACHMENTS_PER_CLAIM, readMultipart, type UploadedFile } from '../../uploads';
import { byConsentToken, jsonField, money, parse, practitionerFields, practitionerFrom, practitionerIdType, regulator, text } from '../../validation';
import { attachmentView, diagnosisView, lineView } from '../../views';
// The portal's list of claim document types, as the client spells it (one list, from R docs billing).
import { claimDocumentTypes } from '../../../vocabulary';
import { CATALOGUE } from '../../world/catalogue';
import { doctorRecord, recordDiagnosis, requireClaim, requireEditable, requireProfessional } from '../shared';
import { addAttachments, attachDoctor, isoDate, requireClaimIntervention, type NewAttachment } from './records';

/** An ICD code as the live wire carries it: a bare string in `diagnoses` and `icd_code`. */
const icdCode = z
  .string({ error: 'an ICD code string such as "CA40.Z" (not an object)' })
  .trim()
  .regex(/^[A-Za-z0-9.&/-]{2,20}$/, 'an ICD code such as "CA40.Z"');

/** The fields both line shapes share (R docs billing; A `cc/claim-line`, `cc/combined-billing`). */
const lineFields = {
  consent_token: text,
  intervention_code: text,
  unit_price: money,
  quantity: z.coerce.number().finite().positive('must be greater than 0').max(10_000),
  scheme_code: text.optional(),
  // A's combined billing names it scheme_name; R and the portal scheme_code: either is taken.
  scheme_name: text.optional(),
  service_name: z.string().trim().max(500).optional(),
  service_identifier: z.string().trim().max(100).optional(),
  ...practitionerFields,
};

/** Shape 1 (JSON): one line; it carries no diagnoses. */
const jsonLine = z.object(lineFields);

/** Shape 2 (multipart): `diagnoses` a JSON list of ICD code strings, `attachments` JSON metadata naming a file part each. */
const multipartLine = z.object({
  ...lineFields,
  charge_date: isoDate.optional(),
  diagnoses: jsonField(z.array(icdCode, { error: 'a JSON list of ICD code strings, e.g. ["CA40.Z"]' }).max(20)).optional(),
  attachments: jsonField(
    z
      .array(
        z.object({
          document_title: z.string().trim().max(200).optional(),
          document_type: z.enum(claimDocumentTypes),
          file_field_name: text,
        }),
        { error: 'JSON metadata: [{document_title, document_type, file_field_name}]' },
      )
      .max(MAX_ATTACHMENTS_PER_CLAIM),
  ).optional(),
});

const doctorRequest = z.object({ consent_token: text, identification_number: text, identification_type: practitionerIdType, regulation_body: regulator });
const attachmentFields = z.object({ consent_token: text, intervention_code: text, document_type: z.enum(claimDocumentTypes) });
const lineRemoval = z.object({ consent_token: text, line_guid: text });
const diagnosisRequest = z.object({ consent_token: text, icd_code: icdCode, intervention_code: text, ...practitionerFields });
const diagnosisRemoval = z.object({ consent_token: text, icd_code: icdCode, intervention_code: text });
const attachmentRemoval = z.object({ attachment_id: text, consent_token: text, intervention_code: text });

/**
 * Pairs the `attachments` metadata of a multipart line with its file parts. The live service drops
 * a file it cannot find by `file_field_name` without a word (R `create_preauth()`); the sandbox
 * refuses the mismatch instead, so a lost file shows (ours).
 */
function lineAttachments(meta: readonly { document_title?: string | undefined; document_type: string; file_field_name: string }[], files: readonly UploadedFile[]): NewAttachment[] {
  const named = new Set(meta.map((m) => m.file_field_name));
  const stray = files.find((f) => !named.has(f.fieldname));
  if (stray !== undefined) throw fail.field(stray.fieldname, 'a file part that no attachments entry names in its file_field_name');
  return meta.map((m, i) => {
    const file = files.find((f) => f.fieldname === m.file_field_name);
    if (file === undefined) throw fail.field(`attachments.${i}.file_field_name`, `no file part named ${m.file_field_name}`);
    return { file, documentType: m.document_type, title: m.document_title ?? file.filename };
  });
}

export function billingRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post('/claims/lines', async (request) => {
    const facility = tenantOf(request);
    const multipart = request.isMultipart();
    const { fields, files } = multipart ? await readMultipart(request) : { fields: request.body, files: [] };
    const body = multipart ? parse(multipartLine, fields) : { ...parse(jsonLine, fields), charge_date: undefined, diagnoses: undefined, attachments: undefined };
    const practitioner = practitionerFrom(body);
    const claim = requireClaim(ctx, facility, body.consent_token);
    requireEditable(claim);
    requireClaimIntervention(claim, body.intervention_code);
    const attachments = lineAttachments(body.attachments ?? [], files);
    attachDoctor(claim, practitioner);
    addAttachments(ctx, claim, attachments, body.intervention_code);
    const diagnoses = body.diagnoses ?? [];
    const line: LineRecord = {
      line_guid: ctx.rng.uuid(),
      intervention_code: body.intervention_code,
      item_code: body.service_identifier ?? null,
      description: body.service_name ?? CATALOGUE.interventionByCode.get(body.intervention_code)?.name ?? body.intervention_code,
      unit_price: body.unit_price,
      quantity: body.quantity,
      diagnoses: diagnoses.map((code) => ({ code })),
      service_date: body.charge_date ?? iso(ctx.now()),
      scheme_code: body.scheme_code ?? body.scheme_name,
      practitioner,
      generated: null,
      created_at: ctx.now(),
    };
    claim.lines.push(line);
    for (const code of diagnoses) recordDiagnosis(ctx, claim, code, body.intervention_code);
    return lineView(claim, line);
  });

  app.post('/claims/diagnoses', async (request) => {
    const facility = tenantOf(request);
    const body = parse(diagnosisRequest, request.body);
    const practitioner = practitionerFrom(body);
    const claim = requireClaim(ctx, facility, body.consent_token);
    requireEditable(claim);
    requireClaimIntervention(claim, body.intervention_code);
    attachDoctor(claim, practitioner);
    return diagnosisView(claim, recordDiagnosis(ctx, claim, body.icd_code, body.intervention_code));
  });

  app.post('/claims/doctors', async (request) => {
    const facility = tenantOf(request);
    const body = parse(doctorRequest, request.body);
    const claim = requireClaim(ctx, facility, body.consent_token);
    requireEditable(claim);
    const p = requireProfessional(body.identification_type, body.identification_number, body.regulation_body);
    if (claim.doctor !== null && claim.doctor.registration_number !== p.registrationNumber) {
      throw fail.conflict('DOCTOR_ALREADY_ATTACHED', `${claim.doctor.name} is already attached: remove them first (one doctor per claim)`);
    }
    claim.doctor = doctorRecord(p, body.identification_type, body.identification_number);
    return { data: {}, message: 'Doctor attached' };
  });

  app.delete('/claims/doctors', async (request, reply) => {
    const facility = tenantOf(request);
    const body = parse(byConsentToken, request.body);
    const claim = requireClaim(ctx, facility, body.consent_token);
    requireEditable(claim);
    if (claim.doctor === null) throw fail.notFound('No doctor is attached to the claim');
    claim.doctor = null;
    return reply.code(204).send();
  });

  app.post('/claims/attachments', async (request) => {
    const facility = tenantOf(request);
    const { fields, files } = await readMultipart(request);
    const body = parse(attachmentFields, fields);
    const claim = requireClaim(ctx, facility, body.consent_token);
    requireEditable(claim);
    requireClaimIntervention(claim, body.intervention_code);
    // The file goes in a part named file_blob (R docs billing, A, R): any other part is not read.
    const file = files.find((f) => f.fieldname === 'file_blob');
    if (file === undefined) throw fail.field('file_blob', `the file is required, in a part named file_blob${files[0] === undefined ? '' : ` (not ${files[0].fieldname})`}`);
    if (files.length > 1) throw fail.field('file_blob', 'one file per request');
    const [record] = addAttachments(ctx, claim, [{ file, documentType: body.document_type, title: file.filename }], body.intervention_code);
    if (record === undefined) throw new Error('the attachment was not recorded');
    return attachmentView(claim, record);
  });

  app.patch('/claims/lines', async (request) => {
    const facility = tenantOf(request);
    const body = parse(lineRemoval, request.body);
    const claim = requireClaim(ctx, facility, body.consent_token);
    requireEditable(claim);
    const index = claim.lines.findIndex((l) => l.line_guid === body.line_guid);
    if (index < 0) throw fail.notFound(`No line ${body.line_guid} on the claim`);
    claim.lines.splice(index, 1);
    return { data: {}, message: 'Line removed' };
  });

  app.patch('/claims/diagnoses', async (request) => {
    const facility = tenantOf(request);
    const body = parse(diagnosisRemoval, request.body);
    const claim = requireClaim(ctx, facility, body.consent_token);
    requireEditable(claim);
    const index = claim.diagnoses.findIndex((d) => d.code === body.icd_code && d.intervention_code === body.intervention_code);
    if (index < 0) throw fail.notFound(`Diagnosis ${body.icd_code} is not on the claim for ${body.intervention_code}`);
    claim.diagnoses.splice(index, 1);
    for (const line of claim.lines) {
      if (line.intervention_code === body.intervention_code) line.diagnoses = line.diagnoses.filter((d) => d.code !== body.icd_code);
    }
    return { data: {}, message: 'Diagnosis removed' };
  });

  app.patch('/claims/attachments', async (request) => {
    const facility = tenantOf(request);
    const body = parse(attachmentRemoval, request.body);
    const claim = requireClaim(ctx, facility, body.consent_token);
    requireEditable(claim);
    const index = claim.attachments.findIndex((a) => a.attachment_id === body.attachment_id && a.intervention_code === body.intervention_code);
    if (index < 0) throw fail.notFound(`No attachment ${body.attachment_id} for ${body.intervention_code} on the claim`);
    claim.attachments.splice(index, 1);
    return { data: {}, message: 'Attachment removed' };
  });

}
