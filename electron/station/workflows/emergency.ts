// Flow C, the emergency claim: the attending doctor's SMS code authorizes it (consent is by code
// only), the claim is created for a patient who may be unidentified, the patient identified later
// by their own code (the same claim, its protocols kept), and submitted within 24 hours.
import type { z } from 'zod';
import type { CommandInput, emergencyProtocol, emergencyView as emergencyViewSchema } from '../../contract';
import { makeError } from '../../contract';
import type { EmergencyClaim, EmergencyProtocol as WireProtocol } from '../../payer';
import { fail, StationFailure } from '../errors';
import type { Ctx } from './context';
import { OutcomeUnknown, type CallRecord } from './engine';
import { workflowHeader } from './start';
import type { AttendingDoctor, EmergencyWorkflow, PatientFacts } from './types';
import { callSpec, newVerification, sendSms, verificationDeadlines, verificationNextActions, verificationView, type VerificationHost } from './verification';
import { claimStatusOf, dateTimeOf } from './visit';

export type EmergencyView = z.infer<typeof emergencyViewSchema>;
export type Protocol = z.infer<typeof emergencyProtocol>;

const WINDOW_MS = 24 * 60 * 60 * 1000;

export function protocolOf(p: WireProtocol): Protocol | null {
  if (p.interventionCode === undefined || !/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(p.interventionCode)) return null;
  return {
    protocolCode: p.protocolCode.slice(0, 60),
    name: (p.name?.trim() || p.protocolCode).slice(0, 200),
    interventionCode: p.interventionCode,
    tariffKes: Math.min(Math.max(0, p.applicableTariff ?? 0), 1_000_000_000),
  };
}

/** Active protocols, every page, optionally of one intervention. */
export async function listProtocols(ctx: Ctx, interventionCode: string | undefined): Promise<Protocol[]> {
  const client = ctx.session.client();
  const query = { active: true, pageSize: 100, ...(interventionCode === undefined ? {} : { intervention_code: interventionCode }) };
  const first = await client.emergency.protocols({ ...query, page: 1 });
  const rest = await Promise.all(Array.from({ length: Math.max(0, Math.min(first.totalPages, 50) - 1) }, (_, i) => client.emergency.protocols({ ...query, page: i + 2 })));
  return [first, ...rest].flatMap((p) => p.items.filter((x) => x.active !== false)).map(protocolOf).filter((p): p is Protocol => p !== null);
}

const doctorFields = (d: AttendingDoctor) => ({ identification_number: d.identificationNumber, identification_type: d.identificationType, regulation_body: d.regulationBody });

export interface EmergencyInput {
  interventionCode: string;
  protocolCode: string;
  doctor: AttendingDoctor;
  modeOfArrival: EmergencyWorkflow['data']['modeOfArrival'];
  broughtBy: EmergencyWorkflow['data']['broughtBy'];
  referenceNumber?: string | undefined;
  notes?: string | undefined;
}

export async function createEmergency(ctx: Ctx, input: EmergencyInput): Promise<EmergencyWorkflow> {
  if (!/^SHA-01(\b|-|$)/i.test(input.interventionCode)) fail('INTERVENTION_NOT_ALLOWED', 'Emergency claims are for emergency interventions (SHA-01…).', { field: 'interventionCode' });
  const protocols = await listProtocols(ctx, input.interventionCode);
  const protocol = protocols.find((p) => p.protocolCode === input.protocolCode);
  if (protocol === undefined) fail('NOT_FOUND', 'That protocol is not an active protocol of the intervention.', { field: 'protocolCode' });
  const wf: EmergencyWorkflow = {
    ...workflowHeader(ctx, 'emergency', 'awaiting-doctor-code'),
    data: {
      intervention: { code: input.interventionCode, name: protocol.name, scenario: 'emergency' },
      protocol,
      doctor: input.doctor,
      modeOfArrival: input.modeOfArrival,
      broughtBy: input.broughtBy,
      referenceNumber: input.referenceNumber ?? null,
      notes: input.notes ?? null,
      verification: newVerification(ctx, 'emergency-doctor', { biometricsEnforced: true, whitelisted: false, contacts: [], unusableUntil: null }, true),
      consentToken: null,
      patient: null,
      identifying: null,
      emergencyAt: null,
      submitBy: null,
      claimStatus: null,
      submittedAt: null,
      invoiceNumber: null,
      intent: null,
    },
  };
  ctx.engine.create(wf, `emergency claim for ${input.interventionCode} (${input.protocolCode})`);
  // The doctor's code goes out at once: it is the only way forward.
  await ctx.engine.lock(wf.id, () => sendSms(ctx, emergencyHost, wf, undefined));
  return wf;
}

/** The claim payload every emergency post repeats (creation, then identification). */
function claimPayload(wf: EmergencyWorkflow, consentToken: string) {
  const d = wf.data;
  return {
    consent_token: consentToken,
    intervention_code: d.intervention.code,
    protocol_code: d.protocol.protocolCode,
    unit_price: d.protocol.tariffKes,
    mode_of_arrival: d.modeOfArrival,
    brought_by: d.broughtBy,
    ...(d.referenceNumber === null ? {} : { reference_number: d.referenceNumber }),
    ...doctorFields(d.doctor),
    ...(d.notes === null ? {} : { notes: d.notes }),
  };
}

export const emergencyHost: VerificationHost<EmergencyWorkflow> = {
  step: (wf) => wf.data.verification,
  assertTakingConsent(wf) {
    if (wf.state !== 'awaiting-doctor-code' && wf.state !== 'identifying') fail('WRONG_STATE', 'No SMS code is awaited for this emergency.', { state: wf.state });
  },
  patientRef: (wf) => wf.data.identifying?.ref ?? wf.data.patient?.ref ?? null,
  codeCall: (_ctx, wf, contact) => {
    if (wf.state === 'identifying' && wf.data.identifying !== null) {
      const request = { patient_id: wf.data.identifying.patientId, intervention_codes: [wf.data.intervention.code], ...(contact === null ? {} : { beneficiary_contact_id: contact.contactId }) };
      return { operation: 'consent.sendOtp', request, send: (client) => client.consent.sendOtp(request), settle: () => undefined };
    }
    const request = { ...doctorFields(wf.data.doctor), intervention_code: wf.data.intervention.code };
    return {
      operation: 'emergency.sendDoctorOtp',
      request,
      send: async (client) => {
        const answer = await client.emergency.sendDoctorOtp(request);
        return { message: answer.message, contact: undefined, expiresInSeconds: undefined };
      },
      settle: () => undefined,
    };
  },
  confirmCall: (ctx, wf, code) => {
    if (wf.state === 'identifying') {
      const who = wf.data.identifying;
      if (who === null || wf.data.consentToken === null) fail('WRONG_STATE', 'There is no patient being identified.', { state: wf.state });
      const request = { ...claimPayload(wf, wf.data.consentToken), beneficiary_cr_id: who.patientId, otp: code };
      return callSpec({
        operation: 'emergency.identifyClaim',
        request,
        send: (client) => client.emergency.identifyClaim(request),
        settle: (claim) => {
          applyClaim(wf, claim);
          wf.data.patient = who;
          wf.data.identifying = null;
          ctx.engine.transition(wf, 'identified');
        },
      });
    }
    const request = { otp: code, ...doctorFields(wf.data.doctor), intervention_code: wf.data.intervention.code };
    return callSpec({
      operation: 'emergency.authorize',
      request,
      send: (client) => client.emergency.authorize(request),
      settle: (a) => {
        ctx.scrubber.add(a.consentToken);
        wf.data.consentToken = a.consentToken;
        ctx.engine.transition(wf, 'create', 'the doctor’s code was accepted');
      },
    });
  },
  onVerified: () => undefined,
  afterVerified: async (ctx, wf) => {
    if (wf.state === 'creating') await createClaim(ctx, wf);
  },
  cancelWorkflow: (ctx, wf) => {
    if (wf.state !== 'identifying') fail('WRONG_STATE', 'An emergency claim is not withdrawn from the station.', { state: wf.state });
    wf.data.identifying = null;
    ctx.engine.transition(wf, 'abandonIdentification');
  },
};

function applyClaim(wf: EmergencyWorkflow, claim: EmergencyClaim): void {
  wf.data.claimStatus = claim.workflowState ?? wf.data.claimStatus;
  wf.data.emergencyAt = dateTimeOf(claim.emergencyAt) ?? wf.data.emergencyAt;
  wf.data.submitBy = dateTimeOf(claim.submitDeadline) ?? (wf.data.emergencyAt === null ? null : new Date(Date.parse(wf.data.emergencyAt) + WINDOW_MS).toISOString());
  wf.lastError = null;
}

async function createClaim(ctx: Ctx, wf: EmergencyWorkflow): Promise<void> {
  if (wf.data.consentToken === null) fail('WRONG_STATE', 'The doctor’s consent is missing.', { state: wf.state });
  const request = claimPayload(wf, wf.data.consentToken);
  try {
    await ctx.engine.call(
      wf,
      'emergency.createClaim',
      request,
      () => ctx.session.client().emergency.createClaim(request),
      (claim) => {
        applyClaim(wf, claim);
        ctx.engine.transition(wf, 'created');
      },
      (error) => {
        wf.lastError = error;
        wf.data.verification = newVerification(ctx, 'emergency-doctor', { biometricsEnforced: true, whitelisted: false, contacts: [], unusableUntil: null }, true);
        ctx.engine.transition(wf, 'refused', error.code);
      },
    );
  } catch (error) {
    if (error instanceof OutcomeUnknown) {
      ctx.engine.transition(wf, 'outcomeUnknown');
      scheduleEmergencyReconcile(ctx, wf, ctx.timing.reconcileRetryMs);
      return;
    }
    throw error;
  }
  scheduleWindowCheck(ctx, wf);
}

export async function identifyPatient(ctx: Ctx, wf: EmergencyWorkflow, patientRef: string, contactId: string | undefined): Promise<void> {
  if (wf.state !== 'open-unidentified') fail('WRONG_STATE', 'Only an unidentified emergency claim can be identified.', { state: wf.state });
  const f = ctx.patients.facts(patientRef);
  const who: PatientFacts = { ref: f.ref, maskedName: f.maskedName, patientId: f.patientId, biometricsEnforced: f.biometricsEnforced, whitelisted: f.whitelisted, contacts: f.contacts };
  if (who.contacts.length === 0) fail('NO_CONTACT', 'The patient has no phone number: identification is by SMS code only.');
  ctx.engine.commit(() => {
    wf.data.identifying = who;
    wf.data.verification = newVerification(ctx, 'identification', { biometricsEnforced: who.biometricsEnforced, whitelisted: who.whitelisted, contacts: who.contacts, unusableUntil: null });
    ctx.engine.transition(wf, 'identify');
  });
  try {
    await sendSms(ctx, emergencyHost, wf, contactId);
  } catch (error) {
    // No code went out: the claim stays as it was, unidentified.
    if ((wf.state as string) === 'identifying' && wf.data.verification.stage === 'ready') {
      ctx.engine.commit(() => {
        wf.data.identifying = null;
        wf.lastError = error instanceof StationFailure ? error.error : wf.lastError;
        ctx.engine.transition(wf, 'abandonIdentification');
      });
    }
    throw error;
  }
}

export type EmergencySubmitInput = Omit<CommandInput<'emergency.submit'>, 'workflowId'>;

export async function submitEmergency(ctx: Ctx, wf: EmergencyWorkflow, input: EmergencySubmitInput): Promise<void> {
  if (wf.state !== 'open-unidentified' && wf.state !== 'open-identified') fail('WRONG_STATE', 'The emergency claim cannot be submitted now.', { state: wf.state });
  if (windowClosed(ctx, wf)) {
    ctx.engine.transition(wf, 'windowClosed');
    fail('EMERGENCY_WINDOW_EXPIRED', 'The 24 hours to submit this emergency claim have passed.', { windowEndsAt: wf.data.submitBy ?? undefined });
  }
  const identified = wf.state === 'open-identified';
  if (identified && input.unknownPatientReason !== undefined) fail('VALIDATION', 'The patient is identified: no unknown-patient reason.', { field: 'unknownPatientReason' });
  const consentToken = wf.data.consentToken!;
  let invoiceNumber = input.invoiceNumber ?? wf.data.invoiceNumber;
  if (invoiceNumber === null) {
    const preview = await ctx.session.client().claims.preview({ consent_token: consentToken });
    invoiceNumber = preview.invoiceNumber ?? null;
    if (invoiceNumber === null) fail('VALIDATION', 'Give the invoice number.', { field: 'invoiceNumber' });
  }
  const unknownReason = identified ? null : (input.unknownPatientReason ?? 'SHA_UNREGISTERED');
  const request = {
    consent_token: consentToken,
    invoice_number: invoiceNumber,
    discharge_reason: input.reason,
    ...(unknownReason === null ? {} : { reason_for_unknown_patient: unknownReason }),
    ...(input.notes === undefined ? {} : { notes: input.notes }),
  };
  ctx.engine.commit(() => {
    wf.data.invoiceNumber = invoiceNumber;
    wf.data.intent = { reason: input.reason, invoiceNumber: invoiceNumber!, unknownPatientReason: unknownReason, notes: input.notes ?? null };
    ctx.engine.transition(wf, 'submit');
  });
  try {
    await ctx.engine.call(
      wf,
      'claims.submitEmergency',
      request,
      () => ctx.session.client().claims.submitEmergency(request),
      (state) => {
        wf.data.claimStatus = state.workflowState ?? 'SUBMITTED';
        wf.data.submittedAt = dateTimeOf(state.submittedAt) ?? ctx.nowIso();
        wf.lastError = null;
        ctx.engine.transition(wf, 'submitted');
      },
      (error) => {
        wf.lastError = error;
        if (error.code === 'EMERGENCY_WINDOW_EXPIRED') ctx.engine.transition(wf, 'windowClosed');
        else if (error.code === 'CLAIM_ALREADY_SUBMITTED') ctx.engine.transition(wf, 'outcomeUnknown');
        else ctx.engine.transition(wf, identified ? 'refusedIdentified' : 'refusedUnidentified', error.code);
      },
    );
  } catch (error) {
    if (error instanceof OutcomeUnknown) {
      ctx.engine.transition(wf, 'outcomeUnknown');
      scheduleEmergencyReconcile(ctx, wf, ctx.timing.reconcileRetryMs);
      return;
    }
    if (error instanceof StationFailure && error.error.code === 'CLAIM_ALREADY_SUBMITTED') scheduleEmergencyReconcile(ctx, wf);
    throw error;
  }
}

function windowClosed(ctx: Ctx, wf: EmergencyWorkflow): boolean {
  return wf.data.submitBy !== null && Date.parse(wf.data.submitBy) <= ctx.clock.now();
}

/** Ends the workflow when its 24 hours pass unsubmitted. */
export function scheduleWindowCheck(ctx: Ctx, wf: EmergencyWorkflow): void {
  if (wf.data.submitBy === null) return;
  const delay = Math.max(0, Math.min(Date.parse(wf.data.submitBy) - ctx.clock.now(), 2 ** 31 - 1));
  ctx.engine.schedule(`window:${wf.id}`, delay, () => {
    void ctx.engine.lock(wf.id, async () => {
      if ((wf.state === 'open-unidentified' || wf.state === 'open-identified' || wf.state === 'identifying') && windowClosed(ctx, wf)) {
        wf.lastError = makeError('EMERGENCY_WINDOW_EXPIRED', 'The 24 hours to submit this emergency claim have passed.');
        ctx.engine.transition(wf, 'windowClosed');
      }
    });
  });
}

// ---------------------------------------------------------------- reconciliation

export async function reconcileEmergency(ctx: Ctx, wf: EmergencyWorkflow, calls: CallRecord[]): Promise<void> {
  const client = ctx.session.client();
  for (const call of calls) {
    if (call.operation === 'emergency.createClaim') {
      // Posting the same payload with the same consent_token returns (or updates) the one claim.
      const claim = await client.emergency.createClaim(call.request as Parameters<typeof client.emergency.createClaim>[0]);
      ctx.engine.commit(() => {
        ctx.engine.reconciled(call, 'the exchange answered with the emergency claim', wf);
        applyClaim(wf, claim);
        if (wf.state === 'creating') ctx.engine.transition(wf, 'outcomeUnknown');
        if (wf.state === 'reconciling') ctx.engine.transition(wf, 'created');
      });
      scheduleWindowCheck(ctx, wf);
    } else if (call.operation === 'emergency.identifyClaim' || call.operation === 'claims.submitEmergency') {
      const preview = await client.claims.preview({ consent_token: wf.data.consentToken! });
      ctx.engine.commit(() => {
        ctx.engine.reconciled(call, `claim ${preview.workflowState ?? 'state unknown'} at the exchange`, wf);
        if (wf.state === 'submitting' || wf.state === 'identifying') ctx.engine.transition(wf, 'outcomeUnknown');
        const submitted = preview.submittedAt !== undefined || preview.workflowState === 'SUBMITTED';
        const identified = preview.patientId !== undefined && preview.patientId !== null && preview.patientId !== '';
        if (identified && wf.data.identifying !== null) {
          wf.data.patient = wf.data.identifying;
          wf.data.identifying = null;
        }
        if (submitted) {
          wf.data.claimStatus = preview.workflowState ?? 'SUBMITTED';
          wf.data.submittedAt = dateTimeOf(preview.submittedAt) ?? ctx.nowIso();
          ctx.engine.transition(wf, 'submitted');
        } else {
          if (call.operation === 'claims.submitEmergency') wf.lastError = makeError('EXCHANGE_TIMEOUT', 'The exchange did not receive the submission: submit again.');
          ctx.engine.transition(wf, wf.data.patient !== null ? (call.operation === 'emergency.identifyClaim' ? 'identified' : 'refusedIdentified') : 'refusedUnidentified');
        }
      });
    } else {
      ctx.engine.reconciled(call, `${call.operation}: nothing to re-send`, wf);
    }
  }
  if (wf.state === 'creating' && wf.data.consentToken !== null) await createClaim(ctx, wf);
  if (wf.state === 'open-unidentified' || wf.state === 'open-identified') scheduleWindowCheck(ctx, wf);
}

function scheduleEmergencyReconcile(ctx: Ctx, wf: EmergencyWorkflow, delayMs = 0): void {
  ctx.engine.reconcileLater(wf, delayMs, ctx.timing.reconcileRetryMs, () => reconcileEmergency(ctx, wf, ctx.engine.openCalls(wf.id)));
}

// ---------------------------------------------------------------- the view

export function emergencyView(ctx: Ctx, wf: EmergencyWorkflow): EmergencyView {
  const v = wf.data.verification;
  const taking = wf.state === 'awaiting-doctor-code' || wf.state === 'identifying';
  const next: EmergencyView['next'] = [];
  if (taking) {
    for (const a of verificationNextActions(v)) if (a === 'consent.sendSms' || a === 'consent.confirmSms' || a === 'consent.cancel') next.push(a);
  }
  if (wf.state === 'open-unidentified') next.push('emergency.identify', 'emergency.submit');
  if (wf.state === 'open-identified') next.push('emergency.submit');
  const open = wf.state !== 'submitted' && wf.state !== 'window-expired';
  return {
    workflowId: wf.id,
    kind: 'emergency',
    state: wf.state,
    next: [...new Set(next)],
    deadlines: [...(taking ? verificationDeadlines(ctx, v) : []), ...(open && wf.data.submitBy !== null ? [{ kind: 'emergency-submit' as const, at: wf.data.submitBy }] : [])],
    lastError: wf.lastError,
    updatedAt: wf.updatedAt,
    intervention: wf.data.intervention,
    protocol: wf.data.protocol,
    patient: wf.data.patient === null ? null : { patientRef: wf.data.patient.ref, maskedName: wf.data.patient.maskedName },
    verification: taking ? verificationView(v) : null,
    emergencyAt: wf.data.emergencyAt,
    submitBy: wf.data.submitBy,
    claimStatus: claimStatusOf(wf.data.claimStatus),
    submittedAt: wf.data.submittedAt,
  };
}
