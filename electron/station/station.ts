// createStation: the station core behind one StationBridge. Every call is checked with
// validateInvoke, answered through checkOutput, and every event pushed through checkEvent, so the
// core itself cannot hand the renderer anything outside the contract. Commands on one workflow run
// one at a time. Someone is always answerable: the station opens with a staff member's PIN (in
// training as the demo "Training nurse"), and while locked — idle, by hand, or nobody signed in yet —
// every command but station.*, settings.get and the first administrator's staff.add answers LOCKED.
// What decides where secrets go is the administrator's (access.ts).
import type { Logger } from 'pino';
import {
  checkEvent,
  checkOutput,
  contractVersion,
  makeError,
  validateInvoke,
  type CommandName,
  type CommandOutcome,
  type Invocation,
  type StationBridge,
  type StationEvent,
  type StationStatus,
  type ValidInput,
  type WorkflowView,
} from '../contract';
import { administratorChanges, TRAINING_NURSE } from './access';
import { AuditLog } from './audit';
import { openDatabase, type Db } from './db';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { defaultRandomId, defaultTiming, deviceOsOf, systemClock, type StationDeps } from './deps';
import { fail, StationFailure, toStationError } from './errors';
import { createStationLogger } from './logging';
import { PatientDirectory } from './patients';
import { noReaders, type ReadersFacade } from './readers';
import { loadSealer } from './sealing';
import { ExchangeSession } from './session';
import { exchangeUrlAllowed } from './provisioning';
import { exchangeOriginOf, SettingsStore } from './settings';
import { PinGuard, StaffRegistry, type StaffMember } from './staff';
import { beginConsent, consentView } from './workflows/consent';
import type { Ctx } from './workflows/context';
import { beginDischarge, cancelDischarge, closeVisit, dischargeView } from './workflows/discharge';
import { beginElective, cancelPreauth, electiveView, openElectiveVisit, refreshPreauth, resendDoctorRequest, submitPreauth } from './workflows/elective';
import { addProtocol, createEmergency, emergencyView, identifyPatient, listProtocols, requestDoctorApproval, resendClaim, submitEmergency } from './workflows/emergency';
import { Engine, OutcomeUnknown } from './workflows/engine';
import { hostOf, resumeAll, resumeSoon, resumeWorkflow } from './workflows/recovery';
import type { AnyWorkflow, ConsentWorkflow, VisitWorkflow, WorkflowOf } from './workflows/types';
import * as verification from './workflows/verification';
import { addLine, attachDoctor, openVisit, previewVisit, removeLine, visitView } from './workflows/visit';
import { ActivityView } from './views/activity';
import { selectWorkflows, WorkQueue } from './views/work-queue';

export interface Station {
  /** The contract the shells expose to the renderer. */
  readonly bridge: StationBridge;
  /** Opens the database, resumes and reconciles unfinished workflows. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** For the shell's system events (screen locked, suspend): locks as station.lock does. */
  lock(reason: 'idle' | 'manual' | 'system'): void;
  /**
   * The core's logger: the shell's lines written through it (`station.log.child({component: 'shell'})`)
   * get the same redaction and the same scrubber, which knows every secret the core has seen.
   */
  readonly log: Logger;
  /** The authorization link behind a handle, for the Electron shell's own view (null when not pending). */
  authorizationLink(handle: string): { url: string; expiresAt: string; allowedOrigins: string[] } | null;
  /**
   * A launcher's sign-in of the facility with credentials it read itself (station:web's secret file):
   * not on the bridge, so nothing in the station window can call it.
   */
  signInFacility(credentials: { clientId: string; clientSecret: string }): Promise<void>;
}

type Handlers = { [N in CommandName]: (input: ValidInput<N>) => Promise<unknown> };

export function createStation(deps: StationDeps): Station {
  const clock = deps.clock ?? systemClock;
  const timing = { ...defaultTiming, ...deps.timing };
  const randomId = deps.randomId ?? defaultRandomId;
  const readers: ReadersFacade = deps.readers ?? noReaders();
  const host = deps.host ?? 'browser';
  const { log, scrubber } = createStationLogger({ destination: deps.log?.destination, level: deps.log?.level });
  const scrub = (text: string) => scrubber.scrub(text);
  const listeners = new Set<(event: StationEvent) => void>();

  let db: Db | undefined;
  let ctx: Ctx | undefined;
  let audit: AuditLog | undefined;
  let workQueue: WorkQueue | undefined;
  let activityView: ActivityView | undefined;
  let starting: Promise<void> | undefined;
  let stopped = false;
  let locked = true;
  let staff: StaffRegistry | undefined;
  let pinGuard: PinGuard | undefined;
  /** Who works at the station now; kept while it is locked, so the lock can name her. */
  let current: StaffMember | null = null;
  let lastActivity = clock.now();
  let idleTimer: NodeJS.Timeout | undefined;
  let clockWatch: NodeJS.Timeout | undefined;
  const unsubscribers: (() => void)[] = [];

  function emit(event: unknown): void {
    const checked = checkEvent(event);
    if (!checked.ok) {
      log.error({ issues: checked.error.details?.issues?.map((i) => i.field) }, 'an event outside the contract was dropped');
      return;
    }
    for (const listener of [...listeners]) {
      try {
        listener(checked.value);
      } catch (error) {
        log.warn({ err: (error as Error).message }, 'an event listener failed');
      }
    }
  }

  function requireCtx(): Ctx {
    if (ctx === undefined) fail('INTERNAL', 'The station has not started.');
    return ctx;
  }

  function viewOf(wf: AnyWorkflow): WorkflowView {
    const view = fullViewOf(wf);
    return host === 'electron' ? withLinkOriginOnly(view) : view;
  }

  function fullViewOf(wf: AnyWorkflow): WorkflowView {
    const c = requireCtx();
    switch (wf.kind) {
      case 'consent':
        return consentView(c, wf);
      case 'visit':
        return visitView(wf);
      case 'discharge':
        return dischargeView(c, wf);
      case 'elective':
        return electiveView(c, wf);
      case 'emergency':
        return emergencyView(c, wf);
    }
  }

  // ---------------------------------------------------------------- status and the idle lock

  function lockAt(): string | null {
    if (locked || ctx === undefined) return null;
    return new Date(lastActivity + ctx.settings.values.idleLockMinutes * 60_000).toISOString();
  }

  function status(): StationStatus {
    const c = ctx;
    const settings = c?.settings.values;
    return {
      contractVersion,
      host,
      appVersion: (deps.appVersion ?? '0.0.0').slice(0, 60),
      trainingMode: settings?.trainingMode ?? false,
      signedIn: c?.session.view().signedIn ?? false,
      facility: settings?.facilityCode && settings.facilityName ? { code: settings.facilityCode, name: settings.facilityName } : null,
      exchange: c?.session.reachability ?? { state: 'unknown', checkedAt: null, latencyMs: null },
      unavailablePieces: readers.unavailablePieces().slice(0, 20).map((p) => ({ piece: p.piece.slice(0, 100), reason: p.reason.slice(0, 500) })),
      locked,
      staff: current === null ? null : { staffRef: current.ref, name: current.name.slice(0, 200), role: current.role },
      administratorExists: staff?.administratorExists ?? false,
      lockAt: lockAt(),
      now: new Date(clock.now()).toISOString(),
    };
  }

  function statusChanged(): void {
    if (ctx !== undefined) emit({ type: 'station.statusChanged', status: status() });
  }

  /**
   * The station's clock may not be the machine's: in training it is the sandbox's, which its clock
   * control moves forward. A jump is announced (station.statusChanged carries `now`), so the
   * renderer's countdowns follow at once; with the system clock nothing ever jumps.
   */
  function watchClock(): void {
    let lastOffset = clock.now() - Date.now();
    clockWatch = setInterval(() => {
      const offset = clock.now() - Date.now();
      if (Math.abs(offset - lastOffset) < CLOCK_JUMP_MS) return;
      lastOffset = offset;
      statusChanged();
    }, timing.clockCheckMs);
    clockWatch.unref?.();
  }

  function armIdleTimer(): void {
    clearTimeout(idleTimer);
    if (locked || stopped || ctx === undefined) return;
    const due = lastActivity + ctx.settings.values.idleLockMinutes * 60_000 - clock.now();
    idleTimer = setTimeout(() => {
      if (clock.now() >= lastActivity + (ctx?.settings.values.idleLockMinutes ?? 0) * 60_000) lockStation('idle');
      else armIdleTimer();
    }, Math.max(0, Math.min(due, 2 ** 31 - 1)));
    idleTimer.unref?.();
  }

  function activity(): void {
    lastActivity = clock.now();
    armIdleTimer();
  }

  function lockStation(reason: 'idle' | 'manual' | 'system'): void {
    if (locked || ctx === undefined) return;
    locked = true;
    clearTimeout(idleTimer);
    ctx.engine.audit({ action: 'station.lock', outcome: 'succeeded', summary: `locked (${reason})` });
    emit({ type: 'station.locked', reason, at: ctx.nowIso() });
    statusChanged();
  }

  /**
   * A PIN at the lock (or at any time): her own opens the station, another staff member's switches the
   * user. Five wrong PINs in a row and no PIN is tried for a minute.
   */
  async function signInByPin(pin: string): Promise<void> {
    const c = requireCtx();
    const guard = pinGuard!;
    const before = guard.state();
    if (!before.open) fail('PIN_LOCKED', 'Five wrong PINs: wait a minute before trying again.', { retryAt: new Date(before.retryAt).toISOString() });
    const member = await staff!.findByPin(pin);
    if (member === null) {
      const after = guard.failed();
      c.engine.audit({ action: 'station.unlock', outcome: 'failed', errorCode: after.open ? 'PIN_WRONG' : 'PIN_LOCKED', summary: 'a wrong PIN' });
      if (!after.open) fail('PIN_LOCKED', 'Five wrong PINs: the station is locked for a minute.', { retryAt: new Date(after.retryAt).toISOString() });
      fail('PIN_WRONG', 'No staff member of this station has that PIN.', { attemptsLeft: after.attemptsLeft, field: 'pin' });
    }
    guard.succeeded();
    const previous = current;
    current = member;
    if (previous !== null && previous.ref !== member.ref) {
      // The record's actor names who took over; summaries are fixed wording (the scrubber would blank a name a patient shares).
      c.engine.audit({ action: 'staff.switch', outcome: 'succeeded', summary: `took over from ${previous.ref} (${member.role})` });
    } else if (previous === null) {
      c.engine.audit({ action: 'staff.signIn', outcome: 'succeeded', summary: `signed in (${member.role})` });
    }
    if (locked) {
      locked = false;
      c.engine.audit({ action: 'station.unlock', outcome: 'succeeded', summary: 'unlocked' });
      emit({ type: 'station.unlocked', at: c.nowIso() });
    }
    activity();
    statusChanged();
  }

  function isAdministrator(): boolean {
    return current?.role === 'administrator';
  }

  function requireAdministrator(what: string, field?: string): void {
    if (!isAdministrator()) fail('ADMINISTRATOR_REQUIRED', `Only the station's administrator may ${what}.`, field === undefined ? undefined : { field });
  }

  // ---------------------------------------------------------------- workflows

  async function onWorkflow<T>(workflowId: string, fn: (wf: AnyWorkflow, c: Ctx) => Promise<T>): Promise<T> {
    const c = requireCtx();
    if (c.engine.get(workflowId) === undefined) fail('NOT_FOUND', 'No such workflow on this station.', { field: 'workflowId' });
    return c.engine.lock(workflowId, async () => {
      const wf = c.engine.get(workflowId)!;
      // A call whose outcome is not known yet is settled first: the nurse never acts on a guess.
      if (c.engine.openCalls(workflowId).length > 0) {
        try {
          await resumeWorkflow(c, wf);
        } catch {
          fail('EXCHANGE_UNREACHABLE', 'The station must first learn from the exchange what became of the last request; try again in a moment.', { workflowId });
        }
      }
      try {
        return await fn(wf, c);
      } catch (error) {
        if (error instanceof OutcomeUnknown) {
          void resumeSoon(c, workflowId, timing.reconcileRetryMs);
          throw new StationFailure(makeError('EXCHANGE_TIMEOUT', 'The exchange did not answer in time; the station is checking what happened before anything is sent again.', { workflowId }));
        }
        throw error;
      }
    });
  }

  function ofKind<K extends AnyWorkflow['kind']>(wf: AnyWorkflow, ...kinds: K[]): WorkflowOf<K> {
    if (!(kinds as string[]).includes(wf.kind)) fail('WRONG_STATE', `This is a ${wf.kind} workflow.`, { state: wf.kind });
    return wf as WorkflowOf<K>;
  }

  /** A verification command on whichever workflow is taking consent; answers its view. */
  function verificationCommand(workflowId: string, run: (c: Ctx, host: verification.VerificationHost<AnyWorkflow>, wf: AnyWorkflow) => Promise<void>) {
    return onWorkflow(workflowId, async (wf, c) => {
      const h = hostOf(wf);
      if (h === undefined) fail('WRONG_STATE', 'A visit takes no consent: use discharge.begin for the visit end.', { state: wf.state });
      await run(c, h, wf);
      return viewOf(wf);
    });
  }

  function patientIdOf(wf: AnyWorkflow): string | null {
    if (wf.kind === 'emergency') return wf.data.identifying?.patientId ?? wf.data.patient?.patientId ?? null;
    return wf.data.patient.patientId;
  }

  const handlers: Handlers = {
    'settings.get': async () => requireCtx().settings.view(),
    'settings.update': async (input) => {
      const c = requireCtx();
      const before = c.settings.values;
      const changed = administratorChanges(before, input);
      const fixed = changed.find((key) => c.settings.provisioned.includes(key));
      if (fixed !== undefined) fail('PROVISIONED', `${fixed} is fixed by this station's provisioning file.`, { field: fixed });
      const trainingAfter = input.trainingMode ?? before.trainingMode;
      // In training the demo facility may be chosen by whoever is signed in (the built-in sandbox, public credentials).
      const needsAdministrator = changed.filter((key) => !(before.trainingMode && trainingAfter && TRAINING_FACILITY_KEYS.has(key)));
      if (needsAdministrator.length > 0) requireAdministrator(`change ${needsAdministrator.join(', ')}`, needsAdministrator[0]);
      if (input.exchangeBaseUrl !== undefined && !exchangeUrlAllowed(input.exchangeBaseUrl, { trainingMode: trainingAfter, allowLoopbackHttp: deps.provisioning?.allowLoopbackHttp === true })) {
        fail('VALIDATION', 'The exchange URL must be https (plain http only to this machine, in training mode).', { field: 'exchangeBaseUrl' });
      }
      const exchangeMoved = input.exchangeBaseUrl !== undefined && exchangeOriginOf(input.exchangeBaseUrl) !== exchangeOriginOf(before.exchangeBaseUrl);
      c.settings.update(input);
      c.engine.audit({ action: 'settings.update', outcome: 'succeeded', summary: `changed ${Object.keys(input).join(', ') || 'nothing'}` });
      if (exchangeMoved) {
        // A new exchange gets the secret again from the administrator, never the stored one.
        await c.settings.forgetClientSecret();
        await c.session.signOut(false);
        c.engine.audit({ action: 'facility.signOut', outcome: 'succeeded', summary: 'the exchange URL changed: the stored client secret is forgotten' });
      } else if (
        (input.exchangeBaseUrl !== undefined && input.exchangeBaseUrl !== before.exchangeBaseUrl) ||
        (input.facilityCode !== undefined && input.facilityCode !== before.facilityCode) ||
        (input.trainingMode !== undefined && input.trainingMode !== before.trainingMode)
      ) {
        await c.session.settingsChanged();
      }
      if (input.idleLockMinutes !== undefined) armIdleTimer();
      await followSettings(c);
      statusChanged();
      return c.settings.view();
    },
    'facility.signIn': async (input) => {
      const c = requireCtx();
      if ((input.clientSecret !== undefined || input.clientId !== undefined) && !c.settings.values.trainingMode) requireAdministrator('give the facility’s credentials', 'clientSecret');
      try {
        const session = await c.session.signIn(input.clientId, input.clientSecret);
        c.engine.audit({ action: 'facility.signIn', outcome: 'succeeded', summary: 'facility signed in' });
        return session;
      } catch (error) {
        c.engine.audit({ action: 'facility.signIn', outcome: 'failed', errorCode: toStationError(error, scrub).code, summary: 'sign-in refused' });
        throw error;
      }
    },
    'facility.signOut': async (input) => {
      const c = requireCtx();
      if (input.forgetCredentials === true && !c.settings.values.trainingMode) requireAdministrator('forget the facility’s credentials', 'forgetCredentials');
      const session = await c.session.signOut(input.forgetCredentials === true);
      c.engine.audit({ action: 'facility.signOut', outcome: 'succeeded', summary: input.forgetCredentials === true ? 'signed out; credentials forgotten' : 'signed out' });
      return session;
    },

    'staff.list': async () => {
      requireAdministrator('see the staff list');
      return { items: staff!.all().map(staffView) };
    },
    'staff.add': async (input) => {
      const c = requireCtx();
      const firstAdministrator = !staff!.administratorExists && input.role === 'administrator' && !c.settings.values.trainingMode;
      if (!firstAdministrator) requireAdministrator('add staff');
      const added = await staff!.add(input, 'station');
      if (added === null) fail('VALIDATION', 'Another staff member has this PIN: choose another.', { field: 'pin' });
      c.engine.audit({ action: 'staff.add', outcome: 'succeeded', summary: `${added.ref} added (${added.role})` });
      statusChanged();
      return staffView(added);
    },
    'staff.remove': async (input) => {
      const c = requireCtx();
      requireAdministrator('remove staff');
      const member = staff!.get(input.staffRef);
      if (member === undefined) fail('NOT_FOUND', 'No such staff member at this station.', { field: 'staffRef' });
      if (member.source !== 'station') fail('PROVISIONED', 'This staff member comes from the provisioning: change it there.', { field: 'staffRef' });
      if (member.ref === current?.ref) fail('WRONG_STATE', 'You cannot remove yourself while signed in.', { field: 'staffRef' });
      staff!.remove(member.ref);
      c.engine.audit({ action: 'staff.remove', outcome: 'succeeded', summary: `${member.ref} removed (${member.role})` });
      statusChanged();
      return { items: staff!.all().map(staffView) };
    },

    'patient.lookUp': async (input) => {
      const c = requireCtx();
      const summary = await c.patients.lookUp(input);
      c.engine.audit({ action: 'patient.lookUp', outcome: 'succeeded', summary: `patient ${summary.patientRef} ${summary.covered ? 'covered' : 'not covered'}` });
      return summary;
    },
    'patient.details': async (input) => requireCtx().patients.ready(input.patientRef),
    'patient.chooseScheme': async (input) => {
      const c = requireCtx();
      const summary = c.patients.chooseScheme(input.patientRef, input.schemeId);
      c.engine.audit({ action: 'patient.chooseScheme', outcome: 'succeeded', summary: `patient ${input.patientRef}: cover chosen, set on the claim when the visit opens` });
      return summary;
    },
    'patient.recent': async () => ({ items: requireCtx().patients.recent() }),
    'benefits.subBenefits': async (input) => paged(await requireCtx().patients.subBenefits(input.patientRef, input.careSetting, input.search), input.page, input.pageSize),
    'benefits.interventions': async (input) =>
      paged(
        await requireCtx().patients.interventions(input.patientRef, { subBenefitCode: input.subBenefitCode, scenario: input.scenario, search: input.search, background: input.background }),
        input.page,
        input.pageSize,
      ),
    'benefits.utilization': async (input) => requireCtx().patients.utilization(input.patientRef, input.interventionCode),

    'consent.begin': async (input) => consentView(requireCtx(), await beginConsent(requireCtx(), input)),
    'consent.sendSms': async (input) => verificationCommand(input.workflowId, (c, h, wf) => verification.sendSms(c, h, wf, input.contactId)),
    'consent.confirmSms': async (input) =>
      verificationCommand(input.workflowId, async (c, h, wf) => {
        await verification.confirmSms(c, h, wf, input.code);
        // The code opened a visit (flow B, the elective's visit day) whose answer was lost: checked later, as for visit.open.
        if (c.engine.openCalls(wf.id).some((call) => call.operation === 'claims.createVisit')) {
          void resumeSoon(c, wf.id, timing.reconcileRetryMs);
          fail('EXCHANGE_TIMEOUT', 'The exchange did not answer; the station is checking whether the visit opened.', { workflowId: wf.id });
        }
      }),
    'consent.startFingerprint': async (input) => verificationCommand(input.workflowId, (c, h, wf) => verification.startFingerprint(c, h, wf)),
    'consent.checkFingerprint': async (input) => verificationCommand(input.workflowId, (c, h, wf) => verification.checkFingerprint(c, h, wf)),
    'consent.cancel': async (input) =>
      onWorkflow(input.workflowId, async (wf, c) => {
        if (wf.kind === 'consent' && wf.state === 'verified') c.engine.transition(wf, 'cancel', 'withdrawn by the nurse');
        else if (wf.kind === 'discharge' && wf.state === 'ready') cancelDischarge(c, wf);
        else {
          const h = hostOf(wf);
          if (h === undefined) fail('WRONG_STATE', 'There is nothing to cancel on a visit.', { state: wf.state });
          await verification.cancel(c, h, wf);
        }
        return viewOf(wf);
      }),
    'consent.retry': async (input) => verificationCommand(input.workflowId, (c, h, wf) => verification.retry(c, h, wf)),
    'consent.requestWhitelist': async (input) =>
      verificationCommand(input.workflowId, (c, h, wf) => verification.requestWhitelist(c, h, wf, patientIdOf(wf), input.reasonType, input.reasonText)),
    'authorizationView.setArea': async (input) => {
      const link = findLink(input.handle);
      if (link === null) fail('NOT_FOUND', 'No authorization link with that handle is pending.', { field: 'handle' });
      if (host !== 'electron') return { shownBy: 'renderer' as const };
      deps.onAuthorizationArea?.({ handle: link.handle, url: link.url, expiresAt: link.expiresAt, allowedOrigins: [...requireCtx().settings.values.allowedLinkOrigins], area: input.area });
      return { shownBy: 'shell' as const };
    },

    'visit.open': async (input) =>
      onWorkflow(input.workflowId, async (wf, c) => {
        const source = ofKind(wf, 'consent', 'elective');
        const doctor = input.doctor ?? null;
        const visit = source.kind === 'consent' ? await openFromConsent(c, source, doctor) : await openElectiveVisit(c, source, doctor);
        if (visit === null) {
          void resumeSoon(c, source.id, timing.reconcileRetryMs);
          fail('EXCHANGE_TIMEOUT', 'The exchange did not answer; the station is checking whether the visit opened.', { workflowId: source.id });
        }
        return visitView(visit);
      }),
    'visit.addLine': async (input) =>
      onWorkflow(input.workflowId, async (wf, c) => {
        const { workflowId: _id, ...line } = input;
        const visit = ofKind(wf, 'visit');
        await addLine(c, visit, line);
        return visitView(visit);
      }),
    'visit.removeLine': async (input) =>
      onWorkflow(input.workflowId, async (wf, c) => {
        const visit = ofKind(wf, 'visit');
        await removeLine(c, visit, input.lineId);
        return visitView(visit);
      }),
    'visit.attachDoctor': async (input) =>
      onWorkflow(input.workflowId, async (wf, c) => {
        const visit = ofKind(wf, 'visit');
        await attachDoctor(c, visit, input.doctor);
        return visitView(visit);
      }),
    'visit.preview': async (input) => onWorkflow(input.workflowId, async (wf, c) => previewVisit(c, ofKind(wf, 'visit'))),

    'discharge.begin': async (input) =>
      onWorkflow(input.workflowId, async (wf, c) => {
        const visit = ofKind(wf, 'visit');
        const discharge = beginDischarge(c, visit);
        return dischargeView(c, discharge);
      }),
    'discharge.dischargeInpatient': async (input) =>
      onWorkflow(input.workflowId, async (wf, c) => {
        const d = ofKind(wf, 'discharge');
        await closeVisit(c, d, 'discharge', input);
        return dischargeView(c, d);
      }),
    'discharge.submit': async (input) =>
      onWorkflow(input.workflowId, async (wf, c) => {
        const d = ofKind(wf, 'discharge');
        await closeVisit(c, d, 'submit', input);
        return dischargeView(c, d);
      }),

    'elective.begin': async (input) => electiveView(requireCtx(), await beginElective(requireCtx(), input)),
    'elective.submitPreauth': async (input) =>
      onWorkflow(input.workflowId, async (wf, c) => {
        const e = ofKind(wf, 'elective');
        await submitPreauth(c, e, {
          serviceStart: input.serviceStart,
          serviceEnd: input.serviceEnd,
          requestedAmountKes: input.requestedAmountKes,
          diagnoses: input.diagnoses,
          doctor: input.doctor,
          notificationEmail: input.notificationEmail,
          clinicalNotes: input.clinicalNotes ?? null,
        });
        return electiveView(c, e);
      }),
    'elective.resendDoctorRequest': async (input) =>
      onWorkflow(input.workflowId, async (wf, c) => {
        const e = ofKind(wf, 'elective');
        await resendDoctorRequest(c, e);
        return electiveView(c, e);
      }),
    'elective.refreshPreauth': async (input) =>
      onWorkflow(input.workflowId, async (wf, c) => {
        const e = ofKind(wf, 'elective');
        await refreshPreauth(c, e);
        return electiveView(c, e);
      }),
    'elective.cancelPreauth': async (input) =>
      onWorkflow(input.workflowId, async (wf, c) => {
        const e = ofKind(wf, 'elective');
        await cancelPreauth(c, e, input.reason);
        return electiveView(c, e);
      }),

    'emergency.protocols': async (input) => {
      const all = await listProtocols(requireCtx(), input.interventionCode);
      const needle = input.search?.trim().toLowerCase() ?? '';
      return paged(
        all.filter((p) => needle === '' || p.protocolCode.toLowerCase().includes(needle) || p.name.toLowerCase().includes(needle)),
        input.page,
        input.pageSize,
      );
    },
    'emergency.create': async (input) => {
      const c = requireCtx();
      return emergencyView(c, await createEmergency(c, input));
    },
    'emergency.resendClaim': async (input) =>
      onWorkflow(input.workflowId, async (wf, c) => {
        const e = ofKind(wf, 'emergency');
        await resendClaim(c, e);
        return emergencyView(c, e);
      }),
    'emergency.addProtocol': async (input) =>
      onWorkflow(input.workflowId, async (wf, c) => {
        const e = ofKind(wf, 'emergency');
        await addProtocol(c, e);
        return emergencyView(c, e);
      }),
    'emergency.requestDoctorApproval': async (input) =>
      onWorkflow(input.workflowId, async (wf, c) => {
        const e = ofKind(wf, 'emergency');
        await requestDoctorApproval(c, e);
        return emergencyView(c, e);
      }),
    'emergency.identify': async (input) =>
      onWorkflow(input.workflowId, async (wf, c) => {
        const e = ofKind(wf, 'emergency');
        await identifyPatient(c, e, input.patientRef, input.contactId);
        return emergencyView(c, e);
      }),
    'emergency.submit': async (input) =>
      onWorkflow(input.workflowId, async (wf, c) => {
        const e = ofKind(wf, 'emergency');
        await submitEmergency(c, e, input);
        return emergencyView(c, e);
      }),

    'readers.state': async (input) => (input.refresh === true ? readers.refresh() : readers.snapshot()),
    'readers.list': async () => ({ items: (await readers.list()).slice(0, 100) }),
    'readers.cancelCapture': async () => {
      const snapshot = await readers.cancelCapture();
      requireCtx().engine.audit({ action: 'readers.cancelCapture', outcome: 'succeeded', summary: 'a page’s capture request was declined' });
      return snapshot;
    },

    'audit.read': async (input) => {
      const { page: _p, pageSize: _s, search: _q, ...filters } = input;
      const page = input.page ?? 1;
      const pageSize = input.pageSize ?? 50;
      const { items, total } = requireAudit().read(filters, page, pageSize);
      return { items: activityView!.entries(items), page, pageSize, total, totalPages: Math.ceil(total / pageSize) };
    },
    'audit.export': async (input) => {
      const c = requireCtx();
      const { content, count } = requireAudit().exportJsonLines(input);
      c.engine.audit({ action: 'audit.export', outcome: 'succeeded', summary: `${count} records exported` });
      const stamp = c.nowIso().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
      return { fileName: `idhini-audit-${stamp}.jsonl`, mediaType: 'application/x-ndjson' as const, recordCount: count, content };
    },
    'audit.verify': async () => ({ ...requireAudit().verify(), checkedAt: requireCtx().nowIso() }),

    'station.status': async () => status(),
    'station.lock': async () => {
      lockStation('manual');
      return status();
    },
    'station.unlock': async (input) => {
      await signInByPin(input.pin);
      return status();
    },
    'station.reportActivity': async () => {
      if (!locked) activity();
      return status();
    },

    'workflow.get': async (input) => {
      const wf = requireCtx().engine.get(input.workflowId);
      if (wf === undefined) fail('NOT_FOUND', 'No such workflow on this station.', { field: 'workflowId' });
      return viewOf(wf);
    },
    'workflow.list': async (input) => {
      const items = selectWorkflows(requireCtx().engine, input)
        .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
        .slice(0, 200)
        .map(viewOf);
      return { items };
    },
    'work.queue': async (input) => ({ items: workQueue!.items(selectWorkflows(requireCtx().engine, input), viewOf).slice(0, 200) }),
  };

  /**
   * The visit opens itself once consent is in: this opens it again after a refusal, or answers the
   * visit already open (with the doctor attached, when one is named and the visit has none yet).
   */
  async function openFromConsent(c: Ctx, source: ConsentWorkflow, doctor: Parameters<typeof openVisit>[2]): Promise<VisitWorkflow | null> {
    const opened = source.data.visitWorkflowId === null ? undefined : c.engine.get(source.data.visitWorkflowId);
    if (source.state === 'visit-opened' && opened?.kind === 'visit') {
      if (doctor === null || opened.data.doctor !== null) return opened;
      return c.engine.lock(opened.id, async () => {
        await attachDoctor(c, opened, doctor);
        return opened;
      });
    }
    if (source.state !== 'verified') fail('WRONG_STATE', 'Take the patient’s consent first.', { state: source.state });
    return openVisit(c, source, doctor);
  }

  /**
   * The readers' side follows settings: the local device service allows exactly the link origins
   * (and the sandbox in training); the reader manager prefers the reader chosen in settings.
   */
  async function followSettings(c: Ctx): Promise<void> {
    const { allowedLinkOrigins, trainingMode, exchangeBaseUrl, reader } = c.settings.values;
    try {
      await readers.useSettings?.({ allowedLinkOrigins, trainingMode, exchangeBaseUrl, reader });
    } catch (error) {
      log.error({ err: error instanceof Error ? error.message : String(error) }, 'the readers could not follow the settings');
    }
  }

  function requireAudit(): AuditLog {
    if (audit === undefined) fail('INTERNAL', 'The station has not started.');
    return audit;
  }

  function findLink(handle: string) {
    for (const wf of ctx?.engine.all() ?? []) {
      const v = hostOf(wf)?.step(wf);
      if (v?.link?.handle === handle && v.stage === 'awaiting-fingerprint') return v.link;
    }
    return null;
  }

  async function start(): Promise<void> {
    starting ??= (async () => {
      db = openDatabase(deps.databasePath);
      const sealedRows = (db.prepare('SELECT (SELECT COUNT(*) FROM workflows) + (SELECT COUNT(*) FROM patients) + (SELECT COUNT(*) FROM calls) AS n').get() as { n: number }).n;
      const sealer = await loadSealer(deps.secrets, sealedRows > 0);
      audit = new AuditLog(db, scrub, () => current?.name ?? null);
      if (sealer.replaced) {
        log.error({ records: sealedRows }, 'the journal key was missing from the secret store: a new one was made and the earlier records cannot be read');
        audit.append({ at: new Date(clock.now()).toISOString(), action: 'station.journalKeyReplaced', outcome: 'failed', errorCode: 'INTERNAL', summary: `journal key missing; ${sealedRows} earlier records unreadable` });
        // Patients' refs are found by a hash under the old key: no look-up can reach them any more.
        db.prepare('DELETE FROM patient_refs').run();
      }
      const settings = new SettingsStore(db, deps.secrets);
      if (settings.isEmpty && deps.initialSettings !== undefined) settings.update(deps.initialSettings as Parameters<SettingsStore['update']>[0]);
      const provisioning = deps.provisioning;
      if (provisioning !== undefined) {
        settings.update(provisioning.settings as Parameters<SettingsStore['update']>[0]);
        if (provisioning.source === 'file') settings.provisioned = Object.keys(provisioning.settings) as (keyof typeof provisioning.settings)[];
      }
      const engine = new Engine({ db, sealer, audit, clock, log, scrub, onJournalPoint: deps.onJournalPoint });
      const session = new ExchangeSession({ settings, factory: deps.exchangeClientFactory, clock, log, scrubber, scrub, timeoutMs: timing.exchangeTimeoutMs });
      const newId = (prefix: 'wf' | 'lk' | 'pt' | 'st') => `${prefix}_${randomId().replace(/[^A-Za-z0-9_-]/g, '').slice(0, 48)}`;
      const nowIso = () => new Date(clock.now()).toISOString();
      staff = new StaffRegistry(db, () => newId('st'), nowIso);
      pinGuard = new PinGuard(db, () => clock.now());
      await staff.replaceSource('provisioned', provisioning?.staff ?? []);
      // Training starts signed in as the demo nurse; she exists in training mode only.
      await staff.replaceSource('training', settings.values.trainingMode ? [TRAINING_NURSE] : []);
      if (settings.values.trainingMode) {
        current = staff.all().find((m) => m.source === 'training') ?? null;
        locked = current === null;
      }
      const deviceId = settings.memo('deviceId') ?? `idhini-${randomUUID()}`;
      settings.remember('deviceId', deviceId);
      const patients = new PatientDirectory({ db, sealer, session, settings, clock, log, scrubber, newRef: () => newId('pt') });
      workQueue = new WorkQueue(db);
      activityView = new ActivityView(db, (id) => engine.get(id));
      ctx = {
        engine,
        session,
        patients,
        settings,
        readers,
        clock,
        timing,
        log,
        scrubber,
        deviceOs: deviceOsOf(deps.platform ?? process.platform),
        device: { id: deviceId, name: (deps.deviceName ?? hostname()).trim().slice(0, 100) || 'idhini-station' },
        operator: () => current,
        newId,
        nowIso,
      };
      engine.connect(viewOf, (view) => emit({ type: 'workflow.updated', view }));
      unsubscribers.push(session.onChange(statusChanged));
      unsubscribers.push(readers.onChange((snapshot) => emit({ type: 'readers.changed', readers: snapshot })));
      unsubscribers.push(readers.onCaptureRequested((capture) => emit({ type: 'capture.requested', capture })));
      patients.load();
      engine.load();
      await followSettings(ctx);
      await session.resume();
      engine.audit({ action: 'station.start', outcome: 'succeeded', summary: `station started (${host})` });
      log.info({ host, workflows: engine.all().filter((wf) => !engine.isEnded(wf)).length }, 'station started');
      if (!locked) activity();
      watchClock();
      // Reconciliation holds each unfinished workflow's lock until it is done; start waits for it
      // only so long, so that an unreachable exchange does not keep the station from opening.
      if (session.hasClient) await Promise.race([resumeAll(ctx), new Promise((r) => setTimeout(r, timing.exchangeTimeoutMs).unref())]);
    })();
    return starting;
  }

  async function stop(): Promise<void> {
    if (stopped) return;
    stopped = true;
    clearTimeout(idleTimer);
    clearInterval(clockWatch);
    await starting?.catch(() => undefined);
    for (const off of unsubscribers.splice(0)) off();
    await ctx?.engine.stop();
    await ctx?.session.close();
    db?.close();
    listeners.clear();
  }

  const bridge: StationBridge = {
    async invoke<N extends CommandName>(name: N, input: unknown): Promise<CommandOutcome<N>> {
      const started = performance.now();
      const call = validateInvoke(name, input);
      if (!call.ok) return call as CommandOutcome<N>;
      const invocation = call.value as Invocation & { name: N };
      if (starting === undefined || stopped) return { ok: false, error: makeError('INTERNAL', 'The station is not running.') };
      try {
        await starting;
      } catch {
        return { ok: false, error: makeError('INTERNAL', 'The station could not start; see its log.') };
      }
      if (locked && !OPEN_WHILE_LOCKED.has(invocation.name) && !invocation.name.startsWith('station.')) {
        return { ok: false, error: makeError('LOCKED', current === null ? 'Nobody is signed in: a staff member’s PIN opens the station.' : 'The station is locked.') };
      }
      if (!invocation.name.startsWith('station.')) activity();
      let outcome: CommandOutcome<N>;
      try {
        const handler = handlers[invocation.name] as (input: unknown) => Promise<unknown>;
        outcome = checkOutput(invocation.name, await handler(invocation.input));
      } catch (error) {
        const stationError = toStationError(error, scrub);
        if (stationError.code === 'INTERNAL') log.error({ command: invocation.name, err: error instanceof Error ? error.stack : String(error) }, 'command failed');
        outcome = { ok: false, error: stationError };
      }
      if (!outcome.ok && outcome.error.code === 'INTERNAL' && outcome.error.details?.issues !== undefined) {
        log.error({ command: invocation.name, fields: outcome.error.details.issues.map((i) => i.field) }, 'an answer outside the contract was withheld');
      }
      logCommand(log, invocation.name, outcome, performance.now() - started);
      return outcome;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };

  return {
    bridge,
    start,
    stop,
    lock: lockStation,
    log,
    async signInFacility(credentials) {
      await start();
      const c = requireCtx();
      await c.session.signIn(credentials.clientId, credentials.clientSecret);
      c.engine.audit({ action: 'facility.signIn', outcome: 'succeeded', summary: 'facility signed in by the launcher' });
      log.info({ clientId: credentials.clientId.slice(0, 60) }, 'facility signed in by the launcher');
    },
    authorizationLink(handle) {
      const link = findLink(handle);
      if (link === null || ctx === undefined) return null;
      const allowed = [...ctx.settings.values.allowedLinkOrigins];
      return { url: link.url, expiresAt: link.expiresAt, allowedOrigins: allowed };
    },
  };

}

/**
 * In Electron the shell shows the link in its own view, taking its URL from authorizationLink(handle):
 * the renderer gets the link's origin alone (for telling the page's messages apart), never the path
 * and query that carry its embed token (`?t=`). In browser mode the renderer frames the link itself.
 */
function withLinkOriginOnly(view: WorkflowView): WorkflowView {
  if (view.kind === 'visit') return view;
  const { verification } = view;
  const fingerprint = verification?.fingerprint;
  if (verification == null || fingerprint == null || fingerprint.link === null) return view;
  const link = { ...fingerprint.link, url: `${new URL(fingerprint.link.url).origin}/` };
  return { ...view, verification: { ...verification, fingerprint: { ...fingerprint, link } } };
}

/** What answers while the station is locked besides station.*: settings for the lock screen's words, the first administrator. */
const OPEN_WHILE_LOCKED: ReadonlySet<CommandName> = new Set(['settings.get', 'staff.add']);

/** In training mode, the demo facility is chosen on the first-run screen by whoever is signed in. */
const TRAINING_FACILITY_KEYS: ReadonlySet<string> = new Set(['clientId', 'facilityCode', 'facilityName', 'agentNationalId']);

function staffView(member: StaffMember) {
  return { staffRef: member.ref, name: member.name.slice(0, 200), role: member.role, nationalIdKnown: member.nationalId !== null, source: member.source };
}

/** A change of the station clock's lead over the machine's this large is a jump, not drift. */
const CLOCK_JUMP_MS = 1000;

function paged<T>(items: T[], page: number | undefined, pageSize: number | undefined) {
  const size = pageSize ?? 50;
  const p = page ?? 1;
  return { items: items.slice((p - 1) * size, p * size), page: p, pageSize: size, total: items.length, totalPages: Math.ceil(items.length / size) };
}

function logCommand(log: Logger, name: string, outcome: { ok: boolean; error?: { code: string } }, ms: number): void {
  log.info({ command: name, ok: outcome.ok, code: outcome.ok ? undefined : outcome.error?.code, ms: Math.round(ms) }, 'command');
}
