// The wire shapes the sandbox answers with (docs/exchange-wire.md). Optional fields are omitted,
// never sent as null, unless the wire doc shows them nullable.
import { iso } from './clock';
import type { SandboxContext } from './context';
import type { AuthorizationRecord, ClaimRecord, DoctorRecord, LineRecord, PreauthRecord } from './state/store';
import type { Protocol } from './world/catalogue';

const when = <T>(condition: boolean, value: T): T | Record<string, never> => (condition ? value : {});

export function authorizationView(a: AuthorizationRecord) {
  return {
    token: a.token,
    guid: a.guid,
    status: a.status,
    label: a.label,
    expiry: a.expires_at === null ? null : iso(a.expires_at),
    patient_id: a.patient_id,
    interventions: a.interventions,
    service_type: a.service_type,
    ...when(a.reason !== null, { reason: a.reason }),
    ...when(a.phase === 'discharge', { discharge_auth_guid: a.guid }),
    ...when(a.claim_consent_token !== null, { claim_consent_token: a.claim_consent_token }),
    created_at: iso(a.created_at),
  };
}

export function ekycUrl(ctx: SandboxContext, a: AuthorizationRecord): string {
  if (a.ekyc === null) return '';
  return `${ctx.baseUrl}/ekyc/authorize/${a.ekyc.requestId}?t=${a.ekyc.embedToken}`;
}

/** The biometric authorize answer [3x]: PENDING with the iframe link of the sandbox's own page. */
export function biometricAuthorizeView(ctx: SandboxContext, a: AuthorizationRecord) {
  const expiry = a.expires_at === null ? null : iso(a.expires_at);
  return {
    token: a.token,
    guid: a.guid,
    status: a.status,
    label: a.label,
    expiry,
    ekycToken: a.ekyc?.ekycToken ?? null,
    workStationId: a.ekyc?.workStationId ?? null,
    shaVerificationRequest: {
      embedExpiry: expiry,
      embededToken: a.ekyc?.embedToken ?? null,
      requestId: a.ekyc?.requestId ?? null,
      requestUrl: ekycUrl(ctx, a),
    },
    ...when(a.phase === 'discharge', { discharge_auth_guid: a.guid }),
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

export function lineView(l: LineRecord) {
  return {
    line_guid: l.line_guid,
    intervention_code: l.intervention_code,
    item_code: l.item_code,
    description: l.description,
    unit_price: l.unit_price,
    quantity: l.quantity,
    amount: roundMoney(l.unit_price * l.quantity),
    diagnoses: l.diagnoses,
    service_date: l.service_date,
    ...when(l.practitioner !== null, { practitioner: l.practitioner }),
    generated: l.generated,
    created_at: iso(l.created_at),
  };
}

export const roundMoney = (n: number): number => Math.round(n * 100) / 100;

export function totalAmount(lines: readonly LineRecord[]): number {
  return roundMoney(lines.reduce((sum, l) => sum + l.unit_price * l.quantity, 0));
}

export function visitView(c: ClaimRecord) {
  return {
    authorization_code: c.consent_token,
    consent_token: c.consent_token,
    authorization_guid: c.authorization_guid,
    claim_auth_status: c.claim_auth_status,
    workflow_state: c.workflow_state,
    invoice_number: c.invoice_number,
    visit_number: c.visit_number,
    visit_start: iso(c.visit_start),
    interventions: c.interventions,
    claim_guid: c.guid,
  };
}

export function claimPreview(c: ClaimRecord) {
  return {
    consent_token: c.consent_token,
    claim_guid: c.guid,
    workflow_state: c.workflow_state,
    claim_auth_status: c.claim_auth_status,
    patient_id: c.patient_id,
    service_type: c.service_type,
    interventions: c.interventions,
    lines: c.lines.map(lineView),
    diagnoses: c.diagnoses,
    ...when(c.doctor !== null, { doctor: c.doctor === null ? null : doctorView(c.doctor) }),
    attachments: c.attachments.map((a) => ({
      attachment_id: a.attachment_id,
      intervention_code: a.intervention_code,
      document_type: a.document_type,
      file_name: a.file_name,
      content_type: a.content_type,
      size: a.size,
      uploaded_at: iso(a.uploaded_at),
    })),
    total_amount: totalAmount(c.lines),
    invoice_number: c.invoice_number,
    visit_number: c.visit_number,
    visit_start: iso(c.visit_start),
    authorization_guid: c.authorization_guid,
    ...when(c.discharge_status !== null, { discharge_status: c.discharge_status }),
    partial_discharges: c.partial_discharges.map((p) => ({
      at: iso(p.at),
      discharge_reason: p.discharge_reason,
      amount: p.amount,
      line_guids: p.line_guids,
      notes: p.notes,
    })),
    ...when(c.submitted_at !== null, { submitted_at: c.submitted_at === null ? null : iso(c.submitted_at) }),
    ...when(c.discharge_reason !== null, { discharge_reason: c.discharge_reason }),
    ...when(c.preauth_id !== null, { preauth_id: c.preauth_id }),
    ...when(c.emergency !== null, { emergency: c.emergency === null ? null : emergencyView(c) }),
    ...when(c.closed !== null, { closed: c.closed === null ? null : { ...c.closed, at: iso(c.closed.at) } }),
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

const DOCTOR_APPROVED: readonly string[] = ['ACTIVE', 'FINALISED', 'REJECTED'];

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
  };
}
