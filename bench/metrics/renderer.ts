// The renderer's speed and size, measured in Debian's Chromium (playwright-core):
// - renderer_first_screen_ratio: time from navigation to the look-up screen (its "ID number"
//   field on screen) over the same for a bare React page that shows only that field, built the
//   same way (Vite, @vitejs/plugin-react, production) and loaded the same way in the same run.
//   Both are served from loopback, each sample in a fresh browser context (cold cache), the two
//   pages interleaved; the renderer's station is a minimal in-page stub answering its four
//   start-up calls at once, so what is measured is the renderer, not the station.
// - renderer_initial_js_kb_gz: the JavaScript the look-up screen needs before anything else (the
//   entry script and its modulepreloads in dist/renderer/index.html), gzipped at level 9.
// - interventions_filter_ms: one keystroke in the services search with the ~850 interventions of
//   a covered member loaded (the fake station): from the input event until React has committed
//   the filtered, windowed list and the browser has laid it out; the 95th percentile of 60 keys.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import type { Browser } from 'playwright-core';
import { build } from 'vite';
import { eachPart, type MetricSpec } from '../metric';
import { median } from '../stats';
import { openWithFake } from '../../test/fixtures/renderer/harness';
import { distDir, ensureRendererBuilt, launchChromium, root, serveDirectory } from '../../test/support/chromium';

const SAMPLES = 21;
const KEYS = 60;

/** Resolves in the page when a label "ID number" names a field that is in the document. */
const firstScreenProbe = `
  (() => {
    const ready = () => Array.from(document.querySelectorAll('label')).some((l) => l.textContent === 'ID number' && l.htmlFor && document.getElementById(l.htmlFor));
    const observer = new MutationObserver(() => {
      if (window.__firstScreenAt === undefined && ready()) { window.__firstScreenAt = performance.now(); observer.disconnect(); }
    });
    observer.observe(document, { childList: true, subtree: true });
  })();
`;

/** The four calls the renderer makes before the look-up screen, answered at once (no zod, no fake world). */
const stationStub = `
  (() => {
    const now = new Date().toISOString();
    const answers = {
      'settings.get': { exchangeBaseUrl: 'http://127.0.0.1:1', trainingMode: true, clientId: 'demo', credentialsStored: true, facilityCode: 'FID-00-000004-0',
        facilityName: 'Bench Hospital', agentNationalId: '20000001', allowedLinkOrigins: [], language: 'en', idleLockMinutes: 5,
        reader: { source: 'auto', readerId: null }, defaultServiceType: 'OUTPATIENT', missing: [] },
      'station.status': { contractVersion: 1, host: 'browser', appVersion: '0', trainingMode: true, signedIn: true, facility: null, now,
        exchange: { state: 'reachable', checkedAt: now, latencyMs: 1 }, unavailablePieces: [], locked: false, lockAt: null, setAside: { count: 0, records: [] } },
      'readers.state': { reader: { state: 'idle', readerId: 'v', label: 'v', connection: 'virtual', protocol: null, virtual: true, message: null },
        hardwareService: { state: 'not-running', scanners: [], workstationId: null, version: null, checkedAt: null },
        localDeviceService: { state: 'running', url: null, message: null }, capture: null },
      'patient.recent': { items: [] },
    };
    window.idhini = {
      invoke: async (name) => (name in answers ? { ok: true, value: answers[name] } : { ok: true, value: answers['station.status'] }),
      subscribe: () => () => {},
    };
  })();
`;

async function buildBareReact(): Promise<string> {
  const dir = join(root, 'dist/bench-bare-react');
  const src = join(dir, 'src');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(src, { recursive: true });
  writeFileSync(
    join(src, 'index.html'),
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bare</title></head><body><div id="root"></div><script type="module" src="./main.tsx"></script></body></html>',
  );
  writeFileSync(
    join(src, 'main.tsx'),
    [
      "import { StrictMode } from 'react';",
      "import { createRoot } from 'react-dom/client';",
      'function Page() { return <main><label htmlFor="n">ID number</label><input id="n" /></main>; }',
      "createRoot(document.getElementById('root')!).render(<StrictMode><Page /></StrictMode>);",
    ].join('\n'),
  );
  const previous = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      root: src,
      configFile: false,
      base: './',
      logLevel: 'silent',
      plugins: [react()],
      build: { outDir: join(dir, 'out'), emptyOutDir: true, target: 'chrome120', reportCompressedSize: false },
    });
  } finally {
    if (previous === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = previous;
  }
  return join(dir, 'out');
}

async function timeToFirstScreen(browser: Browser, url: string, stub: boolean): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.addInitScript(firstScreenProbe);
    if (stub) await page.addInitScript(stationStub);
    await page.goto(url);
    await page.waitForFunction(() => (globalThis as unknown as { __firstScreenAt?: number }).__firstScreenAt !== undefined, undefined, { timeout: 20_000 });
    return await page.evaluate(() => (globalThis as unknown as { __firstScreenAt: number }).__firstScreenAt);
  } finally {
    await context.close();
  }
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)] as number;

function initialJsKbGz(): number {
  const html = readFileSync(join(distDir, 'index.html'), 'utf8');
  const scripts = [...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g), ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g)].map((m) => m[1] as string);
  const bytes = scripts.reduce((sum, src) => sum + gzipSync(readFileSync(join(distDir, src)), { level: 9 }).length, 0);
  return Math.round((bytes / 1024) * 10) / 10;
}

/**
 * Types into the services search one key at a time; per key, from the input event until React has
 * committed the filtered list (the count line changes) and layout is done. The native value setter
 * is used so React's value tracker sees a change as it does for a real key.
 */
function keystrokeTimer(text: string, keys: number): string {
  return `(async () => {
    const text = ${JSON.stringify(text)};
    const input = document.getElementById('intervention-search');
    const count = () => document.querySelector('.picker p.muted')?.textContent ?? '';
    const setValue = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(input), 'value').set;
    const times = [];
    let typed = '';
    for (let i = 0; i < ${keys}; i++) {
      typed = i % text.length === 0 ? text[0] : typed + text[i % text.length];
      const before = count();
      const start = performance.now();
      setValue.call(input, typed);
      input.dispatchEvent(new Event('input', { bubbles: true }));
      // React commits a discrete update in a microtask after the event: wait for it, then lay out.
      for (let spin = 0; spin < 5 && count() === before && typed.length > 1; spin++) await Promise.resolve();
      document.body.getBoundingClientRect();
      times.push(performance.now() - start);
      await new Promise((resolve) => requestAnimationFrame(() => resolve()));
    }
    return times;
  })()`;
}

async function filterPerKeystroke(browser: Browser): Promise<number> {
  const server = await serveDirectory(distDir);
  try {
    const { context, page } = await openWithFake(browser, server);
    try {
      const field = page.getByRole('textbox', { name: 'ID number' });
      await field.fill('30000001');
      await field.press('Enter');
      await page.getByText('852 of 852 services').waitFor({ timeout: 20_000 });
      const text = 'general outpatient consultation paediatric follow-up visit level 4 care ';
      // In-page code as a string: the TypeScript runner would otherwise wrap its functions in
      // helpers the page does not have.
      const times = (await page.evaluate(keystrokeTimer(text, KEYS))) as number[];
      return percentile(times, 95);
    } finally {
      await context.close();
    }
  } finally {
    await server.close();
  }
}

export const specs: readonly MetricSpec[] = [
  { name: 'renderer_first_screen_ratio', unit: 'x', goal: '<= 1.3' },
  { name: 'renderer_initial_js_kb_gz', unit: 'KB', goal: '<= 120' },
  { name: 'interventions_filter_ms', unit: 'ms', goal: '<= 16' },
];

export default async function rendererMetrics(report: (name: string, value: number) => void): Promise<void> {
  await ensureRendererBuilt();
  const bareDir = await buildBareReact();
  const [renderer, bare] = await Promise.all([serveDirectory(distDir), serveDirectory(bareDir)]);
  const browser = await launchChromium();
  try {
    await eachPart([
      async () => {
        // Warm the browser's own start-up paths once for each page, then interleave.
        await timeToFirstScreen(browser, `${renderer.url}/`, true);
        await timeToFirstScreen(browser, `${bare.url}/`, false);
        const rendererTimes: number[] = [];
        const bareTimes: number[] = [];
        for (let i = 0; i < SAMPLES; i++) {
          const order = i % 2 === 0 ? [true, false] : [false, true];
          for (const isRenderer of order) {
            if (isRenderer) rendererTimes.push(await timeToFirstScreen(browser, `${renderer.url}/`, true));
            else bareTimes.push(await timeToFirstScreen(browser, `${bare.url}/`, false));
          }
        }
        report('renderer_first_screen_ratio', Math.round((median(rendererTimes) / median(bareTimes)) * 100) / 100);
      },
      async () => report('renderer_initial_js_kb_gz', initialJsKbGz()),
      async () => report('interventions_filter_ms', Math.round((await filterPerKeystroke(browser)) * 100) / 100),
    ]);
  } finally {
    await browser.close();
    await Promise.all([renderer.close(), bare.close()]);
  }
}
