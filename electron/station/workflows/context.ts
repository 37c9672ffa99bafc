// What every workflow module is handed: the engine, the exchange session, the patient directory,
// settings, readers, time and ids. Built once by createStation.
import type { Logger } from 'pino';
import type { Clock, DeviceOs, StationTiming } from '../deps';
import type { Scrubber } from '../logging';
import type { PapersWaiting } from '../papers-waiting';
import type { PatientDirectory } from '../patients';
import type { ReadersFacade } from '../readers';
import type { ExchangeSession } from '../session';
import type { SettingsStore } from '../settings';
import type { StaffMember } from '../staff';
import type { Engine } from './engine';

export interface Ctx {
  readonly engine: Engine;
  readonly session: ExchangeSession;
  readonly patients: PatientDirectory;
  readonly settings: SettingsStore;
  readonly readers: ReadersFacade;
  /** Papers waiting, sealed in the data folder, to go to SHA with a request sent later. */
  readonly papers: PapersWaiting;
  readonly clock: Clock;
  readonly timing: StationTiming;
  readonly log: Logger;
  readonly scrubber: Scrubber;
  readonly deviceOs: DeviceOs;
  /** This station as the visit creation names it: a random id made at its first start, and the computer's name. */
  readonly device: { readonly id: string; readonly name: string };
  /** The staff member signed in (request_user_national_id), or null. */
  operator(): StaffMember | null;
  /** A fresh opaque handle: `wf_…`, `lk_…`, `pt_…`, `st_…` (random, never derived from exchange ids). */
  newId(prefix: 'wf' | 'lk' | 'pt' | 'st'): string;
  nowIso(): string;
}
