// A claim leaving the facility: its preview (the facility's and the payer's), the inpatient
// discharge, the submit (outpatient and emergency), and closing a claim opened in error.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { iso } from '../../clock';
import type { SandboxContext } from '../../context';
import { fail } from '../../errors';
import { checkOtp, requireCoverSet } from '../../state/consent';
import type { ClaimRecord, OtpRecord } from '../../state/store';
import { tenantOf } from '../../tenancy';
import { byConsentToken, otpField, parse, text } from '../../validation';
import { cancelReasonTypes, dischargeReasons, dischargeStatuses, submitDischargeReasons, unknownPatientReasons } from '../../../vocabulary';
import { EMERGENCY_WINDOW_MS, claimDispatchView, claimPreview, totalAmount } from '../../views';
import type { Facility } from '../../world/facilities';
import { requireClaim, requireEditable } from '../shared';
import { isReturned, providerInvoice, requireDoctor, requireRequestedDocuments, resubmitReturned, sentBack, updatePerDiemDays } from './records';

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
  discharge_reason: z.enum(dischargeReasons),
  invoice_number: text,
  discharge_date: rfc3339,
  notes: z.string().trim().max(2000).optional(),
  discharge_status: z.enum(dischargeStatuses).optional(),
  ...consentChoice,
});

const submitRequest = z.object({
  consent_token: text,
  // Optional on the portal; the sandbox checks it when sent.
  invoice_number: text.optional(),
  // Required of a visit's submit (R WORKFLOWS §9), not of an emergency's (A SubmitUnIdentifiedClaimDto): checked by the route.
  discharge_reason: z
    .enum(submitDischargeReasons, {
      error: (issue) =>
        issue.input === 'DECEASED'
          ? 'DECEASED is not valid on submit (service-interface.md): a death on the ward is recorded by the inpatient discharge; an unidentified patient who died is reason_for_unknown_patient DECEASED'
          : 'must be RECOVERED, REFERRED, ABSCONDED or OTHER',
    })
    .optional(),
  notes: z.string().trim().max(2000).optional(),
  discharge_status: z.enum(dischargeStatuses).optional(),
  reason_for_unknown_patient: z.enum(unknownPatientReasons).optional(),
  ...consentChoice,
});

const payerPreviewQuery = z
  .object({ guid: text.optional(), provider_claim_no: text.optional() })
  .refine((v) => v.guid !== undefined || v.provider_claim_no !== undefined, { path: ['provider_claim_no'], message: 'provider_claim_no (or guid) is required' });
const closeRequest = z.object({ consent_token: text, cancel_reason_type: z.enum(cancelReasonTypes), cancel_reason_text: text });

/** A submit carrying nothing of a visit's end: A's resubmission when the claim is one the payer returned. */
function isBareSubmit(body: z.output<typeof submitRequest>): boolean {
  return [body.discharge_reason, body.otp, body.auth_guid, body.discharge_auth_guid, body.discharge_status, body.reason_for_unknown_patient].every((v) => v === undefined);
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

export function dispatchRoutes(app: FastifyInstance, ctx: SandboxContext): void {
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
    const ownInvoice = providerInvoice(ctx, claim, body.invoice_number);
    requireDoctor(claim);
    requireCoverSet(ctx, claim);
    const spend = dischargeConsent(ctx, facility, claim, body);
    spend();
    claim.provider_invoice_ref = ownInvoice ?? claim.provider_invoice_ref;
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
    // A's resubmission (claim-resubmission.service.ts, since its fix of 2026-08-12): the consent token
    // alone, posted here, on a claim the payer returned or holds.
    if (isReturned(claim) && isBareSubmit(body)) {
      resubmitReturned(ctx, claim);
      return claimDispatchView(claim);
    }
    requireEditable(claim);
    if (claim.kind !== 'emergency' && body.discharge_reason === undefined) {
      throw fail.field('discharge_reason', 'required: RECOVERED, REFERRED, ABSCONDED or OTHER (UAT refuses a submit without it, R WORKFLOWS §9)');
    }
    const ownInvoice = providerInvoice(ctx, claim, body.invoice_number);
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
    claim.provider_invoice_ref = ownInvoice ?? claim.provider_invoice_ref;
    if (claim.service_type === 'INPATIENT') updatePerDiemDays(ctx, claim);
    if (body.discharge_status === 'FULL') claim.discharge_status = 'FULL';
    claim.discharge_reason = body.discharge_reason ?? null;
    claim.reason_for_unknown_patient = body.reason_for_unknown_patient ?? null;
    claim.notes = body.notes ?? claim.notes;
    claim.submitted_at = ctx.now();
    claim.claim_auth_status = 'SUBMITTED_CLAIM';
    ctx.state.fireClaim(claim, 'submit', 'CLAIM_ALREADY_SUBMITTED', `submitted: ${body.discharge_reason ?? body.reason_for_unknown_patient ?? 'emergency'}`);
    sentBack(claim);
    return claimDispatchView(claim);
  });

  app.get('/claims/preview/payer', async (request) => {
    const facility = tenantOf(request);
    const query = parse(payerPreviewQuery, request.query, 'query');
    // The live service keys on provider_claim_no alone [doc]; guid narrows only when sent alone.
    const results = [...ctx.state.claims.values()]
      .filter(
        (c) =>
          c.facility === facility.code &&
          (query.provider_claim_no !== undefined ? c.invoice_number === query.provider_claim_no || c.provider_invoice_ref === query.provider_claim_no : c.guid === query.guid),
      )
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

  app.post('/claims/close', async (request) => {
    const facility = tenantOf(request);
    const body = parse(closeRequest, request.body);
    const claim = requireClaim(ctx, facility, body.consent_token);
    ctx.state.fireClaim(claim, 'close', 'CLAIM_ALREADY_SUBMITTED', `${body.cancel_reason_type}: ${body.cancel_reason_text}`);
    claim.claim_auth_status = 'CLOSED';
    claim.closed = { reason_type: body.cancel_reason_type, reason_text: body.cancel_reason_text, at: ctx.now() };
    return claimDispatchView(claim);
  });
}
