// The first patient at a new station on a ward's network (`station:web --profile ward`, a fresh data
// folder: nothing learnt of the ward yet): the nurse looks the patient up, finds "Upper respiratory
// tract infection" by name in the services search and starts consent for it — and the look-up has
// cost SHA a few service lists, not one per sub-benefit (issue 24: at most 6; today's main asked ~30).
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTrainingStation } from './support';
import type { StationWeb } from './support';

const session = useTrainingStation(30_000, ['--profile', 'ward']);
let station: StationWeb;
let page: Page;
beforeAll(() => {
  ({ station, page } = session);
});

const LISTS = '/api/v1/patients/benefits/interventions';

describe('a fresh station on a ward’s network', () => {
  it('finds a service by name and starts consent for it, asking SHA for a few lists only', { timeout: 120_000 }, async () => {
    const before = (await station.sandbox.recentFaults()).length;
    const field = page.getByRole('textbox', { name: 'ID number' });
    await field.fill('30000001');
    await field.press('Enter');
    await page.getByText('Covered', { exact: true }).waitFor();

    await page.getByRole('searchbox', { name: 'Search services' }).fill('Upper respiratory tract infection');
    const interventions = page.getByRole('listbox', { name: 'Interventions' });
    const wanted = interventions.getByRole('option', { name: /Management of upper respiratory tract infection/ }).first();
    await wanted.click();
    await expect.poll(async () => (await interventions.getByRole('option', { selected: true }).textContent()) ?? '').toMatch(/Management of upper respiratory tract infection/);
    await page.getByRole('button', { name: 'Verify by fingerprint' }).click();
    // Consent started for that service (what SHA answers the fingerprint request is the ward
    // network's business: the profile's odd 503 may ask for "Try again").
    await page.getByRole('heading', { name: 'Consent', exact: true }).waitFor();
    await page.getByText(/Management of upper respiratory tract infection/).first().waitFor();

    const calls = (await station.sandbox.recentFaults()).slice(before);
    const lists = calls.filter((c) => c.method === 'GET' && c.path === LISTS).length;
    expect(lists).toBeGreaterThan(0);
    expect(lists).toBeLessThanOrEqual(6);
  });
});
