// The running station, put together: the database and its key, the audit log, settings and the
// provisioning applied, the engine, the exchange session, staff, the patient directory, the lock,
// the views, the context every workflow is handed, and each area's commands made on these parts.
// Everything here exists once composition is done, so no part is ever asked for before it is
// there; bringing the parts up and down (loading, reconciling, watching) is lifecycle.ts's.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import type { WorkflowView } from '../contract';
import { TRAINING_NURSE } from './access';
import { AuditLog, legacyTrailIntact, recordChainOpening } from './audit';
import { AuditChain } from './audit-chain';
import { claimsCommands } from './commands/claims';
import { consentCommands } from './commands/consent';
import { correctionCommands } from './commands/corrections';
import { dischargeCommands } from './commands/discharge';
import { electiveCommands } from './commands/elective';
import { emergencyCommands } from './commands/emergency';
import { lookupCommands } from './commands/lookups';
import { patientCommands } from './commands/patients';
import { prescriptionCommands } from './commands/prescriptions';
import { programmeCommands } from './commands/programmes';
import { readerCommands } from './commands/readers';
import { scannerCommands } from './commands/scanner';
import { makeWorkflowCommand, type Handlers, type StationServices } from './commands/services';
import { settingsCommands } from './commands/settings';
import { staffCommands } from './commands/staff';
import { stationCommands } from './commands/station';
import { visitCommands } from './commands/visit';
import { openDatabase, type Db } from './db';
import { deviceOsOf, type Clock, type StationDeps, type StationTiming } from './deps';
import { stationStatus, type StationEvents } from './events';
import { IdleLock } from './idle-lock';
import { sentWhileLocked } from './lock-gate';
import type { Scrubber } from './logging';
import { PapersWaiting } from './papers-waiting';
import { PatientDirectory } from './patients';
import { Quarantine } from './quarantine';
import type { ReadersFacade } from './readers';
import { loadSealer } from './sealing';
import { ExchangeSession } from './session';
import { SettingsStore } from './settings';
import { openStaffRegistry, PinGuard, type StaffMember } from './staff';
import { ActivityView } from './views/activity';
import { WorkQueue } from './views/work-queue';
import type { Ctx } from './workflows/context';
import { Engine } from './workflows/engine';
import { hostOf, viewOf as kindView } from './workflows/kinds';
import type { AnyWorkflow } from './workflows/types';

/** What the station has before it starts: its options resolved, its log and its listeners. */
export interface StationBase {
  readonly deps: StationDeps;
  readonly host: 'electron' | 'browser';
  readonly clock: Clock;
  readonly timing: StationTiming;
  readonly randomId: () => string;
  readonly readers: ReadersFacade;
  readonly log: Logger;
  readonly scrubber: Scrubber;
  readonly events: StationEvents;
}

/** The station once composed: every part there, the areas' commands made on them. */
export interface RunningStation {
  readonly base: StationBase;
  readonly db: Db;
  readonly ctx: Ctx;
  readonly services: StationServices;
  readonly handlers: Handlers;
}

export async function composeStation(base: StationBase): Promise<RunningStation> {
  const { deps, clock, timing, readers, log, scrubber, host, events } = base;
  const scrub = (text: string) => scrubber.scrub(text);
  const db = openDatabase(deps.databasePath);
  const sealedRows = (db.prepare('SELECT (SELECT COUNT(*) FROM workflows) + (SELECT COUNT(*) FROM patients) + (SELECT COUNT(*) FROM calls) AS n').get() as { n: number }).n;
  const sealer = await loadSealer(deps.secrets, sealedRows > 0);
  /** Who works at the station now; kept while it is locked, so the lock can name her. */
  let current: StaffMember | null = null;
  // The chain's key and anchored head, held to the database before anything is added (audit-chain.ts).
  const chain = await AuditChain.open({
    db,
    secrets: deps.secrets,
    legacyIntact: () => legacyTrailIntact(db),
    onWriteFailed: (error) => log.error({ err: error instanceof Error ? error.message : String(error) }, 'the audit head could not be anchored in the secret store'),
  });
  const audit = new AuditLog(db, scrub, chain.chain, () => current?.name ?? null);
  recordChainOpening(audit, chain.opening, new Date(clock.now()).toISOString(), log);
  if (sealer.replaced) {
    log.error({ records: sealedRows }, 'the journal key was missing from the secret store: a new one was made and the earlier records cannot be read');
    audit.append({ at: new Date(clock.now()).toISOString(), action: 'station.journalKeyReplaced', outcome: 'failed', errorCode: 'INTERNAL', summary: `journal key missing; ${sealedRows} earlier records unreadable` });
    // Patients' refs are found by a hash under the old key: no look-up can reach them any more.
    db.prepare('DELETE FROM patient_refs').run();
  }
  const quarantine = new Quarantine({ db, nowIso: () => new Date(clock.now()).toISOString(), audit: (entry) => audit.append({ ...entry, at: new Date(clock.now()).toISOString() }) });
  const settings = new SettingsStore(db, deps.secrets, quarantine);
  if (settings.isEmpty && deps.initialSettings !== undefined) settings.update(deps.initialSettings as Parameters<SettingsStore['update']>[0]);
  const provisioning = deps.provisioning;
  if (provisioning !== undefined) {
    settings.update(provisioning.settings as Parameters<SettingsStore['update']>[0]);
    if (provisioning.source === 'file') settings.provisioned = Object.keys(provisioning.settings) as (keyof typeof provisioning.settings)[];
  }
  const engine = new Engine({ db, sealer, audit, quarantine, clock, log, scrub, onJournalPoint: deps.onJournalPoint, retryMs: timing.reconcileRetryMs });
  const session = new ExchangeSession({ settings, factory: deps.exchangeClientFactory, clock, log, scrubber, scrub, timeoutMs: timing.exchangeTimeoutMs });
  const newId = (prefix: 'wf' | 'lk' | 'pt' | 'st') => `${prefix}_${base.randomId().replace(/[^A-Za-z0-9_-]/g, '').slice(0, 48)}`;
  const nowIso = () => new Date(clock.now()).toISOString();
  const staffOpened = await openStaffRegistry({ db, secrets: deps.secrets, newRef: () => newId('st'), now: nowIso });
  const staff = staffOpened.registry;
  if (staffOpened.forgotten > 0) {
    log.error({ staff: staffOpened.forgotten }, 'the PIN pepper was missing from the secret store: the staff added at this station must be added again');
    audit.append({ at: nowIso(), action: 'staff.pepperReplaced', outcome: 'failed', errorCode: 'INTERNAL', summary: `PIN pepper missing; ${staffOpened.forgotten} staff added here removed` });
  }
  if (staffOpened.keyed > 0) log.info({ staff: staffOpened.keyed }, 'PIN hashes of an older station keyed with the pepper');
  const pinGuard = new PinGuard(db, () => clock.now());
  await staff.replaceSource('provisioned', provisioning?.staff ?? []);
  // Training starts signed in as the demo nurse; she exists in training mode only.
  await staff.replaceSource('training', settings.values.trainingMode ? [TRAINING_NURSE] : []);
  const deviceId = settings.memo('deviceId') ?? `idhini-${randomUUID()}`;
  settings.remember('deviceId', deviceId);
  const patients = new PatientDirectory({ db, sealer, quarantine, session, settings, clock, log, scrubber, newRef: () => newId('pt') });
  const ctx: Ctx = {
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
  const lock = new IdleLock({
    clock,
    ...(deps.idleClock === undefined ? {} : { idleClock: deps.idleClock }),
    checkEveryMs: timing.idleCheckMs,
    idleMinutes: () => settings.values.idleLockMinutes,
    onLocked: (reason) => {
      engine.audit({ action: 'station.lock', outcome: 'succeeded', summary: `locked (${reason})` });
      events.emit({ type: 'station.locked', reason, at: nowIso() });
      statusChanged();
    },
  });
  // A locked station tells the window nothing but the lock's own news (lock-gate.ts).
  events.withhold((event) => lock.locked && !sentWhileLocked(event));
  if (settings.values.trainingMode) {
    current = staff.all().find((m) => m.source === 'training') ?? null;
    if (current !== null) lock.unlock();
  }
  const viewOf = (wf: AnyWorkflow): WorkflowView => {
    const view = kindView(ctx, wf);
    return host === 'electron' ? withLinkOriginOnly(view) : view;
  };
  const parts = { deps, host, clock, readers, ctx, lock, staff, quarantine, current: () => current };
  const status = () => stationStatus(parts);
  function statusChanged(): void {
    events.emit({ type: 'station.statusChanged', status: status() });
  }
  const services: StationServices = {
    deps,
    host,
    readers,
    lock,
    ctx,
    audit,
    activity: new ActivityView(db, (id) => engine.get(id)),
    workQueue: new WorkQueue(db),
    staff,
    pinGuard,
    current: () => current,
    setCurrent: (member) => {
      current = member;
    },
    viewOf,
    status,
    statusChanged,
    emit: (event) => events.emit(event),
    followSettings: () => followSettings(base, ctx),
    findLink: (handle) => findLink(ctx, handle),
    workflowCommand: makeWorkflowCommand({ ctx, viewOf }),
  };
  return { base, db, ctx, services, handlers: handlersOf(services) };
}

/** Every area's commands, each name once. */
function handlersOf(services: StationServices): Handlers {
  return {
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
}

/**
 * The readers' side follows settings: the local device service allows exactly the link origins
 * (and the sandbox in training); the reader manager prefers the reader chosen in settings.
 */
export async function followSettings(base: StationBase, ctx: Ctx): Promise<void> {
  const { allowedLinkOrigins, trainingMode, exchangeBaseUrl, reader } = ctx.settings.values;
  try {
    await base.readers.useSettings?.({ allowedLinkOrigins, trainingMode, exchangeBaseUrl, reader });
  } catch (error) {
    base.log.error({ err: error instanceof Error ? error.message : String(error) }, 'the readers could not follow the settings');
  }
}

/** The authorization link behind a handle while its fingerprint request is pending. */
export function findLink(ctx: Ctx, handle: string) {
  for (const wf of ctx.engine.all()) {
    const v = hostOf(wf)?.step(wf);
    if (v?.link?.handle === handle && v.stage === 'awaiting-fingerprint') return v.link;
  }
  return null;
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
