// Corrections to an open visit's claim (issue 14): closed with its reason when it should never be
// paid (the wrong patient, no service given, ...), a diagnosis removed, a line's quantity or price
// corrected, the intervention switched (a ward transfer, with the days the kept lines bill for);
// and a preauthorization's diagnosis removed before its doctor approves. Each is one journaled
// write with issue 11's three outcomes: done, refused (on the view, thrown), or unknown — the nurse
// told OUTCOME_UNKNOWN, and the claim preview (or the preauth look-up) settles it before anything is
// sent again (the engine's write, by the `look-up` policy).
import type { closeReason } from '../../contract';
import type { z } from 'zod';
import { fail, StationFailure } from '../errors';
import type { Ctx } from './context';
import { journal } from './journal';
import type { ElectiveWorkflow, VisitWorkflow } from './types';
import { billingCall, refreshFromPreview, requireOpen } from './visit';

/** Closes the claim (POST /claims/close): final. The explanation goes to SHA only; the audit keeps the reason type. */
export async function closeVisit(ctx: Ctx, wf: VisitWorkflow, reason: z.infer<typeof closeReason>, explanation: string): Promise<void> {
  const consentToken = requireOpen(wf);
  if (wf.data.dischargeWorkflowId !== null) fail('WRONG_STATE', 'The visit end is under way: finish or cancel it first.', { state: 'closing' });
  const request = { consent_token: consentToken, cancel_reason_type: reason, cancel_reason_text: explanation };
  await billingCall(ctx, wf, journal.closeClaim, request, () => ctx.session.client().claims.close(request), (claim) => {
    wf.data.claimStatus = claim.workflowState ?? 'CLOSED';
    ctx.engine.transition(wf, 'cancel', `claim closed: ${reason}`);
  });
}

/** Adds a diagnosis to the claim for an intervention (the visit's by default): POST /claims/diagnoses, no line needed. */
export async function addDiagnosis(ctx: Ctx, wf: VisitWorkflow, code: string, interventionCode: string | undefined): Promise<void> {
  const consentToken = requireOpen(wf);
  const request = { consent_token: consentToken, icd_code: code, intervention_code: interventionCode ?? wf.data.intervention.code };
  await billingCall(ctx, wf, journal.addDiagnosis, request, () => ctx.session.client().claims.addDiagnosis(request), () => undefined);
  await refreshFromPreview(ctx, wf).catch(() => undefined);
}

/** Removes one diagnosis the claim holds for an intervention (the visit's by default). */
export async function removeDiagnosis(ctx: Ctx, wf: VisitWorkflow, code: string, interventionCode: string | undefined): Promise<void> {
  const consentToken = requireOpen(wf);
  const intervention = interventionCode ?? wf.data.intervention.code;
  const request = { consent_token: consentToken, icd_code: code, intervention_code: intervention };
  await billingCall(ctx, wf, journal.removeDiagnosis, request, () => ctx.session.client().claims.removeDiagnosis(request), () => {
    for (const line of wf.data.lines) if (line.interventionCode === intervention) line.diagnoses = line.diagnoses.filter((d) => d.code !== code);
  });
  await refreshFromPreview(ctx, wf).catch(() => undefined);
}

/** Corrects a line the station added (PATCH /claims/lines/edit, the line by its id): quantity, unit price or both. */
export async function editLine(ctx: Ctx, wf: VisitWorkflow, lineId: string, change: { quantity?: number | undefined; unitPriceKes?: number | undefined }): Promise<void> {
  requireOpen(wf);
  const line = wf.data.lines.find((l) => l.lineId === lineId);
  if (line === undefined) fail('NOT_FOUND', 'The visit has no such line.', { field: 'lineId' });
  if (line.automatic) fail('WRONG_STATE', 'Lines SHA generated cannot be edited here.', { state: 'automatic' });
  const request = {
    line_id: lineId,
    ...(change.quantity === undefined ? {} : { quantity: change.quantity }),
    ...(change.unitPriceKes === undefined ? {} : { unit_price: change.unitPriceKes }),
  };
  await billingCall(ctx, wf, journal.editLine, request, () => ctx.session.client().claims.editLine(request), (edited) => {
    if (edited.quantity !== undefined) line.quantity = Math.max(1, Math.round(edited.quantity));
    if (edited.unitPrice !== undefined) line.unitPriceKes = edited.unitPrice;
  });
  await refreshFromPreview(ctx, wf).catch(() => undefined);
}

export interface SwitchInput {
  interventionCode: string;
  keepLines: boolean;
  billFrom?: string | undefined;
  billTo?: string | undefined;
}

/**
 * Switches the claim's intervention (POST /claims/interventions/switch), as a ward transfer does.
 * Kept lines move to the new intervention for the days billed from and to (A refuses keeping them
 * without both); otherwise the old intervention's lines go. The new intervention must be among the
 * patient's benefits (INTERVENTION_NOT_ALLOWED before anything is sent).
 */
export async function switchIntervention(ctx: Ctx, wf: VisitWorkflow, input: SwitchInput): Promise<void> {
  const consentToken = requireOpen(wf);
  if (input.interventionCode === wf.data.intervention.code) fail('VALIDATION', 'That is the visit’s intervention already.', { field: 'interventionCode' });
  const next = await ctx.patients.intervention(wf.data.patient.ref, input.interventionCode);
  const request = {
    consent_token: consentToken,
    existing_intervention_code: wf.data.intervention.code,
    new_intervention_code: next.code,
    retain_bill_items: input.keepLines,
    ...(input.keepLines && input.billFrom !== undefined && input.billTo !== undefined ? { bill_from: input.billFrom, bill_to: input.billTo } : {}),
  };
  await billingCall(ctx, wf, journal.switchIntervention, request, () => ctx.session.client().claims.switchIntervention(request), () => {
    wf.data.intervention = { code: next.code, name: next.name, scenario: next.scenario };
  });
  await refreshFromPreview(ctx, wf).catch(() => undefined);
}

// ---------------------------------------------------------------- the preauthorization

/** Removes a diagnosis from the preauthorization while its doctor has not approved it (DELETE /preauths/diagnoses/{icd_code}). */
export async function removePreauthDiagnosis(ctx: Ctx, wf: ElectiveWorkflow, code: string): Promise<void> {
  const r = wf.data.preauthRequest;
  if (wf.state !== 'awaiting-doctor' || wf.data.authToken === null || r === null) {
    fail('WRONG_STATE', 'Diagnoses change only before the doctor approves the preauthorization.', { state: wf.state });
  }
  if (!r.diagnoses.some((d) => d.code === code)) fail('NOT_FOUND', 'The preauthorization has no such diagnosis.', { field: 'code' });
  if (r.diagnoses.length === 1) fail('VALIDATION', 'A preauthorization needs at least one diagnosis: cancel it instead.', { field: 'code' });
  const request = { consent_token: wf.data.authToken, icd_code: code, intervention_code: wf.data.intervention.code };
  try {
    await ctx.engine.send(wf, {
      operation: journal.removePreauthDiagnosis,
      request,
      send: () => ctx.session.client().preauth.removeDiagnosis(request),
      settle: () => {
        r.diagnoses = r.diagnoses.filter((d) => d.code !== code);
        wf.lastError = null;
        ctx.engine.save(wf);
      },
      refused: (error) => ctx.engine.setError(wf, error),
    });
  } catch (error) {
    // SHA does not have it (an earlier removal whose answer was lost): it is gone, as asked.
    if (error instanceof StationFailure && error.error.code === 'NOT_FOUND') {
      ctx.engine.commit(() => {
        r.diagnoses = r.diagnoses.filter((d) => d.code !== code);
        ctx.engine.setError(wf, null);
      });
      return;
    }
    throw error;
  }
}
