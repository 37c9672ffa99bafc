// Browser mode's per-launch secret arrives in the URL fragment (#k=…), which is never sent in a
// request line, a Referer or a log. Read it once, keep it for this tab, and clear the address bar.
// Structural parameter types (not DOM's) so the unit tests can run this under Node.
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

export function takeLaunchSecret(location: Place, history: AddressBar, storage: TabStorage): string | null {
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ''));
  const fromUrl = fragment.get('k');
  if (fromUrl !== null && fromUrl !== '') {
    storage.setItem(storageKey, fromUrl);
    fragment.delete('k');
    const rest = fragment.toString();
    history.replaceState(history.state, '', `${location.pathname}${location.search}${rest === '' ? '' : `#${rest}`}`);
    return fromUrl;
  }
  return storage.getItem(storageKey);
}
