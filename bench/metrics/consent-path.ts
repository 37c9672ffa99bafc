// The bedside path at the speed of the network, driven in Debian's Chromium through
// `npm run station:web` (the real station core, its own sandbox, the virtual reader), the nurse's
// waits measured in the page: from each of her actions (the capture-phase keydown, click or input
// event) until the next screen is ready (a MutationObserver sees what she needs next).
// - consent_critical_path_ratio: flow B by SMS code (30000002), look-up to "Visit open", with L ms
//   added by the sandbox's faults to every exchange call (L = 300): the sum of her waits ÷ (5 × L),
//   5 being the contract's dependency chain with a signed-in station (patient ∥ eligibility →
//   sub-benefits ∥ contacts → interventions → OTP send → visit with the code).
// - consent_effective_round_trips: (T(L) − T(0)) / L, the sequential round trips she waits for.
// - consent_fingerprint_path_ratio: flow B by fingerprint (30000001), from the authorization page's
//   completion message (the capture is done) to "Visit open", ÷ (2 × L + one look-up interval).
// - lookup_first_paint_ratio: under the sandbox's ward profile, from Enter to "Covered"/"Not
//   covered" ÷ the round trip of that look-up's eligibility call (the latency the profile drew).
// Medians of interleaved runs; goals are reported, not enforced.
import type { Browser, Page } from 'playwright-core';
import type { Metric } from '../run';
import { median } from '../stats';
import { ensureRendererBuilt, launchChromium } from '../../test/support/chromium';
import { startStationWeb, urlIn, type StationWebProcess } from '../../test/support/station-web-process';
import { PATIENTS } from '../../electron/sandbox/world/patients';

const L = 300;
const RUNS = 7;
const FIRST_PAINT_LOOKUPS = 9;
/** The station's fingerprint look-up interval (electron/station/deps.ts `authorizationPollMs`). */
const LOOKUP_INTERVAL_MS = 3000;
const STEP_TIMEOUT_MS = 60_000;

/**
 * Waits until an expression is true in the page. Polled with evaluate (the station's CSP forbids
 * the eval waitForFunction needs); the moments measured are recorded by the page itself.
 */
async function until(page: Page, expression: string): Promise<void> {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  while (!(await page.evaluate(expression))) {
    if (Date.now() > deadline) throw new Error(`still not true after ${STEP_TIMEOUT_MS} ms: ${expression}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

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
  const check = () => { for (const w of b.watching) if (b.ready[w.id] === undefined && tests[w.test]()) b.ready[w.id] = now(); };
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

interface Sandbox {
  latency(ms: number): Promise<void>;
  profile(name: 'ward'): Promise<void>;
  clear(): Promise<void>;
  smsCount(crId: string): Promise<number>;
  nextCode(crId: string, seen: number): Promise<string>;
  /** The latency the faults added to the last eligibility call. */
  lastEligibilityLatency(): Promise<number>;
}

function sandboxAt(url: string): Sandbox {
  const send = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const answer = await fetch(`${url}/sandbox${path}`, { method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) });
    if (!answer.ok) throw new Error(`sandbox ${method} ${path}: ${answer.status} ${await answer.text()}`);
    return answer.status === 204 ? null : answer.json();
  };
  const codes = async (crId: string) => ((await send('GET', `/sms?patient_id=${encodeURIComponent(crId)}`)) as { otp: string }[]).map((m) => m.otp);
  return {
    latency: async (ms) => void (await send('POST', '/faults', { latency_ms: ms })),
    profile: async (name) => void (await send('POST', '/faults', { profile: name })),
    clear: async () => void (await send('DELETE', '/faults')),
    smsCount: async (crId) => (await codes(crId)).length,
    nextCode: async (crId, seen) => {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const all = await codes(crId);
        if (all.length > seen) return all.at(-1) as string;
        if (Date.now() > deadline) throw new Error('no SMS code arrived');
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    lastEligibilityLatency: async () => {
      const { recent } = (await send('GET', '/faults')) as { recent: { method: string; path: string; latency_ms: number }[] };
      const call = recent.filter((d) => d.method === 'GET' && d.path === '/api/v1/patients/eligibility').at(-1);
      if (call === undefined) throw new Error('the sandbox recorded no eligibility call');
      return call.latency_ms;
    },
  };
}

const crIdOf = (nationalId: string) => PATIENTS.find((p) => p.nationalId === nationalId)!.crId;

/** Past the first-run screen (training on the sandbox is preselected) to the look-up. */
async function setUp(page: Page, url: string): Promise<void> {
  await page.goto(url);
  const idNumber = page.getByRole('textbox', { name: 'ID number' });
  const save = page.getByRole('button', { name: 'Save and sign in' });
  await idNumber.or(save).first().waitFor({ timeout: STEP_TIMEOUT_MS });
  if (await save.isVisible()) await save.click();
  await idNumber.waitFor({ timeout: STEP_TIMEOUT_MS });
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

export default async function consentPath(): Promise<Metric[]> {
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

    const atZero: number[] = [];
    const atL: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      for (const latency of i % 2 === 0 ? [0, L] : [L, 0]) {
        await sandbox.latency(latency);
        (latency === 0 ? atZero : atL).push(await smsPath(page, sandbox));
      }
    }
    const fingerprint: number[] = [];
    await sandbox.latency(L);
    for (let i = 0; i < RUNS; i++) fingerprint.push(await fingerprintPath(page));

    await sandbox.profile('ward');
    const firstPaint = await firstPaintRatios(page, sandbox);
    await sandbox.clear();

    const t0 = median(atZero);
    const tL = median(atL);
    const fp = median(fingerprint);
    return [
      { name: 'consent_critical_path_ratio', value: round(tL / (5 * L), 3), unit: 'ratio', goal: '<= 1.10' },
      { name: 'consent_effective_round_trips', value: round((tL - t0) / L, 2), unit: 'round trips', goal: '<= 5 (the dependency chain; 4 once the ward’s usual sub-benefit is known)' },
      { name: 'consent_sms_path_ms_at_0', value: round(t0, 1), unit: 'ms', goal: 'context: T(0)' },
      { name: 'consent_sms_path_ms_at_300', value: round(tL, 1), unit: 'ms', goal: 'context: T(L), L = 300 ms' },
      { name: 'consent_fingerprint_path_ratio', value: round(fp / (2 * L + LOOKUP_INTERVAL_MS), 3), unit: 'ratio', goal: '<= 1.10' },
      { name: 'consent_fingerprint_after_capture_ms', value: round(fp, 1), unit: 'ms', goal: 'context: 2 × L + one look-up interval = 3600 ms' },
      { name: 'lookup_first_paint_ratio', value: round(median(firstPaint), 3), unit: 'ratio', goal: '<= 1.2' },
    ];
  } finally {
    await browser?.close();
    await station?.stop();
  }
}
