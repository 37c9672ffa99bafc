// Emergency (ECCIF), as the live exchange runs it: the claim is created first, with no consent
// token (its answer carries `authorization_code`, the consent token of every later call); the
// doctor's approval is asked for once the claim exists; protocols come from a list that needs the
// intervention and are added to the claim by a multipart call; an unidentified patient is
// identified later by posting the claim again with the patient's registry id and SMS code.
import { z } from 'zod';
import { broughtBy, modesOfArrival } from '../../vocabulary';
import {
  amount,
  camelCaseKeys,
  isRecord,
  list,
  nonEmpty,
  optionalNumber,
  optionalStatus,
  optionalText,
  otpDigits,
  pageOf,
  pageQuery,
  practitionerRef,
  text,
} from './common';
import type { WorkflowState } from './claims';


// ---------------------------------------------------------------- protocols

/** Both are required by the portal; `active` goes as "true" / "false". */
export const protocolsQuery = z.strictObject({
  active: z.boolean(),
  intervention_code: nonEmpty,
  ...pageQuery,
});

export interface EmergencyProtocol {
  readonly protocolCode: string;
  readonly name: string | undefined;
  /** The bundled tariff (KES); a number or a numeric string on the wire. */
  readonly applicableTariff: number | undefined;
  readonly status: string | undefined;
  /** Codes named by the entry's `intervention[]`, where its entries carry one. */
  readonly interventionCodes: string[];
}

/** The codes in `intervention[]`: its entries are shown as objects of undocumented shape. */
function codesOf(entries: unknown[]): string[] {
  const codes: string[] = [];
  for (const entry of entries) {
    if (typeof entry === 'string' && entry.trim() !== '') codes.push(entry);
    else if (isRecord(entry)) {
      const code = entry.code ?? entry.intervention_code ?? entry.interventionCode;
      if (typeof code === 'string' && code.trim() !== '') codes.push(code);
    }
  }
  return codes;
}

const protocol = z.preprocess(
  camelCaseKeys,
  z
    .looseObject({
      protocolCode: text,
      name: optionalText,
      applicableTariff: optionalNumber,
      status: optionalStatus,
      intervention: list(z.unknown()),
    })
    .transform(
      (p): EmergencyProtocol => ({
        protocolCode: p.protocolCode,
        name: p.name,
        applicableTariff: p.applicableTariff,
        status: p.status,
        interventionCodes: codesOf(p.intervention),
      }),
    ),
);

export const protocolsResponse = pageOf(protocol);

/**
 * Adds a protocol to the claim (multipart). `diagnoses` go as one comma-separated text part (the
 * portal and R say so here, unlike the JSON array of the claim lines). The portal also names an
 * `attachments` metadata part without saying how its files travel: not sent.
 */
export const addProtocolRequest = z.strictObject({
  consent_token: nonEmpty,
  protocol_code: nonEmpty,
  intervention_code: nonEmpty,
  /** The protocol's applicableTariff. */
  unit_price: amount,
  quantity: z.number().int().min(1),
  diagnoses: z.array(nonEmpty.regex(/^[^,]+$/, 'an ICD code without commas')).min(1).optional(),
});

export interface EmergencyProtocolLine {
  readonly lineId: string;
  readonly itemCode: string | undefined;
  readonly interventionCode: string | undefined;
  readonly unitPrice: number | undefined;
  readonly quantity: number | undefined;
  readonly total: number | undefined;
}

/** The billing line the protocol became (portal): `id`, `item_code`, `line_total_amount`, … */
export const addProtocolResponse = z
  .looseObject({
    id: text,
    item_code: optionalText,
    intervention_code: optionalText,
    unit_price: optionalNumber,
    quantity: optionalNumber,
    line_total_amount: optionalNumber,
  })
  .transform(
    (l): EmergencyProtocolLine => ({
      lineId: l.id,
      itemCode: l.item_code,
      interventionCode: l.intervention_code,
      unitPrice: l.unit_price,
      quantity: l.quantity,
      total: l.line_total_amount,
    }),
  );

// ---------------------------------------------------------------- the claim

const claimFields = {
  /** Exactly one intervention per emergency claim. */
  interventions: z.array(nonEmpty).length(1, 'an emergency claim has exactly one intervention'),
  mode_of_arrival: z.enum(modesOfArrival),
  brought_by: z.enum(broughtBy),
  reference_number: nonEmpty,
  /** Optional on the portal, refused blank on UAT (R WORKFLOWS §9.7): always sent. */
  notes: nonEmpty,
  /** The attending doctor. */
  ...practitionerRef,
};

/** Creation: no consent token (the answer makes one). A patient known on arrival is named (A), else nobody. */
export const createEmergencyClaimRequest = z.strictObject({ ...claimFields, beneficiary_cr_id: nonEmpty.optional() });

/**
 * Identification: the same payload again with the patient's registry id and SMS code; the consent
 * token of the claim goes with it (the contract's words; the live request documents none).
 */
export const identifyEmergencyClaimRequest = z.strictObject({
  ...claimFields,
  beneficiary_cr_id: nonEmpty,
  otp: otpDigits,
  consent_token: nonEmpty,
});

export interface EmergencyClaim {
  /** authorization_code: the consent token of every later call on the claim. */
  readonly consentToken: string;
  /** The claim's id (`id`, else `claim_id`): emergency_claim_id of the doctor's approval request. */
  readonly claimId: string;
  readonly workflowState: WorkflowState | undefined;
  readonly claimAuthStatus: string | undefined;
  readonly invoiceNumber: string | undefined;
  readonly visitNumber: string | undefined;
  readonly visitStart: string | undefined;
  /** emergency_visit_expiry: the end of the emergency visit (its 24 hours). */
  readonly expiresAt: string | undefined;
  readonly referenceNumber: string | undefined;
}

export const emergencyClaimResponse = z
  .looseObject({
    authorization_code: text,
    id: optionalText,
    claim_id: optionalText,
    workflow_state: optionalStatus,
    claim_auth_status: optionalStatus,
    invoice_number: optionalText,
    visit_number: optionalText,
    visit_start: optionalText,
    emergency_visit_expiry: optionalText,
    reference_number: optionalText,
  })
  .refine((c) => (c.id ?? c.claim_id) !== undefined, { message: 'emergency claim without id or claim_id', path: ['id'] })
  .transform(
    (c): EmergencyClaim => ({
      consentToken: c.authorization_code,
      claimId: String(c.id ?? c.claim_id),
      workflowState: c.workflow_state,
      claimAuthStatus: c.claim_auth_status,
      invoiceNumber: c.invoice_number,
      visitNumber: c.visit_number,
      visitStart: c.visit_start,
      expiresAt: c.emergency_visit_expiry,
      referenceNumber: c.reference_number,
    }),
  );

// ---------------------------------------------------------------- the doctor's approval

/** Asked once the claim exists: its consent token and id name it; the doctor approves on their side. */
export const emergencyDoctorApprovalRequest = z.strictObject({
  consent_token: nonEmpty,
  intervention_code: nonEmpty,
  emergency_claim_id: nonEmpty,
  ...practitionerRef,
});
