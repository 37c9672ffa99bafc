// Flow C, the emergency claim (the emergency kind's module), as the live exchange runs it: the claim is created at once, with no
// prior consent (its answer's authorization_code is the consent token of every later call); its
// protocol is added by the multipart call and the attending doctor's approval asked for once it
// exists; a patient unidentified on arrival is identified later by their own SMS code (the same
// claim, its protocols kept); the claim is submitted within 24 hours.
import type { z } from 'zod';
import type { CommandInput, emergencyProtocol, emergencyView as emergencyViewSchema } from '../../contract';
import { makeError } from '../../contract';
import type { ClaimPreview as WireClaimPreview, EmergencyClaim, EmergencyProtocol as WireProtocol } from '../../payer';
import { fail, StationFailure } from '../errors';
import { emergencyMachine } from '../machines';
import { isClaimCall, readBack } from './claims';
import type { Ctx } from './context';
import type { CallRecord } from './engine';
import { journal } from './journal';
import type { WorkflowKindModule } from './kinds';
import { listedDoctor } from './practitioner';
import { workflowHeader } from './start';
import type { AnyWorkflow, AttendingDoctor, EmergencyWorkflow, PatientFacts } from './types';
import { newVerification, sendSms, someCall, verificationDeadlines, verificationNextActions, verificationView, type VerificationHost } from './verification';
import { claimStatusOf, dateTimeOf } from './visit';

export type EmergencyView = z.infer<typeof emergencyViewSchema>;
export type Protocol = z.infer<typeof emergencyProtocol>;

const WINDOW_MS = 24 * 60 * 60 * 1000;
const EMERGENCY_CODE = /^SHA-01(\b|-|$)/i;

/** A protocol the station can bill: one with a tariff (a protocol without one cannot be priced). */
export function protocolOf(p: WireProtocol, interventionCode: string): Protocol | null {
  if (p.applicableTariff === undefined) return null;
  return {
    protocolCode: p.protocolCode.slice(0, 60),
    name: (p.name?.trim() || p.protocolCode).slice(0, 200),
    interventionCode,
    tariffKes: Math.min(Math.max(0, p.applicableTariff), 1_000_000_000),
  };
}

/**
 * The active protocols of one emergency intervention (the exchange lists them per intervention
 * only), every page; a protocol answered twice (a service ignoring the page asked for) counts once.
 */
export async function listProtocols(ctx: Ctx, interventionCode: string): Promise<Protocol[]> {
  if (!EMERGENCY_CODE.test(interventionCode)) fail('INTERVENTION_NOT_ALLOWED', 'Emergency protocols belong to emergency interventions (SHA-01…).', { field: 'interventionCode' });
  const client = ctx.session.client();
  const query = { active: true, intervention_code: interventionCode, pageSize: 100 };
  const first = await client.emergency.protocols({ ...query, page: 1 });
  const rest = await Promise.all(Array.from({ length: Math.max(0, Math.min(first.totalPages, 50) - 1) }, (_, i) => client.emergency.protocols({ ...query, page: i + 2 })));
  const byCode = new Map<string, Protocol>();
  for (const p of [first, ...rest].flatMap((page) => page.items)) {
    const protocol = protocolOf(p, interventionCode);
    if (protocol !== null && !byCode.has(protocol.protocolCode)) byCode.set(protocol.protocolCode, protocol);
  }
  return [...byCode.values()];
}

export interface EmergencyInput {
  interventionCode: string;
  protocolCode: string;
  doctor: AttendingDoctor;
  modeOfArrival: EmergencyWorkflow['data']['modeOfArrival'];
  broughtBy: EmergencyWorkflow['data']['broughtBy'];
  referenceNumber: string;
  notes: string;
}

/** The claim payload every emergency post repeats: creation, then identification. */
function claimPayload(wf: EmergencyWorkflow) {
  const d = wf.data;
  return {
    interventions: [d.intervention.code],
    mode_of_arrival: d.modeOfArrival,
    brought_by: d.broughtBy,
    reference_number: d.referenceNumber,
    notes: d.notes,
    ...listedDoctor(d.doctor),
  };
}

const noPatient = { biometricsEnforced: true, whitelisted: false, contacts: [], unusableUntil: null };

/**
 * An emergency workflow means something only once its claim exists or may exist: while its first
 * call is under way it is in no list and sends no event, a refusal ends it unseen (the form gets
 * the refusal, to send again), and a lost answer leaves it `unconfirmed`, with the reference number.
 */
export function isShown(wf: AnyWorkflow): boolean {
  return wf.kind !== 'emergency' || (wf.state !== 'creating' && wf.state !== 'not-created');
}

export async function createEmergency(ctx: Ctx, input: EmergencyInput): Promise<EmergencyWorkflow> {
  listedDoctor(input.doctor);
  // The same emergency asked for again while its creation is unconfirmed: the claim may exist,
  // so its workflow answers (the nurse checks with SHA, then sends it again from there).
  const pending = ctx.engine
    .all()
    .find((wf): wf is EmergencyWorkflow => wf.kind === 'emergency' && (wf.state === 'unconfirmed' || wf.state === 'creating') && wf.data.referenceNumber === input.referenceNumber);
  if (pending !== undefined) return pending;
  const protocols = await listProtocols(ctx, input.interventionCode);
  const protocol = protocols.find((p) => p.protocolCode === input.protocolCode);
  if (protocol === undefined) fail('NOT_FOUND', 'That protocol is not an active protocol of the intervention.', { field: 'protocolCode' });
  const wf: EmergencyWorkflow = {
    ...workflowHeader(ctx, 'emergency', 'creating'),
    data: {
      intervention: { code: input.interventionCode, name: protocol.name, scenario: 'emergency' },
      protocol,
      doctor: input.doctor,
      modeOfArrival: input.modeOfArrival,
      broughtBy: input.broughtBy,
      referenceNumber: input.referenceNumber,
      notes: input.notes,
      verification: newVerification(ctx, 'identification', noPatient),
      consentToken: null,
      claimId: null,
      protocolAdded: false,
      doctorApprovalRequestedAt: null,
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
  await ctx.engine.lock(wf.id, () => sendClaim(ctx, wf));
  // Refused: the form gets the refusal (a 503 is worth sending again), no workflow stays behind.
  if (wf.state === 'not-created' && wf.lastError !== null) throw new StationFailure(wf.lastError);
  return wf;
}

function applyClaim(ctx: Ctx, wf: EmergencyWorkflow, claim: EmergencyClaim): void {
  ctx.scrubber.add(claim.consentToken);
  wf.data.consentToken = claim.consentToken;
  wf.data.claimId = claim.claimId;
  wf.data.claimStatus = claim.workflowState ?? wf.data.claimStatus;
  wf.data.invoiceNumber = claim.invoiceNumber ?? wf.data.invoiceNumber;
  wf.data.emergencyAt = dateTimeOf(claim.visitStart) ?? wf.data.emergencyAt ?? ctx.nowIso();
  // The exchange's own end of the emergency visit; else the 24 hours of the contract from its start.
  wf.data.submitBy = dateTimeOf(claim.expiresAt) ?? new Date(Date.parse(wf.data.emergencyAt) + WINDOW_MS).toISOString();
  wf.lastError = null;
}

/**
 * Posts the claim (creation, or the nurse's resend after a lost answer). Refused: the workflow ends
 * and the refusal goes back to the form. Answered: the protocol is added and the doctor asked.
 * Lost: no look-up finds a claim without its answer, so nothing is sent again behind the nurse's
 * back — she checks with SHA by the reference number and sends it again herself.
 */
async function sendClaim(ctx: Ctx, wf: EmergencyWorkflow): Promise<void> {
  const request = claimPayload(wf);
  try {
    await ctx.engine.send(wf, {
      operation: journal.createEmergencyClaim,
      request,
      send: () => ctx.session.client().emergency.createClaim(request),
      settle: (claim) => {
        applyClaim(ctx, wf, claim);
        ctx.engine.transition(wf, 'created', `reference ${wf.data.referenceNumber}`);
      },
      refused: (error) => {
        wf.lastError = error;
        ctx.engine.transition(wf, 'refused', error.code);
      },
    });
  } catch (error) {
    // Refused: the refusal is on the ended workflow, for the form.
    if (error instanceof StationFailure && wf.state === 'not-created') return;
    throw error;
  }
  // Created, or (its answer lost) `unconfirmed` until the nurse has checked with SHA.
  scheduleWindowCheck(ctx, wf);
  if (wf.state === 'open-unidentified') await afterCreated(ctx, wf);
}

function markUnconfirmed(ctx: Ctx, wf: EmergencyWorkflow): void {
  wf.lastError = makeError(
    'OUTCOME_UNKNOWN',
    `SHA did not answer the creation of this claim (reference ${wf.data.referenceNumber}): it may or may not have it. Check with SHA by the reference number before sending it again.`,
  );
  ctx.engine.transition(wf, 'outcomeUnknown', 'the answer to the creation was lost');
}

/** Right after creation: the protocol, then the doctor's approval. A refusal of either stays on the view; the claim is open. */
async function afterCreated(ctx: Ctx, wf: EmergencyWorkflow): Promise<void> {
  try {
    await addProtocol(ctx, wf);
    await requestDoctorApproval(ctx, wf);
  } catch (error) {
    if (!(error instanceof StationFailure)) throw error;
  }
}

function requireOpenClaim(wf: EmergencyWorkflow): string {
  if ((wf.state !== 'open-unidentified' && wf.state !== 'open-identified') || wf.data.consentToken === null) {
    fail('WRONG_STATE', 'The emergency claim is not open.', { state: wf.state });
  }
  return wf.data.consentToken;
}

/** Adds the chosen protocol at its tariff (multipart); a lost answer is settled against the claim preview. */
export async function addProtocol(ctx: Ctx, wf: EmergencyWorkflow): Promise<void> {
  requireOpenClaim(wf);
  if (wf.data.protocolAdded) fail('WRONG_STATE', 'The protocol is already on the claim.', { state: wf.state });
  await sendProtocol(ctx, wf, wf.data.protocol, () => {
    wf.data.protocolAdded = true;
  });
}

/**
 * Another protocol of the claim's intervention, inside the 24 hours (a second procedure on the same
 * emergency): listed with its tariff by the exchange, added as the first one was.
 */
export async function addAnotherProtocol(ctx: Ctx, wf: EmergencyWorkflow, protocolCode: string): Promise<void> {
  requireOpenClaim(wf);
  requireWindow(ctx, wf);
  const onClaim = [wf.data.protocol, ...(wf.data.furtherProtocols ?? [])];
  if (onClaim.some((p) => p.protocolCode === protocolCode)) fail('WRONG_STATE', 'That protocol is already on the claim.', { state: wf.state });
  const protocol = (await listProtocols(ctx, wf.data.intervention.code)).find((p) => p.protocolCode === protocolCode);
  if (protocol === undefined) fail('NOT_FOUND', 'That protocol is not an active protocol of the intervention.', { field: 'protocolCode' });
  await sendProtocol(ctx, wf, protocol, () => {
    wf.data.furtherProtocols = [...(wf.data.furtherProtocols ?? []), protocol];
  });
}

async function sendProtocol(ctx: Ctx, wf: EmergencyWorkflow, p: Protocol, added: () => void): Promise<void> {
  const request = { consent_token: wf.data.consentToken!, protocol_code: p.protocolCode, intervention_code: p.interventionCode, unit_price: p.tariffKes, quantity: 1 };
  await ctx.engine.send(wf, {
    operation: journal.addEmergencyProtocol,
    request,
    send: () => ctx.session.client().emergency.addProtocol(request),
    settle: () => {
      added();
      wf.lastError = null;
      ctx.engine.save(wf);
    },
    refused: (error) => ctx.engine.setError(wf, error),
  });
}

/** Corrections end with the 24 hours: after them SHA takes nothing more for the claim. */
function requireWindow(ctx: Ctx, wf: EmergencyWorkflow): void {
  if (!windowClosed(ctx, wf)) return;
  ctx.engine.transition(wf, 'windowClosed');
  fail('EMERGENCY_WINDOW_EXPIRED', 'The 24 hours of this emergency claim have passed.', { windowEndsAt: wf.data.submitBy ?? undefined });
}

/**
 * Another attending doctor. SHA keeps one doctor per claim (DOCTOR_ALREADY_ATTACHED to a second), so
 * the claim's doctor is removed first (DELETE /claims/doctors), then the new one added (POST
 * /claims/doctors, checked against the registry) and asked for their approval. A new doctor SHA
 * refuses: the previous one is attached again and the refusal stands.
 */
export async function changeDoctor(ctx: Ctx, wf: EmergencyWorkflow, doctor: AttendingDoctor): Promise<void> {
  const consentToken = requireOpenClaim(wf);
  requireWindow(ctx, wf);
  listedDoctor(doctor);
  const previous = wf.data.doctor;
  const same = previous.identificationType === doctor.identificationType && previous.identificationNumber.toUpperCase() === doctor.identificationNumber.toUpperCase() && previous.regulationBody.toUpperCase() === doctor.regulationBody.toUpperCase();
  if (same) fail('VALIDATION', 'That is the claim’s doctor already.', { field: 'doctor' });
  try {
    await claimCall(ctx, wf, journal.removeDoctor, { consent_token: consentToken }, (client, r) => client.claims.removeDoctor(r), () => undefined);
  } catch (error) {
    // SHA holds no doctor on the claim (404): there is nothing to remove before adding the new one.
    if (!(error instanceof StationFailure) || error.error.code !== 'NOT_FOUND') throw error;
  }
  try {
    await attachClaimDoctor(ctx, wf, consentToken, doctor);
  } catch (error) {
    if (!(error instanceof StationFailure) || error.error.code === 'OUTCOME_UNKNOWN') throw error;
    await attachClaimDoctor(ctx, wf, consentToken, previous).catch(() => undefined);
    ctx.engine.setError(wf, error.error);
    throw error;
  }
  ctx.engine.commit(() => {
    wf.data.doctor = doctor;
    wf.data.doctorApprovalRequestedAt = null;
    ctx.engine.save(wf);
  });
  await requestDoctorApproval(ctx, wf);
}

async function attachClaimDoctor(ctx: Ctx, wf: EmergencyWorkflow, consentToken: string, doctor: AttendingDoctor): Promise<void> {
  const request = { consent_token: consentToken, ...listedDoctor(doctor) };
  await claimCall(ctx, wf, journal.addDoctor, request, (client, r) => client.claims.addDoctor(r), () => {
    wf.data.doctor = doctor;
  });
}

/** One write on the emergency claim: a refusal on the view and thrown; a lost answer looked up in the claim preview (the nurse told OUTCOME_UNKNOWN meanwhile). */
async function claimCall<R extends Record<string, unknown>, T>(
  ctx: Ctx,
  wf: EmergencyWorkflow,
  operation: typeof journal.addDoctor,
  request: R,
  send: (client: ReturnType<Ctx['session']['client']>, request: R) => Promise<T>,
  settle: () => void,
): Promise<void> {
  await ctx.engine.send(wf, {
    operation,
    request,
    send: () => send(ctx.session.client(), request),
    settle: () => {
      settle();
      wf.lastError = null;
      ctx.engine.save(wf);
    },
    refused: (error) => ctx.engine.setError(wf, error),
  });
}

/** Asks the attending doctor to approve the claim (EMERGENCY_CLAIM_DOCTOR_APPROVAL_REQUEST); the doctor answers SHA directly. */
export async function requestDoctorApproval(ctx: Ctx, wf: EmergencyWorkflow): Promise<void> {
  const consentToken = requireOpenClaim(wf);
  if (wf.data.claimId === null) fail('WRONG_STATE', 'The claim has no id from SHA to name it.', { state: wf.state });
  const request = { consent_token: consentToken, intervention_code: wf.data.intervention.code, emergency_claim_id: wf.data.claimId, ...listedDoctor(wf.data.doctor) };
  await ctx.engine.send(wf, {
    operation: journal.requestEmergencyDoctorApproval,
    request,
    send: () => ctx.session.client().emergency.requestDoctorApproval(request),
    settle: () => {
      wf.data.doctorApprovalRequestedAt = ctx.nowIso();
      wf.lastError = null;
      ctx.engine.save(wf);
    },
    refused: (error) => ctx.engine.setError(wf, error),
  });
}

/** A request to the doctor cannot be looked up: not sent again; the nurse may ask again. */
function settleDoctorRequest(ctx: Ctx, wf: EmergencyWorkflow, call: CallRecord): void {
  ctx.engine.reconciled(call, 'emergency.requestDoctorApproval: its answer was lost; not sent again', wf);
  ctx.engine.setError(wf, makeError('OUTCOME_UNKNOWN', 'SHA did not confirm the request to the doctor: ask the doctor whether it came; ask again if not.'));
}

/** The nurse has checked with SHA: the claim is not there. Sent again, once. */
export async function resendClaim(ctx: Ctx, wf: EmergencyWorkflow): Promise<void> {
  if (wf.state !== 'unconfirmed') fail('WRONG_STATE', 'Only a claim whose creation went unanswered is sent again.', { state: wf.state });
  ctx.engine.transition(wf, 'resend', 'sent again by the nurse after checking with SHA');
  await sendClaim(ctx, wf);
}

export const emergencyHost: VerificationHost<EmergencyWorkflow> = {
  step: (wf) => wf.data.verification,
  assertTakingConsent(wf) {
    if (wf.state !== 'identifying') fail('WRONG_STATE', 'No SMS code is awaited for this emergency.', { state: wf.state });
  },
  patientRef: (wf) => wf.data.identifying?.ref ?? wf.data.patient?.ref ?? null,
  codeCall: (_ctx, wf, contact) => {
    const who = wf.data.identifying;
    if (who === null) fail('WRONG_STATE', 'There is no patient being identified.', { state: wf.state });
    const request = { patient_id: who.patientId, intervention_codes: [wf.data.intervention.code], ...(contact === null ? {} : { beneficiary_contact_id: contact.contactId }) };
    return { operation: journal.sendOtp, request, send: (client) => client.consent.sendOtp(request), settle: () => undefined };
  },
  confirm: (ctx, wf, code) => {
    const who = wf.data.identifying;
    if (who === null || wf.data.consentToken === null) fail('WRONG_STATE', 'There is no patient being identified.', { state: wf.state });
    // The original payload again, with the patient's registry id and code, and the claim's token (the contract).
    const request = { ...claimPayload(wf), beneficiary_cr_id: who.patientId, otp: code, consent_token: wf.data.consentToken };
    return {
      spentBy: someCall({
        operation: journal.identifyEmergencyClaim,
        request,
        send: (client) => client.emergency.identifyClaim(request),
        settle: (claim) => {
          applyClaim(ctx, wf, claim);
          wf.data.patient = who;
          wf.data.identifying = null;
          ctx.engine.transition(wf, 'identified');
        },
      }),
    };
  },
  onVerified: () => undefined,
  afterVerified: async () => undefined,
  cancelWorkflow: (ctx, wf) => {
    if (wf.state !== 'identifying') fail('WRONG_STATE', 'An emergency claim is not withdrawn from the station.', { state: wf.state });
    wf.data.identifying = null;
    ctx.engine.transition(wf, 'abandonIdentification');
  },
};

export async function identifyPatient(ctx: Ctx, wf: EmergencyWorkflow, patientRef: string, contactId: string | undefined): Promise<void> {
  if (wf.state !== 'open-unidentified') fail('WRONG_STATE', 'Only an unidentified emergency claim can be identified.', { state: wf.state });
  await ctx.patients.ready(patientRef);
  const f = ctx.patients.facts(patientRef);
  const who: PatientFacts = { ref: f.ref, maskedName: f.maskedName, patientId: f.patientId, biometricsEnforced: f.biometricsEnforced, whitelisted: f.whitelisted, contacts: f.contacts, inHand: f.inHand };
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
    await ctx.engine.send(wf, {
      operation: journal.submitEmergency,
      request,
      send: () => ctx.session.client().claims.submitEmergency(request),
      settle: (state) => {
        wf.data.claimStatus = state.workflowState ?? 'SUBMITTED';
        wf.data.submittedAt = dateTimeOf(state.submittedAt) ?? ctx.nowIso();
        wf.lastError = null;
        ctx.engine.transition(wf, 'submitted');
      },
      refused: (error) => {
        wf.lastError = error;
        if (error.code === 'EMERGENCY_WINDOW_EXPIRED') ctx.engine.transition(wf, 'windowClosed');
        else if (error.code === 'CLAIM_ALREADY_SUBMITTED') ctx.engine.transition(wf, 'outcomeUnknown');
        else ctx.engine.transition(wf, identified ? 'refusedIdentified' : 'refusedUnidentified', error.code);
      },
    });
  } catch (error) {
    // SHA holds it submitted (an earlier submit whose answer was lost): the preview settles it now.
    if (error instanceof StationFailure && error.error.code === 'CLAIM_ALREADY_SUBMITTED') {
      await reconcileEmergency(ctx, wf, ctx.engine.openCalls(wf.id)).catch(() => ctx.engine.reconcileSoon(wf.id, ctx.timing.reconcileRetryMs));
      if ((wf.state as string) === 'submitted') return;
    }
    throw error;
  }
}

/** The end of the 24 hours: the exchange's, else (before it answered) a day from when the claim was asked for. */
function windowEnd(wf: EmergencyWorkflow): number {
  return Date.parse(wf.data.submitBy ?? wf.createdAt) + (wf.data.submitBy === null ? WINDOW_MS : 0);
}

function windowClosed(ctx: Ctx, wf: EmergencyWorkflow): boolean {
  return windowEnd(wf) <= ctx.clock.now();
}

const waitingForWindow = (wf: EmergencyWorkflow) => wf.state === 'open-unidentified' || wf.state === 'open-identified' || wf.state === 'identifying' || wf.state === 'unconfirmed';

/** Ends the workflow when its 24 hours pass unsubmitted. */
export function scheduleWindowCheck(ctx: Ctx, wf: EmergencyWorkflow): void {
  if (!waitingForWindow(wf)) return;
  const delay = Math.max(0, Math.min(windowEnd(wf) - ctx.clock.now(), 2 ** 31 - 1));
  ctx.engine.repeat('window', wf.id, delay, async (current) => {
    if (current.kind !== 'emergency' || !waitingForWindow(current)) return null;
    if (!windowClosed(ctx, current)) return Math.max(0, Math.min(windowEnd(current) - ctx.clock.now(), 2 ** 31 - 1));
    current.lastError = makeError('EMERGENCY_WINDOW_EXPIRED', 'The 24 hours to submit this emergency claim have passed.');
    ctx.engine.transition(current, 'windowClosed');
    return null;
  });
}

// ---------------------------------------------------------------- reconciliation

/** The protocol a lost addition named, found on the claim's lines (by its code) or not. */
function settleProtocol(ctx: Ctx, wf: EmergencyWorkflow, call: CallRecord, preview: WireClaimPreview, atOnce: boolean): void {
  const code = typeof call.request.protocol_code === 'string' ? call.request.protocol_code : wf.data.protocol.protocolCode;
  const onClaim = preview.lines.some((l) => l.itemCode === code);
  // Not on the claim yet, right after the answer was lost: a slow request may still land.
  if (!onClaim && atOnce) return;
  ctx.engine.commit(() => {
    ctx.engine.reconciled(call, onClaim ? 'the protocol is on the claim' : 'the protocol is not on the claim', wf);
    if (code === wf.data.protocol.protocolCode) wf.data.protocolAdded = onClaim;
    else if (onClaim && !(wf.data.furtherProtocols ?? []).some((p) => p.protocolCode === code)) {
      const price = Number(call.request.unit_price);
      wf.data.furtherProtocols = [...(wf.data.furtherProtocols ?? []), { protocolCode: code, name: code, interventionCode: wf.data.intervention.code, tariffKes: Number.isFinite(price) ? price : 0 }];
    }
    wf.lastError = onClaim ? null : makeError('EXCHANGE_TIMEOUT', 'SHA did not receive the protocol: add it again.');
    ctx.engine.save(wf);
  });
}

/**
 * The patient's identification or the submission whose answer was lost, as the claim preview shows
 * it: the patient on the claim is identified (their code was spent: never asked for again), a claim
 * submitted is submitted. Right after the answer was lost, only what the preview shows done is
 * settled; later, what it does not show did not happen.
 */
function settleIdentifiedOrSubmitted(ctx: Ctx, wf: EmergencyWorkflow, call: CallRecord, preview: WireClaimPreview, atOnce: boolean): void {
  const submitted = preview.submittedAt !== undefined || preview.workflowState === 'SUBMITTED';
  const identified = preview.patientId !== undefined && preview.patientId !== null && preview.patientId !== '';
  const done = call.operation === journal.identifyEmergencyClaim.name ? identified : submitted;
  if (!done && atOnce) return;
  ctx.engine.commit(() => {
    ctx.engine.reconciled(call, `claim ${preview.workflowState ?? 'state unknown'} at the exchange`, wf);
    if (wf.state === 'submitting' || wf.state === 'identifying') ctx.engine.transition(wf, 'outcomeUnknown');
    if (identified && wf.data.identifying !== null) {
      wf.data.patient = wf.data.identifying;
      wf.data.identifying = null;
    }
    if (submitted) {
      wf.data.claimStatus = preview.workflowState ?? 'SUBMITTED';
      wf.data.submittedAt = dateTimeOf(preview.submittedAt) ?? ctx.nowIso();
      ctx.engine.transition(wf, 'submitted');
    } else {
      if (call.operation === journal.submitEmergency.name) wf.lastError = makeError('EXCHANGE_TIMEOUT', 'The exchange did not receive the submission: submit again.');
      else if (identified) wf.lastError = null;
      ctx.engine.transition(wf, wf.data.patient !== null ? (call.operation === journal.identifyEmergencyClaim.name ? 'identified' : 'refusedIdentified') : 'refusedUnidentified');
    }
  });
}

/** What the claim preview says of the claim's own writes whose answer was lost; `atOnce` as above. */
async function settleFromPreview(ctx: Ctx, wf: EmergencyWorkflow, call: CallRecord, atOnce: boolean): Promise<void> {
  const preview = await ctx.session.client().claims.preview({ consent_token: wf.data.consentToken! });
  if (call.operation === journal.addEmergencyProtocol.name) settleProtocol(ctx, wf, call, preview, atOnce);
  else if (call.operation === journal.identifyEmergencyClaim.name || call.operation === journal.submitEmergency.name) settleIdentifiedOrSubmitted(ctx, wf, call, preview, atOnce);
  else if (!atOnce) {
    ctx.engine.commit(() => {
      ctx.engine.reconciled(call, preview.hasDoctor === true ? 'the claim has a doctor' : 'the claim has no doctor', wf);
      if (preview.hasDoctor !== true) ctx.engine.setError(wf, makeError('NO_DOCTOR', 'SHA shows no doctor on the claim: attach the attending doctor again.'));
    });
  }
}

/** Writes the claim preview settles: a protocol, the identification, the submission, a change of doctor. */
const PREVIEWED: ReadonlySet<string> = new Set(
  [journal.addEmergencyProtocol, journal.identifyEmergencyClaim, journal.submitEmergency, journal.addDoctor, journal.removeDoctor].map((e) => e.name),
);

export async function reconcileEmergency(ctx: Ctx, wf: EmergencyWorkflow, calls: CallRecord[]): Promise<void> {
  if (calls.some(isClaimCall)) await readBack(ctx, wf);
  for (const call of calls.filter((c) => !isClaimCall(c))) {
    if (PREVIEWED.has(call.operation)) await settleFromPreview(ctx, wf, call, false);
    else ctx.engine.reconciled(call, `${call.operation}: nothing to re-send`, wf);
  }
  // Reconciling with no call open (a submit refused as already submitted): the preview decides.
  if (wf.state === 'reconciling' && wf.data.consentToken !== null) {
    const preview = await ctx.session.client().claims.preview({ consent_token: wf.data.consentToken });
    ctx.engine.commit(() => {
      if (preview.submittedAt !== undefined || preview.workflowState === 'SUBMITTED') {
        wf.data.claimStatus = preview.workflowState ?? 'SUBMITTED';
        wf.data.submittedAt = dateTimeOf(preview.submittedAt) ?? ctx.nowIso();
        wf.lastError = null;
        ctx.engine.transition(wf, 'submitted', 'the claim preview shows it submitted');
      } else {
        wf.lastError = makeError('EXCHANGE_TIMEOUT', 'The exchange did not receive the submission: submit again.');
        ctx.engine.transition(wf, wf.data.patient !== null ? 'refusedIdentified' : 'refusedUnidentified', 'the claim preview shows it not submitted');
      }
    });
  }
  // Asked for and never sent (the station stopped first): sent now, once.
  if (wf.state === 'creating' && ctx.engine.openCalls(wf.id).length === 0 && wf.data.consentToken === null) await sendClaim(ctx, wf);
  scheduleWindowCheck(ctx, wf);
}

export const emergencyKind: WorkflowKindModule<'emergency'> = {
  kind: 'emergency',
  machine: emergencyMachine,
  view: emergencyView,
  verification: emergencyHost,
  reconcile: async (ctx, wf, calls) => {
    if (calls.length > 0 || wf.state === 'creating' || wf.state === 'submitting' || wf.state === 'reconciling') {
      if (wf.state === 'submitting' && calls.length === 0) ctx.engine.transition(wf, wf.data.patient === null ? 'refusedUnidentified' : 'refusedIdentified', 'the submission was never sent');
      else await reconcileEmergency(ctx, wf, calls);
    }
  },
  resume: (ctx, wf) => scheduleWindowCheck(ctx, wf),
  unknownOutcome: {
    // A submission or an identification perhaps made waits `reconciling`; a protocol perhaps added
    // leaves the claim open as it is while it is looked for on the claim.
    meanwhile: (ctx, wf, call) => {
      if ((call.operation === journal.submitEmergency.name && wf.state === 'submitting') || (call.operation === journal.identifyEmergencyClaim.name && wf.state === 'identifying')) {
        ctx.engine.transition(wf, 'outcomeUnknown');
        return true;
      }
      return call.operation === journal.addEmergencyProtocol.name;
    },
    // No look-up finds a claim without the answer that named it, nor a request to the doctor:
    // never sent again; the nurse checks with SHA (the claim, by its reference number) or the doctor.
    unknowable: (ctx, wf, call) => {
      if (call.operation === journal.createEmergencyClaim.name) {
        ctx.engine.reconciled(call, `emergency.createClaim: ${call.status === 'started' ? 'the station stopped before its answer was recorded' : 'its answer was lost'} and no look-up finds the claim; left to the nurse`, wf);
        if (wf.state === 'creating') markUnconfirmed(ctx, wf);
        return true;
      }
      if (call.operation === journal.requestEmergencyDoctorApproval.name) {
        settleDoctorRequest(ctx, wf, call);
        return true;
      }
      return undefined;
    },
    // The patient on the claim, a protocol on its lines: settled in the same command where SHA
    // shows them already; a claim's paper or resubmission read back at once.
    lookUpAtOnce: async (ctx, wf, call) => {
      if (isClaimCall(call)) await readBack(ctx, wf);
      else if (call.operation === journal.identifyEmergencyClaim.name || call.operation === journal.addEmergencyProtocol.name) await settleFromPreview(ctx, wf, call, true);
    },
  },
};

// ---------------------------------------------------------------- the view

export function emergencyView(ctx: Ctx, wf: EmergencyWorkflow): EmergencyView {
  const v = wf.data.verification;
  const taking = wf.state === 'identifying';
  const open = wf.state === 'open-unidentified' || wf.state === 'open-identified';
  const next: EmergencyView['next'] = [];
  if (taking) {
    for (const a of verificationNextActions(v)) if (a === 'consent.sendSms' || a === 'consent.confirmSms' || a === 'consent.cancel') next.push(a);
  }
  if (wf.state === 'unconfirmed') next.push('emergency.resendClaim');
  if (open && !wf.data.protocolAdded) next.push('emergency.addProtocol');
  if (open) next.push('emergency.requestDoctorApproval', 'emergency.addAnotherProtocol', 'emergency.changeDoctor');
  if (wf.state === 'open-unidentified') next.push('emergency.identify', 'emergency.submit');
  if (wf.state === 'open-identified') next.push('emergency.submit');
  const live = !ctx.engine.isEnded(wf);
  return {
    workflowId: wf.id,
    kind: 'emergency',
    state: wf.state,
    next: [...new Set(next)],
    deadlines: [...(taking ? verificationDeadlines(ctx, v) : []), ...(live && wf.data.submitBy !== null ? [{ kind: 'emergency-submit' as const, at: wf.data.submitBy }] : [])],
    lastError: wf.lastError,
    updatedAt: wf.updatedAt,
    intervention: wf.data.intervention,
    protocol: wf.data.protocol,
    referenceNumber: wf.data.referenceNumber,
    protocolAdded: wf.data.protocolAdded,
    furtherProtocols: wf.data.furtherProtocols ?? [],
    doctor: wf.data.doctor,
    doctorApproval: wf.data.doctorApprovalRequestedAt === null ? 'not-requested' : 'requested',
    patient: wf.data.patient === null ? null : { patientRef: wf.data.patient.ref, maskedName: wf.data.patient.maskedName },
    verification: taking ? verificationView(v) : null,
    emergencyAt: wf.data.emergencyAt,
    submitBy: wf.data.submitBy,
    claimStatus: claimStatusOf(wf.data.claimStatus),
    submittedAt: wf.data.submittedAt,
  };
}
