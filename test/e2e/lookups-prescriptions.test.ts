// Issues 14 and 15 end to end, through `npm run station:web` (the real station core and its
// sandbox), in Chromium, by role and accessible name: a diagnosis found by a few letters in the
// terminology search and the doctor found in the professionals registry on a billing line; a
// prescription written on the visit; then, the station made the pharmacy window's by its
// administrator, the prescription dispensed in part and then the rest. axe-core on every screen.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, fillPrescription, openVisitBySms, useTrainingStation } from './support';
import type { StationWeb } from './support';

const ADMIN = { name: 'Achieng Admin', pin: '7315' };
const session = useTrainingStation(15_000, ['--admin', `${ADMIN.name}:${ADMIN.pin}`]);
let station: StationWeb;
let page: Page;
beforeAll(() => {
  ({ station, page } = session);
});

describe('look-ups, a prescription and the pharmacy window', () => {
  it('finds a diagnosis by search and the doctor in the registry, and bills the line with them', { timeout: 90_000 }, async () => {
    await openVisitBySms(page, station.sandbox, '30000002');
    await page.getByRole('textbox', { name: 'Unit price (KES)' }).fill('800');
    await page.getByRole('textbox', { name: 'Diagnosis (ICD-11 code)' }).fill('malar');
    await page.getByRole('group', { name: 'Diagnoses found' }).getByRole('button', { name: /^Choose 1F40\.Z Malaria/ }).click();
    expect(await page.getByRole('textbox', { name: 'Diagnosis (ICD-11 code)' }).inputValue()).toBe('1F40.Z');
    const lineDoctor = page.locator('form.add-line');
    await lineDoctor.getByRole('textbox', { name: 'Identification number' }).fill('A12345');
    await lineDoctor.getByText('Dr. Achieng Odhiambo').waitFor();
    await lineDoctor.getByText('Medical Officer · General practice').waitFor();
    await lineDoctor.getByText(/^Licence: active/).waitFor();
    await expectAccessible(page, 'diagnosis and doctor found');
    await page.getByRole('button', { name: 'Add the line' }).click();
    await page.getByRole('cell', { name: '1F40.Z', exact: true }).waitFor();
    // Used on this station now: offered first when the field is entered again, marked.
    await page.getByRole('textbox', { name: 'Diagnosis (ICD-11 code)' }).fill('');
    await page.getByRole('group', { name: 'Diagnoses found' }).getByRole('button', { name: /^Choose 1F40\.Z/ }).getByText('used recently').waitFor();
  });

  it('writes a prescription on the visit: SHA’s number and the prescriber’s review come back', { timeout: 60_000 }, async () => {
    const form = await fillPrescription(page);
    await expectAccessible(page, 'prescription form');
    await form.getByRole('button', { name: 'Send the prescription to SHA' }).click();
    const card = page.getByRole('article', { name: /^Prescription RX-/ });
    await card.getByText('1 capsule 3 times a day, for 5 days').waitFor();
    await card.getByText('PENDING').waitFor();
    await card.getByText('0 of 1 fills').waitFor();
  });

  it('at the pharmacy window, dispenses part of the fill and then the rest', { timeout: 90_000 }, async () => {
    // The administrator makes this station the pharmacy window's.
    await page.getByRole('button', { name: 'Lock' }).click();
    await page.getByRole('textbox', { name: 'PIN' }).fill(ADMIN.pin);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('textbox', { name: 'ID number' }).waitFor();
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('combobox', { name: 'What this station is for' }).selectOption('pharmacy');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('navigation').getByRole('button', { name: 'Pharmacy' }).click();
    await page.getByText('Look the patient up first').waitFor();
    await expectAccessible(page, 'pharmacy, no patient');
    await page.getByRole('button', { name: 'Go to the patient look-up' }).click();
    const field = page.getByRole('textbox', { name: 'ID number' });
    await field.fill('30000002');
    await field.press('Enter');
    await page.getByRole('button', { name: "This patient's prescriptions" }).click();

    const card = page.getByRole('article', { name: /^Prescription RX-/ });
    const dispense = async (quantity: string, how: RegExp) => {
      const form = card.getByRole('form', { name: /^Dispense against RX-/ });
      await form.getByRole('combobox', { name: "Dispenser's kind of ID" }).selectOption('National ID');
      await form.getByRole('textbox', { name: "Dispenser's ID number" }).fill('26802244');
      await form.getByRole('textbox', { name: 'Product code' }).fill('AMOX-500-CAP');
      await form.getByRole('textbox', { name: 'Price each (KES)' }).fill('12.50');
      await form.getByRole('textbox', { name: 'Quantity given' }).fill(quantity);
      await form.getByRole('radio', { name: how }).check();
      await form.getByRole('button', { name: 'Record the dispense with SHA' }).click();
    };
    await expectAccessible(page, 'pharmacy, dispensing');
    await dispense('6', /^Part of it/);
    await card.getByText('a fill begun, the rest still to give').waitFor();
    await card.getByRole('heading', { name: 'Dispense the rest of the fill' }).waitFor();
    await dispense('9', /^All of it/);
    await card.getByText('1 of 1 fills').waitFor();
    await card.getByText('Every fill of this prescription, refills included, has been dispensed.').waitFor();
    expect(await card.getByRole('form').count()).toBe(0);
    await expectAccessible(page, 'pharmacy, dispensed');
  });
});
