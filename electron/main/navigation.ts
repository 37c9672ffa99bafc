// Navigation and window policy for every webContents the app creates. Attached once per
// webContents (app 'web-contents-created'); what a webContents may navigate to is looked up at the
// moment it tries, so the station window and each authorization view get their own rule and every
// other webContents (one nobody registered) may go nowhere. New windows are always denied, and
// <webview> is never attached.
import type { GuardedContentsApi, ShellLog } from './electron-api';

export type UrlRule = (url: string) => boolean;

export class NavigationPolicy {
  readonly #rules = new Map<number, UrlRule>();

  constructor(private readonly log: ShellLog) {}

  /** Sets what the webContents with this id may navigate to (its main frame and its subframes). */
  allow(contentsId: number, rule: UrlRule): void {
    this.#rules.set(contentsId, rule);
  }

  forget(contentsId: number): void {
    this.#rules.delete(contentsId);
  }

  permits(contentsId: number, url: string): boolean {
    const rule = this.#rules.get(contentsId);
    return rule !== undefined && rule(url);
  }

  /** Installs the guards on one webContents. */
  attach(contents: GuardedContentsApi): void {
    const id = contents.id;
    const check = (kind: string) => (event: { url: string; preventDefault(): void }) => {
      if (this.permits(id, event.url)) return;
      event.preventDefault();
      this.log.warn({ contents: id, kind, target: describe(event.url) }, 'navigation refused');
    };
    contents.on('will-navigate', check('will-navigate'));
    contents.on('will-frame-navigate', check('will-frame-navigate'));
    contents.on('will-redirect', check('will-redirect'));
    contents.on('will-attach-webview', (event) => {
      event.preventDefault();
      this.log.warn({ contents: id }, 'webview refused');
    });
    contents.setWindowOpenHandler((details) => {
      this.log.warn({ contents: id, target: describe(details.url) }, 'new window refused');
      return { action: 'deny' };
    });
  }
}

/**
 * What a refused URL looks like in the log: scheme and host only. A path or query could carry a
 * token (the authorization link's own URL does), and logs never carry secrets.
 */
export function describe(url: string): string {
  if (!URL.canParse(url)) return '(unparseable)';
  const parsed = new URL(url);
  return parsed.host === '' ? parsed.protocol : `${parsed.protocol}//${parsed.host}`;
}
