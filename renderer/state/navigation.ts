// Which screen is showing. Screens are few and shallow, so a small store replaces a router: there are
// no URLs to share in a station, and the address bar holds nothing of the patient. Each screen is
// still an entry of the window's history (its state, never its URL: opaque handles only), so the
// browser's Back and Forward move between the station's own screens and a reload reopens the screen
// she was on. A lock, or a reload onto the lock, keeps where she was for her own PIN only: another
// staff member signing in starts at the look-up, and never walks back into her screens.
import { create } from 'zustand';
import { holdsPatientData } from './patient-data';
import { isHandle, routeOf, type Route } from './route';

export type { Route } from './route';

/** What a history entry holds: the screen, and who was signed in when it was opened. */
interface Entry {
  readonly route: Route;
  readonly staffRef: string | null;
}

interface NavigationState {
  readonly route: Route;
  go(route: Route): void;
}

function entryOf(state: unknown): Entry | null {
  if (typeof state !== 'object' || state === null || !('idhini' in state)) return null;
  const entry = state.idhini;
  if (typeof entry !== 'object' || entry === null || !('route' in entry) || !('staffRef' in entry)) return null;
  const route = routeOf(entry.route);
  const staffRef = entry.staffRef;
  return route === null || (staffRef !== null && !isHandle(staffRef)) ? null : { route, staffRef };
}

const LOOKUP: Route = { name: 'lookup' };
/** Screens that show nothing of a patient: they stay on screen behind a lock. */
const NO_PATIENT = new Set<Route['name']>(['setup', 'settings', 'activity']);

/** Whether someone is signed in (false until the station says, and behind the lock), and who. */
let open = false;
let staffRef: string | null = null;
/** Where to go back to once the station knows who is signed in: the reloaded entry, or the screen the lock covered. */
let resumable: Entry | null = entryOf(window.history.state);

const record = (route: Route, how: 'push' | 'replace') => {
  const state = { idhini: { route, staffRef } satisfies Entry };
  if (how === 'push') window.history.pushState(state, '');
  else window.history.replaceState(state, '');
};

const same = (a: Route, b: Route) => JSON.stringify(a) === JSON.stringify(b);

export const useNavigation = create<NavigationState>()((set, get) => ({
  route: LOOKUP,
  go: (route) => {
    record(route, same(route, get().route) ? 'replace' : 'push');
    set({ route });
  },
}));

export const go = (route: Route) => useNavigation.getState().go(route);

/** The current screen said more exactly (the patient's ref once known): the same history entry, no new one. */
export function settle(route: Route): void {
  record(route, 'replace');
  useNavigation.setState({ route });
}

/**
 * The station is open to a staff member (at boot, after a reconnect, once the lock opens): back
 * where she was when she is the one who was there, else the look-up.
 */
export function signedIn(who: string | null): void {
  open = true;
  staffRef = who;
  const entry = resumable;
  resumable = null;
  if (entry === null) return;
  settle(entry.staffRef === who ? entry.route : LOOKUP);
}

window.addEventListener('popstate', (event) => {
  // Behind the lock no screen is drawn; an entry of someone else's work is not reopened.
  if (!open) return;
  const entry = entryOf(event.state);
  useNavigation.setState({ route: entry !== null && entry.staffRef === staffRef ? entry.route : LOOKUP });
});

// The lock: the screen is kept for her PIN (the history entry too, so a reload at the lock still
// knows it); the patient screens give way to the look-up behind the lock.
holdsPatientData(() => {
  const { route } = useNavigation.getState();
  if (open) resumable = { route, staffRef };
  open = false;
  if (!NO_PATIENT.has(route.name)) useNavigation.setState({ route: LOOKUP });
});
