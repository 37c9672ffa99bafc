// The first patient at a new station on a ward's network: `station:web --profile ward` with a
// fresh data folder (nothing learnt of the ward yet), driven in Debian's Chromium by a nurse who
// does not pause. She looks up 30000001, types "Upper respiratory tract infection" into the
// services search the moment it is there, picks that service the moment it is listed, and consent
// can start once "Verify by fingerprint" is offered for it.
// - lookup_fresh_ward_consent_ms: from her Enter on the ID number until consent can start (the
//   median over fresh stations, each sandbox drawing its ward latencies from another seed).
// - lookup_fresh_ward_service_list_calls: the most service-list calls (GET
//   /patients/benefits/interventions, one sub-benefit's list each) any of those look-ups made to
//   the exchange, counted by the sandbox from the look-up until 15 s after consent could start.
import type { Browser } from 'playwright-core';
import { eachPart, type MetricSpec } from '../metric';
import { median } from '../stats';
import { setUp, sandboxAt, until } from '../station-page';
import { ensureRendererBuilt, launchChromium } from '../../test/support/chromium';
import { startStationWeb, urlIn } from '../../test/support/station-web-process';

const STATIONS = 5;
const SERVICE = 'Upper respiratory tract infection';
/** Time after consent could start in which the look-up's background calls are still counted. */
const SETTLE_MS = 15_000;
const LISTS = '/api/v1/patients/benefits/interventions';

export const specs: readonly MetricSpec[] = [
  { name: 'lookup_fresh_ward_consent_ms', unit: 'ms', goal: '<= 6000' },
  { name: 'lookup_fresh_ward_consent_ms_max', unit: 'ms', goal: 'context: the slowest fresh station' },
  { name: 'lookup_fresh_ward_service_list_calls', unit: 'calls', goal: '<= 6' },
];

/**
 * In the page before its scripts: the nurse's moves, each the moment the screen allows it, and
 * the moment consent can start. A string: the TypeScript runner would wrap functions in helpers
 * the page does not have.
 */
const nurse = `
(() => {
  if (window.top !== window) return;
  const now = () => performance.timeOrigin + performance.now();
  const b = (window.__fresh = { stage: 'off', action: 0, startable: 0 });
  const wanted = ${JSON.stringify(SERVICE.toLowerCase())};
  const shown = (el) => el !== null && el.getClientRects().length > 0;
  const button = (name) => [...document.querySelectorAll('button')].find((x) => x.textContent.trim() === name && !x.disabled && shown(x));
  const labelled = (name) => {
    const label = [...document.querySelectorAll('label')].find((l) => l.textContent.trim() === name);
    const field = label && document.getElementById(label.htmlFor);
    return field && !field.disabled && shown(field) ? field : undefined;
  };
  const type = (field, value) => {
    Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), 'value').set.call(field, value);
    field.dispatchEvent(new Event('input', { bubbles: true }));
  };
  const option = (selected) => [...document.querySelectorAll('[role=listbox] [role=option]' + (selected ? '[aria-selected=true]' : ''))].find((o) => o.textContent.toLowerCase().includes(wanted));
  addEventListener('keydown', (e) => { if (e.key === 'Enter' && b.stage === 'armed') { b.action = now(); b.stage = 'search'; } }, true);
  const check = () => {
    if (b.stage === 'search') { const f = labelled('Search services'); if (f) { type(f, ${JSON.stringify(SERVICE)}); b.stage = 'pick'; } }
    if (b.stage === 'pick') { const o = option(false); if (o) { o.click(); b.stage = 'wait'; } }
    if (b.stage === 'wait' && option(true) && button('Verify by fingerprint')) { b.startable = now(); b.stage = 'done'; }
  };
  b.arm = () => { b.stage = 'armed'; };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
})();
`;

/** One fresh station: how long until consent could start, and how many lists SHA was asked for. */
async function freshStation(browser: Browser, seed: string): Promise<{ ms: number; lists: number }> {
  const station = await startStationWeb(['--port', '0', '--profile', 'ward'], 2);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const [stationUrl, sandboxUrl] = station.lines.map(urlIn);
    const sandbox = sandboxAt(sandboxUrl as string);
    const page = await context.newPage();
    await page.addInitScript(nurse);
    await setUp(page, stationUrl as string);
    await sandbox.wardSeed(seed);
    const before = (await sandbox.calls()).length;
    await page.evaluate('window.__fresh.arm()');
    const field = page.getByRole('textbox', { name: 'ID number' });
    await field.fill('30000001');
    await field.press('Enter');
    await until(page, 'window.__fresh.stage === "done"');
    const [action, startable] = (await page.evaluate('[window.__fresh.action, window.__fresh.startable]')) as [number, number];
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const calls = (await sandbox.calls()).slice(before);
    return { ms: startable - action, lists: calls.filter((c) => c.method === 'GET' && c.path === LISTS).length };
  } finally {
    await context.close();
    await station.stop();
  }
}

export default async function freshStationMetrics(report: (name: string, value: number) => void): Promise<void> {
  await ensureRendererBuilt();
  const browser = await launchChromium();
  try {
    const runs: { ms: number; lists: number }[] = [];
    try {
      await eachPart(Array.from({ length: STATIONS }, (_, i) => async () => void runs.push(await freshStation(browser, `fresh-station-${i + 1}`))));
    } finally {
      // What the stations that ran measured, even when one of them failed.
      if (runs.length > 0) {
        report('lookup_fresh_ward_consent_ms', Math.round(median(runs.map((r) => r.ms))));
        report('lookup_fresh_ward_consent_ms_max', Math.round(Math.max(...runs.map((r) => r.ms))));
        report('lookup_fresh_ward_service_list_calls', Math.max(...runs.map((r) => r.lists)));
      }
    }
  } finally {
    await browser.close();
  }
}
