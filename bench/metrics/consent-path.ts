// The bedside path at the speed of the network, driven in Debian's Chromium through
// `npm run station:web` (the real station core, its own sandbox, the virtual reader), the nurse's
// waits measured in the page: from each of her actions (the capture-phase keydown, click or input
// event) until the next screen is ready (a MutationObserver sees what she needs next).
// - consent_critical_path_ratio: flow B by SMS code (30000002), look-up to "Visit open", with L ms
//   added by the sandbox's faults to every exchange call (L = 300): the sum of her waits ÷ (5 × L),
//   5 being the contract's dependency chain with a signed-in station (patient ∥ eligibility →
//   sub-benefits ∥ contacts → interventions → OTP send → visit with the code).
// - consent_effective_round_trips: (T(L) − T(0)) / L, the sequential round trips she waits for.
// - consent_no_pause_ratio: the same path for a nurse who presses each button the moment it is
//   there (and types the code the moment it arrives): the whole time from her Enter on the ID
//   number to "Visit open" ÷ (5 × L). What she waits for is then every round trip the station
//   leaves in sequence, including those a pausing nurse hides by reading the screen.
// - consent_fingerprint_path_ratio: flow B by fingerprint (30000001), from the authorization page's
//   completion message (the capture is done) to "Visit open", ÷ (2 × L + one look-up interval).
// - lookup_first_paint_ratio: under the sandbox's ward profile, from Enter to "Covered"/"Not
//   covered" ÷ the round trip of that look-up's eligibility call (the latency the profile drew).
// Medians of interleaved runs.
import type { Browser, Page } from 'playwright-core';
import { eachPart, type MetricSpec } from '../metric';
import { median } from '../stats';
import { ensureRendererBuilt, launchChromium } from '../../test/support/chromium';
import { startStationWeb, urlIn, type StationWebProcess } from '../../test/support/station-web-process';
import { crIdOf, sandboxAt, setUp, STEP_TIMEOUT_MS, until, type Sandbox } from '../station-page';

const L = 300;
const RUNS = 7;
const FIRST_PAINT_LOOKUPS = 9;
/** The station's fingerprint look-up interval (electron/station/deps.ts `authorizationPollMs`). */
const LOOKUP_INTERVAL_MS = 3000;

/**
 * In every page before its scripts: the time of the nurse's last action, the first completion
 * message of the authorization page, and named readiness tests run on every DOM change. Written as
 * a string: the TypeScript runner would wrap functions in helpers the page does not have.
 */
const probe = `
(() => {
  if (window.top !== window) return;
  const now = () => performance.timeOrigin + performance.now();
  const b = (window.__bench = { action: 0, hint: 0, ready: {}, watching: [] });
  addEventListener('keydown', (e) => { if (e.key === 'Enter') b.action = now(); }, true);
  addEventListener('click', () => { b.action = now(); }, true);
  addEventListener('input', () => { b.action = now(); }, true);
  addEventListener('message', (e) => { if (e.data && e.data.type === 'EKYC_COMPLETE' && b.hint === 0) b.hint = now(); }, true);
  const shown = (el) => el !== null && el.getClientRects().length > 0;
  const button = (name) => [...document.querySelectorAll('button')].find((x) => x.textContent.trim() === name && !x.disabled && shown(x));
  const labelled = (name) => {
    const label = [...document.querySelectorAll('label')].find((l) => l.textContent.trim() === name);
    const field = label && document.getElementById(label.htmlFor);
    return field && !field.disabled && shown(field) ? field : undefined;
  };
  const text = (words) => [...document.querySelectorAll('p, span, dd, h1, h2, h3')].some((x) => x.childElementCount === 0 && x.textContent.trim() === words && shown(x));
  const verdict = () => [...document.querySelectorAll('.verdict span:not([aria-hidden])')].some((x) => /^(Covered|Not covered)$/.test(x.textContent.trim()));
  const chosen = () => document.querySelector('[role=listbox] [role=option][aria-selected=true]') !== null;
  const tests = {
    verdict,
    patientSms: () => verdict() && chosen() && button('Verify by SMS code') !== undefined,
    patientFingerprint: () => verdict() && chosen() && button('Verify by fingerprint') !== undefined,
    sendCode: () => button('Send code') !== undefined,
    codeField: () => labelled('SMS code') !== undefined,
    visitOpen: () => text('Visit open'),
    // The patient screen has everything: a covered patient's badges show once the phones are known;
    // a patient not covered is asked nothing more.
    settled: () => verdict() && (document.querySelector('.eligibility.is-not-covered') !== null || document.querySelector('.eligibility .badges') !== null),
  };
  // The nurse who does not pause: each button pressed the moment it can be, the code typed the
  // moment both it and its field are there.
  const eager = (b.eager = { stage: 'off', code: null });
  const type = (field, value) => {
    Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), 'value').set.call(field, value);
    field.dispatchEvent(new Event('input', { bubbles: true }));
  };
  const press = () => {
    if (eager.stage === 'verify' && tests.patientSms()) { eager.stage = 'send'; button('Verify by SMS code').click(); }
    else if (eager.stage === 'send' && tests.sendCode()) { eager.stage = 'code'; button('Send code').click(); }
    else if (eager.stage === 'code' && eager.code !== null && tests.codeField()) { eager.stage = 'done'; type(labelled('SMS code'), eager.code); }
  };
  b.eagerStart = () => { eager.stage = 'verify'; eager.code = null; };
  b.giveCode = (code) => { eager.code = code; press(); };
  const check = () => {
    if (eager.stage !== 'off' && eager.stage !== 'done') press();
    for (const w of b.watching) if (b.ready[w.id] === undefined && tests[w.test]()) b.ready[w.id] = now();
  };
  b.watch = (id, test) => { b.watching.push({ id, test }); check(); };
  b.reset = () => { b.hint = 0; };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
})();
`;

type Test = 'verdict' | 'patientSms' | 'patientFingerprint' | 'sendCode' | 'codeField' | 'visitOpen' | 'settled';

let serial = 0;

/** One nurse action and her wait until the page passes `ready`: in ms, as the page measured it. */
async function timed(page: Page, ready: Test, act: () => Promise<void>): Promise<number> {
  const id = `${ready}-${++serial}`;
  await page.evaluate(`window.__bench.watch(${JSON.stringify(id)}, ${JSON.stringify(ready)})`);
  await act();
  const action = (await page.evaluate('window.__bench.action')) as number;
  await until(page, `window.__bench.ready[${JSON.stringify(id)}] !== undefined`);
  const at = (await page.evaluate(`window.__bench.ready[${JSON.stringify(id)}]`)) as number;
  return at - action;
}

async function toLookUp(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Patients', exact: true }).click();
  await page.getByRole('textbox', { name: 'ID number' }).waitFor();
}

/** Types the ID number as a scanner does and presses Enter: the wait until `ready`. */
async function lookUp(page: Page, idNumber: string, ready: Test): Promise<number> {
  const field = page.getByRole('textbox', { name: 'ID number' });
  await field.fill(idNumber);
  return timed(page, ready, () => field.press('Enter'));
}

/** Flow B by SMS code, look-up to "Visit open": the nurse's waits, summed. */
async function smsPath(page: Page, sandbox: Sandbox): Promise<number> {
  await toLookUp(page);
  const crId = crIdOf('30000002');
  const waits = [await lookUp(page, '30000002', 'patientSms')];
  waits.push(await timed(page, 'sendCode', () => page.getByRole('button', { name: 'Verify by SMS code' }).click()));
  const seen = await sandbox.smsCount(crId);
  waits.push(await timed(page, 'codeField', () => page.getByRole('button', { name: 'Send code' }).click()));
  const code = await sandbox.nextCode(crId, seen);
  waits.push(await timed(page, 'visitOpen', () => page.getByRole('textbox', { name: 'SMS code' }).fill(code)));
  return waits.reduce((a, b) => a + b, 0);
}

/**
 * Flow B by SMS code for the nurse who does not pause: from her Enter on the ID number to "Visit
 * open", the page pressing each button the moment it is there and typing the code the moment it
 * came (the sandbox's outbox is read every 10 ms).
 */
async function eagerSmsPath(page: Page, sandbox: Sandbox): Promise<number> {
  await toLookUp(page);
  const crId = crIdOf('30000002');
  const seen = await sandbox.smsCount(crId);
  const id = `eager-${++serial}`;
  await page.evaluate(`window.__bench.eagerStart(); window.__bench.watch(${JSON.stringify(id)}, 'visitOpen')`);
  const field = page.getByRole('textbox', { name: 'ID number' });
  await field.fill('30000002');
  await field.press('Enter');
  const action = (await page.evaluate('window.__bench.action')) as number;
  const code = await sandbox.nextCode(crId, seen, 10);
  await page.evaluate(`window.__bench.giveCode(${JSON.stringify(code)})`);
  await until(page, `window.__bench.ready[${JSON.stringify(id)}] !== undefined`);
  return ((await page.evaluate(`window.__bench.ready[${JSON.stringify(id)}]`)) as number) - action;
}

/** Flow B by fingerprint with the virtual reader: from the page's completion message to "Visit open". */
async function fingerprintPath(page: Page): Promise<number> {
  await toLookUp(page);
  await lookUp(page, '30000001', 'patientFingerprint');
  await page.evaluate('window.__bench.reset()');
  const id = `fingerprint-${++serial}`;
  await page.evaluate(`window.__bench.watch(${JSON.stringify(id)}, 'visitOpen')`);
  await page.getByRole('button', { name: 'Verify by fingerprint' }).click();
  await until(page, `window.__bench.ready[${JSON.stringify(id)}] !== undefined`);
  const [hint, open] = (await page.evaluate(`[window.__bench.hint, window.__bench.ready[${JSON.stringify(id)}]]`)) as [number, number];
  if (hint === 0) throw new Error('the authorization page sent no completion message');
  await closeVisit(page);
  return open - hint;
}

/**
 * The visit just opened closed again, untimed: SHA answers a patient's open visit with its
 * authorization instead of a new fingerprint request (R WORKFLOWS §9, as the sandbox does), so
 * the next run needs 30000001 without one.
 */
async function closeVisit(page: Page): Promise<void> {
  const toVisit = page.getByRole('button', { name: 'Open visit' });
  if (await toVisit.isVisible()) await toVisit.click();
  await page.getByRole('button', { name: 'Close this visit…' }).click();
  await page.getByRole('radio', { name: 'Wrong patient' }).check();
  await page.getByRole('textbox', { name: 'What happened (sent to SHA)' }).fill('Bench run: the next run needs the patient without an open visit');
  await page.getByRole('button', { name: 'Close the visit for good' }).click();
  await page.getByText('This visit was closed', { exact: true }).waitFor({ timeout: STEP_TIMEOUT_MS });
}

/**
 * Under the ward profile: time to the verdict ÷ the eligibility call's round trip, per look-up. The
 * nurse takes one patient at a time: the next look-up starts once this patient's screen has all it
 * asks SHA for (the services go on in the background).
 */
async function firstPaintRatios(page: Page, sandbox: Sandbox): Promise<number[]> {
  const ids = ['30000001', '30000002', '30000003', '30000005', '30000006'];
  const ratios: number[] = [];
  for (let i = 0; i < FIRST_PAINT_LOOKUPS; i++) {
    await toLookUp(page);
    const id = `settled-${++serial}`;
    await page.evaluate(`window.__bench.watch(${JSON.stringify(id)}, 'settled')`);
    const took = await lookUp(page, ids[i % ids.length] as string, 'verdict');
    await until(page, `window.__bench.ready[${JSON.stringify(id)}] !== undefined`);
    const rt = await sandbox.lastEligibilityLatency();
    ratios.push(took / rt);
  }
  return ratios;
}

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

export const specs: readonly MetricSpec[] = [
  { name: 'consent_critical_path_ratio', unit: 'ratio', goal: '<= 1.10' },
  { name: 'consent_effective_round_trips', unit: 'round trips', goal: '<= 5 (the dependency chain; 4 once the ward’s usual sub-benefit is known)' },
  { name: 'consent_sms_path_ms_at_0', unit: 'ms', goal: 'context: T(0)' },
  { name: 'consent_sms_path_ms_at_300', unit: 'ms', goal: 'context: T(L), L = 300 ms' },
  { name: 'consent_no_pause_ratio', unit: 'ratio', goal: '<= 1.10' },
  { name: 'consent_no_pause_round_trips', unit: 'round trips', goal: 'context: (T(L) − T(0)) / L for the nurse who does not pause' },
  { name: 'consent_no_pause_ms_at_300', unit: 'ms', goal: 'context: look-up to "Visit open" without a pause, L = 300 ms' },
  { name: 'consent_fingerprint_path_ratio', unit: 'ratio', goal: '<= 1.10' },
  { name: 'consent_fingerprint_after_capture_ms', unit: 'ms', goal: 'context: 2 × L + one look-up interval = 3600 ms' },
  { name: 'lookup_first_paint_ratio', unit: 'ratio', goal: '<= 1.2' },
];

/** Runs of one path at L = 0 and at L, interleaved: the medians at each. */
async function atZeroAndL(sandbox: Sandbox, path: () => Promise<number>): Promise<{ t0: number; tL: number }> {
  const atZero: number[] = [];
  const atL: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    for (const latency of i % 2 === 0 ? [0, L] : [L, 0]) {
      await sandbox.latency(latency);
      (latency === 0 ? atZero : atL).push(await path());
    }
  }
  return { t0: median(atZero), tL: median(atL) };
}

export default async function consentPath(report: (name: string, value: number) => void): Promise<void> {
  await ensureRendererBuilt();
  let station: StationWebProcess | undefined;
  let browser: Browser | undefined;
  try {
    [station, browser] = await Promise.all([startStationWeb(['--port', '0'], 2), launchChromium()]);
    const [stationUrl, sandboxUrl] = station.lines.map(urlIn);
    const sandbox = sandboxAt(sandboxUrl as string);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript(probe);
    await setUp(page, stationUrl as string);

    // A warm-up of each path: the ward's usual service becomes known, the screens' code is loaded.
    await sandbox.latency(0);
    await smsPath(page, sandbox);
    await fingerprintPath(page);

    await eachPart([
      async () => {
        const { t0, tL } = await atZeroAndL(sandbox, () => smsPath(page, sandbox));
        report('consent_critical_path_ratio', round(tL / (5 * L), 3));
        report('consent_effective_round_trips', round((tL - t0) / L, 2));
        report('consent_sms_path_ms_at_0', round(t0, 1));
        report('consent_sms_path_ms_at_300', round(tL, 1));
      },
      async () => {
        const { t0, tL } = await atZeroAndL(sandbox, () => eagerSmsPath(page, sandbox));
        report('consent_no_pause_ratio', round(tL / (5 * L), 3));
        report('consent_no_pause_round_trips', round((tL - t0) / L, 2));
        report('consent_no_pause_ms_at_300', round(tL, 1));
      },
      async () => {
        const fingerprint: number[] = [];
        await sandbox.latency(L);
        for (let i = 0; i < RUNS; i++) fingerprint.push(await fingerprintPath(page));
        const fp = median(fingerprint);
        report('consent_fingerprint_path_ratio', round(fp / (2 * L + LOOKUP_INTERVAL_MS), 3));
        report('consent_fingerprint_after_capture_ms', round(fp, 1));
      },
      async () => {
        await sandbox.profile('ward');
        report('lookup_first_paint_ratio', round(median(await firstPaintRatios(page, sandbox)), 3));
        await sandbox.clear();
      },
    ]);
  } finally {
    await browser?.close();
    await station?.stop();
  }
}
