// Browser mode's per-launch secret arrives in the URL fragment (#k=…), which is never sent in a
// request line, a Referer or a log; or, when `npm start` opened the window, a one-time launch code
// (#c=…) that the host exchanges for the secret once and never again (so neither Chromium's command
// line nor the terminal ever shows the secret). Read it once, keep the secret for this tab, and
// clear the address bar. Structural parameter types (not DOM's) so the unit tests can run this under Node.
const storageKey = 'idhini.bridgeSecret';

interface Place {
  readonly hash: string;
  readonly pathname: string;
  readonly search: string;
}
interface AddressBar {
  readonly state: unknown;
  replaceState(state: unknown, unused: string, url: string): void;
}
interface TabStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export type LaunchCredential = { readonly secret: string } | { readonly code: string };

export function takeLaunchSecret(location: Place, history: AddressBar, storage: TabStorage): LaunchCredential | null {
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ''));
  const secret = fragment.get('k');
  const code = fragment.get('c');
  if ((secret !== null && secret !== '') || (code !== null && code !== '')) {
    fragment.delete('k');
    fragment.delete('c');
    const rest = fragment.toString();
    history.replaceState(history.state, '', `${location.pathname}${location.search}${rest === '' ? '' : `#${rest}`}`);
    if (secret !== null && secret !== '') {
      storage.setItem(storageKey, secret);
      return { secret };
    }
    return { code: code! };
  }
  const kept = storage.getItem(storageKey);
  return kept === null ? null : { secret: kept };
}

/** Keeps the secret a launch code was exchanged for, for this tab's reconnects and reloads. */
export function keepLaunchSecret(storage: TabStorage, secret: string): void {
  storage.setItem(storageKey, secret);
}
