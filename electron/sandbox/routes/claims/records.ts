// What the claim routes share: a new claim's record (a visit's or an emergency's), the doctor, the
// claim's interventions and attachments, per-diem days, and the checks before a claim leaves the
// facility (invoice, the papers the payer asked for, a doctor).
import { z } from 'zod';
import { iso } from '../../clock';
import type { SandboxContext } from '../../context';
import { fail } from '../../errors';
import { CLAIM_MACHINE } from '../../state/machines';
import type { AttachmentRecord, AuthorizationRecord, ClaimRecord } from '../../state/store';
import { MAX_ATTACHMENTS_PER_CLAIM, checkAttachment, type UploadedFile } from '../../uploads';
import type { practitionerFrom } from '../../validation';
import { isPerDiem, type Intervention } from '../../world/catalogue';
import type { Facility } from '../../world/facilities';
import { doctorRecord, requireProfessional } from '../shared';

const DAY_MS = 24 * 60 * 60 * 1000;
export const isoDate = z.string().trim().regex(/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/, 'a date such as 2025-07-01');

export function attachDoctor(claim: ClaimRecord, practitioner: ReturnType<typeof practitionerFrom>): void {
  if (practitioner === null || claim.doctor !== null) return;
  const p = requireProfessional(practitioner.identification_type, practitioner.identification_number, practitioner.regulation_body);
  claim.doctor = doctorRecord(p, practitioner.identification_type, practitioner.identification_number);
}

export function requireClaimIntervention(claim: ClaimRecord, code: string): void {
  if (claim.retired_interventions.includes(code)) {
    // Ours: no source bills a retired intervention; AE saw SHA refuse a line for one not in the visit.
    throw fail.rule('INTERVENTION_NOT_ALLOWED', `${code} is retired on this claim: restore it before billing it`);
  }
  if (!claim.interventions.includes(code)) {
    throw fail.rule('INTERVENTION_NOT_ALLOWED', `${code} is not an intervention of this claim (${claim.interventions.join(', ')})`);
  }
}

export interface NewAttachment {
  readonly file: UploadedFile;
  readonly documentType: string;
  readonly title: string;
}

export function addAttachments(ctx: SandboxContext, claim: ClaimRecord, files: readonly NewAttachment[], interventionCode: string): AttachmentRecord[] {
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

/** Per-diem lines bill the days from visit start to discharge (at least one). */
export function updatePerDiemDays(ctx: SandboxContext, claim: ClaimRecord): void {
  const days = Math.max(1, Math.ceil((ctx.now() - claim.visit_start) / DAY_MS));
  for (const line of claim.lines) {
    if (line.generated !== 'per_diem') continue;
    line.quantity = days;
    line.description = line.description.replace(/ \(\d+ days?\)$/, '') + ` (${days} day${days === 1 ? '' : 's'})`;
  }
}

/** Inpatient per diem: the day line is generated when the intervention joins the claim and dispatched by discharge (rule 3). */
export function addPerDiemLine(ctx: SandboxContext, claim: ClaimRecord, intervention: Intervention): void {
  if (!isPerDiem(intervention)) return;
  const now = ctx.now();
  claim.lines.push({
    line_guid: ctx.rng.uuid(),
    intervention_code: intervention.intervention_code,
    item_code: intervention.intervention_code,
    description: `${intervention.name} (1 day)`,
    unit_price: intervention.tariff,
    quantity: 1,
    diagnoses: [],
    service_date: iso(now).slice(0, 10),
    practitioner: null,
    generated: 'per_diem',
    created_at: now,
  });
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
    retired_interventions: [],
    workflow_state: 'DRAFT',
    claim_auth_status: input.claimAuthStatus,
    authorization_guid: input.authorization.guid,
    invoice_number: `INV-${facility.kmhflCode}-${String(serial).padStart(6, '0')}`,
    provider_invoice_ref: null,
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
  for (const i of input.interventions) addPerDiemLine(ctx, claim, i);
  input.authorization.claim_consent_token = claim.consent_token;
  ctx.state.claims.set(claim.consent_token, claim);
  ctx.state.created('claim', facility.code, claim.guid, claim.consent_token, claim.workflow_state);
  return claim;
}

/**
 * The invoice number a submit or discharge names: the claim's own (the exchange gives one at visit
 * creation, R WORKFLOWS §9), or the facility's own invoice for it — the portal describes
 * `invoice_number` on submit as the "unique invoice number (as used by the provider internally)"
 * and R types it "Provider's own invoice number". Another claim's number is refused (422
 * INVOICE_MISMATCH): the portal calls it unique. Returns the facility's own number, to be kept
 * once the call succeeds, or null.
 */
export function providerInvoice(ctx: SandboxContext, claim: ClaimRecord, invoiceNumber: string | undefined): string | null {
  if (invoiceNumber === undefined || invoiceNumber === claim.invoice_number) return null;
  const taken = [...ctx.state.claims.values()].some(
    (c) => c !== claim && c.facility === claim.facility && (c.invoice_number === invoiceNumber || c.provider_invoice_ref === invoiceNumber),
  );
  if (taken) throw fail.rule('INVOICE_MISMATCH', `invoice_number ${invoiceNumber} is another claim's at this facility: an invoice number names one claim`);
  return invoiceNumber;
}

/** The claim states a resubmission moves on (SHA's return, its hold, a failed dispatch). */
export function isReturned(claim: ClaimRecord): boolean {
  return CLAIM_MACHINE[claim.workflow_state].resubmit !== undefined;
}

/**
 * Resubmits a claim the payer returned or holds, whichever documented form asked (the portal's
 * `/claims/lines/resubmit`, Postman's `/claims/resubmit`, A's `/claims/submit {consent_token}`):
 * one under the payer's review is reopened, one already reopened (corrected) goes back. True when
 * it went back.
 */
export function resubmitReturned(ctx: SandboxContext, claim: ClaimRecord): boolean {
  const goesBack = claim.workflow_state === 'DRAFT_RESUBMIT' || claim.workflow_state === 'DRAFT_RESUBMIT_DOCUMENTS';
  if (goesBack) requireRequestedDocuments(claim);
  ctx.state.fireClaim(claim, 'resubmit', 'INVALID_TRANSITION', goesBack ? 'resubmitted to the payer' : 'reopened for resubmission');
  if (goesBack) {
    sentBack(claim);
    claim.submitted_at = ctx.now();
  }
  return goesBack;
}

/** The papers the payer asked for when it returned the claim, which must be on it before it goes back. */
function missingRequestedDocuments(claim: ClaimRecord): string[] {
  if (claim.workflow_state !== 'DRAFT_RESUBMIT_DOCUMENTS') return [];
  return (claim.requested_documents ?? []).filter((type) => !claim.attachments.some((a) => a.document_type === type));
}

export function requireRequestedDocuments(claim: ClaimRecord): void {
  const missing = missingRequestedDocuments(claim);
  if (missing.length > 0) {
    throw fail.rule('DOCUMENTS_MISSING', `SHA returned the claim for documents: attach ${missing.join(', ')} before sending it back`, [{ missing_document_types: missing }]);
  }
}

/** The claim leaves the facility's hands: what the payer asked for is settled. */
export function sentBack(claim: ClaimRecord): void {
  claim.requested_documents = null;
}

export function requireDoctor(claim: ClaimRecord): void {
  if (claim.doctor === null) {
    throw fail.rule('NO_DOCTOR_ATTACHED', 'No doctor is attached to the claim: add one with POST /claims/doctors, a line, or at visit start');
  }
}

