// The nurse at a shared, interrupted terminal (issue 23), end to end through `npm run station:web`
// at 1024×600: the patient in hand is named in full on every screen of her work — in a banner that
// stays in view while the screen scrolls — also after a reload, a lock and work taken up from the
// queue, where the renderer holds no look-up and the name comes from what the open workflow keeps.
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, nextCode, useTrainingStation } from './support';
import type { StationWeb } from './support';

const session = useTrainingStation();
let station: StationWeb;
let page: Page;
beforeAll(async () => {
  ({ station, page } = session);
  await page.setViewportSize({ width: 1024, height: 600 });
});

const OTIENO = 'Otieno Juma Ochieng';

/** The banner naming Otieno in full: name, sex, age, date of birth, the ID's last digits, the scheme. */
async function expectBannerInFull(what: string): Promise<Locator> {
  const banner = page.getByRole('region', { name: OTIENO });
  await banner.waitFor();
  const text = (await banner.textContent()) ?? '';
  for (const fact of ['Male', 'years', 'born 2 Nov 1956', 'National ID', 'ending 0002', 'SOCIAL HEALTH INSURANCE FUND']) expect(text, `${what}: ${fact}`).toContain(fact);
  expect(await page.getByText('O*** J*** O***').count(), `${what}: no masked name`).toBe(0);
  return banner;
}

/** The banner is still wholly in view with the screen scrolled to its end. */
async function expectBannerInViewAtTheEnd(banner: Locator): Promise<void> {
  await page.locator('#main').evaluate((main) => main.scrollTo(0, main.scrollHeight));
  const box = await banner.boundingBox();
  expect(box).not.toBeNull();
  expect(box!.y).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height).toBeLessThanOrEqual(600);
  expect(await banner.evaluate((el) => document.elementFromPoint(el.getBoundingClientRect().x + 4, el.getBoundingClientRect().y + 4)?.closest('.patient-banner') === el)).toBe(true);
}

async function continueFromTheQueue(): Promise<void> {
  await page.getByRole('button', { name: 'Work in progress' }).click();
  await page.getByRole('heading', { name: 'Work in progress' }).waitFor();
  await page.getByRole('button', { name: /^Continue/ }).first().click();
}

async function signInAgain(): Promise<void> {
  await page.getByRole('button', { name: 'Lock' }).click();
  await page.getByRole('heading', { name: 'Station locked' }).waitFor();
  expect(await page.getByText(OTIENO).count(), 'nothing of the patient behind the lock').toBe(0);
  await page.getByRole('textbox', { name: 'PIN' }).fill('1234');
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('the patient in hand', () => {
  it('is named in full over consent and the visit, after a reload, a lock and from the queue, and stays in view while the screen scrolls (30000002)', { timeout: 120_000 }, async () => {
    const field = page.getByRole('textbox', { name: 'ID number' });
    await field.fill('30000002');
    await field.press('Enter');
    await page.getByText('Covered', { exact: true }).waitFor();
    await expectBannerInFull('the look-up');
    await page.getByRole('button', { name: 'Verify by SMS code' }).click();
    await page.getByRole('button', { name: 'Send code' }).waitFor();
    await expectBannerInFull('consent');

    await page.reload();
    await page.getByRole('textbox', { name: 'ID number' }).waitFor();
    await continueFromTheQueue();
    await page.getByRole('button', { name: 'Verify by SMS code' }).waitFor();
    await expectAccessible(page, 'consent after a reload, the banner in full');
    await expectBannerInFull('consent after a reload');

    await signInAgain();
    await page.getByRole('textbox', { name: 'ID number' }).waitFor();
    await continueFromTheQueue();
    await expectBannerInFull('consent after the lock');
    await page.getByRole('button', { name: 'Verify by SMS code' }).click();
    const before = (await station.sandbox.smsCodes('30000002')).length;
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByRole('textbox', { name: 'SMS code' }).fill(await nextCode(() => station.sandbox.smsCodes('30000002'), before));
    await page.getByText('Visit open', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Open visit' }).click();
    await page.getByRole('heading', { name: 'Visit', exact: true }).waitFor();

    await page.reload();
    await page.getByRole('textbox', { name: 'ID number' }).waitFor();
    await continueFromTheQueue();
    await page.getByRole('heading', { name: 'Visit', exact: true }).waitFor();
    const banner = await expectBannerInFull('the visit after a reload');
    await expectBannerInViewAtTheEnd(banner);
  });
});
