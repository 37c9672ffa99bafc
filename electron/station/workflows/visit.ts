// The visit kind's module: opened from a consent (flow B) or a finalised elective (flow A, day of
// the visit), then billed and previewed. The claim's consent_token stays here; the view shows the
// visit number and status. An unanswered visit call is reconciled by posting it again with the same
// consent, which the exchange answers with the visit already open rather than a second one.
import type { z } from 'zod';
import { claimStatus as claimStatusSchema, makeError, type claimPreview as claimPreviewSchema, type lineAttachment, type StationError, type visitView as visitViewSchema } from '../../contract';
import { isExchangeError, type ClaimDiagnosis, type ClaimLine, type ClaimPreview as WireClaimPreview, type ExchangeClient, type Visit } from '../../payer';
import { fail, fromExchangeError, StationFailure } from '../errors';
import { verificationNext, visitMachine } from '../machines';
import { isClaimCall, readBack } from './claims';
import type { Ctx } from './context';
import type { CallRecord } from './engine';
import { journal, type JournalEntry } from './journal';
import type { WorkflowKindModule } from './kinds';
import { settlePrescriptionCreates } from './prescriptions';
import { requireStillOpen } from './open-visits';
import { workflowHeader } from './start';
import { noteDocumentsReturn } from './documents-deadline';
import type { AttendingDoctor, BillingLine, ConsentWorkflow, ElectiveWorkflow, InterventionBrief, ServiceOnVisit, ServiceType, VisitWorkflow } from './types';
import { codeRefused, SMS_CODE_LENGTH_MEMO } from './verification';

export type VisitView = z.infer<typeof visitViewSchema>;
export type ClaimPreview = z.infer<typeof claimPreviewSchema>;
type ClaimStatus = z.infer<typeof claimStatusSchema>;
type CreateVisitInput = Parameters<ExchangeClient['claims']['createVisit']>[0];

/** The claim statuses the contract names (the client's, tested equal in test/unit/station/enumerations.test.ts); any other is OTHER. */
const knownClaimStatuses = new Set<string>(claimStatusSchema.options);

export function claimStatusOf(value: string | null | undefined): ClaimStatus | null {
  if (value === null || value === undefined) return null;
  return knownClaimStatuses.has(value) ? (value as ClaimStatus) : 'OTHER';
}

const kes = (n: number | undefined): number => Math.min(Math.max(0, Math.round((n ?? 0) * 100) / 100), 1_000_000_000);
const ICD_CODE = /^[A-Za-z0-9.&/-]{2,20}$/;

type DiagnosisOfClaim = Pick<ClaimDiagnosis, 'code' | 'name' | 'interventionCode'>;

/** The diagnoses the claim holds (for one intervention, or all), once each, as the contract shows them. */
function diagnosesOf(diagnoses: readonly DiagnosisOfClaim[], interventionCode: string | null, max: number): BillingLine['diagnoses'] {
  const codes = new Map<string, string | undefined>();
  for (const d of diagnoses) {
    if (interventionCode !== null && d.interventionCode !== undefined && d.interventionCode !== interventionCode) continue;
    if (ICD_CODE.test(d.code) && !codes.has(d.code)) codes.set(d.code, d.name?.trim() ? d.name.trim().slice(0, 200) : undefined);
  }
  return [...codes].slice(0, max).map(([code, name]) => (name === undefined ? { code } : { code, name }));
}

/**
 * A line of the claim as the station shows it. The exchange keeps diagnoses per intervention, not
 * per line: a line shows those of its intervention.
 */
function lineOf(line: ClaimLine, diagnoses: readonly DiagnosisOfClaim[], added: readonly string[], fallbackIntervention: string): BillingLine {
  const lineId = line.id.slice(0, 100);
  const interventionCode = line.interventionCode ?? fallbackIntervention;
  const day = /^(\d{4}-\d{2}-\d{2})/.exec(line.chargeDate ?? '')?.[1];
  return {
    lineId,
    interventionCode,
    itemCode: line.itemCode?.slice(0, 60) ?? null,
    description: line.itemName?.trim() ? line.itemName.trim().slice(0, 200) : null,
    unitPriceKes: kes(line.unitPrice),
    quantity: Math.max(1, Math.round(line.quantity ?? 1)),
    amountKes: kes(line.amount ?? (line.unitPrice ?? 0) * (line.quantity ?? 1)),
    diagnoses: diagnosesOf(diagnoses, interventionCode, 20),
    serviceDate: day !== undefined && !Number.isNaN(Date.parse(day)) ? day : null,
    automatic: !added.includes(lineId),
  };
}

const practitioner = (d: AttendingDoctor | null | undefined) =>
  d === null || d === undefined
    ? {}
    : { practitioner_identification_type: d.identificationType, practitioner_identification_number: d.identificationNumber, practitioner_regulation_body: d.regulationBody };

// ---------------------------------------------------------------- opening

type Source = ConsentWorkflow | ElectiveWorkflow;

/**
 * `service_type` on the wire: a capitation intervention is refused under OUTPATIENT and needs
 * CAPITATION, on the authorize and the visit alike (R WORKFLOWS, observed on UAT). The station's
 * own service type (the care setting the views show) stays OUTPATIENT.
 */
export function wireServiceType(serviceType: ServiceType, intervention: InterventionBrief): 'CAPITATION' | ServiceType {
  return intervention.scenario === 'capitation' ? 'CAPITATION' : serviceType;
}

/**
 * Who and where the visit is opened from, as the live service takes it (V's changelog of
 * 2026-04-23): the signed-in staff member's national ID where it is known, the workstation the
 * fingerprint request names, and this station by its id and computer name.
 */
function openedFrom(ctx: Ctx): Pick<CreateVisitInput, 'request_user_national_id' | 'workstation_id' | 'device_id' | 'device_name'> {
  const nationalId = ctx.operator()?.nationalId ?? null;
  const workstation = ctx.readers.workstationId()?.trim();
  return {
    ...(nationalId === null ? {} : { request_user_national_id: nationalId }),
    ...(workstation === undefined || workstation === '' ? {} : { workstation_id: workstation }),
    device_id: ctx.device.id,
    device_name: ctx.device.name,
  };
}

/** The createVisit request for a source workflow (consent by guid or code; elective by phase one's guid, or the visit-day code). */
function visitRequestOf(ctx: Ctx, source: Source, doctor: AttendingDoctor | null): CreateVisitInput & Record<string, unknown> {
  const consent: { auth_guid: string } | { otp: string } = (() => {
    if (source.kind === 'consent') {
      const v = source.data.verification;
      // A code the nurse confirmed is held for the visit, which spends it (the visit is the consent).
      if (v.code !== null) return { otp: v.code };
      if (v.authGuid !== null) return { auth_guid: v.authGuid };
    } else {
      if (source.data.phase === 'visit-day' && source.data.verification.code !== null) return { otp: source.data.verification.code };
      if (source.data.authGuid !== null) return { auth_guid: source.data.authGuid };
    }
    return fail('WRONG_STATE', 'There is no consent to open the visit with.', { state: source.state });
  })();
  return {
    patient_id: source.data.patient.patientId,
    intervention_codes: [source.data.intervention.code],
    service_type: wireServiceType(source.kind === 'consent' ? source.data.serviceType : 'INPATIENT', source.data.intervention),
    ...consent,
    ...practitioner(doctor),
    ...openedFrom(ctx),
  };
}

/** In the settling transaction: the visit workflow, open, from the exchange's answer. */
function createVisitWorkflow(ctx: Ctx, source: Source, visit: Visit, request: Record<string, unknown>, doctor: AttendingDoctor | null): VisitWorkflow {
  ctx.scrubber.add(visit.consentToken);
  const serviceType = request.service_type === 'INPATIENT' ? 'INPATIENT' : 'OUTPATIENT';
  const header = workflowHeader(ctx, 'visit', 'open');
  const wf: VisitWorkflow = {
    ...header,
    data: {
      patient: source.data.patient,
      intervention: source.data.intervention,
      serviceType,
      closeBy: serviceType === 'INPATIENT' ? 'discharge' : 'submit',
      consentToken: visit.consentToken,
      ...(visit.authorizationGuid === undefined ? {} : { authorizationGuid: visit.authorizationGuid }),
      ...(source.kind === 'consent' && source.data.openVisitGuid !== undefined ? { forDispensing: true as const } : {}),
      openedWith: typeof request.auth_guid === 'string' ? { authGuid: request.auth_guid } : { otp: String(request.otp) },
      doctorAtStart: doctor,
      visitNumber: visit.visitNumber?.slice(0, 60) ?? null,
      invoiceNumber: visit.invoiceNumber?.slice(0, 60) ?? null,
      claimStatus: visit.workflowState ?? null,
      startedAt: dateTimeOf(visit.visitStart) ?? header.createdAt,
      doctor,
      lines: [],
      totalKes: 0,
      addedLineIds: [],
      fromWorkflowId: source.id,
      dischargeWorkflowId: null,
    },
  };
  ctx.engine.create(wf, `visit opened for ${wf.data.intervention.code} (${serviceType})`);
  ctx.patients.rememberUsual(wf.data.patient.ref, serviceType, wf.data.intervention.code);
  if (typeof request.otp === 'string') ctx.settings.remember(SMS_CODE_LENGTH_MEMO, String(request.otp.length));
  return wf;
}

/**
 * Opens the visit (consent → opening-visit → visit-opened; elective likewise) and answers it. A
 * lost answer is settled in the same command by the visit's policy (`post-again`): posted again,
 * the exchange answers with the visit the consent (or the spent SMS code) opened, never a second
 * one; when that cannot be done now either, the engine answers OUTCOME_UNKNOWN and comes back to it.
 */
export async function openVisit(ctx: Ctx, source: Source, doctor: AttendingDoctor | null): Promise<VisitWorkflow> {
  const request = visitRequestOf(ctx, source, doctor);
  const expectedGuid = source.kind === 'consent' ? source.data.openVisitGuid : undefined;
  if (expectedGuid !== undefined) await requireStillOpen(ctx, source.data.patient.patientId, expectedGuid);
  if (source.kind === 'consent') ctx.engine.transition(source, 'openVisit');
  else if (source.state !== 'opening-visit') ctx.engine.transition(source, 'openVisit');
  const answered: { visit?: VisitWorkflow } = {};
  await ctx.engine.send(source, {
    operation: journal.createVisit,
    request,
    send: () => ctx.session.client().claims.createVisit(request),
    settle: (visit) => {
      answered.visit = settleVisit(ctx, source, visit, request, doctor);
    },
    refused: (error) => visitRefused(ctx, source, error),
  });
  // Answered, or found by posting it again (where the reconciliation followed its opening already).
  if (answered.visit !== undefined) followOpening(ctx, answered.visit);
  const visit = openedVisitOf(ctx, source);
  // Posted again and refused: the refusal is on the source, as for a first refusal.
  if (visit === undefined) throw new StationFailure(source.lastError ?? makeError('EXCHANGE_ERROR', 'The visit was not opened.'));
  if (expectedGuid !== undefined) answeredAnotherVisit(ctx, visit, expectedGuid);
  return visit;
}

/** The visit a consent or an elective opened, once it has. */
export function openedVisitOf(ctx: Ctx, source: Source): VisitWorkflow | undefined {
  const visit = source.data.visitWorkflowId === null ? undefined : ctx.engine.get(source.data.visitWorkflowId);
  return visit?.kind === 'visit' ? visit : undefined;
}

/**
 * A consent at the pharmacy reached a visit other than the open one it was for (closed between the
 * check and the post): SHA opened a new visit, which nobody meant. Said on that visit, for the
 * facility to close it as opened by mistake; it is not dispensed under.
 */
function answeredAnotherVisit(ctx: Ctx, visit: VisitWorkflow, expectedGuid: string): void {
  if (visit.data.authorizationGuid === undefined || visit.data.authorizationGuid === expectedGuid) return;
  ctx.engine.commit(() => {
    visit.lastError = makeError('WRONG_STATE', 'SHA answered with a new visit, not the open one this consent was for: close this visit as opened by mistake. Nothing is dispensed under it.', { state: 'open' });
    delete visit.data.forDispensing;
    ctx.engine.save(visit);
  });
  ctx.log.warn({ workflowId: visit.id }, 'a consent for an open visit reached a new visit at SHA');
}

/**
 * What follows the opening, beside the nurse's path rather than in front of it: the visit is
 * open once the exchange answers the visit call; the chosen cover (a member under two schemes)
 * and the claim as the preview shows it (a per-diem day line, the invoice number) follow under the
 * visit's own lock, so that any visit command waits for them, and reach the screen as the view's
 * update.
 */
export function followOpening(ctx: Ctx, wf: VisitWorkflow): void {
  void ctx.engine
    .lock(wf.id, async () => {
      // A refusal shows on the visit; an unknown outcome the engine comes back to.
      await setChosenCover(ctx, wf).catch(() => undefined);
      await refreshFromPreview(ctx, wf).catch(() => undefined);
    })
    .catch((error: unknown) => ctx.log.warn({ workflowId: wf.id, err: (error as Error).message }, 'the cover or the preview after the visit opened failed'));
}

/**
 * A member under two schemes: the scheme the nurse chose becomes the claim's cover now that the
 * visit gives a consent token (POST /authorizations/covers takes one). Journaled like a billing
 * call: a refusal shows on the visit.
 */
async function setChosenCover(ctx: Ctx, wf: VisitWorkflow): Promise<void> {
  const cover = ctx.patients.chosenCover(wf.data.patient.ref);
  if (cover === null || wf.data.consentToken === null) return;
  const request = { consent_token: wf.data.consentToken, principal_cr_id: cover.principalCrId, policy_number: cover.policyNumber };
  await billingCall(ctx, wf, journal.setCover, request, () => ctx.session.client().eligibility.setCover(request), () => undefined);
}

/**
 * In the refusal's transaction. A consent by fingerprint stays verified, with the error, for the
 * nurse to open the visit again. A consent whose SMS code was to open the visit was never given:
 * it goes back to the code, a wrong or expired one counted as such, and the nurse confirms a code
 * again (the same one, where SHA refused for another reason).
 */
function visitRefused(ctx: Ctx, source: Source, error: StationError): void {
  source.lastError = error;
  if (source.kind === 'elective') {
    ctx.engine.transition(source, 'visitNotOpened', error.code);
    return;
  }
  const v = source.data.verification;
  if (v.stage === 'verified') {
    ctx.engine.transition(source, 'visitNotOpened', error.code);
    return;
  }
  v.code = null;
  ctx.engine.transition(source, 'codeNotAccepted', error.code);
  if (error.code === 'OTP_INVALID' || error.code === 'OTP_EXPIRED') codeRefused(ctx, source, v, error);
}

function settleVisit(ctx: Ctx, source: Source, visit: Visit, request: Record<string, unknown>, doctor: AttendingDoctor | null): VisitWorkflow {
  const wf = createVisitWorkflow(ctx, source, visit, request, doctor);
  source.data.visitWorkflowId = wf.id;
  source.lastError = null;
  // The code the visit spent was the consent: the step is verified by SHA's answer, and the code kept no longer.
  const v = source.data.verification;
  if (v.code !== null && v.stage !== 'verified') {
    v.stage = verificationNext(v.stage, 'verified');
    v.method = 'sms';
  }
  v.code = null;
  if (source.kind === 'consent') ctx.engine.transition(source, 'visitOpened', `visit ${wf.id}`);
  else ctx.engine.transition(source, 'visitOpened', `visit ${wf.id}`);
  return wf;
}

/**
 * After a crash or a lost answer: post the same visit again; an open visit comes back, not a second
 * one. Answers the visit, once open (its opening to be followed by the caller).
 */
export async function reconcileOpenVisit(ctx: Ctx, source: Source, call: CallRecord): Promise<VisitWorkflow | undefined> {
  const request = call.request;
  const doctor = doctorFromRequest(request);
  let visit: Visit;
  try {
    visit = await ctx.session.client().claims.createVisit(request as CreateVisitInput);
  } catch (error) {
    if (isExchangeError(error) && (error.outcomeUnknown || error.kind === 'network' || error.kind === 'timeout' || error.kind === 'aborted' || error.kind === 'server')) throw error;
    // The exchange refuses it now: the visit was not opened.
    ctx.engine.commit(() => {
      ctx.engine.reconciled(call, 'the visit was not opened', source);
      if (source.state === 'opening-visit' || (source.kind === 'elective' && source.state === 'reconciling')) {
        visitRefused(ctx, source, isExchangeError(error) ? fromExchangeError(error, (t) => ctx.scrubber.scrub(t)) : makeError('EXCHANGE_ERROR', 'The visit was not opened.'));
      }
    });
    return undefined;
  }
  return ctx.engine.commit(() => {
    ctx.engine.reconciled(call, 'the exchange answered with the visit', source);
    return settleVisit(ctx, source, visit, request, doctor);
  });
}

function doctorFromRequest(r: Record<string, unknown>): AttendingDoctor | null {
  const t = r.practitioner_identification_type;
  const n = r.practitioner_identification_number;
  const b = r.practitioner_regulation_body;
  return typeof t === 'string' && typeof n === 'string' && typeof b === 'string' ? { identificationType: t, identificationNumber: n, regulationBody: b } : null;
}

// ---------------------------------------------------------------- billing

/**
 * A visit reached at the pharmacy window was opened at another station: its bill, doctor,
 * prescriptions and end belong to that station, and this one only dispenses under it.
 */
export function requireOwnVisit(wf: VisitWorkflow): void {
  if (wf.data.forDispensing === true) fail('WRONG_STATE', 'This visit was opened at another station and reached here to dispense: its bill, prescriptions and end belong to that station.', { state: wf.state });
}

export function requireOpen(wf: VisitWorkflow): string {
  if (wf.state !== 'open') fail('WRONG_STATE', 'The visit is not open for billing.', { state: wf.state });
  requireOwnVisit(wf);
  if (wf.data.consentToken === null) fail('WRONG_STATE', 'The visit has no claim yet.', { state: wf.state });
  return wf.data.consentToken;
}

export interface LineInput {
  interventionCode?: string | undefined;
  unitPriceKes: number;
  quantity: number;
  diagnoses: { code: string; name?: string | undefined }[];
  itemCode?: string | undefined;
  description?: string | undefined;
  serviceDate?: string | undefined;
  doctor?: AttendingDoctor | undefined;
  attachments?: z.infer<typeof lineAttachment>[] | undefined;
}

type BillingInput = Parameters<ExchangeClient['claims']['addBilling']>[0];

/**
 * The multipart line (combined billing): its diagnoses as ICD codes, its papers as files. Answers
 * the request to send and the one to journal, which names the files but does not hold their bytes.
 */
function lineRequestOf(wf: VisitWorkflow, consentToken: string, input: LineInput): { send: BillingInput; journal: Record<string, unknown> } {
  const fields = {
    consent_token: consentToken,
    intervention_code: input.interventionCode ?? wf.data.intervention.code,
    unit_price: input.unitPriceKes,
    quantity: input.quantity,
    diagnoses: [...new Set(input.diagnoses.map((d) => d.code))],
    ...(input.serviceDate === undefined ? {} : { charge_date: input.serviceDate }),
    ...(input.itemCode === undefined ? {} : { service_identifier: input.itemCode }),
    ...(input.description === undefined ? {} : { service_name: input.description }),
    ...practitioner(input.doctor),
  };
  const files = input.attachments ?? [];
  if (files.length === 0) return { send: fields, journal: fields };
  return {
    send: {
      ...fields,
      attachments: files.map((f) => ({
        document_title: f.title,
        document_type: f.documentType,
        file: { file_name: f.fileName, content_type: f.contentType, data: Buffer.from(f.dataBase64, 'base64') },
      })),
    },
    journal: { ...fields, attachments: files.map((f) => ({ document_title: f.title, document_type: f.documentType, file_name: f.fileName, bytes: Math.floor((f.dataBase64.length * 3) / 4) })) },
  };
}

/**
 * One billing call on an open visit, through the engine's write: a refusal shows on the visit (and
 * is thrown); an answer lost is the visit's to settle by the claim preview (`visitKind`), the nurse
 * told OUTCOME_UNKNOWN until it is.
 */
export async function billingCall<T>(
  ctx: Ctx,
  wf: VisitWorkflow,
  operation: JournalEntry,
  request: Record<string, unknown>,
  send: () => Promise<T>,
  settle: (result: T) => void,
): Promise<void> {
  await ctx.engine.send(wf, {
    operation,
    request,
    send,
    settle: (result) => {
      settle(result);
      wf.lastError = null;
      ctx.engine.save(wf);
    },
    refused: (error) => ctx.engine.setError(wf, error),
  });
}

/**
 * The line of the claim a billing request made: of the same intervention, price and quantity, and
 * not already the station's. The newest such line: the exchange's own lines (a per-diem day) are
 * made when the visit opens, before any the nurse adds.
 */
function landedLine(preview: WireClaimPreview, request: Record<string, unknown>, owned: ReadonlySet<string>): ClaimLine | undefined {
  return preview.lines.findLast(
    (l) => !owned.has(l.id) && l.interventionCode === request.intervention_code && l.unitPrice === Number(request.unit_price) && l.quantity === Number(request.quantity),
  );
}

/** Operations that add a billing line (addLine: journals written before the station billed by multipart). */
const lineAdds = new Set<string>([journal.addBilling.name, 'claims.addLine']);

export async function addLine(ctx: Ctx, wf: VisitWorkflow, input: LineInput): Promise<void> {
  const consentToken = requireOpen(wf);
  const { send, journal: journaled } = lineRequestOf(wf, consentToken, input);
  let answered = false;
  // A lost or unreadable answer is looked for on the claim at once (`lookUpAtOnce`): the nurse is
  // told either way — never an empty success she might answer by adding it again.
  await billingCall(ctx, wf, journal.addBilling, journaled, () => ctx.session.client().claims.addBilling(send), (line) => {
    const named = new Map(input.diagnoses.map((d) => [d.code, d.name]));
    const sent = (send.diagnoses ?? []).map((code) => ({ code, name: named.get(code), interventionCode: send.intervention_code }));
    settleLine(wf, lineOf(line, sent, [...wf.data.addedLineIds, line.id], wf.data.intervention.code));
    if (wf.data.doctor === null && input.doctor !== undefined) wf.data.doctor = input.doctor;
    answered = true;
  });
  // The claim as the exchange holds it now: totals, and the diagnoses it keeps per intervention.
  if (answered) await refreshFromPreview(ctx, wf).catch(() => undefined);
}

/**
 * Line adds whose answer was lost, found on the claim (the preview): kept as the station's, their
 * calls closed. One not there yet stays open: a slow request may still land, so it is looked for
 * again after the grace period (`reconcileVisit`, where not found is final).
 */
async function adoptLandedLines(ctx: Ctx, wf: VisitWorkflow): Promise<void> {
  const calls = ctx.engine.openCalls(wf.id).filter((c) => lineAdds.has(c.operation));
  const preview = await ctx.session.client().claims.preview({ consent_token: requireOpen(wf) });
  const owned = new Set(wf.data.addedLineIds);
  let all = true;
  ctx.engine.commit(() => {
    for (const call of calls) {
      const landed = landedLine(preview, call.request, owned);
      if (landed === undefined) {
        all = false;
        continue;
      }
      owned.add(landed.id);
      wf.data.addedLineIds.push(landed.id);
      ctx.engine.reconciled(call, 'the billing line reached the exchange', wf);
    }
    if (all) wf.lastError = null;
    applyPreview(wf, preview);
    ctx.engine.save(wf);
  });
}

/** Adds a line the exchange confirmed to the visit (once), and the total with it. */
function settleLine(wf: VisitWorkflow, line: BillingLine): void {
  wf.data.addedLineIds.push(line.lineId);
  if (!wf.data.lines.some((l) => l.lineId === line.lineId)) wf.data.lines.push(line);
  wf.data.totalKes = kes(wf.data.lines.reduce((sum, l) => sum + l.amountKes, 0));
}

export async function removeLine(ctx: Ctx, wf: VisitWorkflow, lineId: string): Promise<void> {
  const consentToken = requireOpen(wf);
  const line = wf.data.lines.find((l) => l.lineId === lineId);
  if (line === undefined) fail('NOT_FOUND', 'The visit has no such line.', { field: 'lineId' });
  if (line.automatic) fail('WRONG_STATE', 'Lines the exchange generated cannot be removed here.', { state: 'automatic' });
  const request = { consent_token: consentToken, line_guid: lineId };
  await billingCall(ctx, wf, journal.removeLine, request, () => ctx.session.client().claims.removeLine(request), () => {
    wf.data.lines = wf.data.lines.filter((l) => l.lineId !== lineId);
    wf.data.totalKes = kes(wf.data.lines.reduce((sum, l) => sum + l.amountKes, 0));
  });
  await refreshFromPreview(ctx, wf).catch(() => undefined);
}

/** The doctor a claims.addDoctor request named. */
function attachedDoctorOf(r: Record<string, unknown>): AttendingDoctor | null {
  const { identification_type: t, identification_number: n, regulation_body: b } = r;
  return typeof t === 'string' && typeof n === 'string' && typeof b === 'string' ? { identificationType: t, identificationNumber: n, regulationBody: b } : null;
}

const sameDoctor = (a: AttendingDoctor, b: AttendingDoctor): boolean =>
  a.identificationType === b.identificationType &&
  a.identificationNumber.toUpperCase() === b.identificationNumber.toUpperCase() &&
  a.regulationBody.toUpperCase() === b.regulationBody.toUpperCase();

/** Adds the doctor to the claim (POST /claims/doctors); a refusal is on the visit and thrown. */
async function addClaimDoctor(ctx: Ctx, wf: VisitWorkflow, consentToken: string, doctor: AttendingDoctor): Promise<void> {
  const request = { consent_token: consentToken, identification_number: doctor.identificationNumber, identification_type: doctor.identificationType, regulation_body: doctor.regulationBody };
  await billingCall(ctx, wf, journal.addDoctor, request, () => ctx.session.client().claims.addDoctor(request), () => {
    wf.data.doctor = doctor;
  });
}

/** Removes the claim's doctor (DELETE /claims/doctors: one doctor per claim, named by the claim alone). */
async function removeClaimDoctor(ctx: Ctx, wf: VisitWorkflow, consentToken: string): Promise<void> {
  const request = { consent_token: consentToken };
  await billingCall(ctx, wf, journal.removeDoctor, request, () => ctx.session.client().claims.removeDoctor(request), () => {
    wf.data.doctor = null;
  });
}

/**
 * Attaches the attending doctor, or changes them. SHA keeps one doctor per claim and answers
 * DOCTOR_ALREADY_ATTACHED to a second, so a change removes the doctor SHA holds first, then adds
 * the new one. When SHA refuses the new one (not in the registry, say), the previous doctor is
 * attached again, so the claim is never left without one by a typing mistake; the refusal stands.
 */
export async function attachDoctor(ctx: Ctx, wf: VisitWorkflow, doctor: AttendingDoctor): Promise<void> {
  const consentToken = requireOpen(wf);
  const previous = wf.data.doctor;
  if (previous !== null && sameDoctor(previous, doctor)) return;
  if (previous !== null) {
    try {
      await removeClaimDoctor(ctx, wf, consentToken);
    } catch (error) {
      // SHA holds no doctor (404): nothing to remove before the new one is added.
      if (!(error instanceof StationFailure) || error.error.code !== 'NOT_FOUND') throw error;
      ctx.engine.commit(() => {
        wf.data.doctor = null;
        ctx.engine.setError(wf, null);
      });
    }
  }
  try {
    await addClaimDoctor(ctx, wf, consentToken, doctor);
  } catch (error) {
    if (!(error instanceof StationFailure)) throw error;
    // SHA holds a doctor the station did not know of (attached elsewhere): removed, and the new one added.
    if (previous === null && error.error.code === 'DOCTOR_ALREADY_ATTACHED') {
      await removeClaimDoctor(ctx, wf, consentToken);
      await addClaimDoctor(ctx, wf, consentToken, doctor);
      return;
    }
    if (previous === null || error.error.code === 'OUTCOME_UNKNOWN') throw error;
    await addClaimDoctor(ctx, wf, consentToken, previous).catch(() => undefined);
    // The new doctor's refusal is what the nurse must see, whether or not the previous one is back.
    ctx.engine.setError(wf, error.error);
    throw error;
  }
}

/** Reads the claim back (the lines, generated ones too, the diagnoses, the status) into the visit. */
export async function refreshFromPreview(ctx: Ctx, wf: VisitWorkflow): Promise<WireClaimPreview> {
  if (wf.data.consentToken === null) fail('WRONG_STATE', 'The visit has no claim yet.', { state: wf.state });
  const preview = await ctx.session.client().claims.preview({ consent_token: wf.data.consentToken });
  ctx.engine.commit(() => {
    applyPreview(wf, preview);
    noteDocumentsReturn(wf, ctx.nowIso());
  });
  ctx.engine.save(wf);
  return preview;
}

/**
 * The claim as the preview shows it becomes the visit's: its lines are every invoice's lines. An
 * answer without invoices never gets here (the client refuses it as malformed), so a preview
 * cannot empty the visit by being read wrongly.
 */
export function applyPreview(wf: VisitWorkflow, preview: WireClaimPreview): void {
  wf.data.lines = preview.lines.slice(0, 500).map((l) => lineOf(l, preview.diagnoses, wf.data.addedLineIds, wf.data.intervention.code));
  wf.data.totalKes = kes(preview.totalAmount);
  wf.data.claimStatus = preview.workflowState ?? wf.data.claimStatus;
  wf.data.invoiceNumber = preview.invoiceNumber?.slice(0, 60) ?? wf.data.invoiceNumber;
  wf.data.visitNumber = preview.visitNumber?.slice(0, 60) ?? wf.data.visitNumber;
  servicesFromPreview(wf, preview);
}

// ---------------------------------------------------------------- several services (services-on-visit.ts)

/** The visit's services, the one it opened for first (a visit recorded before several services has that one alone). */
export function servicesOf(wf: VisitWorkflow): ServiceOnVisit[] {
  return wf.data.services ?? [{ ...wf.data.intervention, active: true }];
}

/**
 * The services as SHA's preview lists them, each with its state. A service the station already
 * knows keeps its name and scenario; one added elsewhere (another station, the portal) is shown by
 * the name SHA gives it. A preview that lists none leaves the visit's services as they were.
 */
export function servicesFromPreview(wf: VisitWorkflow, preview: Pick<WireClaimPreview, 'interventionStates'>): void {
  if (preview.interventionStates.length === 0) return;
  const known = new Map(servicesOf(wf).map((s) => [s.code, s]));
  const listed = preview.interventionStates.slice(0, 50).map((i): ServiceOnVisit => {
    const before = known.get(i.interventionCode);
    const name = before?.name ?? (i.name?.trim() ? i.name.trim().slice(0, 200) : i.interventionCode);
    return { code: i.interventionCode, name, scenario: before?.scenario ?? 'other', active: i.active };
  });
  // The service the visit opened for stays first, as the nurse knows the visit by it.
  listed.sort((a, b) => Number(b.code === wf.data.intervention.code) - Number(a.code === wf.data.intervention.code));
  wf.data.services = listed;
}

export async function previewVisit(ctx: Ctx, wf: VisitWorkflow): Promise<ClaimPreview> {
  const p = await refreshFromPreview(ctx, wf);
  const serviceType = p.serviceType === 'INPATIENT' || p.serviceType === 'EMERGENCY' ? p.serviceType : 'OUTPATIENT';
  return {
    visitNumber: wf.data.visitNumber,
    invoiceNumber: wf.data.invoiceNumber,
    claimStatus: claimStatusOf(p.workflowState) ?? 'OTHER',
    serviceType,
    interventions: servicesOf(wf)
      .filter((s) => s.active)
      .map(({ active: _active, ...brief }) => brief),
    lines: wf.data.lines,
    diagnoses: diagnosesOf(p.diagnoses, null, 50),
    doctor: wf.data.doctor,
    attachmentCount: p.attachments.length,
    totalKes: wf.data.totalKes,
    dischargeStatus: p.dischargeStatus === 'PARTIAL' || p.dischargeStatus === 'FULL' ? p.dischargeStatus : null,
    partialDischarges: (p.partialDischarges ?? []).map((d) => dateTimeOf(typeof d.at === 'string' ? d.at : undefined)).filter((d): d is string => d !== null),
    submittedAt: dateTimeOf(p.submittedAt),
    previewedAt: ctx.nowIso(),
  };
}

// ---------------------------------------------------------------- reconciling billing calls

/**
 * Billing calls whose answer was lost: the preview says what the claim holds; nothing is re-sent.
 * A lost line found on the claim is the station's (removable); one not there is left for the nurse.
 */
export async function reconcileVisit(ctx: Ctx, wf: VisitWorkflow, calls: CallRecord[]): Promise<void> {
  const preview = await refreshFromPreview(ctx, wf);
  ctx.engine.commit(() => {
    // A line seen in an earlier preview but never claimed (its answer lost) is still to be found.
    const owned = new Set(wf.data.addedLineIds);
    for (const call of calls) {
      if (lineAdds.has(call.operation)) {
        const landed = landedLine(preview, call.request, owned);
        if (landed !== undefined) {
          wf.data.addedLineIds.push(landed.id);
          owned.add(landed.id);
          ctx.engine.reconciled(call, 'the billing line reached the exchange', wf);
        } else {
          wf.lastError = makeError('EXCHANGE_TIMEOUT', 'A billing line did not reach the exchange: add it again.');
          ctx.engine.reconciled(call, 'the billing line did not reach the exchange', wf);
        }
      } else if (call.operation === journal.addDoctor.name && preview.hasDoctor === true) {
        wf.data.doctor = attachedDoctorOf(call.request) ?? wf.data.doctor;
        ctx.engine.reconciled(call, 'the claim has its doctor', wf);
      } else if (call.operation === journal.removeDoctor.name && preview.hasDoctor === false) {
        wf.data.doctor = null;
        ctx.engine.reconciled(call, 'the claim has no doctor', wf);
      } else if (call.operation === journal.closeClaim.name && preview.workflowState !== 'CLOSED') {
        wf.lastError = makeError('EXCHANGE_TIMEOUT', 'SHA did not receive the closing: the visit is still open. Close it again if it must be.');
        ctx.engine.reconciled(call, 'the claim was not closed', wf);
      } else {
        ctx.engine.reconciled(call, `${call.operation}: the claim as the exchange holds it now`, wf);
      }
    }
    applyPreview(wf, preview);
    // Closed while the answer to the closing was lost: the visit ends as the claim has.
    if (preview.workflowState === 'CLOSED' && wf.state === 'open') ctx.engine.transition(wf, 'cancel', 'the claim preview shows it closed');
    ctx.engine.save(wf);
  });
}

/**
 * The visit's writes whose answer was lost, settled later (after the grace period, a restart, or
 * before a command): a first prescription by SHA's read-back, a claim's papers and resubmission by
 * the claim's read-back, the billing and corrections by the claim preview.
 */
async function reconcileVisitWrites(ctx: Ctx, wf: VisitWorkflow, calls: CallRecord[]): Promise<void> {
  const rest = await settlePrescriptionCreates(ctx, wf, calls);
  if (rest.some(isClaimCall)) await readBack(ctx, wf);
  const billing = rest.filter((call) => !isClaimCall(call));
  if (billing.length > 0) await reconcileVisit(ctx, wf, billing);
}

export const visitKind: WorkflowKindModule<'visit'> = {
  kind: 'visit',
  machine: visitMachine,
  view: (_ctx, wf) => visitView(wf),
  // A visit takes no consent: its end is a discharge workflow's.
  verification: null,
  reconcile: reconcileVisitWrites,
  unknownOutcome: {
    // Nothing on the visit shows a lost write: the nurse is told OUTCOME_UNKNOWN until it is settled.
    meanwhile: () => false,
    // A later prescription (SHA's read-back answers one per consent token, maybe another) and a
    // dispense: no operation finds them. Kept unconfirmed on the visit, never sent again.
    unknowable: (ctx, wf, call) => {
      const what = call.operation === journal.dispense.name ? 'no operation finds a dispense' : 'SHA answers one prescription per consent token and this visit has another';
      ctx.engine.reconciled(call, `${what}: kept unconfirmed`, wf);
      return false;
    },
    // A line is found on the claim at once where it landed; a claim's paper or resubmission is read back at once.
    lookUpAtOnce: async (ctx, wf, call) => {
      if (lineAdds.has(call.operation)) await adoptLandedLines(ctx, wf);
      else if (isClaimCall(call)) await readBack(ctx, wf);
    },
  },
};

// ---------------------------------------------------------------- the view

export function visitView(wf: VisitWorkflow): VisitView {
  const next: VisitView['next'] =
    wf.state === 'open' && wf.data.forDispensing === true
      ? ['visit.preview']
      : wf.state === 'open'
      ? [
          'visit.addLine',
          ...(wf.data.lines.some((l) => !l.automatic) ? (['visit.removeLine', 'visit.editLine'] as const) : []),
          'visit.addDiagnosis',
          ...(wf.data.lines.some((l) => l.diagnoses.length > 0) ? (['visit.removeDiagnosis'] as const) : []),
          'visit.attachDoctor',
          'visit.switchIntervention',
          'visit.addService',
          ...(servicesOf(wf).filter((s) => s.active).length > 1 ? (['visit.retireService'] as const) : []),
          ...(servicesOf(wf).some((s) => !s.active) ? (['visit.restoreService'] as const) : []),
          'visit.close',
          'visit.preview',
          'discharge.begin',
        ]
      : wf.state === 'closing'
        ? ['visit.preview']
        : [];
  return {
    workflowId: wf.id,
    kind: 'visit',
    state: wf.state,
    next,
    deadlines: [],
    lastError: wf.lastError,
    updatedAt: wf.updatedAt,
    patient: { patientRef: wf.data.patient.ref, maskedName: wf.data.patient.maskedName },
    intervention: wf.data.intervention,
    services: servicesOf(wf),
    serviceType: wf.data.serviceType,
    visitNumber: wf.data.visitNumber,
    invoiceNumber: wf.data.invoiceNumber,
    claimStatus: claimStatusOf(wf.data.claimStatus),
    startedAt: wf.data.startedAt,
    doctor: wf.data.doctor,
    lines: wf.data.lines,
    totalKes: wf.data.totalKes,
    closeBy: wf.data.closeBy,
    fromWorkflowId: wf.data.fromWorkflowId,
    dischargeWorkflowId: wf.data.dischargeWorkflowId,
  };
}

/** An ISO instant with offset, or null when the exchange's value is not one. */
export function dateTimeOf(value: string | undefined | null): string | null {
  if (value === undefined || value === null) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}
