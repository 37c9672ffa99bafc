// The verification step shared by every workflow that takes consent (consent, elective, discharge,
// emergency identification): the route, SMS codes with their cooldown and escape hatch, the fingerprint request
// with its link, its 3-second look-up and countdown, cancel (rejecting a pending request at the
// exchange), retry and the OTP whitelist request. What differs per workflow — which exchange call
// starts a fingerprint, sends or spends a code, and what follows consent — comes from its host.
import type { z } from 'zod';
import type { deadline, ErrorCode, VerificationStep, verificationActions as actionList, whitelistDocument } from '../../contract';
import { makeError } from '../../contract';
import { isExchangeError, type Authorization, type ExchangeClient, type OtpSent } from '../../payer';
import type { DeviceOs } from '../deps';
import { fail, StationFailure } from '../errors';
import { verificationNext, type VerificationEvent } from '../machines';
import { maskContact } from '../masking';
import { decideRoute, type VerificationPurpose } from '../route';
import type { Ctx } from './context';
import type { CallRecord, RepeatAgain } from './engine';
import { journal, type JournalEntry } from './journal';
import type { AnyWorkflow, SmsContact, VerificationData } from './types';

type WhitelistDocument = z.infer<typeof whitelistDocument>;

export type VerificationAction = (typeof actionList)[number];
export type Deadline = z.infer<typeof deadline>;

const MAX_CODE_FAILURES = 3;
/**
 * The exchange's SMS codes are six digits: UAT's OTP answer read "Your OTP is 349835" (R
 * `docs/api/WORKFLOWS.md`, "Live claim lifecycle" 1). Once a code has opened a visit at this
 * station, its length is the one used (SMS_CODE_LENGTH_MEMO), so another length on the live
 * service is learned rather than cut short.
 */
const DEFAULT_SMS_CODE_LENGTH = 6;
/** Where the length of the codes the exchange accepted is remembered (written when a code opens a visit). */
export const SMS_CODE_LENGTH_MEMO = 'smsCodeLength';
const DEFAULT_LINK_TTL_MS = 10 * 60_000;

/** One journaled exchange call a host asks the step to make. */
export interface CallSpec<T> {
  readonly operation: JournalEntry;
  /** The intent as journaled (sealed): what a reconciliation may need to send again. */
  readonly request: Record<string, unknown>;
  readonly send: (client: ExchangeClient) => Promise<T>;
  /** Runs in the transaction that records the outcome. */
  readonly settle: (result: T) => void;
}

/** A call spec whatever its answer's type (hosts whose calls differ by state): handed to what makes the call. */
export type SomeCallSpec = <R>(use: <T>(spec: CallSpec<T>) => R) => R;

export function someCall<T>(spec: CallSpec<T>): SomeCallSpec {
  return (use) => use(spec);
}

/** What a confirmed SMS code does. */
export type CodeUse =
  /** Spent now by this call (the OTP authorize, an emergency's identification): its answer verifies the step. */
  | { readonly spentBy: SomeCallSpec }
  /**
   * Spent by the visit it opens at once (the visit creation is the consent): held, sealed, and the
   * step verified only once SHA opens the visit with it.
   */
  | { readonly opensVisit: true }
  /** Kept for the workflow's next call (the discharge, the submit), where SHA checks it: the step is verified now. */
  | { readonly keptForNextCall: true };

/**
 * The OTP authorize that spends an elective's SMS code before the visit (phase one): the
 * authorization's token and guid are taught to the scrubber and kept in the step; `then` runs in
 * the same settling transaction.
 */
export function otpAuthorizeCall(
  ctx: Ctx,
  v: VerificationData,
  request: { patient_id: string; otp: string; interventions: string[]; service_type: 'CAPITATION' | 'OUTPATIENT' | 'INPATIENT' },
  then?: (a: Authorization) => void,
): SomeCallSpec {
  return someCall({
    operation: journal.authorizeOtp,
    request,
    send: (client) => client.consent.authorizeOtp(request),
    settle: (a) => {
      ctx.scrubber.add(a.token);
      ctx.scrubber.add(a.guid);
      v.authToken = a.token ?? null;
      v.authGuid = a.guid ?? null;
      then?.(a);
    },
  });
}

/** The fields of a biometric authorize that come from the station, not the workflow. */
export interface BiometricFields {
  agent_id: string;
  work_station_id: string;
  authorizing_device_os: DeviceOs;
  ekyc_provider_id: string;
  provider: string;
}

export interface VerificationHost<W extends AnyWorkflow> {
  step(wf: W): VerificationData | null;
  /** WRONG_STATE unless the workflow is taking consent now. */
  assertTakingConsent(wf: W): void;
  patientRef(wf: W): string | null;
  fingerprintCall?(ctx: Ctx, wf: W, bio: BiometricFields): CallSpec<Authorization>;
  codeCall(ctx: Ctx, wf: W, contact: SmsContact | null): CallSpec<OtpSent>;
  /** What the code confirmed does (`CodeUse`). */
  confirm(ctx: Ctx, wf: W, code: string): CodeUse;
  /** The visit opened with the code the step holds (`CodeUse.opensVisit`); its answer verifies the step. */
  openVisitWithCode?(ctx: Ctx, wf: W): Promise<void>;
  /** In the transaction that marks the step verified: the workflow's own transition. */
  onVerified(ctx: Ctx, wf: W): void;
  /** After consent is in, outside the transaction: the workflow's next exchange call, if any. */
  afterVerified?(ctx: Ctx, wf: W): Promise<void>;
  /** consent.cancel with nothing pending: the workflow itself is abandoned (WRONG_STATE if it cannot be). */
  cancelWorkflow(ctx: Ctx, wf: W): void;
}

export interface RouteInputs {
  biometricsEnforced?: boolean | undefined;
  whitelisted: boolean;
  contacts: SmsContact[];
  unusableUntil: number | null;
}

export function newVerification(ctx: Ctx, purpose: VerificationPurpose, inputs: RouteInputs, hasPhone = inputs.contacts.length > 0): VerificationData {
  const main = inputs.contacts.find((c) => c.main) ?? inputs.contacts[0];
  const v: VerificationData = {
    purpose,
    stage: 'ready',
    route: decideRoute({
      purpose,
      biometricsEnforced: inputs.biometricsEnforced,
      whitelisted: inputs.whitelisted,
      hasPhone,
      fingerprintsUnusableUntil: inputs.unusableUntil ?? undefined,
      now: ctx.clock.now(),
    }),
    biometricsEnforced: inputs.biometricsEnforced,
    whitelisted: inputs.whitelisted,
    hasPhone,
    unusableUntil: inputs.unusableUntil,
    contacts: inputs.contacts,
    selectedContactId: main?.contactId ?? null,
    sentTo: null,
    sentAt: null,
    codeExpiresAt: null,
    resendAvailableAt: null,
    failedAttempts: 0,
    smsUsed: false,
    link: null,
    checkedAt: null,
    whitelist: null,
    attempt: null,
    method: null,
    authToken: null,
    authGuid: null,
    code: null,
    fingerprintAttempts: 0,
  };
  if (v.route.route === 'blocked') v.stage = 'blocked';
  return v;
}

/** The route again, from what is known now (a window closing, a whitelist approved). */
export function reroute(ctx: Ctx, v: VerificationData, changes: Partial<RouteInputs>): void {
  if (changes.contacts !== undefined) {
    v.contacts = changes.contacts;
    v.hasPhone = changes.contacts.length > 0;
  }
  if (changes.unusableUntil !== undefined) v.unusableUntil = changes.unusableUntil;
  if (changes.whitelisted !== undefined) v.whitelisted = changes.whitelisted;
  if (changes.biometricsEnforced !== undefined) v.biometricsEnforced = changes.biometricsEnforced;
  v.route = decideRoute({
    purpose: v.purpose,
    biometricsEnforced: v.biometricsEnforced,
    whitelisted: v.whitelisted,
    hasPhone: v.hasPhone,
    fingerprintsUnusableUntil: v.unusableUntil ?? undefined,
    now: ctx.clock.now(),
  });
  if (v.route.route === 'blocked' && v.stage === 'ready') v.stage = 'blocked';
  if (v.route.route !== 'blocked' && v.stage === 'blocked') v.stage = 'ready';
}

function move(v: VerificationData, event: VerificationEvent): void {
  v.stage = verificationNext(v.stage, event);
}

// ---------------------------------------------------------------- what the renderer sees

export function verificationView(v: VerificationData | null): VerificationStep | null {
  if (v === null) return null;
  const showSms = v.route.smsAllowed || v.smsUsed;
  const showFingerprint = v.route.fingerprintAllowed || v.link !== null;
  return {
    purpose: v.purpose,
    route: v.route,
    stage: v.stage,
    sms: showSms
      ? {
          contacts: v.contacts,
          selectedContactId: v.selectedContactId,
          sentTo: v.sentTo,
          sentAt: v.sentAt,
          codeExpiresAt: v.codeExpiresAt,
          resendAvailableAt: v.resendAvailableAt,
          failedAttempts: v.failedAttempts,
          codeLength: v.codeLength ?? DEFAULT_SMS_CODE_LENGTH,
          escapeOffered: v.failedAttempts >= MAX_CODE_FAILURES,
        }
      : null,
    fingerprint: showFingerprint ? { link: v.stage === 'awaiting-fingerprint' ? v.link : null, checkedAt: v.checkedAt } : null,
    verifiedBy: v.stage === 'verified' ? v.method : null,
    whitelist: v.whitelist === null ? null : { status: v.whitelist.status, reasonType: v.whitelist.reasonType, requestedAt: v.whitelist.requestedAt },
  };
}

export function verificationDeadlines(ctx: Ctx, v: VerificationData | null): Deadline[] {
  if (v === null) return [];
  const now = ctx.clock.now();
  const out: Deadline[] = [];
  if (v.stage === 'awaiting-fingerprint' && v.link !== null) out.push({ kind: 'link-expiry', at: v.link.expiresAt });
  if (v.stage === 'sms-sent' && v.codeExpiresAt !== null) out.push({ kind: 'sms-code-expiry', at: v.codeExpiresAt });
  if (v.stage === 'sms-sent' && v.resendAvailableAt !== null && Date.parse(v.resendAvailableAt) > now) out.push({ kind: 'sms-resend', at: v.resendAvailableAt });
  if (v.route.route === 'sms-fallback' && v.route.fallbackUntil !== null && v.stage !== 'verified') out.push({ kind: 'fallback-window', at: v.route.fallbackUntil });
  return out;
}

/** The verification commands the nurse may use at this stage. */
export function verificationNextActions(v: VerificationData | null): VerificationAction[] {
  if (v === null || v.stage === 'verified') return [];
  const out: VerificationAction[] = [];
  const fp = v.route.fingerprintAllowed;
  const sms = v.route.smsAllowed;
  const whitelist = v.route.whitelistAdvised || v.failedAttempts >= MAX_CODE_FAILURES || v.stage === 'rejected';
  switch (v.stage) {
    case 'ready':
      if (fp) out.push('consent.startFingerprint');
      if (sms) out.push('consent.sendSms');
      break;
    case 'sms-sent':
      // After three wrong codes no more are tried (the escape: the fingerprint, or SHA's permission).
      if (v.failedAttempts < MAX_CODE_FAILURES) out.push('consent.confirmSms', 'consent.sendSms');
      if (fp) out.push('consent.startFingerprint');
      break;
    case 'awaiting-fingerprint':
      if (sms) out.push('consent.sendSms');
      break;
    case 'rejected':
    case 'expired':
    case 'cancelled':
      out.push('consent.retry');
      if (fp) out.push('consent.startFingerprint');
      if (sms) out.push('consent.sendSms');
      break;
    case 'blocked':
      break;
  }
  out.push('consent.cancel');
  if (whitelist && v.whitelist === null) out.push('consent.requestWhitelist');
  return out;
}

// ---------------------------------------------------------------- the commands

function requireStep<W extends AnyWorkflow>(host: VerificationHost<W>, wf: W): VerificationData {
  host.assertTakingConsent(wf);
  const v = host.step(wf);
  if (v === null) fail('WRONG_STATE', 'This workflow is not taking consent now.', { state: wf.state });
  return v;
}

function biometricFields(ctx: Ctx): BiometricFields {
  const s = ctx.settings.values;
  const missing = (['agentNationalId', 'facilityCode', 'facilityName'] as const).filter((k) => s[k] === null);
  if (missing.length > 0) {
    fail('SETTINGS_MISSING', 'Fill in the facility’s settings before taking fingerprints.', { issues: missing.map((field) => ({ field, message: 'is missing' })) });
  }
  const workstation = ctx.readers.workstationId();
  if (workstation === undefined || workstation.trim() === '') {
    fail('HARDWARE_SERVICE_NOT_RUNNING', 'Neither the exchange’s hardware service nor the station’s device service is running: fingerprints cannot be taken.');
  }
  return {
    agent_id: s.agentNationalId!,
    work_station_id: workstation,
    authorizing_device_os: ctx.deviceOs,
    ekyc_provider_id: s.facilityName!,
    provider: s.facilityCode!,
  };
}

async function run<W extends AnyWorkflow, T>(ctx: Ctx, wf: W, spec: CallSpec<T>, refused?: (error: ReturnType<typeof makeError>, cause: unknown) => void): Promise<void> {
  const client = ctx.session.client();
  await ctx.engine.send(wf, { operation: spec.operation, request: spec.request, send: () => spec.send(client), settle: spec.settle, refused });
}

export async function startFingerprint<W extends AnyWorkflow>(ctx: Ctx, host: VerificationHost<W>, wf: W): Promise<void> {
  const v = requireStep(host, wf);
  reroute(ctx, v, {});
  if (!v.route.fingerprintAllowed || host.fingerprintCall === undefined) {
    fail(v.route.route === 'blocked' ? 'FALLBACK_WINDOW_CLOSED' : 'WRONG_STATE', 'Consent cannot be taken by fingerprint here.', { state: v.route.reason });
  }
  verificationNext(v.stage, 'fingerprintStarted');
  const bio = biometricFields(ctx);
  // A fingerprint request of this step still open at the exchange is withdrawn first.
  if (v.stage === 'awaiting-fingerprint') await rejectPending(ctx, wf, v);
  const spec = host.fingerprintCall(ctx, wf, bio);
  /** A request the exchange made but gave no usable link for: rejected at once, so it blocks nothing. */
  let linkless: string | null = null;
  try {
    await run(
      ctx,
      wf,
      {
        ...spec,
        settle: (a) => {
          spec.settle(a);
          ctx.scrubber.add(a.token);
          ctx.scrubber.add(a.guid);
          ctx.scrubber.add(a.dischargeAuthGuid);
          v.attempt = 'fingerprint';
          v.fingerprintAttempts = (v.fingerprintAttempts ?? 0) + 1;
          // An AUTHORIZED answer needs no page (the open visit's record, R WORKFLOWS §9): whatever it carries is no link.
          const url = a.verificationUrl !== undefined && /^https?:\/\//i.test(a.verificationUrl) ? a.verificationUrl : undefined;
          if (a.status !== 'AUTHORIZED' && url === undefined) {
            linkless = a.token ?? a.guid ?? null;
            wf.lastError = makeError('EXCHANGE_ERROR', 'The exchange sent no link for the fingerprint page.');
            ctx.engine.save(wf);
            return;
          }
          if (url !== undefined) ctx.scrubber.add(new URL(url).searchParams.get('t'));
          v.authToken = a.token ?? null;
          v.authGuid = a.dischargeAuthGuid ?? a.guid ?? null;
          // The page's time limit is the authorization's own expiry; embedExpiry is the embedded
          // token's lifetime in seconds (120, or 0), not a date.
          v.link = url === undefined ? null : { handle: ctx.newId('lk'), url: url.slice(0, 2000), expiresAt: expiryOf(ctx, a.expiry) };
          v.checkedAt = ctx.nowIso();
          wf.lastError = null;
          move(v, 'fingerprintStarted');
          if (a.status === 'AUTHORIZED') verifiedBy(ctx, host, wf, v, 'fingerprint');
          ctx.engine.save(wf);
        },
      },
      (error, cause) => {
        if (isExchangeError(cause) && cause.code === 'BIOMETRICS_NOT_FOUND_OTP_ALLOWED') {
          const until = fallbackUntilOf(cause.details) ?? ctx.clock.now() + 15 * 60_000;
          const ref = host.patientRef(wf);
          if (ref !== null) ctx.patients.markUnusable(ref, until);
          reroute(ctx, v, { unusableUntil: until });
          v.attempt = 'fingerprint';
          v.fingerprintAttempts = (v.fingerprintAttempts ?? 0) + 1;
          wf.lastError = null;
          ctx.engine.save(wf);
          ctx.engine.audit({ action: 'consent.fingerprintsUnusable', workflowId: wf.id, workflowKind: wf.kind, outcome: 'succeeded', summary: `route now ${v.route.route} (${v.route.reason})` });
        } else {
          wf.lastError = error;
          ctx.engine.save(wf);
        }
      },
    );
  } catch (error) {
    // Unusable fingerprints are an answer (the route changed), not a failure of the command.
    if (error instanceof StationFailure && error.error.details?.exchangeCode === 'BIOMETRICS_NOT_FOUND_OTP_ALLOWED') return;
    throw error;
  }
  if (linkless !== null) {
    await rejectByToken(ctx, wf, linkless).catch(() => undefined);
    fail('EXCHANGE_ERROR', 'The exchange sent no link for the fingerprint page; the request was withdrawn: start the fingerprint again.');
  }
  if (v.stage === 'awaiting-fingerprint') schedulePoll(ctx, host, wf.id, 0);
  else if (v.stage === 'verified') await host.afterVerified?.(ctx, wf);
}

export async function sendSms<W extends AnyWorkflow>(ctx: Ctx, host: VerificationHost<W>, wf: W, contactId: string | undefined): Promise<void> {
  const v = requireStep(host, wf);
  reroute(ctx, v, {});
  if (!v.route.smsAllowed) {
    const code: ErrorCode =
      v.route.reason === 'fallback-window-closed' ? 'FALLBACK_WINDOW_CLOSED' : v.route.reason === 'no-phone' || v.route.reason === 'no-phone-no-fingerprints' ? 'NO_CONTACT' : 'BIOMETRICS_REQUIRED';
    fail(code, code === 'NO_CONTACT' ? 'The patient has no phone number to send a code to.' : code === 'FALLBACK_WINDOW_CLOSED' ? 'The time for an SMS code after unusable fingerprints has ended.' : 'This facility requires the patient’s fingerprint.');
  }
  verificationNext(v.stage, 'smsSent');
  const now = ctx.clock.now();
  if (v.stage === 'sms-sent' && v.resendAvailableAt !== null && Date.parse(v.resendAvailableAt) > now) {
    fail('OTP_RESEND_TOO_SOON', 'Wait a moment before sending the code again.', { retryAt: v.resendAvailableAt });
  }
  let contact: SmsContact | null = null;
  if (v.contacts.length > 0) {
    const wanted = contactId ?? v.selectedContactId ?? undefined;
    contact = v.contacts.find((c) => c.contactId === wanted) ?? null;
    if (contact === null) fail('VALIDATION', 'The patient has no such contact.', { field: 'contactId' });
  }
  // A stale PENDING fingerprint request blocks SMS consent at the exchange: reject it first.
  if (v.stage === 'awaiting-fingerprint') await rejectPending(ctx, wf, v);
  let blockingToken: string | undefined;
  const attempt = async (retrying: boolean): Promise<void> => {
    const spec = host.codeCall(ctx, wf, contact);
    try {
      await run(
        ctx,
        wf,
        {
          ...spec,
          settle: (sent) => {
            spec.settle(sent);
            const at = ctx.clock.now();
            v.selectedContactId = contact?.contactId ?? v.selectedContactId;
            v.sentTo = maskContact(sent.contact ?? contact?.masked);
            v.sentAt = new Date(at).toISOString();
            v.codeExpiresAt = new Date(at + (sent.expiresInSeconds !== undefined ? sent.expiresInSeconds * 1000 : ctx.timing.smsCodeTtlMs)).toISOString();
            v.resendAvailableAt = new Date(at + ctx.timing.smsResendCooldownMs).toISOString();
            v.smsUsed = true;
            v.codeLength = learnedCodeLength(ctx);
            v.attempt = 'sms';
            v.code = null;
            wf.lastError = null;
            move(v, 'smsSent');
            ctx.engine.save(wf);
          },
        },
        (error, cause) => {
          blockingToken = pendingTokenOf(cause);
          wf.lastError = error;
          ctx.engine.save(wf);
        },
      );
    } catch (error) {
      // A PENDING fingerprint request from elsewhere (another station, before a restart) blocks
      // the code: the exchange names it in its 409, the station rejects it and sends once more.
      if (!retrying && error instanceof StationFailure && error.error.code === 'PENDING_AUTHORIZATION_BLOCKS_OTP' && blockingToken !== undefined) {
        await rejectByToken(ctx, wf, blockingToken);
        return attempt(true);
      }
      throw error;
    }
  };
  await attempt(false);
}

export async function confirmSms<W extends AnyWorkflow>(ctx: Ctx, host: VerificationHost<W>, wf: W, code: string): Promise<void> {
  const v = requireStep(host, wf);
  if (v.stage !== 'sms-sent') fail('WRONG_STATE', 'Send the SMS code first.', { state: v.stage });
  if (v.failedAttempts >= MAX_CODE_FAILURES) fail('WRONG_STATE', 'Three wrong codes: no more codes are tried. Take the fingerprint, or ask SHA to allow this patient SMS codes.', { state: v.stage });
  ctx.scrubber.add(code.length >= 4 ? code : undefined);
  const use = host.confirm(ctx, wf, code);
  if ('keptForNextCall' in use) {
    // Kept for the next call (discharge, submit): the exchange checks it there.
    ctx.engine.commit(() => {
      v.code = code;
      verifiedBy(ctx, host, wf, v, 'sms');
      ctx.engine.save(wf);
    });
    await host.afterVerified?.(ctx, wf);
    return;
  }
  if ('opensVisit' in use) {
    // Held (sealed) for the visit, which SHA answers with the consent: not verified before then.
    ctx.engine.commit(() => {
      v.code = code;
      wf.lastError = null;
      ctx.engine.save(wf);
    });
    await host.openVisitWithCode?.(ctx, wf);
    return;
  }
  let verified = false;
  try {
    await use.spentBy((spec) =>
      run(
        ctx,
        wf,
        {
          ...spec,
          settle: (result) => {
            spec.settle(result);
            v.codeSpentUnconfirmed = false;
            verifiedBy(ctx, host, wf, v, 'sms');
            verified = true;
            ctx.engine.save(wf);
          },
        },
        (error) => codeRefused(ctx, wf, v, error),
      ),
    );
  } catch (error) {
    // Refused as used after its spending went unanswered: the step says why (codeRefused), not "wrong code".
    if (error instanceof StationFailure && error.error.code === 'OTP_INVALID' && wf.lastError?.code === 'OUTCOME_UNKNOWN') throw new StationFailure(wf.lastError);
    throw error;
  }
  if (verified) await host.afterVerified?.(ctx, wf);
}

const UNKNOWN_SMS = 'SHA did not confirm that the SMS code was sent: if the patient received a code, type it; if not, send the code again.';
const UNKNOWN_AUTHORIZE = 'SHA did not confirm the fingerprint request: start the fingerprint again (or send an SMS code where allowed, which withdraws any request left open).';
const WITHDRAWN_AUTHORIZE = 'SHA did not confirm the fingerprint request; the request it had made was withdrawn so that it blocks nothing: start the fingerprint again.';
const UNKNOWN_SPENT_CODE =
  'SHA did not confirm the SMS code: it may have accepted it, so the same code will now be refused as used. No look-up finds the consent without SHA’s answer: send a new code only if the patient agrees to consent again.';

/** The step's own calls; a workflow's other calls are its kind's (kinds.ts). */
const STEP_OPERATIONS: ReadonlySet<string> = new Set(
  [journal.sendOtp, journal.sendDischargeOtp, journal.authorizeOtp, journal.authorizeBiometric, journal.authorizeDischarge, journal.requestOtpWhitelist, journal.rejectAuthorization].map((e) => e.name),
);
const FINGERPRINT_REQUESTS: ReadonlySet<string> = new Set([journal.authorizeBiometric.name, journal.authorizeDischarge.name]);

export function isStepCall(call: CallRecord): boolean {
  return STEP_OPERATIONS.has(call.operation);
}

/** A fingerprint request whose answer never came: no link came with it, so the step offers to start again. */
function fingerprintRequestUnconfirmed(v: VerificationData, wf: AnyWorkflow, message: string): void {
  if (v.stage === 'verified') return;
  v.attempt = 'fingerprint';
  v.fingerprintAttempts = (v.fingerprintAttempts ?? 0) + 1;
  v.link = null;
  if (v.stage === 'awaiting-fingerprint' || v.stage === 'ready') v.stage = verificationNext(v.stage, 'cancel');
  wf.lastError = makeError('OUTCOME_UNKNOWN', message);
}

/**
 * In the transaction that journals a step call's outcome unknown: what the step shows while it is
 * not known. A fingerprint request perhaps made offers to start again, while the request SHA may
 * hold is looked for (`withdrawStrayRequests`). The step never shows the outcome itself here: the
 * command answers OUTCOME_UNKNOWN unless the call's policy settles it.
 */
export function stepMeanwhile<W extends AnyWorkflow>(ctx: Ctx, host: VerificationHost<W>, wf: W, call: CallRecord): boolean {
  const v = host.step(wf);
  if (v !== null && FINGERPRINT_REQUESTS.has(call.operation)) {
    fingerprintRequestUnconfirmed(v, wf, UNKNOWN_AUTHORIZE);
    ctx.engine.save(wf);
  }
  return false;
}

/**
 * A step call whose answer is not known and which nothing can look up (its policy is
 * `cannot-look-up`): it is never sent again. The step says what the station knows and offers the
 * one safe next step — a code perhaps sent: type it if it came, else send again; a code perhaps
 * spent: a refusal of it as used is not counted as a wrong code; a fingerprint request perhaps made
 * (journaled so before the facility's list was used to find it): start again. In the caller's
 * transaction. Answers whether the step shows it (a code perhaps sent: the command answers the
 * step), or the command must say OUTCOME_UNKNOWN.
 */
export function settleUnknowable<W extends AnyWorkflow>(ctx: Ctx, host: VerificationHost<W>, wf: W, call: CallRecord): boolean {
  const v = host.step(wf);
  const stopped = call.status === 'started';
  const summary = `${call.operation}: ${stopped ? 'the station stopped before its answer was recorded' : 'its answer was lost or unreadable'}; not sent again`;
  ctx.engine.reconciled(call, summary, wf);
  if (v === null) return false;
  const sms = call.operation === journal.sendOtp.name || call.operation === journal.sendDischargeOtp.name;
  let shown = false;
  if (sms && (v.stage === 'ready' || v.stage === 'sms-sent' || v.stage === 'cancelled' || v.stage === 'rejected' || v.stage === 'expired' || v.stage === 'awaiting-fingerprint')) {
    const at = ctx.clock.now();
    v.sentAt = new Date(at).toISOString();
    v.codeExpiresAt = new Date(at + ctx.timing.smsCodeTtlMs).toISOString();
    // Sending again is the way on if no code came: no cooldown for a send SHA never confirmed.
    v.resendAvailableAt = v.sentAt;
    v.smsUsed = true;
    v.attempt = 'sms';
    v.codeLength = learnedCodeLength(ctx);
    if (v.stage !== 'sms-sent') v.stage = 'sms-sent';
    wf.lastError = makeError('OUTCOME_UNKNOWN', UNKNOWN_SMS);
    shown = true;
  } else if (FINGERPRINT_REQUESTS.has(call.operation)) {
    fingerprintRequestUnconfirmed(v, wf, UNKNOWN_AUTHORIZE);
  } else if (call.operation === journal.authorizeOtp.name && v.stage !== 'verified') {
    v.codeSpentUnconfirmed = true;
    wf.lastError = makeError('OUTCOME_UNKNOWN', UNKNOWN_SPENT_CODE);
  } else if (call.operation === journal.requestOtpWhitelist.name) {
    wf.lastError = makeError('OUTCOME_UNKNOWN', 'SHA did not confirm the whitelist request: ask SHA before requesting it again.');
  } else {
    wf.lastError = makeError('OUTCOME_UNKNOWN', stopped ? 'The station stopped before SHA’s answer to the last request was recorded: check the screen and try again.' : 'SHA’s answer to the last request was lost: check the screen and try again.');
  }
  ctx.engine.save(wf);
  return shown;
}

/**
 * A fingerprint request whose answer never came (journaled `look-up`): SHA may hold it PENDING,
 * which blocks the patient's SMS consent until it expires. The facility's authorizations list
 * (`consent.listFacilityAuthorizations`, the list R's WORKFLOWS names for finding "a dangling
 * PENDING one") shows it: the patient's rows (`beneficiaryCode`) still PENDING, made at this
 * workstation (`workStationId`) for the request's intervention, that no workflow of this station
 * is waiting on, are rejected by their `token`. Right after the answer was lost (`atOnce`), a
 * request that was only slow may not have reached SHA yet: finding none leaves the call open for
 * the look after the grace period, where finding none settles it.
 */
export async function withdrawStrayRequests<W extends AnyWorkflow>(ctx: Ctx, host: VerificationHost<W>, wf: W, call: CallRecord, atOnce: boolean): Promise<void> {
  const r = call.request;
  const patientId = typeof r.patient_id === 'string' ? r.patient_id : null;
  const interventions = Array.isArray(r.interventions) ? r.interventions.filter((c): c is string => typeof c === 'string') : [];
  const rows = patientId === null ? [] : await ctx.session.client().consent.listFacilityAuthorizations({});
  // Requests a workflow of this station is waiting on (this one's, started again since) are not strays.
  const awaited = new Set(ctx.engine.all().flatMap((other) => ('verification' in other.data ? [other.data.verification.authToken, other.data.verification.authGuid] : [])));
  const stray = rows.filter(
    (a) =>
      a.patientId === patientId &&
      a.status === 'PENDING' &&
      a.token !== undefined &&
      !awaited.has(a.token) &&
      (a.guid === undefined || !awaited.has(a.guid)) &&
      (a.workStationId === undefined || a.workStationId === r.work_station_id) &&
      (a.interventions.length === 0 || a.interventions.some((c) => interventions.includes(c))),
  );
  if (stray.length === 0 && atOnce) return;
  for (const a of stray) {
    try {
      await rejectByToken(ctx, wf, a.token!, 'a PENDING fingerprint request whose answer was lost was rejected');
    } catch (error) {
      // No longer PENDING (matched, expired, closed meanwhile): nothing of it is left to withdraw.
      if (!(error instanceof StationFailure) || error.error.code === 'OUTCOME_UNKNOWN') throw error;
    }
  }
  const v = host.step(wf);
  ctx.engine.commit(() => {
    // The station stopped before the answer: the step is told now what it would have been told then.
    if (call.status === 'started' && v !== null) fingerprintRequestUnconfirmed(v, wf, UNKNOWN_AUTHORIZE);
    if (stray.length > 0 && v !== null && v.stage !== 'verified') wf.lastError = makeError('OUTCOME_UNKNOWN', WITHDRAWN_AUTHORIZE);
    const outcome = call.status === 'started' ? 'the station stopped before its answer was recorded' : 'its answer was lost or unreadable';
    ctx.engine.reconciled(call, `${call.operation}: ${outcome}; ${stray.length === 0 ? 'SHA lists no request of it PENDING' : `the PENDING request SHA lists was rejected (${stray.length})`}; not sent again`, wf);
    ctx.engine.save(wf);
  });
}

/**
 * A rejection of a fingerprint request whose answer was lost (`send-again`): sent again, harmless
 * to repeat. Already rejected, expired or authorized, the look-up tells; the step's request is
 * withdrawn (a stray one found elsewhere leaves the step as it is).
 */
export async function rejectAgain<W extends AnyWorkflow>(ctx: Ctx, host: VerificationHost<W> | null, wf: W, call: CallRecord): Promise<void> {
  const token = typeof call.request.token === 'string' ? call.request.token : undefined;
  if (token !== undefined) {
    try {
      await ctx.session.client().consent.rejectAuthorization({ token });
    } catch (error) {
      if (isExchangeError(error) && (error.outcomeUnknown || error.kind === 'network' || error.kind === 'timeout' || error.kind === 'server')) throw error;
    }
  }
  ctx.engine.reconciled(call, 'the fingerprint request is rejected', wf);
  const v = host?.step(wf);
  if (v !== null && v !== undefined && v.stage === 'awaiting-fingerprint' && call.request.stale !== true) {
    ctx.engine.commit(() => {
      v.stage = verificationNext(v.stage, 'cancel');
      v.authToken = null;
      v.authGuid = null;
      v.link = null;
      ctx.engine.save(wf);
    });
  }
}

/** A code the exchange refused: counted, and after three the escape hatch is offered. */
export function codeRefused(ctx: Ctx, wf: AnyWorkflow, v: VerificationData, error: ReturnType<typeof makeError>): void {
  if (error.code === 'OTP_INVALID' && v.codeSpentUnconfirmed === true) {
    // The code may have been spent by the request whose answer was lost: not the nurse's mistake.
    wf.lastError = makeError('OUTCOME_UNKNOWN', UNKNOWN_SPENT_CODE);
  } else if (error.code === 'OTP_INVALID') {
    v.failedAttempts += 1;
    const attemptsLeft = Math.max(0, MAX_CODE_FAILURES - v.failedAttempts);
    wf.lastError = makeError('OTP_INVALID', error.message, { ...error.details, attemptsLeft });
  } else {
    wf.lastError = error;
  }
  ctx.engine.save(wf);
}

export async function cancel<W extends AnyWorkflow>(ctx: Ctx, host: VerificationHost<W>, wf: W): Promise<void> {
  const v = requireStep(host, wf);
  if (v.stage === 'awaiting-fingerprint') {
    try {
      await rejectPending(ctx, wf, v);
    } catch (error) {
      // Not pending any more: it may have been authorized meanwhile; the look-up says which.
      if (error instanceof StationFailure && error.error.code === 'WRONG_STATE') {
        await pollNow(ctx, host, wf);
        return;
      }
      throw error;
    }
    return;
  }
  if (v.stage === 'sms-sent') {
    ctx.engine.commit(() => {
      move(v, 'cancel');
      ctx.engine.save(wf);
    });
    return;
  }
  ctx.engine.commit(() => host.cancelWorkflow(ctx, wf));
}

export async function retry<W extends AnyWorkflow>(ctx: Ctx, host: VerificationHost<W>, wf: W): Promise<void> {
  const v = requireStep(host, wf);
  if (v.stage !== 'rejected' && v.stage !== 'expired' && v.stage !== 'cancelled') fail('WRONG_STATE', 'Nothing to retry.', { state: v.stage });
  if (v.attempt === 'sms' && v.route.smsAllowed) return sendSms(ctx, host, wf, undefined);
  return startFingerprint(ctx, host, wf);
}

export async function requestWhitelist<W extends AnyWorkflow>(
  ctx: Ctx,
  host: VerificationHost<W>,
  wf: W,
  patientId: string | null,
  reasonType: NonNullable<VerificationData['whitelist']>['reasonType'],
  reasonText: string | undefined,
  document?: WhitelistDocument,
): Promise<void> {
  const v = requireStep(host, wf);
  if (patientId === null) fail('WRONG_STATE', 'There is no patient to whitelist here.', { state: v.stage });
  if (v.whitelist !== null && v.whitelist.status === 'pending') fail('WRONG_STATE', 'A whitelist request is already waiting.', { state: 'pending' });
  const text = reasonText?.trim() ?? '';
  if (reasonType === 'OTHER' && text === '') fail('VALIDATION', 'Say why, when the reason is OTHER.', { field: 'reasonText' });
  const facilityCode = ctx.settings.values.facilityCode;
  if (facilityCode === null) fail('SETTINGS_MISSING', 'Fill in the facility’s code before asking for a whitelist.', { issues: [{ field: 'facilityCode', message: 'is missing' }] });
  const request = {
    beneficiary_cr_id: patientId,
    reason_type: reasonType,
    // The exchange wants the reason in words too: the nurse's, else the reason's own name.
    reason: text === '' ? wordsOf(reasonType) : text,
    biometric_attempts: v.fingerprintAttempts ?? 0,
    facility_fr_code: facilityCode,
  };
  // The type is left to the client's default: SHA publishes one (V's SUPPORT_DOCUMENT).
  const attachment =
    document === undefined ? undefined : { document_title: document.title, file: { file_name: document.fileName, content_type: document.contentType, data: Buffer.from(document.dataBase64, 'base64') } };
  await run(ctx, wf, {
    operation: journal.requestOtpWhitelist,
    // The journal names the paper; it never holds its bytes.
    request: attachment === undefined ? request : { ...request, attachment: { document_title: attachment.document_title, file_name: attachment.file.file_name, bytes: attachment.file.data.length } },
    send: (client) => client.consent.requestOtpWhitelist(attachment === undefined ? request : { ...request, attachment }),
    settle: (w) => {
      v.whitelist = { status: 'pending', reasonType, requestedAt: ctx.nowIso(), guid: w.guid };
      wf.lastError = null;
      ctx.engine.save(wf);
    },
  });
  scheduleWhitelistPoll(ctx, host, wf.id, patientId);
}

/** CHILD_BELOW_7_YEARS → "Child below 7 years". */
function wordsOf(reasonType: string): string {
  const words = reasonType.toLowerCase().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

// ---------------------------------------------------------------- polling

/** Looks the pending fingerprint request up every few seconds until it is decided or expires. */
export function schedulePoll<W extends AnyWorkflow>(ctx: Ctx, host: VerificationHost<W>, workflowId: string, delayMs = ctx.timing.authorizationPollMs): void {
  ctx.engine.repeat('poll', workflowId, delayMs, (wf) => pollOnce(ctx, host, wf as W), ctx.timing.authorizationPollMs);
}

/** One look-up now; answers when to look again (null: decided, or nothing pending). */
export async function pollOnce<W extends AnyWorkflow>(ctx: Ctx, host: VerificationHost<W>, wf: W): Promise<RepeatAgain> {
  const v = host.step(wf);
  if (v === null || v.stage !== 'awaiting-fingerprint' || (v.authToken === null && v.authGuid === null)) return null;
  const linkExpired = v.link !== null && Date.parse(v.link.expiresAt) <= ctx.clock.now();
  let status: string;
  try {
    const record = await ctx.session.client().consent.getAuthorization({ ...(v.authToken === null ? {} : { token: v.authToken }), ...(v.authGuid === null ? {} : { guid: v.authGuid }) });
    status = record.status;
  } catch (error) {
    if (linkExpired) status = 'EXPIRED';
    else {
      ctx.log.info({ workflowId: wf.id, errorKind: isExchangeError(error) ? error.kind : 'internal' }, 'fingerprint look-up did not answer; trying again');
      return ctx.timing.authorizationPollMs;
    }
  }
  if (status === 'PENDING' && linkExpired) status = 'EXPIRED';
  let after = false;
  ctx.engine.commit(() => {
    v.checkedAt = ctx.nowIso();
    if (status === 'AUTHORIZED' || status === 'AUTHORIZED_PENDING_VISIT' || status === 'AUTHORIZED_MULTISESSION') {
      verifiedBy(ctx, host, wf, v, 'fingerprint');
      after = true;
    } else if (status === 'REJECTED') {
      move(v, 'rejected');
      wf.lastError = makeError('AUTHORIZATION_REJECTED', 'The fingerprints did not match (or the request was rejected).');
    } else if (status === 'EXPIRED' || status === 'CLOSED') {
      move(v, 'expired');
      wf.lastError = makeError('AUTHORIZATION_EXPIRED', 'The fingerprint request expired before the patient’s finger matched.');
    }
    ctx.engine.save(wf);
  });
  if (after) await host.afterVerified?.(ctx, wf);
  return v.stage === 'awaiting-fingerprint' ? ctx.timing.authorizationPollMs : null;
}

/** A look-up now, and the poll going on from it while the request is still pending. */
export async function pollNow<W extends AnyWorkflow>(ctx: Ctx, host: VerificationHost<W>, wf: W): Promise<void> {
  const again = await pollOnce(ctx, host, wf);
  if (again !== null) schedulePoll(ctx, host, wf.id, again);
}

/**
 * The authorization page says the patient is done (a frame message, or the nurse's "Check now"):
 * the look-up goes out at once instead of at the next poll. Only the exchange's answer decides;
 * with nothing pending there is nothing to look up.
 */
export async function checkFingerprint<W extends AnyWorkflow>(ctx: Ctx, host: VerificationHost<W>, wf: W): Promise<void> {
  if (host.step(wf)?.stage !== 'awaiting-fingerprint') return;
  await pollNow(ctx, host, wf);
}

function scheduleWhitelistPoll<W extends AnyWorkflow>(ctx: Ctx, host: VerificationHost<W>, workflowId: string, patientId: string): void {
  ctx.engine.repeat(
    'whitelist',
    workflowId,
    ctx.timing.preauthPollMs,
    async (wf) => {
      const v = host.step(wf as W);
      if (v === null || v.whitelist === null || v.whitelist.status !== 'pending') return null;
      const facilityCode = ctx.settings.values.facilityCode;
      const answer = await ctx.session
        .client()
        .consent.otpWhitelistStatus({ beneficiary_cr_id: patientId, guid: v.whitelist.guid, ...(facilityCode === null ? {} : { facility_fr_code: facilityCode }) });
      // The page lists the patient's requests: this one is found by its guid (not listed yet: still pending).
      const mine = answer.items.find((w) => w.guid === v.whitelist!.guid);
      const status = mine?.status === 'APPROVED' ? 'approved' : mine?.status === 'REJECTED' ? 'rejected' : 'pending';
      if (status === 'pending') return ctx.timing.preauthPollMs;
      ctx.engine.commit(() => {
        v.whitelist = { ...v.whitelist!, status };
        if (status === 'approved') {
          const ref = host.patientRef(wf as W);
          if (ref !== null) ctx.patients.markWhitelisted(ref);
          reroute(ctx, v, { whitelisted: true });
          // SHA's permission is the way on after three wrong codes: new codes may be tried, and a new
          // one sent at once (the code the three tries spent is no reason to wait).
          v.failedAttempts = 0;
          v.resendAvailableAt = null;
        }
        ctx.engine.save(wf);
      });
      return null;
    },
    ctx.timing.preauthPollMs,
  );
}

// ---------------------------------------------------------------- helpers

/** The length of the codes the exchange accepted here, else the documented six. */
function learnedCodeLength(ctx: Ctx): number {
  const learned = Number(ctx.settings.memo(SMS_CODE_LENGTH_MEMO));
  return Number.isInteger(learned) && learned >= 4 && learned <= 8 ? learned : DEFAULT_SMS_CODE_LENGTH;
}

function verifiedBy<W extends AnyWorkflow>(ctx: Ctx, host: VerificationHost<W>, wf: W, v: VerificationData, method: 'sms' | 'fingerprint'): void {
  move(v, 'verified');
  v.method = method;
  wf.lastError = null;
  ctx.engine.cancelRepeat('poll', wf.id);
  host.onVerified(ctx, wf);
}

/** Rejects this step's pending fingerprint request at the exchange. */
async function rejectPending(ctx: Ctx, wf: AnyWorkflow, v: VerificationData): Promise<void> {
  const token = v.authToken ?? v.authGuid;
  ctx.engine.cancelRepeat('poll', wf.id);
  if (token === null) {
    ctx.engine.commit(() => {
      move(v, 'cancel');
      ctx.engine.save(wf);
    });
    return;
  }
  await ctx.engine.send(wf, {
    operation: journal.rejectAuthorization,
    request: { token },
    send: () => ctx.session.client().consent.rejectAuthorization({ token }),
    settle: () => {
      move(v, 'cancel');
      v.authToken = null;
      v.authGuid = null;
      v.link = null;
      ctx.engine.save(wf);
    },
  });
}

/** Rejects a PENDING fingerprint request no step of this workflow holds (`stale`: the step is left as it is); audited with why. */
export async function rejectByToken(ctx: Ctx, wf: AnyWorkflow, token: string, why = 'a PENDING fingerprint request blocking the SMS code was rejected'): Promise<void> {
  ctx.scrubber.add(token);
  await ctx.engine.send(wf, {
    operation: journal.rejectAuthorization,
    request: { token, stale: true },
    send: () => ctx.session.client().consent.rejectAuthorization({ token }),
    settle: () => ctx.engine.audit({ action: 'consent.staleAuthorizationRejected', workflowId: wf.id, workflowKind: wf.kind, outcome: 'succeeded', summary: why }),
  });
}

/** The token of the PENDING authorization named by the exchange's 409 PENDING_AUTHORIZATION_EXISTS (details[0].token). */
function pendingTokenOf(cause: unknown): string | undefined {
  if (!isExchangeError(cause) || cause.code !== 'PENDING_AUTHORIZATION_EXISTS') return undefined;
  return cause.details?.map((d) => d.token).find((t): t is string => typeof t === 'string' && t.length > 0);
}

function fallbackUntilOf(details: readonly Record<string, unknown>[] | undefined): number | undefined {
  for (const d of details ?? []) {
    const value = d.otp_allowed_until;
    if (typeof value === 'string' && !Number.isNaN(Date.parse(value))) return Date.parse(value);
  }
  return undefined;
}

function expiryOf(ctx: Ctx, value: string | undefined): string {
  const parsed = value === undefined ? Number.NaN : Date.parse(value);
  return new Date(Number.isNaN(parsed) ? ctx.clock.now() + DEFAULT_LINK_TTL_MS : parsed).toISOString();
}

