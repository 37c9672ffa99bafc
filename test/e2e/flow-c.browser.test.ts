// Flow C end to end through `npm run station:web`, as the live exchange runs it: an emergency claim
// created at once for an unidentified patient (its reference number and notes collected), its
// protocol added and the attending doctor asked to approve it once it exists, the patient identified
// later by their own code, and the claim submitted inside the 24 hours, with the time left on screen
// throughout — on the station's clock, which in training is the sandbox's: moved forward, the
// countdown follows.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, nextCode, useTrainingStation } from './support';
import type { StationWeb } from './support';

const session = useTrainingStation();
let station: StationWeb;
let page: Page;
beforeAll(() => {
  ({ station, page } = session);
});

const timeLeft = () => page.getByText('Time left to submit');

/** Minutes in a countdown's text: "23 hrs, 59 mins", "19 hrs", "9:58". */
function minutesLeft(text: string | null): number {
  const hours = /(\d+)\s*hr/.exec(text ?? '');
  if (hours !== null) return Number(hours[1]) * 60 + Number(/(\d+)\s*min/.exec(text ?? '')?.[1] ?? 0);
  return Number(/^(\d+):/.exec(text ?? '')?.[1] ?? Number.NaN);
}

describe('flow C, emergency for an unidentified patient', () => {
  it('creates, identifies later and submits inside the 24 hours', { timeout: 120_000 }, async () => {
    await page.getByRole('button', { name: 'Emergency', exact: true }).click();
    await page.getByRole('heading', { name: 'New emergency claim' }).waitFor();
    await page.getByRole('textbox', { name: 'Emergency intervention code' }).fill('SHA-01-001');
    await page.getByRole('radio').first().check();
    await page.getByRole('textbox', { name: 'Identification number' }).fill('A34567');
    await page.getByRole('combobox', { name: 'Arrived by' }).selectOption('AMBULANCE');
    await page.getByRole('combobox', { name: 'Brought by' }).selectOption('PARAMEDICS');
    // The reference number and notes are required: the exchange refuses a claim without them.
    await page.getByRole('button', { name: 'Create emergency claim' }).click();
    await page.getByText('Enter the reference number').waitFor();
    await page.getByText('Say what happened').waitFor();
    await page.getByRole('textbox', { name: 'Reference number' }).fill('AMB-2030-0042');
    await page.getByRole('textbox', { name: 'Notes' }).fill('Road traffic accident, unconscious on arrival');
    await expectAccessible(page, 'new emergency');
    const askedBefore = (await station.sandbox.doctorMessages('A34567')).filter((p) => p === 'emergency_doctor_approval').length;
    await page.getByRole('button', { name: 'Create emergency claim' }).click();

    // The claim exists at once: its protocol on it, the doctor asked to approve it (a request, no code).
    await page.getByRole('heading', { name: 'Identify the patient' }).waitFor({ timeout: 30_000 });
    await page.getByText('reference AMB-2030-0042').waitFor();
    await page.getByText('on the claim', { exact: true }).waitFor();
    await page.getByText('asked; the doctor answers SHA directly').waitFor();
    expect((await station.sandbox.doctorMessages('A34567')).filter((p) => p === 'emergency_doctor_approval').length).toBe(askedBefore + 1);
    await page.getByRole('button', { name: 'Ask the doctor again' }).click();
    await expect.poll(async () => (await station.sandbox.doctorMessages('A34567')).filter((p) => p === 'emergency_doctor_approval').length, { timeout: 10_000 }).toBe(askedBefore + 2);
    await timeLeft().waitFor();
    expect(await page.getByRole('timer').first().textContent()).toMatch(/2[34] hrs|23 hrs/);
    // Five hours pass on the sandbox's clock, which the training station follows: so does the countdown.
    const before = minutesLeft(await page.getByRole('timer').first().textContent());
    await station.sandbox.advanceClock(5 * 3600_000);
    await expect.poll(async () => before - minutesLeft(await page.getByRole('timer').first().textContent()), { timeout: 10_000 }).toBeGreaterThanOrEqual(300);
    expect(before - minutesLeft(await page.getByRole('timer').first().textContent())).toBeLessThanOrEqual(302);
    await page.getByText('Unidentified patient').first().waitFor();
    await expectAccessible(page, 'emergency open, unidentified');

    // Later: the patient's ID is known; the patient's own code identifies them on the same claim.
    await page.getByRole('textbox', { name: 'ID number' }).fill('30000001');
    await page.getByRole('button', { name: 'Look up' }).click();
    const patientBefore = (await station.sandbox.smsCodes('30000001')).length;
    await page.getByRole('button', { name: 'Identify and send the code' }).click();
    await page.getByRole('heading', { name: 'Identifying the patient' }).waitFor();
    await timeLeft().waitFor();
    const patientCode = await nextCode(() => station.sandbox.smsCodes('30000001'), patientBefore);
    await page.getByRole('textbox', { name: 'SMS code' }).fill(patientCode);
    await page.getByText('Patient identified').waitFor({ timeout: 30_000 });
    await timeLeft().waitFor();

    const reasons = await page.getByRole('combobox', { name: 'Reason' }).locator('option').allTextContents();
    expect(reasons).not.toContain('Died');
    expect(await page.getByRole('combobox', { name: 'Why the patient is unidentified' }).count()).toBe(0);
    await expectAccessible(page, 'emergency open, identified');
    // The reason is the nurse's to give: nothing is chosen for her.
    await page.getByRole('button', { name: 'Submit claim' }).click();
    await page.getByText('Choose the reason.').waitFor();
    await page.getByRole('combobox', { name: 'Reason' }).selectOption('RECOVERED');
    await page.getByRole('button', { name: 'Submit claim' }).click();
    await page.getByText('Emergency claim submitted').waitFor({ timeout: 30_000 });
  });
});
