// The Chromium set-up of a browser test file (`*.browser.test.ts`), once: the renderer built when
// its sources changed, Debian's Chromium launched before the file's tests and closed after them.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { ensureRendererBuilt, launchChromium } from './chromium';

export interface ChromiumSuite {
  /** The file's browser, launched by the time its tests run. */
  readonly browser: Browser;
}

/**
 * Registers the file's beforeAll/afterAll: `renderer: false` for a page that is not the station's
 * (the sandbox's authorization page). `setUp` runs beside the launch (a station to start, say) and
 * `tearDown` before the browser closes.
 */
export function useChromium(options: { renderer?: boolean; setUp?: () => Promise<void>; tearDown?: () => Promise<void> } = {}): ChromiumSuite {
  let browser: Browser | undefined;
  beforeAll(async () => {
    if (options.renderer !== false) await ensureRendererBuilt();
    [browser] = await Promise.all([launchChromium(), options.setUp?.()]);
  }, 240_000);
  afterAll(async () => {
    try {
      await options.tearDown?.();
    } finally {
      await browser?.close();
    }
  });
  return {
    get browser(): Browser {
      if (browser === undefined) throw new Error('Chromium is launched in beforeAll: use the browser inside a test or hook');
      return browser;
    },
  };
}
