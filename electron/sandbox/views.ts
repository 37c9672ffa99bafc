// The wire shapes the sandbox answers with (docs/exchange-wire.md). Optional fields are omitted,
// never sent as null, unless the wire doc shows them nullable.
import { iso } from './clock';
import type { SandboxContext } from './context';
import type { AttachmentRecord, AuthorizationRecord, ClaimDiagnosisRecord, ClaimRecord, DoctorRecord, LineRecord, PreauthRecord } from './state/store';
import { CATALOGUE, normalisedMechanism, type Protocol } from './world/catalogue';

const when = <T>(condition: boolean, value: T): T | Record<string, never> => (condition ? value : {});

/** An intervention of an authorization, as UAT lists them (camelCase, R `tests/fixtures/authorization_pending.json`). */
function authorizedInterventionView(code: string) {
  const i = CATALOGUE.interventionByCode.get(code);
  if (i === undefined) return { code, name: code };
  return { code, name: i.name, needsPreauth: i.needsPreauth, paymentMechanism: normalisedMechanism(i), subBenefitCode: i.sub_benefit_code };
}

/** The authorization record of the look-up [doc]: camelCase, as the portal and UAT answer it. */
export function authorizationView(a: AuthorizationRecord) {
  return {
    token: a.token,
    guid: a.guid,
    status: a.status,
    label: a.label,
    expiry: a.expires_at === null ? null : iso(a.expires_at),
    isOpen: a.status === 'PENDING',
    ...when(a.patient_id !== null, { beneficiaryCode: a.patient_id }),
    interventions: a.interventions.map(authorizedInterventionView),
    ...when(a.reason !== null, { authorizationReason: a.reason }),
    ...when(a.phase === 'discharge', { discharge_auth_guid: a.guid, isBiometricsDischargeAuthorization: true }),
    ...when(a.ekyc !== null, { workStationId: a.ekyc?.workStationId ?? null }),
  };
}

export function ekycUrl(ctx: SandboxContext, a: AuthorizationRecord): string {
  if (a.ekyc === null) return '';
  return `${ctx.baseUrl}/ekyc/authorize/${a.ekyc.requestId}?t=${a.ekyc.embedToken}`;
}

/** Seconds the embedded token of the authorization page lives (the R test fixture's value). */
export const EMBED_EXPIRY_SECONDS = 120;

/**
 * The biometric authorize answer [3x]: PENDING with the iframe link of the sandbox's own page.
 * `embedExpiry` is a number of seconds; the page's time limit is `expiry`.
 */
export function biometricAuthorizeView(ctx: SandboxContext, a: AuthorizationRecord) {
  return {
    token: a.token,
    guid: a.guid,
    status: a.status,
    label: a.label,
    expiry: a.expires_at === null ? null : iso(a.expires_at),
    isOpen: a.status === 'PENDING',
    ekycToken: a.ekyc?.ekycToken ?? null,
    workStationId: a.ekyc?.workStationId ?? null,
    shaVerificationRequest: {
      embedExpiry: EMBED_EXPIRY_SECONDS,
      embededToken: a.ekyc?.embedToken ?? null,
      requestId: a.ekyc?.requestId ?? null,
      requestUrl: ekycUrl(ctx, a),
    },
    ...when(a.patient_id !== null, { beneficiaryCode: a.patient_id }),
    ...when(a.phase === 'discharge', { discharge_auth_guid: a.guid, isBiometricsDischargeAuthorization: true }),
  };
}

export function doctorView(d: DoctorRecord) {
  return {
    name: d.name,
    identification_type: d.identification_type,
    identification_number: d.identification_number,
    regulation_body: d.regulation_body,
    registration_number: d.registration_number,
  };
}

/** A billing line as the exchange answers it (R docs billing): the answer to adding or editing one, and `invoices[].lines[]`. */
export function lineView(c: ClaimRecord, l: LineRecord) {
  const total = roundMoney(l.unit_price * l.quantity);
  return {
    id: l.line_guid,
    invoice: c.invoice_number,
    intervention_code: l.intervention_code,
    item_code: l.item_code ?? l.intervention_code,
    item_name: l.description,
    unit_price: l.unit_price,
    quantity: l.quantity,
    line_total_amount: total,
    line_net_amount: total,
    charge_date: l.service_date,
    ...when(l.scheme_code !== undefined, { scheme_code: l.scheme_code }),
    is_active: true,
  };
}

export const roundMoney = (n: number): number => Math.round(n * 100) / 100;

export function totalAmount(lines: readonly LineRecord[]): number {
  return roundMoney(lines.reduce((sum, l) => sum + l.unit_price * l.quantity, 0));
}

/** A retired intervention stays on the claim as INACTIVE (R WORKFLOWS §9.8, UAT). */
type InterventionState = 'ACTIVE' | 'INACTIVE';

/** The claim's interventions with their states: the active ones in the order they joined, then the retired. */
function interventionsOf(c: ClaimRecord): { code: string; state: InterventionState }[] {
  return [...c.interventions.map((code) => ({ code, state: 'ACTIVE' as const })), ...c.retired_interventions.map((code) => ({ code, state: 'INACTIVE' as const }))];
}

/** An intervention of a claim, as the visit answer and an added intervention's answer give it [doc; A VisitIntervention]. */
export function claimInterventionView(code: string, state: InterventionState = 'ACTIVE') {
  const i = CATALOGUE.interventionByCode.get(code);
  if (i === undefined) return { intervention_code: code, intervention_name: code, workflow_state: state };
  return {
    intervention_code: code,
    intervention_name: i.name,
    intervention_payment_mechanism: normalisedMechanism(i),
    sub_benefit_code: i.sub_benefit_code,
    needs_preauth: i.needsPreauth,
    applicable_document_types: [...i.applicableDocumentTypes],
    workflow_state: state,
  };
}

/** The visit answer [doc]: authorization_code is the claim's consent_token. */
export function visitView(c: ClaimRecord) {
  return {
    id: c.guid,
    authorization_code: c.consent_token,
    authorization_guid: c.authorization_guid,
    claim_auth_status: c.claim_auth_status,
    workflow_state: c.workflow_state,
    service_type: c.service_type,
    invoice_number: c.invoice_number,
    visit_number: c.visit_number,
    visit_start: iso(c.visit_start),
    interventions: interventionsOf(c).map((i) => claimInterventionView(i.code, i.state)),
  };
}

/** A diagnosis on the claim (R docs billing): the answer to adding one, and `claim_diagnoses[]`. */
export function diagnosisView(c: ClaimRecord, d: ClaimDiagnosisRecord) {
  return {
    claim_diagnosis_id: d.id,
    claim: c.guid,
    diagnosis_code: d.code,
    diagnosis_name: d.name,
    intervention_code: d.intervention_code,
    is_flagged_diagnosis: false,
    is_inpatient: c.service_type === 'INPATIENT',
    recorded_on: iso(d.recorded_at),
    ...when(c.patient_id !== null, { patient_number: c.patient_id }),
    visit_number: c.visit_number,
  };
}

/** An attachment on the claim (R docs billing): the answer to uploading one, and `claim_attachments[]`. */
export function attachmentView(c: ClaimRecord, a: AttachmentRecord) {
  return {
    id: a.attachment_id,
    claim: c.guid,
    title: a.title,
    attachment_type: a.document_type,
    intervention_code: a.intervention_code,
    retry_count: 0,
  };
}

/** The claim's one invoice. The portal shows its doctors as `[{}]`, their fields undocumented: the sandbox answers one empty entry per doctor. */
function invoiceView(c: ClaimRecord) {
  const total = totalAmount(c.lines);
  return {
    invoice_number: c.invoice_number,
    ...when(c.provider_invoice_ref !== null, { provider_invoice_ref: c.provider_invoice_ref }),
    invoice_date: iso(c.visit_start),
    workflow_state: c.workflow_state === 'CLOSED' ? 'INVALID' : 'VALID',
    service_type: c.service_type,
    total_inv_amount: total,
    total_inv_net_amount: total,
    lines: c.lines.map((l) => lineView(c, l)),
    doctors: c.doctor === null ? [] : [{}],
  };
}

/** What the preview and the dispatch answers (submit, discharge, close) share of the claim object. */
function claimObject(c: ClaimRecord) {
  const total = totalAmount(c.lines);
  return {
    id: c.guid,
    authorization_code: c.consent_token,
    workflow_state: c.workflow_state,
    claim_auth_status: c.claim_auth_status,
    ...when(c.patient_id !== null, { patient_number: c.patient_id }),
    service_type: c.service_type,
    interventions: interventionsOf(c).map(({ code, state }) => {
      const intervention = CATALOGUE.interventionByCode.get(code);
      return {
        intervention_code: code,
        intervention_name: intervention?.name ?? code,
        workflow_state: state,
        preauth_exist: intervention?.needsPreauth === true && c.preauth_id !== null,
        // The intervention's document types as the visit's interventions carry them (A VisitIntervention).
        applicable_document_types: [...(intervention?.applicableDocumentTypes ?? [])],
      };
    }),
    invoices: [invoiceView(c)],
    claim_diagnoses: c.diagnoses.map((d) => diagnosisView(c, d)),
    total_claim_amount: total,
    total_claim_net_amount: total,
    visit_start: iso(c.visit_start),
    ...when(c.submitted_at !== null, { visit_end: iso(c.submitted_at ?? 0) }),
  };
}

/**
 * The claim as the preview answers it (R docs billing "Preview Claim"; A `cc/claim-preview/types`):
 * lines in `invoices[].lines`, diagnoses in `claim_diagnoses`. `discharge_status` and
 * `partial_discharges` are the sandbox's own (no public source shows how the live service marks a
 * partial discharge).
 */
export function claimPreview(c: ClaimRecord) {
  return {
    ...claimObject(c),
    claim_attachments: c.attachments.map((a) => attachmentView(c, a)),
    invoice_number: c.invoice_number,
    visit_number: c.visit_number,
    ...when(c.discharge_date !== null, { discharged_on: c.discharge_date }),
    ...when(c.discharge_status !== null, { discharge_status: c.discharge_status }),
    partial_discharges: c.partial_discharges.map((p) => ({ at: iso(p.at), amount: p.amount })),
  };
}

/** The claim as submit, discharge and close answer it (R docs claim-dispatch). */
export function claimDispatchView(c: ClaimRecord) {
  return {
    ...claimObject(c),
    invoice_number: c.invoice_number,
    visit_number: c.visit_number,
    ...when(c.discharge_date !== null, { discharged_on: c.discharge_date }),
    ...when(c.discharge_reason !== null, { discharge_reason: c.discharge_reason }),
    ...when(c.discharge_status !== null, { discharge_status: c.discharge_status }),
    ...when(c.reason_for_unknown_patient !== null, { reason_for_unknown_patient: c.reason_for_unknown_patient }),
    ...when(c.notes !== null, { notes: c.notes }),
    ...when(c.closed !== null, { cancel_reason_type: c.closed?.reason_type, cancel_reason_text: c.closed?.reason_text }),
  };
}

export const EMERGENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

export function emergencyView(c: ClaimRecord) {
  const e = c.emergency;
  if (e === null) return null;
  return {
    consent_token: c.consent_token,
    workflow_state: c.workflow_state,
    emergency_at: iso(e.emergency_at),
    submit_deadline: iso(e.emergency_at + EMERGENCY_WINDOW_MS),
    ...when(c.patient_id !== null, { beneficiary_cr_id: c.patient_id }),
    identified: c.patient_id !== null,
    protocols: e.protocols.map((p) => ({ protocol_code: p.protocol_code, name: p.name, unit_price: p.unit_price, added_at: iso(p.added_at) })),
    intervention_code: c.interventions[0] ?? null,
    mode_of_arrival: e.mode_of_arrival,
    brought_by: e.brought_by,
    ...when(e.reference_number !== null, { reference_number: e.reference_number }),
  };
}

/** The emergency claim as its creation answers it (R docs eclaims--emergency; test/fixtures/wire/emergency.*). */
export function emergencyClaimView(c: ClaimRecord) {
  const e = c.emergency;
  return {
    id: c.guid,
    authorization_code: c.consent_token,
    authorization_guid: c.authorization_guid,
    workflow_state: c.workflow_state,
    claim_auth_status: c.claim_auth_status,
    service_type: c.service_type,
    invoice_number: c.invoice_number,
    visit_number: c.visit_number,
    visit_start: iso(c.visit_start),
    admitted_on: iso(c.visit_start),
    emergency_visit_expiry: iso((e?.emergency_at ?? c.visit_start) + EMERGENCY_WINDOW_MS),
    initial_intervention: c.interventions[0] ?? '',
    interventions: c.interventions.map((code) => ({ intervention_code: code, workflow_state: 'ACTIVE' })),
    ...when(e !== null && e.reference_number !== null, { reference_number: e?.reference_number ?? '' }),
    ...when(e !== null, { mode_of_arrival: e?.mode_of_arrival ?? '' }),
    ...when(c.notes !== null, { notes: c.notes ?? '' }),
    ...when(c.patient_id !== null, { member_number: c.patient_id ?? '' }),
    total_claim_amount: totalAmount(c.lines),
  };
}

/** An emergency protocol as the list answers it: camelCase, its tariff as text (the portal's example). */
export function protocolView(p: Protocol) {
  return {
    protocolCode: p.protocolCode,
    name: p.name,
    applicableTariff: String(p.applicableTariff),
    status: p.active ? 'ACTIVE' : 'INACTIVE',
    intervention: [{ code: p.intervention_code }],
  };
}

/** The billing line an added protocol became (the portal's answer of POST /claims/emergency/protocols). */
export function protocolLineView(c: ClaimRecord, l: LineRecord) {
  const total = roundMoney(l.unit_price * l.quantity);
  return {
    id: l.line_guid,
    item_code: l.item_code ?? '',
    item_name: l.description,
    intervention_code: l.intervention_code,
    invoice: c.invoice_number,
    charge_date: iso(l.created_at),
    unit_price: l.unit_price,
    quantity: l.quantity,
    line_total_amount: total,
    line_net_amount: total,
    is_active: true,
  };
}

const DOCTOR_APPROVED: readonly string[] = ['ACTIVE', 'CLARIFICATION_AFTER_AUTOMATIC_CHECKS', 'FINALISED', 'REJECTED', 'REJECTED_AFTER_APPROVAL'];

/** A preauth as the portal shows it: camelCase (R docs eclaims--preauths; test/fixtures/wire/preauth.*). */
export function preauthView(p: PreauthRecord) {
  const approvedByDoctor = DOCTOR_APPROVED.includes(p.status);
  const doctorReview = approvedByDoctor ? 'APPROVED' : 'PENDING';
  return {
    id: p.id,
    guid: p.guid,
    token: p.consent_token,
    interventionCode: p.intervention_code,
    status: p.status,
    doctorReviewStatus: doctorReview,
    doctorApproved: approvedByDoctor,
    needsDoctorApproval: true,
    numberOfPreauthDoctorsRequired: 1,
    isElective: true,
    isRequestPhase: p.approved_amount === null,
    isResponsePhase: p.approved_amount !== null,
    serviceStart: p.service_start,
    serviceEnd: p.service_end,
    providerNotificationEmail: p.notification_email,
    totalEstimatedAmountForPreauth: p.requested_amount,
    ...when(p.approved_amount !== null, { finalApprovedAmount: p.approved_amount ?? 0 }),
    preauthItems: p.items.map((unitPrice) => ({ interventionCode: p.intervention_code, quantity: '1', unitPrice, estimatedAmount: unitPrice })),
    preauthDiagnoses: p.diagnoses.map((d) => ({ name: d.code, interventionCode: p.intervention_code, status: 'ACTIVE' })),
    preauthDoctors: p.doctor === null ? [] : [{ name: p.doctor.name, doctorReviewStatus: doctorReview, status: doctorReview }],
    preauthNotes: p.notes.map((n) => ({ id: n.id, note: n.note, source: n.source, authorName: 'SHA' })),
  };
}
