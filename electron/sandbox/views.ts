// The wire shapes the sandbox answers with (docs/exchange-wire.md). Optional fields are omitted,
// never sent as null, unless the wire doc shows them nullable.
import { iso } from './clock';
import type { SandboxContext } from './context';
import type { AuthorizationRecord, ClaimRecord, DoctorRecord, LineRecord, PreauthRecord } from './state/store';
import { CATALOGUE, normalisedMechanism } from './world/catalogue';

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

/** An intervention of a claim, as the visit answer lists them [doc]. */
function claimInterventionView(code: string) {
  const i = CATALOGUE.interventionByCode.get(code);
  if (i === undefined) return { intervention_code: code, intervention_name: code, workflow_state: 'ACTIVE' };
  return {
    intervention_code: code,
    intervention_name: i.name,
    intervention_payment_mechanism: normalisedMechanism(i),
    sub_benefit_code: i.sub_benefit_code,
    needs_preauth: i.needsPreauth,
    workflow_state: 'ACTIVE',
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
    interventions: c.interventions.map(claimInterventionView),
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

export function preauthView(p: PreauthRecord) {
  return {
    id: p.id,
    guid: p.guid,
    consent_token: p.consent_token,
    intervention_code: p.intervention_code,
    patient_id: p.patient_id,
    preauth_type: p.preauth_type,
    status: p.status,
    form: p.form,
    ...when(p.doctor !== null, { doctor: p.doctor === null ? null : doctorView(p.doctor) }),
    diagnoses: p.diagnoses,
    requested_amount: p.requested_amount,
    ...when(p.approved_amount !== null, { approved_amount: p.approved_amount }),
    attachments: p.attachments,
    authorization_guid: p.authorization_guid,
    ...when(p.cancel_reason !== null, { cancel_reason: p.cancel_reason }),
    ...when(p.claim_consent_token !== null, { claim_consent_token: p.claim_consent_token }),
    created_at: iso(p.created_at),
    updated_at: iso(p.updated_at),
  };
}
