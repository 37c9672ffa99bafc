// The webPreferences of every renderer the shell creates: the station window (our own code, from
// app://) and the authorization link's view (the payer's page). Each flag is spelled out, even where
// it is Electron's default, so a reviewer (and test/unit/shell) sees the whole policy in one place.
import type { Session, WebPreferences } from 'electron';

const hardened = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  experimentalFeatures: false,
  webviewTag: false,
  navigateOnDragDrop: false,
  enableWebSQL: false,
  plugins: false,
  safeDialogs: true,
  spellcheck: false,
  // Middle-click opens links in a new window; new windows are denied anyway, this stops the attempt.
  disableBlinkFeatures: 'Auxclick',
} as const satisfies WebPreferences;

export type HardenedPreferences = typeof hardened;

/** The station window: our renderer with the preload that exposes window.idhini. */
export function stationWebPreferences(options: { preload: string; devTools: boolean }): WebPreferences & HardenedPreferences {
  return { ...hardened, preload: options.preload, devTools: options.devTools };
}

/**
 * The payer's authorization page: no preload (the page gets nothing from us), no dev tools, its own
 * in-memory session, dialogs off (a page alert must not block the nurse).
 */
export function linkWebPreferences(session: Session): WebPreferences & HardenedPreferences {
  return { ...hardened, session, devTools: false, disableDialogs: true };
}

