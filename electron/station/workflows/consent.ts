// Flow B's consent, the consent kind's module: for one patient and one intervention, the route
// decided at once, consent by fingerprint (biometric authorize, then the look-up; the visit opens
// itself with the authorization's guid once the exchange says AUTHORIZED) or by SMS code (OTP sent;
// the code confirmed opens the visit with it, which is the consent itself: no authorize on this
// path, and the consent is not `verified` before SHA has opened the visit with the code).
import type { z } from 'zod';
import type { consentView as consentViewSchema } from '../../contract';
import { fail, StationFailure } from '../errors';
import { consentMachine } from '../machines';
import type { Ctx } from './context';
import type { CallRecord } from './engine';
import type { ConsentWorkflow, ServiceType } from './types';
import { consentingPatient, verifyingWorkflow } from './start';
import { verificationDeadlines, verificationNextActions, verificationView, type VerificationHost } from './verification';
import { journal } from './journal';
import type { WorkflowKindModule } from './kinds';
import { openVisitFor } from './open-visits';
import { followOpening, openVisit, reconcileOpenVisit, wireServiceType } from './visit';

export type ConsentView = z.infer<typeof consentViewSchema>;

export async function beginConsent(
  ctx: Ctx,
  input: { patientRef: string; interventionCode?: string | undefined; serviceType?: ServiceType | undefined; forOpenVisit?: true | undefined },
): Promise<ConsentWorkflow> {
  const facts = await consentingPatient(ctx, input.patientRef);
  const code = input.interventionCode ?? facts.suggested?.code;
  if (code === undefined) fail('VALIDATION', 'Choose the intervention: none fits this ward by default.', { field: 'interventionCode' });
  const openVisit = input.forOpenVisit === true ? await openVisitFor(ctx, facts.patientId, code) : undefined;
  const intervention = await ctx.patients.intervention(input.patientRef, code);
  if (intervention.handling.startsWith !== 'visit') {
    fail('INTERVENTION_NOT_ALLOWED', intervention.handling.startsWith === 'elective' ? 'This intervention needs a preauthorization: start the elective flow.' : 'This is an emergency intervention: start an emergency claim.', {
      field: 'interventionCode',
    });
  }
  const serviceType = input.serviceType ?? (intervention.careSetting === 'both' ? facts.serviceType : intervention.handling.serviceType);
  if (intervention.careSetting !== 'both' && serviceType !== intervention.handling.serviceType) {
    fail('INTERVENTION_NOT_ALLOWED', `This intervention is for ${intervention.handling.serviceType.toLowerCase()} visits.`, { field: 'serviceType' });
  }
  const { header, data } = verifyingWorkflow(ctx, 'consent', facts, intervention, 'visit');
  const wf: ConsentWorkflow = { ...header, data: { ...data, serviceType, visitWorkflowId: null, ...(openVisit === undefined ? {} : { openVisitGuid: openVisit.guid }) } };
  return ctx.engine.create(wf, `consent for ${intervention.code} (${serviceType})${openVisit === undefined ? '' : ' under the visit open at SHA'}, route ${wf.data.verification.route.route}`);
}

export const consentHost: VerificationHost<ConsentWorkflow> = {
  step: (wf) => wf.data.verification,
  assertTakingConsent(wf) {
    if (wf.state !== 'verifying') fail('WRONG_STATE', 'Consent has already been given or withdrawn.', { state: wf.state });
  },
  patientRef: (wf) => wf.data.patient.ref,
  fingerprintCall: (_ctx, wf, bio) => {
    const request = {
      patient_id: wf.data.patient.patientId,
      service_type: wireServiceType(wf.data.serviceType, wf.data.intervention),
      interventions: [wf.data.intervention.code],
      ...bio,
    };
    return { operation: journal.authorizeBiometric, request, send: (client) => client.consent.authorizeBiometric(request), settle: () => undefined };
  },
  codeCall: (_ctx, wf, contact) => {
    const request = { patient_id: wf.data.patient.patientId, intervention_codes: [wf.data.intervention.code], ...(contact === null ? {} : { beneficiary_contact_id: contact.contactId }) };
    return { operation: journal.sendOtp, request, send: (client) => client.consent.sendOtp(request), settle: () => undefined };
  },
  // The code is spent by the visit itself: the step holds it, unverified, until SHA opens the visit with it.
  confirm: () => ({ opensVisit: true }),
  /**
   * The confirmed SMS code opens the visit at once (the visit creation is the consent). A visit
   * refused brings the consent back to its code, a wrong one counted (visit.ts); the refusal is
   * answered as the step now shows it (attempts left). A lost answer is settled by posting the
   * visit again (the engine, by its policy).
   */
  openVisitWithCode: async (ctx, wf) => {
    try {
      await openVisit(ctx, wf, null);
    } catch (error) {
      if (error instanceof StationFailure && wf.data.verification.stage === 'sms-sent' && wf.lastError !== null) throw new StationFailure(wf.lastError);
      throw error;
    }
  },
  onVerified: (ctx, wf) => ctx.engine.transition(wf, 'verified', `by ${wf.data.verification.method ?? 'consent'}`),
  /**
   * A fingerprint the exchange AUTHORIZED opens the visit with the authorization's guid, without
   * the nurse. A refusal stays on the view, with "Open visit" to try again; a lost answer the
   * engine settles by its policy, else the workflow is reconciled in the background.
   */
  afterVerified: async (ctx, wf) => {
    if (wf.state !== 'verified') return;
    try {
      await openVisit(ctx, wf, null);
    } catch (error) {
      if (!(error instanceof StationFailure)) throw error;
    }
  },
  cancelWorkflow: (ctx, wf) => ctx.engine.transition(wf, 'cancel', 'withdrawn by the nurse'),
};

export function consentView(ctx: Ctx, wf: ConsentWorkflow): ConsentView {
  const v = wf.data.verification;
  // Opening: the visit's answer is being settled; "Open visit" looks for the visit it made.
  const next: ConsentView['next'] =
    wf.state === 'verifying' ? verificationNextActions(v) : wf.state === 'verified' ? ['visit.open', 'consent.cancel'] : wf.state === 'opening-visit' ? ['visit.open'] : [];
  return {
    workflowId: wf.id,
    kind: 'consent',
    state: wf.state,
    next,
    deadlines: wf.state === 'verifying' ? verificationDeadlines(ctx, v) : [],
    lastError: wf.lastError,
    updatedAt: wf.updatedAt,
    patient: { patientRef: wf.data.patient.ref, maskedName: wf.data.patient.maskedName },
    intervention: wf.data.intervention,
    serviceType: wf.data.serviceType,
    verification: verificationView(v)!,
    visitWorkflowId: wf.data.visitWorkflowId,
  };
}

/**
 * The visit's call, settled: posted again with the consent (or the code) that made it, the exchange
 * answers with the visit it opened; a consent left opening a visit that was never sent goes back to
 * where it was (verified by fingerprint; its SMS code to be confirmed again).
 */
async function reconcileConsent(ctx: Ctx, wf: ConsentWorkflow, calls: CallRecord[]): Promise<void> {
  const visitCall = calls.find((c) => c.operation === journal.createVisit.name);
  if (visitCall !== undefined) {
    const visit = await reconcileOpenVisit(ctx, wf, visitCall);
    if (visit !== undefined) followOpening(ctx, visit);
  } else if (wf.state === 'opening-visit') {
    ctx.engine.commit(() => {
      const v = wf.data.verification;
      if (v.stage === 'verified') ctx.engine.transition(wf, 'visitNotOpened', 'the visit was never sent');
      else {
        v.code = null;
        ctx.engine.transition(wf, 'codeNotAccepted', 'the visit was never sent: the code is to be confirmed again');
      }
    });
  }
  for (const call of calls.filter((c) => c !== visitCall)) ctx.engine.reconciled(call, `${call.operation}: nothing to re-send`, wf);
}

export const consentKind: WorkflowKindModule<'consent'> = {
  kind: 'consent',
  machine: consentMachine,
  view: consentView,
  verification: consentHost,
  reconcile: reconcileConsent,
  // The consent's own write is the visit, posted again at once (post-again): nothing shows it meanwhile.
  unknownOutcome: { meanwhile: () => false },
};
