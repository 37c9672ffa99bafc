// Debian's Chromium for every test, script and benchmark that drives a page: launched with the
// brief's flags through playwright-core (never `playwright install`), the renderer built when its
// sources changed, axe-core run in a page, and a directory served on loopback. Plain Node: the
// vitest hooks around it are in browser-suite.ts, so `npm run screens` and `npm run bench` use the
// same set-up as the tests.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';

export { ensureRendererBuilt } from '../../scripts/start-support';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const distDir = join(root, 'dist/renderer');

/** The flags the brief fixes for Debian's Chromium. */
export const chromiumFlags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: chromiumFlags });
}

export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly targets: string[];
}

/** Runs axe-core (node_modules/axe-core/axe.min.js) in the page; returns the violations. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const hasAxe = await page.evaluate(() => 'axe' in globalThis);
  // Evaluated through the DevTools protocol, not as a script tag, so the renderer's CSP (script-src
  // 'self') stays as it is in production while axe runs.
  if (!hasAxe) await page.evaluate(`${readFileSync(join(root, 'node_modules/axe-core/axe.min.js'), 'utf8')}\n;void 0`);
  return page.evaluate(async () => {
    const page = globalThis as unknown as {
      document: unknown;
      axe: { run: (context: unknown, options: unknown) => Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[] }> };
    };
    const result = await page.axe.run(page.document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
  });
}

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
};

export interface StaticServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Answers a request itself (true), or leaves it to the directory (false). */
export type ExtraRoute = (path: string, origin: string, response: ServerResponse) => boolean;

/** Serves a built directory on a free loopback port (the benchmark's bare React page, the renderer's build). */
export async function serveDirectory(dir: string, extra?: ExtraRoute): Promise<StaticServer> {
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    if (extra?.(path, `http://${request.headers.host ?? '127.0.0.1'}`, response) === true) return;
    const file = resolve(dir, `.${path === '/' ? '/index.html' : path}`);
    if (!file.startsWith(dir) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
    response.end(readFileSync(file));
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
