// The nurse at a shared, interrupted terminal (issue 23), end to end through `npm run station:web`
// at 1024×600: the patient in hand is named in full on every screen of her work — in a banner that
// stays in view while the screen scrolls — also after a reload, a lock and work taken up from the
// queue, where the renderer holds no look-up and the name comes from what the open workflow keeps;
// a reload and her own PIN at the lock bring her back where she was, Back and Forward move between
// the station's screens, and another nurse's PIN starts at the look-up.
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, nextCode, useTrainingStation } from './support';
import type { StationWeb } from './support';

const AMINA = { name: 'Amina Wekesa', pin: '4821' };
const session = useTrainingStation(15_000, ['--staff', `${AMINA.name}:${AMINA.pin}`]);
let station: StationWeb;
let page: Page;
beforeAll(async () => {
  ({ station, page } = session);
  await page.setViewportSize({ width: 1024, height: 600 });
});

const OTIENO = 'Otieno Juma Ochieng';
const WANJIKU = 'Wanjiku Mumbi Kamau';

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
  expect(await banner.evaluate((el) => el.ownerDocument.elementFromPoint(el.getBoundingClientRect().x + 4, el.getBoundingClientRect().y + 4)?.closest('.patient-banner') === el)).toBe(true);
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

describe('the patient in hand, back where she was', () => {
  it('is named in full over consent and the visit, after a reload and a lock (back on the same screen) and from the queue, and stays in view while the screen scrolls (30000002)', { timeout: 120_000 }, async () => {
    const field = page.getByRole('textbox', { name: 'ID number' });
    await field.fill('30000002');
    await field.press('Enter');
    await page.getByText('Covered', { exact: true }).waitFor();
    await expectBannerInFull('the look-up');
    await page.getByRole('button', { name: 'Verify by SMS code' }).click();
    await page.getByRole('button', { name: 'Send code' }).waitFor();
    await expectBannerInFull('consent');
    // The bar with the consent's press names the service it is for.
    expect(await page.getByRole('region', { name: 'Next step' }).textContent()).toContain('For: General outpatient consultation');

    // A reload reopens consent; the renderer holds no look-up, the station names the patient.
    await page.reload();
    await page.getByRole('heading', { name: 'Consent', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Verify by SMS code' }).waitFor();
    await expectAccessible(page, 'consent after a reload, the banner in full');
    await expectBannerInFull('consent after a reload');

    // Her own PIN at the lock opens what she was doing.
    await signInAgain();
    await page.getByRole('heading', { name: 'Consent', exact: true }).waitFor();
    await expectBannerInFull('consent after the lock');

    // From the queue.
    await page.getByRole('button', { name: 'Patients' }).click();
    await page.getByRole('textbox', { name: 'ID number' }).waitFor();
    await continueFromTheQueue();
    await page.getByRole('heading', { name: 'Consent', exact: true }).waitFor();
    await expectBannerInFull('consent from the queue');
    await page.getByRole('button', { name: 'Verify by SMS code' }).click();
    const before = (await station.sandbox.smsCodes('30000002')).length;
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByRole('textbox', { name: 'SMS code' }).fill(await nextCode(() => station.sandbox.smsCodes('30000002'), before));
    await page.getByText('Visit open', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Open visit' }).click();
    await page.getByRole('heading', { name: 'Visit', exact: true }).waitFor();

    await page.reload();
    await page.getByRole('heading', { name: 'Visit', exact: true }).waitFor();
    const banner = await expectBannerInFull('the visit after a reload');
    await expectBannerInViewAtTheEnd(banner);

    // A line added says so, shows in the lines, and leaves the form clear (the diagnosis too).
    await page.getByRole('textbox', { name: 'Description (optional)' }).fill('Consultation and dressing');
    await page.getByRole('textbox', { name: 'Unit price (KES)' }).fill('1500');
    const diagnosis = page.getByRole('textbox', { name: 'Diagnosis (ICD-11 code)' });
    await diagnosis.fill('1A40.Z');
    await page.getByRole('button', { name: 'Add the line' }).click();
    await page.getByRole('status').filter({ hasText: /^Line added \(.*1,500/ }).waitFor();
    await page.getByRole('cell', { name: 'Consultation and dressing', exact: true }).waitFor();
    expect(await diagnosis.inputValue()).toBe('');
    expect(await page.getByRole('textbox', { name: 'Unit price (KES)' }).inputValue()).toBe('');
  });

  it('reopens the patient screen after a reload; Back and Forward stay among the station\'s screens; another nurse at the lock starts at the look-up and cannot go Back into them (30000001)', { timeout: 90_000 }, async () => {
    await page.getByRole('button', { name: 'Patients' }).click();
    const field = page.getByRole('textbox', { name: 'ID number' });
    await field.fill('30000001');
    await field.press('Enter');
    await page.getByRole('heading', { name: 'Eligibility' }).waitFor();
    await page.reload();
    await page.getByRole('region', { name: WANJIKU }).waitFor();
    await page.getByRole('heading', { name: 'Eligibility' }).waitFor();

    await page.getByRole('button', { name: 'Work in progress' }).click();
    await page.getByRole('heading', { name: 'Work in progress' }).waitFor();
    await page.goBack();
    await page.getByRole('region', { name: WANJIKU }).waitFor();
    await page.goBack();
    await page.getByRole('textbox', { name: 'ID number' }).waitFor();
    expect(page.url().startsWith(station.url.split('#')[0]!), 'still the station').toBe(true);
    await page.goForward();
    await page.getByRole('region', { name: WANJIKU }).waitFor();

    // Another staff member's PIN: the look-up, and Back does not walk into the first nurse's screens.
    await page.getByRole('button', { name: 'Lock' }).click();
    await page.getByRole('textbox', { name: 'PIN' }).fill(AMINA.pin);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText(`Signed in: ${AMINA.name}`).waitFor();
    await page.getByRole('textbox', { name: 'ID number' }).waitFor();
    await page.goBack();
    await page.getByRole('textbox', { name: 'ID number' }).waitFor();
    expect(await page.getByText(WANJIKU).count()).toBe(0);
  });

  it('offers the open visit of a patient looked up again on the first screen, and a second consent only when asked for (30000002)', { timeout: 60_000 }, async () => {
    await page.getByRole('button', { name: 'Patients' }).click();
    const field = page.getByRole('textbox', { name: 'ID number' });
    await field.fill('30000002');
    await field.press('Enter');
    const panel = page.getByRole('region', { name: "This patient's visit is open" });
    await panel.waitFor();
    const box = await panel.boundingBox();
    expect(box!.y + box!.height, 'the open visit in the first screen at 1024x600').toBeLessThanOrEqual(600);
    expect(await panel.textContent()).toContain('General outpatient consultation');
    expect(await page.getByRole('button', { name: 'Verify by fingerprint' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Verify by SMS code' }).count()).toBe(0);
    await expectAccessible(page, 'a patient with an open visit');
    await page.getByRole('button', { name: 'Consent for another service' }).click();
    await page.getByRole('button', { name: 'Verify by fingerprint' }).waitFor();
    await page.getByRole('button', { name: 'Patients' }).click();
    await field.fill('30000002');
    await field.press('Enter');
    await page.getByRole('button', { name: 'Continue the visit', exact: true }).click();
    await page.getByRole('heading', { name: 'Visit', exact: true }).waitFor();
    await page.getByRole('region', { name: OTIENO }).waitFor();
  });

  it('forgives codes: no more digits than a code has, a wrong code cleared with its error in view, the last try saying what comes next, then the right code confirming itself (30000002, another service)', { timeout: 90_000 }, async () => {
    await page.getByRole('button', { name: 'Patients' }).click();
    const field = page.getByRole('textbox', { name: 'ID number' });
    await field.fill('30000002');
    await field.press('Enter');
    await page.getByRole('button', { name: 'Consent for another service' }).click();
    await page.getByRole('combobox', { name: 'Kind of service' }).selectOption('per-diem');
    await page.getByRole('listbox', { name: 'Interventions' }).getByRole('option').first().click();
    await page.getByRole('button', { name: 'Verify by SMS code' }).click();
    const before = (await station.sandbox.smsCodes('30000002')).length;
    await page.getByRole('button', { name: 'Send code' }).click();
    const right = await nextCode(() => station.sandbox.smsCodes('30000002'), before);
    const code = page.getByRole('textbox', { name: 'SMS code' });
    expect(Number(await code.getAttribute('maxlength'))).toBe(right.length);
    const wrong = (n: number) => String((Number(right) + n) % 10 ** right.length).padStart(right.length, '0');

    // A wrong code typed with a digit too many: only the code's length is taken, it confirms itself, is refused and cleared.
    await code.pressSequentially(`${wrong(1)}9`);
    await page.getByText('Wrong code. 2 tries left.').waitFor();
    await expect.poll(() => code.inputValue()).toBe('');
    const bar = await page.getByRole('region', { name: 'Next step' }).boundingBox();
    const error = await page.getByText('Wrong code. 2 tries left.').boundingBox();
    expect(error!.y + error!.height, 'the error above the action bar, in view').toBeLessThanOrEqual(bar!.y);

    await code.pressSequentially(wrong(2));
    await page.getByText(/Wrong code\. 1 try left\. If this next code is wrong too/).waitFor();
    await expect.poll(() => code.inputValue()).toBe('');

    await code.pressSequentially(right);
    await page.getByText('Visit open', { exact: true }).waitFor();
  });

  it('takes the visit-end code by itself once complete, as consent does (30000002)', { timeout: 90_000 }, async () => {
    await page.getByRole('button', { name: 'Open visit' }).click();
    await page.getByRole('heading', { name: 'Visit', exact: true }).waitFor();
    // The attending doctor comes before the patient is asked (a line by the registry's doctor).
    await page.getByRole('textbox', { name: 'Unit price (KES)' }).fill('1200');
    await page.getByRole('textbox', { name: 'Diagnosis (ICD-11 code)' }).fill('1A40.Z');
    await page.locator('form.add-line').getByRole('textbox', { name: 'Identification number' }).fill('A12345');
    await page.getByRole('button', { name: 'Add the line' }).click();
    await page.getByRole('cell', { name: '1A40.Z' }).first().waitFor();
    await page.getByRole('button', { name: 'Discharge' }).click();
    await page.getByRole('heading', { name: 'Discharge authorization' }).or(page.getByRole('heading', { name: 'End-of-visit authorization' })).waitFor();
    await page.getByRole('button', { name: 'Verify by SMS code' }).click();
    const before = (await station.sandbox.smsCodes('30000002')).length;
    await page.getByRole('button', { name: 'Send code' }).click();
    const code = page.getByRole('textbox', { name: 'SMS code' });
    await code.waitFor();
    expect(await page.getByRole('combobox', { name: 'Reason' }).count()).toBe(0);
    await code.pressSequentially(await nextCode(() => station.sandbox.smsCodes('30000002'), before));
    // No press: the code is taken as soon as it is complete.
    await page.getByRole('combobox', { name: 'Reason' }).waitFor();
  });
});
