// Every screen of the renderer in Chromium against the fake station (test/fixtures/renderer),
// driven by role and accessible name: axe-core finds nothing in either language, controls are at
// least 44 px, nothing overflows at 1024x600, the keyboard alone gets a patient to consent, the
// lock drops patient data, and the screens offer the way out of each failure the field notes list.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, ensureRendererBuilt, launchChromium, openWithFake, serveRenderer } from '../../fixtures/renderer/harness';
import type { FakePageOptions, StaticServer } from '../../fixtures/renderer/harness';
import { control, flows } from '../../e2e/flows';

let browser: Browser;
let server: StaticServer;

beforeAll(async () => {
  await ensureRendererBuilt();
  [browser, server] = await Promise.all([launchChromium(), serveRenderer()]);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function open(options: FakePageOptions = {}): Promise<Page> {
  const { page } = await openWithFake(browser, server, options);
  page.setDefaultTimeout(10_000);
  return page;
}

async function done(page: Page): Promise<void> {
  await page.context().close();
}

/** Each screen reached by a flow of test/e2e/flows.ts. */
const screens: readonly [string, (page: Page) => Promise<void>, FakePageOptions?][] = [
  ['first run', (page) => page.getByRole('heading', { name: 'Set up this station' }).waitFor(), { fake: { firstRun: true } }],
  ['look-up with this shift\'s patients', flows.lookupWithRecent],
  ['patient not found', (page) => flows.lookUp(page, '99999999')],
  ['exchange down at look-up', flows.exchangeDownAtLookup],
  ['eligibility, covered', (page) => flows.lookUp(page, '30000001')],
  ['eligibility, not covered', (page) => flows.lookUp(page, '30000003')],
  ['eligibility, two schemes', (page) => flows.lookUp(page, '30000005')],
  ['consent by fingerprint', flows.fingerprintWaiting],
  ['consent by SMS code', flows.smsSent],
  ['SMS fallback after unusable fingerprints', flows.fallback],
  ['three wrong codes', flows.threeWrongCodes],
  ['stale fingerprint request blocking SMS', flows.stalePending],
  ['open visit', flows.visitWithLine],
  ['visit end, authorizing', flows.dischargeVerify],
  ['visit end, submit', flows.dischargeReady],
  ['elective, phase one', flows.electiveWaiting],
  ['elective, finalised', flows.electiveFinalised],
  ['new emergency', flows.emergencyNew],
  ['open emergency', flows.emergencyOpen],
  ['work in progress', flows.workList],
  ['activity', flows.activity],
  ['settings', flows.settings],
  ['locked', flows.locked],
];

/** Controls smaller than 44 px, and horizontal overflow of the screen area. */
async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    type Box = { width: number; height: number };
    type El = { getBoundingClientRect(): Box; textContent: string | null; tagName: string };
    const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<El>; getElementById(id: string): { scrollWidth: number; clientWidth: number } | null } }).document;
    const out: string[] = [];
    for (const el of Array.from(doc.querySelectorAll('button, select, input:not([type=checkbox]):not([type=radio]), [role=option], label.radio, .check'))) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue; // not drawn
      if (box.height < 43.5 || box.width < 43.5) out.push(`${el.tagName} "${(el.textContent ?? '').trim().slice(0, 30)}" ${Math.round(box.width)}x${Math.round(box.height)}`);
    }
    const main = doc.getElementById('main');
    if (main !== null && main.scrollWidth > main.clientWidth + 1) out.push(`horizontal overflow ${main.scrollWidth} > ${main.clientWidth}`);
    return out;
  });
}

describe('every screen', () => {
  it('has no axe-core violations, 44 px controls and no sideways scrolling at 1024x600, in English and in Swahili', { timeout: 240_000 }, async () => {
    const found: string[] = [];
    for (const [name, reach, options] of screens) {
      const page = await open({ ...options, viewport: { width: 1024, height: 600 } });
      try {
        await reach(page);
        for (const v of await axeViolations(page)) found.push(`${name} (en): ${v.id} ${v.targets.join(', ')}`);
        for (const p of await layoutProblems(page)) found.push(`${name} (en): ${p}`);
        await page.getByRole('button', { name: 'Kiswahili', exact: true }).click();
        await page.getByRole('button', { name: 'English', exact: true }).waitFor();
        expect(await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { lang: string } } }).document.documentElement.lang)).toBe('sw');
        for (const v of await axeViolations(page)) found.push(`${name} (sw): ${v.id} ${v.targets.join(', ')}`);
        for (const p of await layoutProblems(page)) found.push(`${name} (sw): ${p}`);
      } finally {
        await done(page);
      }
    }
    expect(found).toEqual([]);
  });
});

describe('look-up', () => {
  it('takes a keyboard-wedge scan (digits then Enter) with the focus already in the ID number', async () => {
    const page = await open();
    try {
      await page.getByRole('textbox', { name: 'ID number' }).waitFor();
      expect(await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { getAttribute(n: string): string | null } | null } }).document.activeElement?.getAttribute('id'))).toBe(
        await page.getByRole('textbox', { name: 'ID number' }).getAttribute('id'),
      );
      await page.keyboard.type('30000001\n', { delay: 5 });
      await page.getByRole('heading', { name: 'Eligibility' }).waitFor();
      await page.getByText('Covered', { exact: true }).waitFor();
    } finally {
      await done(page);
    }
  });

  it('says the patient is not covered, why and what to do, and offers no consent', async () => {
    const page = await open();
    try {
      await flows.lookUp(page, '30000003');
      await page.getByText('Not covered', { exact: true }).waitFor();
      await page.getByText('Contributions are not up to date').waitFor();
      await page.getByText(/Pay the outstanding SHIF contributions/).waitFor();
      expect(await page.getByRole('button', { name: 'Verify by fingerprint' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Check cover again' }).isVisible()).toBe(true);
    } finally {
      await done(page);
    }
  });

  it('recovers from the exchange being down with "Try again" once it is back', async () => {
    const page = await open();
    try {
      await flows.exchangeDownAtLookup(page);
      await page.getByText('SHA exchange not answering').waitFor();
      await control(page, { name: 'exchangeDown', args: [false] });
      await page.getByRole('button', { name: 'Try again' }).click();
      await page.getByRole('heading', { name: 'Eligibility' }).waitFor();
    } finally {
      await done(page);
    }
  });
});

describe('choosing the service', () => {
  it('works from the keyboard: arrows move, Enter selects, the balance follows', async () => {
    const page = await open();
    try {
      await flows.lookUp(page, '30000001');
      const list = page.getByRole('listbox', { name: 'Interventions' });
      await list.getByRole('option', { selected: true }).waitFor();
      const before = await list.getByRole('option', { selected: true }).getAttribute('id');
      await list.focus();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await expect.poll(() => list.getByRole('option', { selected: true }).getAttribute('id')).not.toBe(before);
      const active = await list.getAttribute('aria-activedescendant');
      expect(active).toBe(await list.getByRole('option', { selected: true }).getAttribute('id'));
      await page.getByText(/left of/).first().waitFor();
    } finally {
      await done(page);
    }
  });

  it('narrows ~850 interventions as the nurse types and selects one by its code', async () => {
    const page = await open();
    try {
      await flows.lookUp(page, '30000001');
      await page.getByText('852 of 852 services').waitFor();
      await page.getByRole('searchbox', { name: 'Search services' }).fill('SHA-06-001');
      await page.getByText('1 of 852 services').waitFor();
      await page.getByRole('option', { name: /SHA-06-001/ }).click();
      await page.getByText('Billing lines are added automatically for each day of stay.').waitFor();
      // Only a window of a long list is drawn.
      await page.getByRole('searchbox', { name: 'Search services' }).fill('');
      expect(await page.getByRole('option').count()).toBeLessThan(60);
    } finally {
      await done(page);
    }
  });
});

describe('consent', () => {
  it('offers the escape hatch after three wrong codes: fingerprint, or the whitelist request', async () => {
    const page = await open();
    try {
      await flows.threeWrongCodes(page);
      await page.getByRole('button', { name: 'Verify by fingerprint' }).waitFor();
      await page.getByRole('combobox', { name: 'Reason' }).selectOption('OLD');
      await page.getByRole('button', { name: 'Send the request' }).click();
      await page.getByText("Request sent; SHA has not answered yet").waitFor();
    } finally {
      await done(page);
    }
  });

  it('explains the 30000004 fallback in the patient\'s words with the time it is allowed', async () => {
    const page = await open();
    try {
      await flows.fallback(page);
      await page.getByText(/The machine could not read your fingerprints. This is not your fault./).waitFor();
      await page.getByText('SMS code allowed for').waitFor();
      await page.getByRole('timer').first().waitFor();
    } finally {
      await done(page);
    }
  });

  it('lets the nurse cancel a stale fingerprint request that blocks the SMS code, then send it', async () => {
    const page = await open();
    try {
      await flows.stalePending(page);
      await page.getByRole('button', { name: 'Cancel the open fingerprint request' }).click();
      await page.getByRole('button', { name: 'Send code' }).click();
      await page.getByRole('textbox', { name: 'SMS code' }).waitFor();
    } finally {
      await done(page);
    }
  });

  it('reports the rectangle of the authorization area and shows the link in a sandboxed iframe in browser mode', async () => {
    const page = await open();
    try {
      await flows.fingerprintWaiting(page);
      const frame = page.locator('iframe');
      expect(await frame.getAttribute('sandbox')).toBe('allow-scripts allow-same-origin allow-forms');
      expect(await frame.getAttribute('title')).toBe('SHA fingerprint page');
      await page.getByText('Page open for').waitFor();
      await control(page, { name: 'authorize', args: [] });
      await page.getByRole('button', { name: 'Open visit' }).click();
      await page.getByText('Visit open', { exact: true }).waitFor();
      expect(await page.locator('iframe').count()).toBe(0);
    } finally {
      await done(page);
    }
  });

  it('leaves the area empty for the Electron shell to cover when the shell shows the link', async () => {
    const page = await open({ fake: { shownBy: 'shell', host: 'electron' } });
    try {
      await flows.lookUp(page, '30000001');
      await page.getByRole('button', { name: 'Verify by fingerprint' }).click();
      await page.getByText('The SHA fingerprint page is shown here.').waitFor();
      expect(await page.locator('iframe').count()).toBe(0);
    } finally {
      await done(page);
    }
  });
});

describe('visit end', () => {
  it('never offers DECEASED on submit; offers it for an inpatient discharge, with partial discharge', { timeout: 60_000 }, async () => {
    const page = await open();
    try {
      await flows.dischargeReady(page);
      expect(await page.getByRole('combobox', { name: 'Reason' }).locator('option').allTextContents()).not.toContain('Died');
      await done(page);

      const inpatient = await open();
      await flows.lookUp(inpatient, '30000001');
      await inpatient.getByRole('searchbox', { name: 'Search services' }).fill('SHA-06-001');
      await inpatient.getByRole('option', { name: /SHA-06-001/ }).click();
      await inpatient.getByRole('button', { name: 'Verify by fingerprint' }).click();
      await inpatient.locator('iframe').waitFor();
      await control(inpatient, { name: 'authorize', args: [] });
      await inpatient.getByRole('button', { name: 'Open visit' }).click();
      await inpatient.getByText('added by SHA').waitFor();
      await inpatient.getByRole('button', { name: 'Discharge' }).click();
      await inpatient.getByRole('button', { name: 'Verify by fingerprint' }).click();
      await inpatient.locator('iframe').waitFor();
      await control(inpatient, { name: 'authorize', args: [] });
      const reasons = await inpatient.getByRole('combobox', { name: 'Reason' }).locator('option').allTextContents();
      expect(reasons).toContain('Died');
      await inpatient.getByRole('checkbox', { name: 'Partial discharge' }).check();
      await inpatient.getByRole('button', { name: 'Discharge' }).click();
      await inpatient.getByText('Partly discharged on').waitFor();
      await inpatient.getByRole('button', { name: 'Submit claim' }).waitFor();
      await inpatient.context().close();
    } finally {
      if (!page.isClosed()) await done(page);
    }
  });
});

describe('emergency', () => {
  it('shows the time left to submit on every step and submits for an unidentified patient', async () => {
    const page = await open();
    try {
      await flows.emergencyOpen(page);
      await page.getByText('Time left to submit').waitFor();
      const reasons = await page.getByRole('combobox', { name: 'Reason' }).locator('option').allTextContents();
      expect(reasons).not.toContain('Died');
      await page.getByRole('button', { name: 'Submit claim' }).click();
      await page.getByText('Emergency claim submitted').waitFor();
    } finally {
      await done(page);
    }
  });
});

describe('countdowns', () => {
  it('count on the station’s clock: when it moves forward (the sandbox’s clock in training), the emergency’s time left follows at once', async () => {
    const page = await open();
    try {
      await flows.emergencyOpen(page);
      const countdown = page.locator('.countdown').filter({ hasText: 'Time left to submit' });
      // "23 hrs, 59 mins" / "24 hrs": minutes left, on whichever side of an hour the reading falls.
      const minutesLeft = async () => {
        const text = (await countdown.getByRole('timer').textContent()) ?? '';
        return Number(/(\d+)\s*hr/.exec(text)?.[1] ?? Number.NaN) * 60 + Number(/(\d+)\s*min/.exec(text)?.[1] ?? 0);
      };
      const before = await minutesLeft();
      expect(before).toBeGreaterThan(23 * 60);
      await control(page, { name: 'advanceClock', args: [10 * 3600_000] });
      await expect.poll(async () => before - (await minutesLeft()), { timeout: 5000 }).toBeGreaterThanOrEqual(600);
      expect(before - (await minutesLeft())).toBeLessThanOrEqual(602);
      await control(page, { name: 'advanceClock', args: [15 * 3600_000] });
      await countdown.getByText('24 hours passed').waitFor();
    } finally {
      await done(page);
    }
  });
});

describe('the station around the screens', () => {
  it('drops every patient detail when the station locks, and starts again at a fresh look-up', async () => {
    const page = await open();
    try {
      await flows.lookUp(page, '30000001');
      await control(page, { name: 'lock', args: ['idle'] });
      await page.getByRole('heading', { name: 'Station locked' }).waitFor();
      expect(await page.locator('body').innerText()).not.toContain('W*** M*** K***');
      // The lock opens with a staff member's PIN: a wrong one is refused, the Training nurse's opens it.
      await page.getByRole('textbox', { name: 'PIN' }).fill('0000');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByText('That PIN is not known here').waitFor();
      await page.getByRole('textbox', { name: 'PIN' }).fill('1234');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Find a patient' }).waitFor();
      // A fresh look-up: nothing of the patient who was on screen (this shift's masked list comes back from the station).
      expect(await page.getByRole('textbox', { name: 'ID number' }).inputValue()).toBe('');
      expect(await page.getByRole('heading', { name: 'Eligibility' }).count()).toBe(0);
    } finally {
      await done(page);
    }
  });

  it('keeps the reader state in a status region and says what to do when the reader is gone', async () => {
    const page = await open();
    try {
      await flows.fingerprintWaiting(page);
      expect(await page.getByRole('status').textContent()).toContain('Virtual reader (training)');
      await control(page, { name: 'setReader', args: ['absent', 'not-running'] });
      await expect.poll(() => page.getByRole('status').textContent()).toBe('No fingerprint reader connected');
      await page.getByText('Plug in the fingerprint reader, then press "Check the reader again".').waitFor();
    } finally {
      await done(page);
    }
  });

  it('switches to Kiswahili and back, with dates and money in the locale', async () => {
    const page = await open({ clockAt: new Date('2025-06-12T09:41:00+03:00') });
    try {
      await flows.lookUp(page, '30000001');
      await page.getByRole('button', { name: 'Kiswahili', exact: true }).click();
      await page.getByRole('heading', { name: 'Ustahiki' }).waitFor();
      await page.getByText('Ana bima', { exact: true }).waitFor();
      await page.getByText(/Okt 2024|Oktoba 2024/).first().waitFor();
      await page.getByText(/Ksh|KSh|KES/).first().waitFor();
      await page.getByRole('button', { name: 'English', exact: true }).click();
      await page.getByText('Covered', { exact: true }).waitFor();
    } finally {
      await done(page);
    }
  });
});
