// Issues 14 and 15 end to end, through `npm run station:web` (the real station core and its
// sandbox), in Chromium, by role and accessible name: a diagnosis found by a few letters in the
// terminology search and the doctor found in the professionals registry on a billing line; a
// prescription written on the visit, its medicine found by a few letters in SHA's medicines, its
// review read back from SHA once the prescriber approves it (the sandbox's control API plays the
// payer); then, the station made the pharmacy window's by its administrator, the prescription
// dispensed in part and then the rest. axe-core on every screen.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { flows } from './flows';
import { expectAccessible, openVisitBySms, useTrainingStation } from './support';
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

  it('writes a prescription on the visit, the medicine found by search: SHA’s number and the prescriber’s review come back', { timeout: 60_000 }, async () => {
    await flows.startPrescription(page);
    const form = page.getByRole('form', { name: 'New prescription' });
    // The medicine found by a few letters in the sandbox's medicines (the launcher provisions their owner and source).
    await form.getByRole('textbox', { name: 'Generic medicine code' }).fill('amoxi');
    const medicines = form.getByRole('group', { name: 'Medicines found' });
    await medicines.getByText('2 medicines found').waitFor();
    expect(await medicines.getByRole('button').allInnerTexts()).not.toContainEqual(expect.stringMatching(/malaria/i));
    await expectAccessible(page, 'medicines found');
    await medicines.getByRole('button', { name: /^Choose GE10110 Amoxicillin 500 mg oral capsule/ }).click();
    expect(await form.getByRole('textbox', { name: 'Generic medicine code' }).inputValue()).toBe('GE10110');
    expect(await form.getByRole('textbox', { name: 'Medicine name (optional)' }).inputValue()).toBe('Amoxicillin 500 mg oral capsule');
    await flows.fillItemDetails(form, '0');
    await expectAccessible(page, 'prescription form');
    await form.getByRole('button', { name: 'Send the prescription to SHA' }).click();
    const card = page.getByRole('article', { name: /^Prescription RX-/ });
    await card.getByText('Amoxicillin 500 mg oral capsule').waitFor();
    await card.getByText('(GE10110)').waitFor();
    await card.getByText('1 capsule 3 times a day, for 5 days').waitFor();
    await card.getByText(/^Waiting for the prescriber's review \(as SHA said at /).waitFor();
    await card.getByText('0 of 1 fills').waitFor();
  });

  it('reads the prescriber’s review back from SHA on demand, in words', { timeout: 60_000 }, async () => {
    const card = page.getByRole('article', { name: /^Prescription RX-/ });
    const name = (await card.getAttribute('aria-label')) ?? '';
    const code = name.replace(/^Prescription /, '');
    await station.sandbox.prescriptionReview(code, { doctor_review_status: 'APPROVED' });
    await page.getByRole('button', { name: 'Check with SHA now' }).click();
    await card.getByText(/^Approved by the prescriber \(as SHA said at /).waitFor();
    await card.getByText(/^Active: it may be dispensed/).waitFor();
    await page.getByText(/^Checked with SHA at /).waitFor();
    await expectAccessible(page, 'prescription read back');
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

  it('the administrator takes the medicines’ owner and source away: the form says so and takes the generic code typed', { timeout: 90_000 }, async () => {
    await page.getByRole('button', { name: 'Settings' }).click();
    // The launcher provisioned the sandbox's; the administrator may change them.
    expect(await page.getByRole('textbox', { name: 'Medicines: owner' }).inputValue()).toBe('MOH-PPB');
    expect(await page.getByRole('textbox', { name: 'Medicines: source' }).inputValue()).toBe('HPT');
    await expectAccessible(page, 'settings with the terminology');
    await page.getByRole('combobox', { name: 'What this station is for' }).selectOption('ward');
    // An owner without its source is refused, named under the field, and nothing is saved.
    await page.getByRole('textbox', { name: 'Medicines: source' }).fill('');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText(/terminology\.medicines\.source: must be the source the facility was given/).waitFor();
    expect(await page.getByRole('navigation').getByRole('button', { name: 'Pharmacy' }).count()).toBe(1);
    await page.getByRole('textbox', { name: 'Medicines: owner' }).fill('');
    await page.getByRole('button', { name: 'Save settings' }).click();
    // Saved: the Pharmacy tab goes with the pharmacy role (the form is drawn afresh from what the station keeps).
    await page.getByRole('navigation').getByRole('button', { name: 'Pharmacy' }).waitFor({ state: 'detached' });
    expect(await page.getByRole('textbox', { name: 'Medicines: owner' }).inputValue()).toBe('');

    await page.getByRole('button', { name: 'Work in progress' }).click();
    await page.getByRole('button', { name: /^Continue/ }).first().click();
    await page.getByRole('heading', { name: 'Visit', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Write a prescription' }).click();
    const form = page.getByRole('form', { name: 'New prescription' });
    await form.getByText('Medicines cannot be searched at this station').waitFor();
    await form.getByRole('textbox', { name: 'Generic medicine code' }).fill('amoxi');
    expect(await form.getByRole('group', { name: 'Medicines found' }).count()).toBe(0);
    await expectAccessible(page, 'prescription form, medicines not set up');
    await form.getByRole('textbox', { name: 'Identification number' }).fill('A12345');
    await form.getByText('Dr. Achieng Odhiambo').waitFor();
    await form.getByRole('textbox', { name: 'Generic medicine code' }).fill('AMOX-500');
    await flows.prescriptionDetails(page);
    await page.getByRole('article', { name: /^Prescription RX-/ }).getByText('(AMOX-500)').waitFor();
  });
});
