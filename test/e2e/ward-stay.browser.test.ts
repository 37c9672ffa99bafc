// The ward's day end to end through `npm run station:web` (issue 22), in Chromium on the real core:
// an inpatient (per-diem) stay opened by SMS code takes a second service with the same picker
// ("Add a service", "Search services", "Add to the visit"), bills it, takes it off (the nurse told
// first that SHA deletes its line) and puts it back; then the doctor is asked for before the
// patient (no "Discharge" while the claim has none), the invoice the station made from SHA's lines
// is shown, and the discharge by SMS code sends the claim with it. axe-core on each new screen
// state, at 1280×800 and 1024×600.
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

const services = () => page.getByRole('region', { name: 'Services on this visit' });

/** Axe at the ward terminal's small screen too, then back to the usual one. */
async function accessibleAtBothSizes(screen: string): Promise<void> {
  await expectAccessible(page, `${screen} at 1280×800`);
  await page.setViewportSize({ width: 1024, height: 600 });
  try {
    await expectAccessible(page, `${screen} at 1024×600`);
  } finally {
    await page.setViewportSize({ width: 1280, height: 800 });
  }
}

describe('an inpatient stay with several services (30000002, by SMS code)', () => {
  it('adds a second service with the same picker, bills it, takes it off and puts it back', { timeout: 120_000 }, async () => {
    const field = page.getByRole('textbox', { name: 'ID number' });
    await field.fill('30000002');
    await field.press('Enter');
    await page.getByText('Covered', { exact: true }).waitFor();
    await page.getByRole('combobox', { name: 'Kind of service' }).selectOption('per-diem');
    await page.getByRole('listbox', { name: 'Interventions' }).getByRole('option').first().click();
    await page.getByRole('button', { name: 'Verify by SMS code' }).click();
    const before = (await station.sandbox.smsCodes('30000002')).length;
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByRole('textbox', { name: 'SMS code' }).fill(await nextCode(() => station.sandbox.smsCodes('30000002'), before));
    await page.getByText('Visit open', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Open visit' }).click();
    await page.getByRole('heading', { name: 'Visit', exact: true }).waitFor();
    await expect.poll(() => services().getByRole('listitem').count()).toBe(1);

    // A chest X-ray on the same claim: the same picker the first service was chosen with.
    await services().getByRole('button', { name: 'Add a service' }).click();
    await services().getByRole('searchbox', { name: 'Search services' }).fill('Chest X-ray');
    const option = services().getByRole('listbox', { name: 'Interventions' }).getByRole('option').first();
    await option.waitFor();
    const chosen = (await option.locator('.option-name').textContent())?.trim() ?? '';
    const chosenCode = (await option.locator('.option-code').textContent())?.trim() ?? '';
    expect(chosen).toMatch(/^Chest X-ray/);
    await option.click();
    await accessibleAtBothSizes('visit, adding a service');
    await services().getByRole('button', { name: 'Add to the visit' }).click();
    await expect.poll(() => services().getByRole('listitem').count()).toBe(2);
    await services().getByRole('listitem').filter({ hasText: chosenCode }).waitFor();
    await expect.poll(() => services().getByRole('listbox').count()).toBe(0);

    // Its line, billed to it by the line form's service choice.
    const lineForm = page.locator('form.add-line');
    await lineForm.getByRole('combobox', { name: 'Service billed' }).selectOption(chosenCode);
    await lineForm.getByRole('textbox', { name: 'Description (optional)' }).fill('Chest X-ray, two views');
    await lineForm.getByRole('textbox', { name: 'Unit price (KES)' }).fill('2500');
    await lineForm.getByRole('textbox', { name: 'Diagnosis (ICD-11 code)' }).fill('CA40.Z');
    await lineForm.getByRole('button', { name: 'Add the line' }).click();
    await page.getByRole('cell', { name: 'Chest X-ray, two views', exact: true }).waitFor();

    // Taken off: the nurse is told SHA deletes its line before she confirms.
    await services().getByRole('button', { name: `Take off ${chosen}` }).click();
    await services().getByText(`SHA deletes the 1 billing line of ${chosen} when it is taken off.`, { exact: false }).waitFor();
    await accessibleAtBothSizes('visit, taking a service off');
    await services().getByRole('button', { name: 'Take it off the visit' }).click();
    await services().getByText('taken off').waitFor();
    await expect.poll(() => page.getByRole('cell', { name: 'Chest X-ray, two views', exact: true }).count()).toBe(0);
    // Put back: the service is on the claim again, its deleted line is not.
    await services().getByRole('button', { name: `Put back ${chosen}` }).click();
    await expect.poll(() => services().getByText('taken off').count()).toBe(0);
    expect(await page.getByRole('cell', { name: 'Chest X-ray, two views', exact: true }).count()).toBe(0);
    await accessibleAtBothSizes('visit with two services');
  });

  it('takes the doctor before the patient is asked, shows the invoice it made, and discharges with it', { timeout: 120_000 }, async () => {
    const bar = page.getByRole('region', { name: 'Next step' });
    // No doctor on the claim: the visit end is not offered; the station says so and takes the doctor first.
    await bar.getByText('SHA refuses this claim without its attending doctor.', { exact: false }).waitFor();
    expect(await bar.getByRole('button', { name: 'Discharge' }).count()).toBe(0);
    await accessibleAtBothSizes('visit, the doctor first');
    await bar.getByRole('button', { name: 'Add the doctor first' }).click();
    const doctor = page.getByRole('region', { name: 'Attending doctor' });
    const idField = doctor.getByRole('textbox', { name: 'Identification number' });
    await expect.poll(() => idField.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    await idField.fill('A12345');
    await doctor.getByRole('button', { name: 'Add the doctor' }).click();
    await doctor.getByRole('button', { name: 'Change the doctor' }).waitFor();

    // A line on the ward's own service, then the discharge: the invoice made from SHA's lines is shown first.
    const lineForm = page.locator('form.add-line');
    await lineForm.getByRole('textbox', { name: 'Description (optional)' }).fill('Oxygen, per day');
    await lineForm.getByRole('textbox', { name: 'Unit price (KES)' }).fill('1200');
    await lineForm.getByRole('textbox', { name: 'Diagnosis (ICD-11 code)' }).fill('CA40.Z');
    await lineForm.getByRole('button', { name: 'Add the line' }).click();
    await page.getByRole('cell', { name: 'Oxygen, per day', exact: true }).waitFor();
    await bar.getByRole('button', { name: 'Discharge' }).click();
    await page.getByRole('button', { name: 'Verify by SMS code' }).click();
    const before = (await station.sandbox.smsCodes('30000002')).length;
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByRole('textbox', { name: 'SMS code' }).fill(await nextCode(() => station.sandbox.smsCodes('30000002'), before));
    // The full code confirms itself.
    await page.getByRole('combobox', { name: 'Reason' }).waitFor({ timeout: 30_000 });
    const made = page.getByRole('region', { name: 'The invoice the station made' });
    await made.getByText(/^Invoice INV-[\w-]+: 2 billing lines, total Ksh\s6,000\.00,/).waitFor();
    await made.getByText('It is attached to the claim as its invoice, with a discharge summary, when you discharge', { exact: false }).waitFor();
    const open = made.getByRole('link', { name: 'Open the invoice (PDF)' });
    expect(await open.getAttribute('href')).toMatch(/^blob:/);
    await accessibleAtBothSizes('visit end with the invoice the station made');
    await page.getByRole('combobox', { name: 'Reason' }).selectOption('RECOVERED');
    await page.getByRole('button', { name: 'Discharge', exact: true }).click();
    await page.getByText('Patient discharged').waitFor({ timeout: 30_000 });

    // The claim at SHA carries the station's invoice and discharge summary, though the nurse chose no file.
    await page.getByRole('navigation').getByRole('button', { name: /^Claims/ }).click();
    await page.getByRole('heading', { name: 'Claims', exact: true }).waitFor();
    await page.getByRole('main').getByRole('listitem').first().getByRole('button', { name: /^Claim INV/ }).click();
    const papers = page.locator('section.claim-documents').getByRole('listitem');
    await papers.filter({ hasText: /^invoice-INV-[\w-]+\.pdf · Invoice$/ }).waitFor({ timeout: 20_000 });
    await papers.filter({ hasText: /^discharge-summary-INV-[\w-]+\.pdf · Discharge summary$/ }).waitFor();
    expect(await papers.count()).toBe(2);
  });
});
