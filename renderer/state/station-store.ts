// The station as the nurse sees it around every screen: sign-in and settings, the exchange and
// reader states in the status bar, the idle lock, the connection to the station itself, and the
// station's clock (every status carries its `now`; countdowns count on it, ui/station-time.ts).
import { create } from 'zustand';
import type { ConnectionState, StationError, StationEvent } from '../bridge/types';
import type { ReadersSnapshot, StationSettings, StationStatus } from '../../electron/contract';
import { call, currentConnection, onLockedAnswer, subscribe } from './bridge';
import { go, signedIn } from './navigation';
import { dropPatientData } from './patient-data';
import { refreshAllViews, useWorkflows } from './workflows';
import { followStationTime } from '../ui/station-time';

export type Language = StationSettings['language'];

interface CaptureAsk {
  readonly origin: string;
  readonly requestedAt: string;
}

interface StationState {
  /** 'starting' until the first answers; 'failed' when the station could not be reached at all. */
  readonly phase: 'starting' | 'ready' | 'failed';
  readonly bootError: StationError | null;
  readonly connection: ConnectionState;
  readonly status: StationStatus | null;
  readonly settings: StationSettings | null;
  readonly readers: ReadersSnapshot | null;
  readonly capture: CaptureAsk | null;
  readonly locked: boolean;
}

export const useStation = create<StationState>()(() => ({
  phase: 'starting',
  bootError: null,
  connection: 'connecting',
  status: null,
  settings: null,
  readers: null,
  capture: null,
  locked: false,
}));

const set = useStation.setState;

/** Whether the first-run screen is needed: settings still missing, or no facility credentials yet. */
export function needsSetup(settings: StationSettings | null): boolean {
  return settings !== null && (settings.missing.length > 0 || !settings.credentialsStored);
}

export async function startStation(): Promise<void> {
  subscribe(handleEvent);
  onLockedAnswer(() => lockScreen());
  const connection = currentConnection();
  if (connection !== null) {
    set({ connection: connection.state });
    let previous = connection.state;
    connection.onChange((state) => {
      set({ connection: state });
      if (state === 'ready' && previous === 'reconnecting') void resync();
      previous = state;
    });
  }
  await loadAll();
}

export async function loadAll(): Promise<void> {
  const [settings, status, readers] = await Promise.all([
    call('settings.get', {}),
    call('station.status', {}),
    call('readers.state', {}),
  ]);
  // A locked station answers its status and nothing else (settings, readers: LOCKED); the lock
  // screen needs no more, and its words come in the status's language.
  if (status.ok && status.value.locked) {
    followStationTime(status.value.now);
    set({ phase: 'ready', bootError: null, status: status.value, settings: null, readers: null, locked: true });
    return;
  }
  if (!settings.ok) {
    set({ phase: 'failed', bootError: settings.error });
    return;
  }
  if (status.ok) followStationTime(status.value.now);
  set({
    phase: 'ready',
    bootError: null,
    settings: settings.value,
    status: status.ok ? status.value : null,
    readers: readers.ok ? readers.value : null,
    locked: false,
  });
  signedIn(status.ok ? (status.value.staff?.staffRef ?? null) : null);
  // Setup is the administrator's (in training, whoever is signed in).
  if (needsSetup(settings.value)) go({ name: 'setup' });
}

/** After a reconnect: whatever changed while the line was down. */
async function resync(): Promise<void> {
  await loadAll();
  await refreshAllViews();
}

export function handleEvent(event: StationEvent): void {
  switch (event.type) {
    case 'workflow.updated':
      if (!useStation.getState().locked) useWorkflows.getState().upsert(event.view);
      return;
    case 'readers.changed':
      set({ readers: event.readers, capture: event.readers.capture });
      return;
    case 'capture.requested':
      set({ capture: event.capture });
      return;
    case 'station.statusChanged':
      followStationTime(event.status.now);
      set({ status: event.status });
      if (event.status.locked && !useStation.getState().locked) lockScreen();
      return;
    case 'station.locked':
      lockScreen();
      return;
    case 'station.unlocked':
      set({ locked: false });
      return;
  }
}

function lockScreen(): void {
  dropPatientData();
  set({ locked: true, capture: null });
}

export async function refreshReaders(probe: boolean): Promise<void> {
  const readers = await call('readers.state', probe ? { refresh: true } : {});
  if (readers.ok) set({ readers: readers.value, capture: readers.value.capture });
}

export async function declineCapture(): Promise<void> {
  const readers = await call('readers.cancelCapture', {});
  if (readers.ok) set({ readers: readers.value, capture: readers.value.capture });
}

export async function lockStation(): Promise<void> {
  lockScreen();
  const status = await call('station.lock', {});
  if (!status.ok) return;
  followStationTime(status.value.now);
  set({ status: status.value });
}

/** A staff member's PIN at the lock: hers opens the station, another's signs her in; then everything is read afresh. */
export async function unlockStation(pin: string): Promise<StationError | null> {
  const status = await call('station.unlock', { pin });
  if (!status.ok) return status.error;
  followStationTime(status.value.now);
  set({ status: status.value, locked: status.value.locked });
  await loadAll();
  return null;
}

/** The first administrator of a station that has none: made and signed in at once; then everything is read afresh. */
export async function setUpAdministrator(input: { name: string; pin: string }): Promise<StationError | null> {
  const status = await call('station.setUpAdministrator', input);
  if (!status.ok) return status.error;
  followStationTime(status.value.now);
  set({ status: status.value, locked: status.value.locked });
  await loadAll();
  return null;
}

export function settingsChanged(settings: StationSettings): void {
  set({ settings });
}

let lastActivityReport = 0;
/**
 * Browser mode has no system idle time to read: tell the station the nurse is here (her key and
 * pointer input), at most twice a minute. The station counts nothing else the screens send as her.
 */
export function reportActivity(now: number): void {
  if (useStation.getState().locked || now - lastActivityReport < 30_000) return;
  lastActivityReport = now;
  void call('station.reportActivity', {}).then((status) => {
    if (!status.ok) return;
    followStationTime(status.value.now);
    set({ status: status.value });
  });
}
