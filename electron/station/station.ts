// createStation: the station core behind one StationBridge. Every call is checked with
// validateInvoke, answered through checkOutput, and every event pushed through checkEvent, so the
// core itself cannot hand the renderer anything outside the contract. Each area's commands live in
// their own module (commands/), registered here; every command on a workflow goes through one
// helper (`workflowCommand`), so commands on one workflow run one at a time and an outcome not
// known is settled with the exchange before anything else is sent. Someone is always answerable:
// the station opens with a staff member's PIN (in training as the demo "Training nurse"), and while
// locked — idle, by hand, or nobody signed in yet — every command but station.*, settings.get and
// the first administrator's staff.add answers LOCKED. What decides where secrets go is the
// administrator's (access.ts). Too many commands at once answer BUSY.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import {
  checkEvent,
  checkOutput,
  contractVersion,
  makeError,
  validateInvoke,
  type CommandName,
  type CommandOutcome,
  type HostedCore,
  type Invocation,
  type StationBridge,
  type StationEvent,
  type StationStatus,
  type WorkflowView,
} from '../contract';
import { TRAINING_NURSE } from './access';
import { AuditLog } from './audit';
import { claimsCommands } from './commands/claims';
import { scannerCommands } from './commands/scanner';
import { followClaim, watchClaims } from './workflows/claims';
import { consentCommands } from './commands/consent';
import { dischargeCommands } from './commands/discharge';
import { electiveCommands } from './commands/elective';
import { correctionCommands } from './commands/corrections';
import { emergencyCommands } from './commands/emergency';
import { lookupCommands } from './commands/lookups';
import { prescriptionCommands } from './commands/prescriptions';
import { patientCommands } from './commands/patients';
import { programmeCommands } from './commands/programmes';
import { readerCommands } from './commands/readers';
import { makeWorkflowCommand, type Handlers, type StationServices } from './commands/services';
import { settingsCommands } from './commands/settings';
import { staffCommands } from './commands/staff';
import { stationCommands } from './commands/station';
import { visitCommands } from './commands/visit';
import { openDatabase, type Db } from './db';
import { defaultRandomId, defaultTiming, deviceOsOf, systemClock, type StationDeps } from './deps';
import { fail, toStationError } from './errors';
import { IdleLock, type LockReason } from './idle-lock';
import { createStationLogger } from './logging';
import { PatientDirectory } from './patients';
import { noReaders, type ReadersFacade } from './readers';
import { loadSealer } from './sealing';
import { ExchangeSession } from './session';
import { SettingsStore } from './settings';
import { ActivityView } from './views/activity';
import { WorkQueue } from './views/work-queue';
import { PinGuard, StaffRegistry, type StaffMember } from './staff';
import { consentView } from './workflows/consent';
import type { Ctx } from './workflows/context';
import { dischargeView } from './workflows/discharge';
import { checkWaitingPapers, electiveView, releaseSentPapers } from './workflows/elective';
import { emergencyView } from './workflows/emergency';
import { Engine } from './workflows/engine';
import { hostOf, resumeAll, resumeWorkflow } from './workflows/recovery';
import { PapersWaiting } from './papers-waiting';
import type { AnyWorkflow } from './workflows/types';
import { visitView } from './workflows/visit';

export interface Station {
  /** The contract, checked here: for callers in this process with no shell in front (launchers, tests). */
  readonly bridge: StationBridge;
  /** The contract as a shell hosts it: the shell validates calls and checks answers and events, once. */
  readonly hosted: HostedCore;
  /** Opens the database, resumes and reconciles unfinished workflows. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** For the shell's system events (screen locked, suspend): locks as station.lock does. */
  lock(reason: LockReason): void;
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

/**
 * Commands the whole station has under way at once at most; past it, BUSY (nothing is done). Above
 * one window's bound (CALLS_IN_FLIGHT_PER_CONNECTION), so one busy window leaves room for the others.
 */
export const STATION_COMMANDS_IN_FLIGHT = 320;

export function createStation(deps: StationDeps): Station {
  const clock = deps.clock ?? systemClock;
  const timing = { ...defaultTiming, ...deps.timing };
  const randomId = deps.randomId ?? defaultRandomId;
  const readers: ReadersFacade = deps.readers ?? noReaders();
  const host = deps.host ?? 'browser';
  const maxInFlight = deps.maxCommandsInFlight ?? STATION_COMMANDS_IN_FLIGHT;
  const { log, scrubber } = createStationLogger({ destination: deps.log?.destination, level: deps.log?.level });
  const scrub = (text: string) => scrubber.scrub(text);
  const listeners = new Set<(event: StationEvent) => void>();
  /** A shell's listeners: it checks each event itself. */
  const hostListeners = new Set<(event: unknown) => void>();

  let db: Db | undefined;
  let ctx: Ctx | undefined;
  let audit: AuditLog | undefined;
  let workQueue: WorkQueue | undefined;
  let activityView: ActivityView | undefined;
  let starting: Promise<void> | undefined;
  let stopped = false;
  let inFlight = 0;
  let staff: StaffRegistry | undefined;
  let pinGuard: PinGuard | undefined;
  /** Who works at the station now; kept while it is locked, so the lock can name her. */
  let current: StaffMember | null = null;
  let clockWatch: NodeJS.Timeout | undefined;
  const unsubscribers: (() => void)[] = [];

  const idleLock = new IdleLock({
    clock,
    idleMinutes: () => ctx?.settings.values.idleLockMinutes ?? 0,
    onLocked: (reason) => {
      if (ctx === undefined) return;
      ctx.engine.audit({ action: 'station.lock', outcome: 'succeeded', summary: `locked (${reason})` });
      emit({ type: 'station.locked', reason, at: ctx.nowIso() });
      statusChanged();
    },
  });

  function emit(event: unknown): void {
    const deliver = <E>(to: Iterable<(event: E) => void>, value: E) => {
      for (const listener of [...to]) {
        try {
          listener(value);
        } catch (error) {
          log.warn({ err: (error as Error).message }, 'an event listener failed');
        }
      }
    };
    deliver(hostListeners, event);
    if (listeners.size === 0) return;
    const checked = checkEvent(event);
    if (!checked.ok) {
      log.error({ issues: checked.error.details?.issues?.map((i) => i.field) }, 'an event outside the contract was dropped');
      return;
    }
    deliver(listeners, checked.value);
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
      locked: idleLock.locked,
      staff: current === null ? null : { staffRef: current.ref, name: current.name.slice(0, 200), role: current.role },
      administratorExists: staff?.administratorExists ?? false,
      lockAt: ctx === undefined ? null : idleLock.lockAt(),
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

  function findLink(handle: string) {
    for (const wf of ctx?.engine.all() ?? []) {
      const v = hostOf(wf)?.step(wf);
      if (v?.link?.handle === handle && v.stage === 'awaiting-fingerprint') return v.link;
    }
    return null;
  }

  const services: StationServices = {
    deps,
    host,
    readers,
    lock: idleLock,
    ctx: requireCtx,
    audit: () => audit ?? fail('INTERNAL', 'The station has not started.'),
    activity: () => activityView ?? fail('INTERNAL', 'The station has not started.'),
    workQueue: () => workQueue ?? fail('INTERNAL', 'The station has not started.'),
    staff: () => staff ?? fail('INTERNAL', 'The station has not started.'),
    pinGuard: () => pinGuard ?? fail('INTERNAL', 'The station has not started.'),
    current: () => current,
    setCurrent: (member) => {
      current = member;
    },
    viewOf,
    status,
    statusChanged,
    emit,
    followSettings,
    findLink,
    workflowCommand: makeWorkflowCommand({ ctx: requireCtx, viewOf }),
  };

  const handlers: Handlers = {
    ...settingsCommands(services),
    ...staffCommands(services),
    ...patientCommands(services),
    ...consentCommands(services),
    ...visitCommands(services),
    ...dischargeCommands(services),
    ...electiveCommands(services),
    ...emergencyCommands(services),
    ...correctionCommands(services),
    ...readerCommands(services),
    ...stationCommands(services),
    ...programmeCommands(services),
    ...claimsCommands(services),
    ...lookupCommands(services),
    ...prescriptionCommands(services),
    ...scannerCommands(services),
  };

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
      const engine = new Engine({ db, sealer, audit, clock, log, scrub, onJournalPoint: deps.onJournalPoint, retryMs: timing.reconcileRetryMs });
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
        if (current !== null) idleLock.unlock();
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
        // Named after the database: two stations' files in one folder never sweep each other's papers.
        papers: new PapersWaiting({ dir: deps.papersDir ?? path.join(path.dirname(deps.databasePath), `${path.parse(deps.databasePath).name}-papers-waiting`), sealer }),
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
      const c = ctx;
      engine.connect(
        viewOf,
        (view) => {
          if (!(view.kind === 'emergency' && (view.state === 'creating' || view.state === 'not-created'))) emit({ type: 'workflow.updated', view });
          followClaim(c, view.workflowId);
          releaseSentPapers(c, view.workflowId);
        },
        (wf) => resumeWorkflow(c, wf),
      );
      unsubscribers.push(session.onChange(statusChanged));
      unsubscribers.push(readers.onChange((snapshot) => emit({ type: 'readers.changed', readers: snapshot })));
      unsubscribers.push(readers.onCaptureRequested((capture) => emit({ type: 'capture.requested', capture })));
      patients.load();
      engine.load();
      await checkWaitingPapers(ctx);
      await followSettings(ctx);
      await session.resume();
      engine.audit({ action: 'station.start', outcome: 'succeeded', summary: `station started (${host})` });
      log.info({ host, workflows: engine.all().filter((wf) => !engine.isEnded(wf)).length }, 'station started');
      if (!idleLock.locked) idleLock.activity();
      watchClock();
      // Reconciliation holds each unfinished workflow's lock until it is done; start waits for it
      // only so long, so that an unreachable exchange does not keep the station from opening.
      if (session.hasClient) await Promise.race([resumeAll(ctx), new Promise((r) => setTimeout(r, timing.exchangeTimeoutMs).unref())]);
      else {
        // Started without a client (no stored secret, or one for another exchange): the waits in
        // flight resume once the facility signs in, not at the next start.
        const off = session.onChange(() => {
          if (!session.hasClient) return;
          off();
          void resumeAll(c);
        });
        unsubscribers.push(off);
      }
      watchClaims(ctx);
    })();
    return starting;
  }

  async function stop(): Promise<void> {
    if (stopped) return;
    stopped = true;
    idleLock.stop();
    clearInterval(clockWatch);
    await starting?.catch(() => undefined);
    for (const off of unsubscribers.splice(0)) off();
    await ctx?.engine.stop();
    await ctx?.session.close();
    db?.close();
    listeners.clear();
    hostListeners.clear();
  }

  async function dispatch(invocation: Invocation): Promise<CommandOutcome<CommandName>> {
    if (idleLock.locked && !OPEN_WHILE_LOCKED.has(invocation.name) && !invocation.name.startsWith('station.')) {
      return { ok: false, error: makeError('LOCKED', current === null ? 'Nobody is signed in: a staff member’s PIN opens the station.' : 'The station is locked.') };
    }
    if (!invocation.name.startsWith('station.')) idleLock.activity();
    try {
      const handler = handlers[invocation.name] as (input: unknown) => Promise<unknown>;
      return { ok: true, value: await handler(invocation.input) } as CommandOutcome<CommandName>;
    } catch (error) {
      const stationError = toStationError(error, scrub);
      if (stationError.code === 'INTERNAL') log.error({ command: invocation.name, err: error instanceof Error ? error.stack : String(error) }, 'command failed');
      return { ok: false, error: stationError };
    }
  }

  /**
   * A validated call: BUSY past the station's bound (nothing is done, and the caller is told at once
   * instead of waiting behind the queue), else the command, its answer as the handler gave it.
   */
  async function run(invocation: Invocation): Promise<CommandOutcome<CommandName>> {
    const started = performance.now();
    if (starting === undefined || stopped) return { ok: false, error: makeError('INTERNAL', 'The station is not running.') };
    if (inFlight >= maxInFlight) return { ok: false, error: makeError('BUSY', 'The station has too many requests under way: nothing was done; try again in a moment.') };
    inFlight += 1;
    let outcome: CommandOutcome<CommandName>;
    try {
      await starting;
      outcome = await dispatch(invocation);
    } catch {
      outcome = { ok: false, error: makeError('INTERNAL', 'The station could not start; see its log.') };
    } finally {
      inFlight -= 1;
    }
    logCommand(log, invocation.name, outcome, performance.now() - started);
    return outcome;
  }

  const bridge: StationBridge = {
    async invoke<N extends CommandName>(name: N, input: unknown): Promise<CommandOutcome<N>> {
      const call = validateInvoke(name, input);
      if (!call.ok) return call as CommandOutcome<N>;
      const outcome = await run(call.value);
      if (!outcome.ok) return outcome as CommandOutcome<N>;
      const checked = checkOutput(call.value.name, outcome.value);
      if (!checked.ok && checked.error.details?.issues !== undefined) {
        log.error({ command: call.value.name, fields: checked.error.details.issues.map((i) => i.field) }, 'an answer outside the contract was withheld');
      }
      return checked as CommandOutcome<N>;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };

  const hosted: HostedCore = {
    invoke: run,
    subscribe(listener) {
      hostListeners.add(listener);
      return () => hostListeners.delete(listener);
    },
  };

  return {
    bridge,
    hosted,
    start,
    stop,
    lock: (reason) => idleLock.lock(reason),
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

/** A change of the station clock's lead over the machine's this large is a jump, not drift. */
const CLOCK_JUMP_MS = 1000;

function logCommand(log: Logger, name: string, outcome: { ok: boolean; error?: { code: string } }, ms: number): void {
  log.info({ command: name, ok: outcome.ok, code: outcome.ok ? undefined : outcome.error?.code, ms: Math.round(ms) }, 'command');
}
