// Claims: visit creation, billing lines, doctor, preview, discharge, submit, attachments and the
// housekeeping operations of the field notes.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { iso } from '../clock';
import type { SandboxContext } from '../context';
import { fail } from '../errors';
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
} from '../state/consent';
import type { AuthorizationRecord, ClaimRecord, LineRecord, OtpRecord, PreauthRecord } from '../state/store';
import { tenantOf } from '../tenancy';
import { MAX_ATTACHMENTS_PER_CLAIM, checkAttachment, readMultipart, type UploadedFile } from '../uploads';
import {
  DISCHARGE_REASONS,
  SUBMIT_DISCHARGE_REASONS,
  UNKNOWN_PATIENT_REASONS,
  byConsentToken,
  diagnosis,
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
import { EMERGENCY_WINDOW_MS, authorizationView, claimPreview, doctorView, lineView, totalAmount, visitView } from '../views';
import { CATALOGUE, isPerDiem, type Intervention } from '../world/catalogue';
import type { Facility } from '../world/facilities';
import { doctorRecord, requireClaim, requireEditable, requireProfessional } from './shared';

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

const lineRequest = z.object({
  consent_token: text,
  intervention_code: text,
  unit_price: money,
  quantity: z.coerce.number().finite().positive('must be greater than 0').max(10_000),
  diagnoses: jsonField(z.array(diagnosis).min(1, 'at least one diagnosis')),
  item_code: z.string().trim().max(100).optional(),
  description: z.string().trim().max(500).optional(),
  service_date: isoDate.optional(),
  document_type: z.string().trim().max(100).optional(),
  ...practitionerFields,
});

const consentChoice = {
  otp: otpField.optional(),
  auth_guid: text.optional(),
  discharge_auth_guid: text.optional(),
};

const dischargeRequest = z.object({
  consent_token: text,
  discharge_reason: z.enum(DISCHARGE_REASONS),
  invoice_number: text,
  discharge_date: isoDate.optional(),
  notes: z.string().trim().max(2000).optional(),
  discharge_status: z.enum(['PARTIAL', 'FULL']).optional(),
  ...consentChoice,
});

const submitRequest = z.object({
  consent_token: text,
  invoice_number: text,
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
const attachmentFields = z.object({ consent_token: text, intervention_code: text, document_type: text });
const payerPreviewQuery = z
  .object({ guid: text.optional(), provider_claim_no: text.optional() })
  .refine((v) => v.guid !== undefined || v.provider_claim_no !== undefined, { path: ['provider_claim_no'], message: 'provider_claim_no (or guid) is required' });
const lineRemoval = z.object({ consent_token: text, line_guid: text });
const diagnosisRemoval = z.object({ consent_token: text, icd_code: text, intervention_code: text });
const attachmentRemoval = z.object({ attachment_id: text, consent_token: text, intervention_code: text });
const interventionSwitch = z.object({
  consent_token: text,
  existing_intervention_code: text,
  new_intervention_code: text,
  retain_bill_items: z.boolean().default(true),
  bill_from: isoDate.optional(),
  bill_to: isoDate.optional(),
});
const closeRequest = z.object({ consent_token: text, cancel_reason_type: z.enum(CANCEL_REASONS), cancel_reason_text: text });
const lineEdit = z
  .object({
    consent_token: text,
    line_guid: text,
    unit_price: money.optional(),
    quantity: z.coerce.number().finite().positive().max(10_000).optional(),
    diagnoses: z.array(diagnosis).min(1, 'at least one diagnosis').optional(),
    description: z.string().trim().max(500).optional(),
    service_date: isoDate.optional(),
  })
  .refine((v) => [v.unit_price, v.quantity, v.diagnoses, v.description, v.service_date].some((x) => x !== undefined), {
    path: ['unit_price'],
    message: 'send at least one of unit_price, quantity, diagnoses, description, service_date',
  });

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}

function attachDoctor(claim: ClaimRecord, practitioner: ReturnType<typeof practitionerFrom>): void {
  if (practitioner === null || claim.doctor !== null) return;
  const p = requireProfessional(practitioner.identification_type, practitioner.identification_number, practitioner.regulation_body);
  claim.doctor = doctorRecord(p, practitioner.identification_type, practitioner.identification_number);
}

function addDiagnoses(claim: ClaimRecord, diagnoses: readonly { code: string; name?: string | undefined }[]): void {
  for (const d of diagnoses) if (!claim.diagnoses.some((x) => x.code === d.code)) claim.diagnoses.push(d);
}

function addAttachments(ctx: SandboxContext, claim: ClaimRecord, files: readonly UploadedFile[], interventionCode: string, documentType: string) {
  for (const f of files) checkAttachment(f);
  if (claim.attachments.length + files.length > MAX_ATTACHMENTS_PER_CLAIM) {
    throw fail.rule('TOO_MANY_ATTACHMENTS', `A claim holds at most ${MAX_ATTACHMENTS_PER_CLAIM} attachments; it has ${claim.attachments.length}`);
  }
  return files.map((f) => {
    const record = {
      attachment_id: ctx.rng.uuid(),
      intervention_code: interventionCode,
      document_type: documentType,
      file_name: f.filename,
      content_type: f.mimetype,
      size: f.data.length,
      uploaded_at: ctx.now(),
    };
    claim.attachments.push(record);
    return record;
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

function requireInvoice(claim: ClaimRecord, invoiceNumber: string): void {
  if (invoiceNumber !== claim.invoice_number) {
    throw fail.rule('INVOICE_MISMATCH', `invoice_number ${invoiceNumber} is not this claim's (${claim.invoice_number})`);
  }
}

function requireDoctor(claim: ClaimRecord): void {
  if (claim.doctor === null) {
    throw fail.rule('NO_DOCTOR_ATTACHED', 'No doctor is attached to the claim: add one with POST /claims/doctors, a line, or at visit start');
  }
}

function submitted(ctx: SandboxContext, claim: ClaimRecord) {
  return {
    message: 'Claim submitted to the payer',
    workflow_state: claim.workflow_state,
    consent_token: claim.consent_token,
    submitted_at: iso(claim.submitted_at ?? ctx.now()),
  };
}

async function lineInput(request: FastifyRequest): Promise<{ body: unknown; files: UploadedFile[] }> {
  if (request.isMultipart()) {
    const { fields, files } = await readMultipart(request);
    return { body: fields, files };
  }
  return { body: request.body, files: [] };
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
      if (a.status !== 'AUTHORIZED') {
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
    const input = await lineInput(request);
    const body = parse(lineRequest, input.body);
    const practitioner = practitionerFrom(body);
    const claim = requireClaim(ctx, facility, body.consent_token);
    requireEditable(claim);
    if (!claim.interventions.includes(body.intervention_code)) {
      throw fail.rule('INTERVENTION_NOT_ALLOWED', `${body.intervention_code} is not an intervention of this claim (${claim.interventions.join(', ')})`);
    }
    const intervention = CATALOGUE.interventionByCode.get(body.intervention_code);
    attachDoctor(claim, practitioner);
    addAttachments(ctx, claim, input.files, body.intervention_code, body.document_type ?? 'SUPPORTING_DOCUMENT');
    const line: LineRecord = {
      line_guid: ctx.rng.uuid(),
      intervention_code: body.intervention_code,
      item_code: body.item_code ?? null,
      description: body.description ?? intervention?.name ?? body.intervention_code,
      unit_price: body.unit_price,
      quantity: body.quantity,
      diagnoses: body.diagnoses,
      service_date: body.service_date ?? iso(ctx.now()).slice(0, 10),
      practitioner,
      generated: null,
      created_at: ctx.now(),
    };
    claim.lines.push(line);
    addDiagnoses(claim, body.diagnoses);
    return { message: 'Billing line saved', line_guid: line.line_guid, lines: claim.lines.map(lineView), total_amount: totalAmount(claim.lines) };
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
    return { message: 'Doctor attached', doctor: doctorView(claim.doctor) };
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
      return { message: 'Partial discharge recorded; finalise with a FULL discharge or submit', workflow_state: claim.workflow_state, consent_token: claim.consent_token, discharge_status: 'PARTIAL' };
    }
    updatePerDiemDays(ctx, claim);
    claim.discharge_status = 'FULL';
    claim.discharge_reason = body.discharge_reason;
    claim.discharge_date = body.discharge_date ?? iso(ctx.now()).slice(0, 10);
    claim.notes = body.notes ?? claim.notes;
    claim.submitted_at = ctx.now();
    claim.claim_auth_status = 'SUBMITTED_CLAIM';
    ctx.state.fireClaim(claim, claim.workflow_state === 'DRAFT' ? 'discharge_full' : 'submit', 'CLAIM_ALREADY_SUBMITTED', `discharged: ${body.discharge_reason}`);
    return { ...submitted(ctx, claim), message: 'Patient discharged; claim submitted to the payer', discharge_status: 'FULL' };
  });

  app.post('/claims/submit', async (request) => {
    const facility = tenantOf(request);
    const body = parse(submitRequest, request.body);
    const claim = requireClaim(ctx, facility, body.consent_token);
    requireEditable(claim);
    requireInvoice(claim, body.invoice_number);
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
    return submitted(ctx, claim);
  });

  app.post('/claims/attachments', async (request) => {
    const facility = tenantOf(request);
    const { fields, files } = await readMultipart(request);
    const body = parse(attachmentFields, fields);
    const claim = requireClaim(ctx, facility, body.consent_token);
    requireEditable(claim);
    if (!claim.interventions.includes(body.intervention_code)) {
      throw fail.rule('INTERVENTION_NOT_ALLOWED', `${body.intervention_code} is not an intervention of this claim`);
    }
    const file = files.find((f) => f.fieldname === 'file') ?? files[0];
    if (file === undefined) throw fail.field('file', 'a file is required');
    if (files.length > 1) throw fail.field('file', 'one file per request');
    const [record] = addAttachments(ctx, claim, [file], body.intervention_code, body.document_type);
    return { attachment_id: record?.attachment_id, file_name: record?.file_name, content_type: record?.content_type, size: record?.size };
  });

  app.get('/claims/preview/payer', async (request) => {
    const facility = tenantOf(request);
    const query = parse(payerPreviewQuery, request.query, 'query');
    // The live service keys on provider_claim_no alone [doc]; guid narrows only when sent alone.
    const results = [...ctx.state.claims.values()]
      .filter((c) => c.facility === facility.code && (query.provider_claim_no !== undefined ? c.invoice_number === query.provider_claim_no : c.guid === query.guid))
      .map((c) => ({
        guid: c.guid,
        provider_claim_no: c.invoice_number,
        consent_token: c.consent_token,
        patient_id: c.patient_id,
        status: c.workflow_state,
        claim_auth_status: c.claim_auth_status,
        total_amount: totalAmount(c.lines),
        approved_amount: c.workflow_state === 'CLOSED' && c.closed === null ? totalAmount(c.lines) : null,
        submitted_at: c.submitted_at === null ? null : iso(c.submitted_at),
        interventions: c.interventions,
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
    return { data: claimPreview(claim), message: 'Line removed' };
  });

  app.patch('/claims/diagnoses', async (request) => {
    const facility = tenantOf(request);
    const body = parse(diagnosisRemoval, request.body);
    const claim = requireClaim(ctx, facility, body.consent_token);
    requireEditable(claim);
    if (!claim.diagnoses.some((d) => d.code === body.icd_code)) throw fail.notFound(`Diagnosis ${body.icd_code} is not on the claim`);
    for (const line of claim.lines) {
      if (line.intervention_code !== body.intervention_code) continue;
      const i = line.diagnoses.findIndex((d) => d.code === body.icd_code);
      if (i >= 0) line.diagnoses.splice(i, 1);
    }
    const stillUsed = claim.lines.some((l) => l.diagnoses.some((d) => d.code === body.icd_code));
    if (!stillUsed) claim.diagnoses = claim.diagnoses.filter((d) => d.code !== body.icd_code);
    return { data: claimPreview(claim), message: 'Diagnosis removed' };
  });

  app.patch('/claims/attachments', async (request) => {
    const facility = tenantOf(request);
    const body = parse(attachmentRemoval, request.body);
    const claim = requireClaim(ctx, facility, body.consent_token);
    requireEditable(claim);
    const index = claim.attachments.findIndex((a) => a.attachment_id === body.attachment_id && a.intervention_code === body.intervention_code);
    if (index < 0) throw fail.notFound(`No attachment ${body.attachment_id} for ${body.intervention_code} on the claim`);
    claim.attachments.splice(index, 1);
    return { data: claimPreview(claim), message: 'Attachment removed' };
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
      return { data: authorizationView(a), message: 'Intervention switched' };
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
    return { data: claimPreview(claim), message: 'Intervention switched' };
  });

  app.post('/claims/close', async (request) => {
    const facility = tenantOf(request);
    const body = parse(closeRequest, request.body);
    const claim = requireClaim(ctx, facility, body.consent_token);
    ctx.state.fireClaim(claim, 'close', 'CLAIM_ALREADY_SUBMITTED', `${body.cancel_reason_type}: ${body.cancel_reason_text}`);
    claim.claim_auth_status = 'CLOSED';
    claim.closed = { reason_type: body.cancel_reason_type, reason_text: body.cancel_reason_text, at: ctx.now() };
    return { message: 'Claim closed', ...claimPreview(claim) };
  });

  app.post('/claims/lines/resubmit', async (request) => {
    const facility = tenantOf(request);
    const body = parse(byConsentToken, request.body);
    const claim = requireClaim(ctx, facility, body.consent_token);
    ctx.state.fireClaim(claim, 'resubmit', 'INVALID_TRANSITION', 'reopened for resubmission');
    return { message: 'Claim reopened for resubmission', workflow_state: claim.workflow_state, consent_token: claim.consent_token };
  });

  app.patch('/claims/lines/edit', async (request) => {
    const facility = tenantOf(request);
    const body = parse(lineEdit, request.body);
    const claim = requireClaim(ctx, facility, body.consent_token);
    requireEditable(claim);
    const line = claim.lines.find((l) => l.line_guid === body.line_guid);
    if (line === undefined) throw fail.notFound(`No line ${body.line_guid} on the claim`);
    if (body.unit_price !== undefined) line.unit_price = body.unit_price;
    if (body.quantity !== undefined) line.quantity = body.quantity;
    if (body.description !== undefined) line.description = body.description;
    if (body.service_date !== undefined) line.service_date = body.service_date;
    if (body.diagnoses !== undefined) {
      line.diagnoses = body.diagnoses;
      addDiagnoses(claim, body.diagnoses);
    }
    return { data: claimPreview(claim), message: 'Line updated' };
  });

}
