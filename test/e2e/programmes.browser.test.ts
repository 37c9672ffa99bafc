// Issue 15 end to end through `npm run station:web` (the real station core and its sandbox), in
// Chromium, by role and accessible name: the facility's beds, a POMSF member's balances, the shared
// health record of an open visit with what its labels restrict left out, and a referral discharge
// whose destination is found by search. axe-core in English and in Kiswahili on each.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, useTrainingStation } from './support';

const session = useTrainingStation();
let page: Page;
beforeAll(() => {
  ({ page } = session);
});

/** The screen in Kiswahili, checked, and back in English. */
async function inBothLanguages(screen: string, swahiliText: string): Promise<void> {
  await expectAccessible(page, `${screen} (en)`);
  await page.getByRole('button', { name: 'Kiswahili', exact: true }).click();
  await page.getByText(swahiliText).first().waitFor();
  await expectAccessible(page, `${screen} (sw)`);
  await page.getByRole('button', { name: 'English', exact: true }).click();
  await page.getByRole('button', { name: 'Kiswahili', exact: true }).waitFor();
}

describe('bed occupancy', () => {
  it('shows the facility’s beds by type as SHA counts them', { timeout: 60_000 }, async () => {
    await page.getByRole('button', { name: 'Beds', exact: true }).click();
    await page.getByRole('heading', { name: 'Bed occupancy' }).waitFor();
    const normal = page.getByRole('row', { name: /General, maternity and children's wards/ });
    await normal.waitFor();
    expect(await normal.getByRole('cell').first().textContent()).toBe('104');
    await page.getByRole('row', { name: /Intensive care \(ICU\)/ }).waitFor();
    expect(await page.getByRole('rowheader', { name: 'High dependency (HDU)' }).count()).toBe(0);
    await inBothLanguages('bed occupancy', 'Vitanda vinavyotumika');
  });
});

describe('POMSF', () => {
  it('shows a POMSF member’s benefits with limit and balance for the policy year', { timeout: 60_000 }, async () => {
    await page.getByRole('button', { name: 'Patients' }).click();
    const field = page.getByRole('textbox', { name: 'ID number' });
    await field.fill('30000005');
    await field.press('Enter');
    await page.getByRole('heading', { name: 'Eligibility' }).waitFor();
    await page.getByRole('button', { name: 'Show POMSF balance' }).click();
    await page.getByText('Policy year 1 July').waitFor();
    const inpatient = page.getByRole('row', { name: /Inpatient/ });
    await inpatient.waitFor();
    expect(await inpatient.getByRole('cell').first().textContent()).toMatch(/400,000/);
    await inBothLanguages('POMSF', 'Bima ya POMSF');
  });
});

describe('shared health record and a referral discharge', () => {
  it('reads the visit’s record without what is restricted, then discharges to a facility found by search', { timeout: 120_000 }, async () => {
    await page.getByRole('button', { name: 'Patients' }).click();
    const field = page.getByRole('textbox', { name: 'ID number' });
    await field.fill('30000001');
    await field.press('Enter');
    await page.getByRole('button', { name: 'Verify by fingerprint' }).click();
    await page.getByText('Visit open', { exact: true }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Open visit' }).click();
    await page.getByRole('heading', { name: 'Visit', exact: true }).waitFor();

    // The record, read with the visit's consent by the nurse's practitioner number.
    await page.getByRole('button', { name: 'Read the record' }).click();
    await page.getByText('Enter your practitioner number').waitFor();
    await page.getByRole('textbox', { name: 'Your practitioner number' }).fill('NCK-118822');
    await page.getByRole('button', { name: 'Read the record' }).click();
    await page.getByRole('rowheader', { name: 'Heart rate' }).waitFor();
    await page.getByText('Entries not shown: 2.').waitFor();
    const record = (await page.locator('section[aria-labelledby=record-title]').textContent()) ?? '';
    for (const restricted of ['HIV', 'viral load', 'PHQ-9']) expect(record).not.toContain(restricted);
    await inBothLanguages('shared health record', 'Rekodi ya afya ya pamoja');

    // The visit's end: a line with the doctor, the patient's fingerprint, then the referral.
    await page.getByRole('textbox', { name: 'Unit price (KES)' }).fill('850');
    await page.getByRole('textbox', { name: 'Diagnosis (ICD-11 code)' }).fill('1A40.Z');
    await page.locator('form.add-line').getByRole('textbox', { name: 'Identification number' }).fill('A12345');
    await page.getByRole('button', { name: 'Add the line' }).click();
    await page.getByRole('cell', { name: '1A40.Z' }).waitFor();
    await page.getByRole('button', { name: 'Discharge' }).click();
    await page.getByRole('button', { name: 'Verify by fingerprint' }).click();
    const reason = page.getByRole('combobox', { name: 'Reason' });
    await reason.waitFor({ timeout: 30_000 });
    await reason.selectOption('REFERRED');
    await page.getByRole('textbox', { name: 'Facility name, FR or MFL code' }).fill('Mlima');
    await page.getByRole('button', { name: 'Find facility' }).click();
    const destination = page.getByRole('radio', { name: /Mlima County Referral Hospital/ });
    await destination.waitFor();
    expect(await destination.isChecked()).toBe(false);
    await inBothLanguages('referral destination', 'Kituo cha afya cha rufaa');
    await destination.check();
    await page.getByRole('button', { name: 'Submit claim' }).click();
    await page.getByText('Claim submitted').waitFor({ timeout: 30_000 });
    await page.getByText('Referred to Mlima County Referral Hospital (FID-00-000005-0)').waitFor();
    await expectAccessible(page, 'referral done');
  });
});
