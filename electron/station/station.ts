// createStation: the station core behind one StationBridge, in four parts: composition.ts puts the
// running station together (every part there, the areas' commands made on them), lifecycle.ts brings
// it up and down, dispatch.ts takes each command to its handler (BUSY, LOCKED, the idle time), and
// events.ts tells the listeners. Every call is checked with validateInvoke, answered through
// checkOutput, and every event pushed through checkEvent, so the core itself cannot hand the
// renderer anything outside the contract. Someone is always answerable: the station opens with a
// staff member's PIN (in training as the demo "Training nurse"), and while locked it does nothing
// but let someone sign in (lock-gate.ts). What decides where secrets go is the
// administrator's (access.ts).
import type { Logger } from 'pino';
import { checkOutput, validateInvoke, type CommandName, type CommandOutcome, type HostedCore, type StationBridge, type StationSettings } from '../contract';
import { findLink, type StationBase } from './composition';
import { defaultRandomId, defaultTiming, systemClock, type StationDeps } from './deps';
import { createDispatch, STATION_COMMANDS_IN_FLIGHT } from './dispatch';
import { StationEvents } from './events';
import type { LockReason } from './idle-lock';
import { createStationLogger } from './logging';
import { noReaders } from './readers';
import { StationLifecycle } from './lifecycle';

export { STATION_COMMANDS_IN_FLIGHT } from './dispatch';

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
  /**
   * The authorization link behind a handle, for the Electron shell's own view (null when not pending,
   * and while the station is locked: the shell answers authorizationView.setArea itself, past the
   * lock gate, so a locked station shows no link through it).
   */
  authorizationLink(handle: string): { url: string; expiresAt: string; allowedOrigins: string[] } | null;
  /**
   * A launcher's sign-in of the facility with credentials it read itself (station:web's secret file):
   * not on the bridge, so nothing in the station window can call it.
   */
  signInFacility(credentials: { clientId: string; clientSecret: string }): Promise<void>;
  /**
   * The settings as the launcher reads them at start (what the first-run screen will ask for): not
   * on the bridge, where a locked station answers nothing but its status and the sign-in.
   */
  settings(): Promise<StationSettings>;
}

export function createStation(deps: StationDeps): Station {
  const { log, scrubber } = createStationLogger({ destination: deps.log?.destination, level: deps.log?.level });
  const base: StationBase = {
    deps,
    host: deps.host ?? 'browser',
    clock: deps.clock ?? systemClock,
    timing: { ...defaultTiming, ...deps.timing },
    randomId: deps.randomId ?? defaultRandomId,
    readers: deps.readers ?? noReaders(),
    log,
    scrubber,
    events: new StationEvents(log),
  };
  const lifecycle = new StationLifecycle(base);
  const run = createDispatch({ running: () => lifecycle.running, maxInFlight: deps.maxCommandsInFlight ?? STATION_COMMANDS_IN_FLIGHT, log, scrub: (text) => scrubber.scrub(text) });
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
    subscribe: (listener) => base.events.subscribe(listener),
  };

  const hosted: HostedCore = {
    invoke: run,
    subscribe: (listener) => base.events.subscribeHosted(listener),
  };

  return {
    bridge,
    hosted,
    async start() {
      await lifecycle.start();
    },
    stop: () => lifecycle.stop(),
    // Before start the station is locked already: there is nothing to lock.
    lock: (reason) => lifecycle.composed?.services.lock.lock(reason),
    log,
    async signInFacility(credentials) {
      const { ctx } = await lifecycle.start();
      await ctx.session.signIn(credentials.clientId, credentials.clientSecret);
      ctx.engine.audit({ action: 'facility.signIn', outcome: 'succeeded', summary: 'facility signed in by the launcher' });
      log.info({ clientId: credentials.clientId.slice(0, 60) }, 'facility signed in by the launcher');
    },
    async settings() {
      const { ctx } = await lifecycle.start();
      return ctx.settings.view();
    },
    authorizationLink(handle) {
      const composed = lifecycle.composed;
      if (composed === undefined || composed.services.lock.locked) return null;
      const ctx = composed.ctx;
      const link = findLink(ctx, handle);
      if (link === null) return null;
      return { url: link.url, expiresAt: link.expiresAt, allowedOrigins: [...ctx.settings.values.allowedLinkOrigins] };
    },
  };
}
