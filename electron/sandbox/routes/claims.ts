// Claims: visit creation, billing lines, doctor, preview, discharge, submit, attachments and the
// housekeeping operations of the field notes.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { iso } from '../clock';
import type { SandboxContext } from '../context';
import { fail } from '../errors';
import {
  checkOtp,
  createAuthorization,
  effectiveScheme,
  requireCoverSet,
  finalisedPreauthFor,
  requireCapitationServiceType,
  requireFitsServiceType,
  requireInterventions,
  requireNoPendingAuthorization,
  requireOtpConsentAllowed,
  requirePatient,
} from '../state/consent';
import type { AttachmentRecord, AuthorizationRecord, ClaimRecord, LineRecord, OtpRecord, PreauthRecord } from '../state/store';
import { tenantOf } from '../tenancy';
import { MAX_ATTACHMENTS_PER_CLAIM, checkAttachment, readMultipart, type UploadedFile } from '../uploads';
import {
  DISCHARGE_REASONS,
  SUBMIT_DISCHARGE_REASONS,
  UNKNOWN_PATIENT_REASONS,
  byConsentToken,
  interventionList,
  jsonField,
  money,
  otpField,
  parse,
  practitionerFields,
  practitionerFrom,
  practitionerIdType,
  regulator,
  serviceType,
  text,
} from '../validation';
import { EMERGENCY_WINDOW_MS, attachmentView, claimDispatchView, claimPreview, diagnosisView, lineView, totalAmount, visitView } from '../views';
// The portal's list of claim document types, as the client spells it (one list, from R docs billing).
import { claimDocumentTypes } from '../../payer/wire';
import { CATALOGUE, isPerDiem, type Intervention } from '../world/catalogue';
import type { Facility } from '../world/facilities';
import { doctorRecord, recordDiagnosis, requireClaim, requireEditable, requireProfessional } from './shared';

const DAY_MS = 24 * 60 * 60 * 1000;
const isoDate = z.string().trim().regex(/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/, 'a date such as 2025-07-01');

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

const consentChoice = {
  otp: otpField.optional(),
  auth_guid: text.optional(),
  discharge_auth_guid: text.optional(),
};

/** RFC 3339: the live discharge refuses a bare date (R WORKFLOWS, UAT). */
const rfc3339 = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/, 'an RFC 3339 date-time such as 2025-07-01T14:30:00+03:00, not a bare date')
  .refine((v) => !Number.isNaN(Date.parse(v)), 'not a real date-time');

const dischargeRequest = z.object({
  consent_token: text,
  discharge_reason: z.enum(DISCHARGE_REASONS),
  invoice_number: text,
  discharge_date: rfc3339,
  notes: z.string().trim().max(2000).optional(),
  discharge_status: z.enum(['PARTIAL', 'FULL']).optional(),
  ...consentChoice,
});

const submitRequest = z.object({
  consent_token: text,
  // Optional on the portal; the sandbox checks it when sent.
  invoice_number: text.optional(),
  discharge_reason: z.enum(SUBMIT_DISCHARGE_REASONS, {
    error: 'must be RECOVERED, REFERRED, ABSCONDED or OTHER (DECEASED is not valid on submit; it is a reason_for_unknown_patient)',
  }),
  notes: z.string().trim().max(2000).optional(),
  discharge_status: z.enum(['PARTIAL', 'FULL']).optional(),
  reason_for_unknown_patient: z.enum(UNKNOWN_PATIENT_REASONS).optional(),
  ...consentChoice,
});

const CANCEL_REASONS = ['WRONG_PATIENT', 'NO_SERVICE_GIVEN', 'WRONG_BENEFIT', 'EXPIRED_VISIT', 'EXHAUSTED_BENEFIT', 'TIME_BARRED', 'OTHER_REASONS'] as const;

const doctorRequest = z.object({ consent_token: text, identification_number: text, identification_type: practitionerIdType, regulation_body: regulator });
const attachmentFields = z.object({ consent_token: text, intervention_code: text, document_type: z.enum(claimDocumentTypes) });
const payerPreviewQuery = z
  .object({ guid: text.optional(), provider_claim_no: text.optional() })
  .refine((v) => v.guid !== undefined || v.provider_claim_no !== undefined, { path: ['provider_claim_no'], message: 'provider_claim_no (or guid) is required' });
const lineRemoval = z.object({ consent_token: text, line_guid: text });
const diagnosisRequest = z.object({ consent_token: text, icd_code: icdCode, intervention_code: text, ...practitionerFields });
const diagnosisRemoval = z.object({ consent_token: text, icd_code: icdCode, intervention_code: text });
const attachmentRemoval = z.object({ attachment_id: text, consent_token: text, intervention_code: text });
const interventionSwitch = z
  .object({
    consent_token: text,
    existing_intervention_code: text,
    new_intervention_code: text,
    retain_bill_items: z.boolean(),
    bill_from: isoDate.optional(),
    bill_to: isoDate.optional(),
  })
  .superRefine((v, ctx) => {
    // Kept bill items move over a period; without one retained the switch needs no dates (R WORKFLOWS; A refuses the first).
    if (!v.retain_bill_items) return;
    for (const field of ['bill_from', 'bill_to'] as const) {
      if (v[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message: `required when retain_bill_items is true` });
    }
  });
const closeRequest = z.object({ consent_token: text, cancel_reason_type: z.enum(CANCEL_REASONS), cancel_reason_text: text });
/** The portal and R name the line `line_id`; the exchange's Postman collection `claim_line_id`: either is taken. */
const lineEdit = z
  .object({
    line_id: text.optional(),
    claim_line_id: text.optional(),
    quantity: z.coerce.number().int('a whole number').positive().max(10_000).optional(),
    unit_price: money.optional(),
    scheme_code: text.optional(),
  })
  .refine((v) => v.line_id !== undefined || v.claim_line_id !== undefined, { path: ['line_id'], message: 'line_id is required' })
  .refine((v) => [v.quantity, v.unit_price, v.scheme_code].some((x) => x !== undefined), {
    path: ['quantity'],
    message: 'send at least one of quantity, unit_price, scheme_code',
  });

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}

function attachDoctor(claim: ClaimRecord, practitioner: ReturnType<typeof practitionerFrom>): void {
  if (practitioner === null || claim.doctor !== null) return;
  const p = requireProfessional(practitioner.identification_type, practitioner.identification_number, practitioner.regulation_body);
  claim.doctor = doctorRecord(p, practitioner.identification_type, practitioner.identification_number);
}

function requireClaimIntervention(claim: ClaimRecord, code: string): void {
  if (!claim.interventions.includes(code)) {
    throw fail.rule('INTERVENTION_NOT_ALLOWED', `${code} is not an intervention of this claim (${claim.interventions.join(', ')})`);
  }
}

interface NewAttachment {
  readonly file: UploadedFile;
  readonly documentType: string;
  readonly title: string;
}

function addAttachments(ctx: SandboxContext, claim: ClaimRecord, files: readonly NewAttachment[], interventionCode: string): AttachmentRecord[] {
  for (const f of files) checkAttachment(f.file);
  if (claim.attachments.length + files.length > MAX_ATTACHMENTS_PER_CLAIM) {
    throw fail.rule('TOO_MANY_ATTACHMENTS', `A claim holds at most ${MAX_ATTACHMENTS_PER_CLAIM} attachments; it has ${claim.attachments.length}`);
  }
  return files.map(({ file, documentType, title }) => {
    const record: AttachmentRecord = {
      attachment_id: ctx.rng.uuid(),
      intervention_code: interventionCode,
      document_type: documentType,
      title,
      file_name: file.filename,
      content_type: file.mimetype,
      size: file.data.length,
      uploaded_at: ctx.now(),
    };
    claim.attachments.push(record);
    return record;
  });
}

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

/** Per-diem lines bill the days from visit start to discharge (at least one). */
function updatePerDiemDays(ctx: SandboxContext, claim: ClaimRecord): void {
  const days = Math.max(1, Math.ceil((ctx.now() - claim.visit_start) / DAY_MS));
  for (const line of claim.lines) {
    if (line.generated !== 'per_diem') continue;
    line.quantity = days;
    line.description = line.description.replace(/ \(\d+ days?\)$/, '') + ` (${days} day${days === 1 ? '' : 's'})`;
  }
}

export function newClaim(
  ctx: SandboxContext,
  facility: Facility,
  input: {
    consentToken: string;
    patientId: string | null;
    kind: ClaimRecord['kind'];
    serviceType: string;
    interventions: readonly Intervention[];
    authorization: AuthorizationRecord;
    claimAuthStatus: string;
    openedWith: ClaimRecord['opened_with'];
    emergency: ClaimRecord['emergency'];
  },
): ClaimRecord {
  const now = ctx.now();
  const serial = ctx.state.nextSerial();
  const claim: ClaimRecord = {
    guid: ctx.rng.uuid(),
    consent_token: input.consentToken,
    facility: facility.code,
    patient_id: input.patientId,
    kind: input.kind,
    service_type: input.serviceType,
    interventions: input.interventions.map((i) => i.intervention_code),
    workflow_state: 'DRAFT',
    claim_auth_status: input.claimAuthStatus,
    authorization_guid: input.authorization.guid,
    invoice_number: `INV-${facility.kmhflCode}-${String(serial).padStart(6, '0')}`,
    visit_number: `VN-${facility.kmhflCode}-${String(serial).padStart(6, '0')}`,
    visit_start: now,
    lines: [],
    diagnoses: [],
    doctor: null,
    attachments: [],
    requested_documents: null,
    discharge_status: null,
    partial_discharges: [],
    submitted_at: null,
    discharge_reason: null,
    discharge_date: null,
    reason_for_unknown_patient: null,
    notes: null,
    preauth_id: null,
    opened_with: input.openedWith,
    emergency: input.emergency,
    closed: null,
    created_at: now,
  };
  // Inpatient per diem: the day line is generated at admission and dispatched by discharge (rule 3).
  for (const i of input.interventions) {
    if (!isPerDiem(i)) continue;
    claim.lines.push({
      line_guid: ctx.rng.uuid(),
      intervention_code: i.intervention_code,
      item_code: i.intervention_code,
      description: `${i.name} (1 day)`,
      unit_price: i.tariff,
      quantity: 1,
      diagnoses: [],
      service_date: iso(now).slice(0, 10),
      practitioner: null,
      generated: 'per_diem',
      created_at: now,
    });
  }
  input.authorization.claim_consent_token = claim.consent_token;
  ctx.state.claims.set(claim.consent_token, claim);
  ctx.state.created('claim', facility.code, claim.guid, claim.consent_token, claim.workflow_state);
  return claim;
}

/** Checks the visit-end consent (discharge OTP or discharge authorization) and returns how to spend it. */
function dischargeConsent(
  ctx: SandboxContext,
  facility: Facility,
  claim: ClaimRecord,
  body: { otp?: string | undefined; auth_guid?: string | undefined; discharge_auth_guid?: string | undefined },
): () => void {
  const given = [body.otp, body.auth_guid, body.discharge_auth_guid].filter((v) => v !== undefined);
  if (given.length === 0) {
    throw fail.rule('DISCHARGE_CONSENT_REQUIRED', 'The patient must consent to the visit end: send the discharge otp or discharge_auth_guid');
  }
  if (given.length > 1) throw fail.field('otp', 'send exactly one of otp, auth_guid or discharge_auth_guid');
  if (body.otp !== undefined) {
    const otp: OtpRecord = checkOtp(ctx, { facility, purpose: 'discharge', code: body.otp, patientId: claim.patient_id ?? '', claimToken: claim.consent_token });
    return () => {
      otp.used_at = ctx.now();
    };
  }
  const guid = body.discharge_auth_guid ?? body.auth_guid ?? '';
  ctx.sweep();
  const a = ctx.state.authorizationByGuid(facility.code, guid);
  if (a === undefined) throw fail.notFound(`No authorization ${guid} at this facility`);
  if (a.phase !== 'discharge' || a.claim_consent_token !== claim.consent_token) {
    throw fail.rule('AUTHORIZATION_MISMATCH', `Authorization ${guid} is not a discharge authorization of this claim`);
  }
  if (a.status !== 'AUTHORIZED') {
    throw fail.rule('AUTHORIZATION_NOT_AUTHORIZED', `The discharge authorization is ${a.status}, not AUTHORIZED`, [{ status: a.status }]);
  }
  if (a.consumed_at !== null) throw fail.rule('AUTHORIZATION_NOT_AUTHORIZED', 'The discharge authorization was already used');
  return () => {
    a.consumed_at = ctx.now();
  };
}

function requireInvoice(claim: ClaimRecord, invoiceNumber: string | undefined): void {
  if (invoiceNumber !== undefined && invoiceNumber !== claim.invoice_number) {
    throw fail.rule('INVOICE_MISMATCH', `invoice_number ${invoiceNumber} is not this claim's (${claim.invoice_number})`);
  }
}

/** The papers the payer asked for when it returned the claim, which must be on it before it goes back. */
export function missingRequestedDocuments(claim: ClaimRecord): string[] {
  if (claim.workflow_state !== 'DRAFT_RESUBMIT_DOCUMENTS') return [];
  return (claim.requested_documents ?? []).filter((type) => !claim.attachments.some((a) => a.document_type === type));
}

function requireRequestedDocuments(claim: ClaimRecord): void {
  const missing = missingRequestedDocuments(claim);
  if (missing.length > 0) {
    throw fail.rule('DOCUMENTS_MISSING', `SHA returned the claim for documents: attach ${missing.join(', ')} before sending it back`, [{ missing_document_types: missing }]);
  }
}

/** The claim leaves the facility's hands: what the payer asked for is settled. */
function sentBack(claim: ClaimRecord): void {
  claim.requested_documents = null;
}

function requireDoctor(claim: ClaimRecord): void {
  if (claim.doctor === null) {
    throw fail.rule('NO_DOCTOR_ATTACHED', 'No doctor is attached to the claim: add one with POST /claims/doctors, a line, or at visit start');
  }
}

export function claimRoutes(app: FastifyInstance, ctx: SandboxContext): void {
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
      // OTP visit: the elective's own consent carries the preauth; otherwise a new consent is made.
      const previsit = preauths[0] === undefined ? undefined : ctx.state.authorizations.get(preauths[0].authorization_guid);
      a =
        previsit !== undefined && previsit.status === 'AUTHORIZED' && previsit.claim_consent_token === null
          ? previsit
          : createAuthorization(ctx, {
              facility,
              patient,
              interventions: codes,
              serviceType: body.service_type,
              phase: 'visit',
              method: 'otp',
              status: 'AUTHORIZED',
            });
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

  app.post('/claims/preview', async (request) => {
    const facility = tenantOf(request);
    const body = parse(byConsentToken, request.body);
    return claimPreview(requireClaim(ctx, facility, body.consent_token));
  });

  app.post('/claims/discharge', async (request) => {
    const facility = tenantOf(request);
    const body = parse(dischargeRequest, request.body);
    const claim = requireClaim(ctx, facility, body.consent_token);
    requireEditable(claim);
    if (claim.kind === 'emergency' || claim.service_type !== 'INPATIENT') {
      throw fail.rule('USE_SUBMIT', 'Discharge is for inpatient claims: submit this claim with POST /claims/submit');
    }
    requireInvoice(claim, body.invoice_number);
    requireDoctor(claim);
    requireCoverSet(ctx, claim);
    const spend = dischargeConsent(ctx, facility, claim, body);
    spend();
    if (body.discharge_status === 'PARTIAL') {
      updatePerDiemDays(ctx, claim);
      const billed = new Set(claim.partial_discharges.flatMap((p) => p.line_guids));
      const lines = claim.lines.filter((l) => !billed.has(l.line_guid));
      claim.partial_discharges.push({
        at: ctx.now(),
        discharge_reason: body.discharge_reason,
        amount: totalAmount(lines),
        line_guids: lines.map((l) => l.line_guid),
        notes: body.notes ?? null,
      });
      claim.discharge_status = 'PARTIAL';
      return claimDispatchView(claim);
    }
    updatePerDiemDays(ctx, claim);
    claim.discharge_status = 'FULL';
    claim.discharge_reason = body.discharge_reason;
    claim.discharge_date = body.discharge_date;
    claim.notes = body.notes ?? claim.notes;
    claim.submitted_at = ctx.now();
    claim.claim_auth_status = 'SUBMITTED_CLAIM';
    ctx.state.fireClaim(claim, claim.workflow_state === 'DRAFT' ? 'discharge_full' : 'submit', 'CLAIM_ALREADY_SUBMITTED', `discharged: ${body.discharge_reason}`);
    return claimDispatchView(claim);
  });

  app.post('/claims/submit', async (request) => {
    const facility = tenantOf(request);
    const body = parse(submitRequest, request.body);
    const claim = requireClaim(ctx, facility, body.consent_token);
    requireEditable(claim);
    requireInvoice(claim, body.invoice_number);
    requireRequestedDocuments(claim);
    if (body.discharge_status === 'PARTIAL') {
      throw fail.rule('USE_DISCHARGE', 'A partial discharge goes through POST /claims/discharge with discharge_status PARTIAL');
    }
    let spend: () => void = () => undefined;
    if (claim.kind === 'emergency') {
      const e = claim.emergency;
      if (e !== null && ctx.now() > e.emergency_at + EMERGENCY_WINDOW_MS) {
        throw fail.rule('EMERGENCY_WINDOW_EXPIRED', `Emergency claims are submitted within 24 hours; this one's window closed at ${iso(e.emergency_at + EMERGENCY_WINDOW_MS)}`);
      }
      if (claim.patient_id === null && body.reason_for_unknown_patient === undefined) {
        throw fail.field('reason_for_unknown_patient', 'required while the patient is unidentified (SHA_UNREGISTERED or DECEASED)');
      }
      if (claim.patient_id !== null && body.reason_for_unknown_patient !== undefined) {
        throw fail.field('reason_for_unknown_patient', 'only for a patient still unidentified; this claim is identified');
      }
      requireDoctor(claim);
    } else {
      if (body.reason_for_unknown_patient !== undefined) {
        throw fail.field('reason_for_unknown_patient', 'only for unidentified emergency claims');
      }
      if (body.discharge_status === 'FULL') {
        if (claim.discharge_status !== 'PARTIAL') {
          throw fail.rule('NO_PARTIAL_DISCHARGE', 'Finalisation (discharge_status FULL) needs an earlier partial discharge');
        }
      } else if (claim.service_type === 'INPATIENT') {
        throw fail.rule('USE_DISCHARGE', 'Inpatient claims are dispatched by POST /claims/discharge');
      }
      requireDoctor(claim);
      requireCoverSet(ctx, claim);
      spend = dischargeConsent(ctx, facility, claim, body);
    }
    spend();
    if (claim.service_type === 'INPATIENT') updatePerDiemDays(ctx, claim);
    if (body.discharge_status === 'FULL') claim.discharge_status = 'FULL';
    claim.discharge_reason = body.discharge_reason;
    claim.reason_for_unknown_patient = body.reason_for_unknown_patient ?? null;
    claim.notes = body.notes ?? claim.notes;
    claim.submitted_at = ctx.now();
    claim.claim_auth_status = 'SUBMITTED_CLAIM';
    ctx.state.fireClaim(claim, 'submit', 'CLAIM_ALREADY_SUBMITTED', `submitted: ${body.discharge_reason}`);
    sentBack(claim);
    return claimDispatchView(claim);
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

  app.get('/claims/preview/payer', async (request) => {
    const facility = tenantOf(request);
    const query = parse(payerPreviewQuery, request.query, 'query');
    // The live service keys on provider_claim_no alone [doc]; guid narrows only when sent alone.
    const results = [...ctx.state.claims.values()]
      .filter((c) => c.facility === facility.code && (query.provider_claim_no !== undefined ? c.invoice_number === query.provider_claim_no : c.guid === query.guid))
      .map((c) => ({
        guid: c.guid,
        providerClaimNo: c.invoice_number,
        authToken: c.consent_token,
        workflowState: c.workflow_state,
        claimType: c.service_type,
        isInpatient: c.service_type === 'INPATIENT',
        proposedValue: totalAmount(c.lines),
        ...(c.patient_id === null ? {} : { memberNumber: c.patient_id }),
        created: iso(c.created_at),
        authorization: { guid: c.authorization_guid, status: c.claim_auth_status },
        // The entries' fields as A types them: amounts as text.
        claimLines: c.lines.map((l) => ({ guid: l.line_guid, interventionCode: l.intervention_code, quantity: String(l.quantity), unitPrice: l.unit_price.toFixed(2) })),
      }));
    return { pageSize: results.length, results };
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

  app.post('/claims/interventions/switch', async (request) => {
    const facility = tenantOf(request);
    const body = parse(interventionSwitch, request.body);
    const [next] = requireInterventions([body.new_intervention_code]);
    if (next === undefined) throw fail.field('new_intervention_code', 'required');
    const claim = ctx.state.claimByToken(facility.code, body.consent_token);
    if (claim === undefined) {
      // Before a visit, the switch applies to the consent (authorization) itself.
      const a = ctx.state.authorizationByToken(facility.code, body.consent_token);
      if (a === undefined) throw fail.notFound('No claim or authorization with that consent_token at this facility');
      if (!a.interventions.includes(body.existing_intervention_code)) throw fail.notFound(`${body.existing_intervention_code} is not on the authorization`);
      const hasPreauth = [...ctx.state.preauths.values()].some(
        (p) => p.authorization_guid === a.guid && p.intervention_code === body.existing_intervention_code && p.status !== 'CANCELLED',
      );
      if (hasPreauth) throw fail.conflict('PREAUTH_NOT_EDITABLE', 'Cancel the preauthorization of the intervention before switching it');
      a.interventions = a.interventions.map((c) => (c === body.existing_intervention_code ? next.intervention_code : c));
      return { data: {}, message: 'Intervention switched' };
    }
    requireEditable(claim);
    if (!claim.interventions.includes(body.existing_intervention_code)) throw fail.notFound(`${body.existing_intervention_code} is not on the claim`);
    requireFitsServiceType([next], claim.service_type);
    if (next.needsPreauth && finalisedPreauthFor(ctx, facility, claim.patient_id ?? '', next.intervention_code) === undefined) {
      throw fail.rule('PREAUTH_REQUIRED', `${next.intervention_code} needs a FINALISED preauthorization`);
    }
    claim.interventions = [...new Set(claim.interventions.map((c) => (c === body.existing_intervention_code ? next.intervention_code : c)))];
    claim.lines = body.retain_bill_items
      ? claim.lines.map((l) => (l.intervention_code === body.existing_intervention_code ? { ...l, intervention_code: next.intervention_code } : l))
      : claim.lines.filter((l) => l.intervention_code !== body.existing_intervention_code);
    claim.diagnoses = claim.diagnoses.map((d) => (d.intervention_code === body.existing_intervention_code ? { ...d, intervention_code: next.intervention_code } : d));
    return { data: {}, message: 'Intervention switched' };
  });

  app.post('/claims/close', async (request) => {
    const facility = tenantOf(request);
    const body = parse(closeRequest, request.body);
    const claim = requireClaim(ctx, facility, body.consent_token);
    ctx.state.fireClaim(claim, 'close', 'CLAIM_ALREADY_SUBMITTED', `${body.cancel_reason_type}: ${body.cancel_reason_text}`);
    claim.claim_auth_status = 'CLOSED';
    claim.closed = { reason_type: body.cancel_reason_type, reason_text: body.cancel_reason_text, at: ctx.now() };
    return claimDispatchView(claim);
  });

  // The portal's path; the exchange's Postman collection posts /claims/resubmit: both are answered.
  for (const path of ['/claims/lines/resubmit', '/claims/resubmit']) {
    app.post(path, async (request) => {
      const facility = tenantOf(request);
      const body = parse(byConsentToken, request.body);
      const claim = requireClaim(ctx, facility, body.consent_token);
      // A claim under the payer's review is reopened; one already reopened (corrected) goes back.
      const goesBack = claim.workflow_state === 'DRAFT_RESUBMIT' || claim.workflow_state === 'DRAFT_RESUBMIT_DOCUMENTS';
      if (goesBack) requireRequestedDocuments(claim);
      ctx.state.fireClaim(claim, 'resubmit', 'INVALID_TRANSITION', goesBack ? 'resubmitted to the payer' : 'reopened for resubmission');
      if (goesBack) {
        sentBack(claim);
        claim.submitted_at = ctx.now();
      }
      const [first] = claim.lines;
      return {
        ...(first === undefined ? {} : { line_id: first.line_guid }),
        status: claim.workflow_state,
        message: goesBack ? 'Claim resubmitted' : 'Claim reopened for resubmission',
        resubmitted_at: iso(ctx.now()),
      };
    });
  }

  app.patch('/claims/lines/edit', async (request) => {
    const facility = tenantOf(request);
    const body = parse(lineEdit, request.body);
    const lineId = body.line_id ?? body.claim_line_id ?? '';
    const claim = [...ctx.state.claims.values()].find((c) => c.facility === facility.code && c.lines.some((l) => l.line_guid === lineId));
    if (claim === undefined) throw fail.notFound(`No line ${lineId} on a claim of ${facility.code}`);
    requireEditable(claim);
    const line = claim.lines.find((l) => l.line_guid === lineId);
    if (line === undefined) throw fail.notFound(`No line ${lineId}`);
    if (body.unit_price !== undefined) line.unit_price = body.unit_price;
    if (body.quantity !== undefined) line.quantity = body.quantity;
    if (body.scheme_code !== undefined) line.scheme_code = body.scheme_code;
    return lineView(claim, line);
  });
}
