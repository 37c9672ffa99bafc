// Flow B end to end, through `npm run station:web` (the real station core, its sandbox and the
// virtual reader), in Chromium, by role and accessible name: consent by SMS code (a full-length
// code confirms itself and opens the visit) and by fingerprint (the visit opens itself once SHA
// authorizes it) from the ID number to an open visit within the bedside targets of
// architecture.md (at most 4 nurse actions by SMS code, 3 by fingerprint plus the capture), then
// the visit end; and the consent step reachable while SHA holds the utilization and the rest of
// the services open. axe-core runs on every screen on the way.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../electron/sandbox/world/catalogue';
import { Nurse, expectAccessible, nextCode, useTrainingStation } from './support';
import type { StationWeb } from './support';

const session = useTrainingStation(10_000);
let station: StationWeb;
let page: Page;
beforeAll(() => {
  ({ station, page } = session);
});

describe('flow B by SMS code (30000002, whitelisted, two phones)', () => {
  it('opens the visit in at most 4 nurse actions: the code confirms itself', { timeout: 60_000 }, async () => {
    const nurse = new Nurse();
    await expectAccessible(page, 'look-up');
    await nurse.fill(page.getByRole('textbox', { name: 'ID number' }), '30000002', 'ID number + Enter', { enter: true });
    await expect.poll(() => page.getByRole('heading', { name: 'Eligibility' }).isVisible(), { timeout: 10_000 }).toBe(true);
    await page.getByText('Covered', { exact: true }).waitFor();
    await page.getByText('SMS code allowed').waitFor();
    // The patient in hand in full, from the exchange's eligibility answer: the nurse checks them.
    await page.getByRole('region', { name: 'Otieno Juma Ochieng' }).getByText(/^Male · \d+ years · born 2 Nov 1956$/).waitFor();
    await page.getByRole('region', { name: 'Next step' }).getByText('This is the patient: Otieno Juma Ochieng').waitFor();
    // The core's suggestion is preselected in the list of interventions, named by code: choosing costs nothing.
    const interventions = page.getByRole('listbox', { name: 'Interventions' });
    await expect.poll(() => interventions.getByRole('option', { selected: true }).count(), { timeout: 10_000 }).toBe(1);
    expect(await interventions.getByRole('option', { selected: true }).textContent()).toMatch(/^SHA-\d\d-\d{3}/);
    await expectAccessible(page, 'eligibility and services');

    await nurse.click(page.getByRole('button', { name: 'Verify by SMS code' }), 'Verify by SMS code');
    // Two masked phones to pick from, the main one preselected.
    await expect.poll(() => page.getByRole('radio').count(), { timeout: 10_000 }).toBe(2);
    await expectAccessible(page, 'consent by SMS code');
    const before = (await station.sandbox.smsCodes('30000002')).length;
    await nurse.click(page.getByRole('button', { name: 'Send code' }), 'Send code');
    const code = await nextCode(() => station.sandbox.smsCodes('30000002'), before);
    const claimsBefore = (await station.sandbox.transitions()).filter((t) => t.entity_type === 'claim' && t.from_state === null).length;
    await nurse.fill(page.getByRole('textbox', { name: 'SMS code' }), code, 'SMS code');
    // The full-length code confirms itself and the visit is the consent: "Visit open" with no press.
    await page.getByText('Visit open', { exact: true }).waitFor();
    expect(nurse.log).toEqual(['ID number + Enter', 'Verify by SMS code', 'Send code', 'SMS code']);
    expect(nurse.actions).toBeLessThanOrEqual(4);
    // "Confirm" stays for who presses it anyway: it opens nothing twice.
    await page.getByRole('button', { name: 'Confirm' }).click();
    expect((await station.sandbox.transitions()).filter((t) => t.entity_type === 'claim' && t.from_state === null).length).toBe(claimsBefore + 1);
    await expectAccessible(page, 'visit open');

    // "Open visit" shows the visit with its number (the view carries it; the consent token never reaches the renderer).
    await page.getByRole('button', { name: 'Open visit' }).click();
    await page.getByRole('heading', { name: 'Visit', exact: true }).waitFor();
    const visitNumber = await page.locator('dt:text-is("Visit number") + dd').textContent();
    expect(visitNumber).not.toBe('Not yet');
    expect(visitNumber?.trim().length).toBeGreaterThan(2);
    await expectAccessible(page, 'visit');
  });
});

describe('flow B by fingerprint (30000001) with the virtual reader', () => {
  it('opens the visit in at most 3 nurse actions plus the capture, then ends the visit', { timeout: 90_000 }, async () => {
    await page.getByRole('button', { name: 'Patients' }).click();
    const nurse = new Nurse();
    await nurse.fill(page.getByRole('textbox', { name: 'ID number' }), '30000001', 'ID number + Enter', { enter: true });
    await page.getByText('Covered', { exact: true }).waitFor();
    await page.getByText('Fingerprint required').waitFor();
    await nurse.click(page.getByRole('button', { name: 'Verify by fingerprint' }), 'Verify by fingerprint');
    // The reader's state is always on screen, in a status region.
    await expect.poll(() => page.getByRole('status').textContent(), { timeout: 10_000 }).toMatch(/reader/i);
    // Browser mode: the authorization page shows in the reserved area, in a sandboxed iframe, and
    // the virtual reader presents the patient's enrolled finger to it.
    const frame = page.locator('iframe');
    await frame.waitFor();
    expect(await frame.getAttribute('sandbox')).toContain('allow-scripts');
    await page.getByText('Page open for').waitFor();
    await expectAccessible(page, 'consent by fingerprint');
    // The patient at the reader; the page says it is done, the station asks SHA at once, and the
    // visit opens itself: no press between the capture and "Visit open".
    await page.getByText('Visit open', { exact: true }).waitFor({ timeout: 20_000 });
    expect(nurse.log).toEqual(['ID number + Enter', 'Verify by fingerprint']);
    expect(nurse.actions).toBeLessThanOrEqual(3);
    await page.getByRole('button', { name: 'Open visit' }).click();
    await page.getByRole('heading', { name: 'Visit', exact: true }).waitFor();

    // Visit end: a billing line with the doctor's three fields, the claim preview, the patient's
    // authorization of the visit's end by fingerprint (SHA's discharge authorization), submit with the
    // invoice number and a reason the nurse chooses (outpatient: no DECEASED).
    await page.getByRole('textbox', { name: 'Unit price (KES)' }).fill('850');
    await page.getByRole('textbox', { name: 'Diagnosis (ICD-11 code)' }).fill('1A40.Z');
    const lineForm = page.locator('form.add-line');
    await lineForm.getByRole('textbox', { name: 'Identification number' }).fill('A12345');
    await page.getByRole('button', { name: 'Add the line' }).click();
    await page.getByRole('cell', { name: '1A40.Z' }).waitFor();
    await page.getByRole('button', { name: 'Show the claim' }).click();
    await page.getByText('Claim status').first().waitFor();
    await expectAccessible(page, 'visit with a line and the claim preview');
    // An outpatient visit is ended, not discharged: its button reads "End visit (discharge)".
    await page.getByRole('button', { name: 'Discharge' }).click();
    await page.getByRole('heading', { name: 'End-of-visit authorization' }).waitFor();
    await page.getByRole('button', { name: 'Verify by fingerprint' }).click();
    await page.locator('iframe').waitFor();
    const reason = page.getByRole('combobox', { name: 'Reason' });
    await reason.waitFor({ timeout: 30_000 });
    const offered = await reason.locator('option').allTextContents();
    expect(offered).not.toContain('Died');
    expect(await page.getByRole('textbox', { name: 'Invoice number' }).inputValue()).not.toBe('');
    expect(await reason.inputValue()).toBe('');
    await expectAccessible(page, 'visit end');
    await reason.selectOption('RECOVERED');
    await page.getByRole('button', { name: 'Submit claim' }).click();
    await page.getByText('Claim submitted').waitFor({ timeout: 30_000 });
  });
});

describe('the consent step while SHA holds the utilization and the rest of the services open', () => {
  it('takes consent and opens the visit though those calls have not been answered', { timeout: 90_000 }, async () => {
    // The ward's usual service is known from the SMS flow above; its sub-benefit answers at once,
    // while every other sub-benefit's interventions and the utilization are held for 30 s.
    await page.getByRole('button', { name: 'Patients' }).click();
    const usual = CATALOGUE.interventionByCode.get('SHA-02-001');
    expect(usual).toBeDefined();
    const held = 30_000;
    await station.sandbox.faults({ routes: ['GET /api/v1/patients/benefits/utilization'], latency_ms: held });
    await station.sandbox.faults({ routes: ['GET /api/v1/patients/benefits/interventions'], latency_ms: held });
    await station.sandbox.faults({ routes: [`GET /api/v1/patients/benefits/interventions?sub_benefit_code=${usual!.sub_benefit_code}`], latency_ms: 0 });
    try {
      const started = Date.now();
      const field = page.getByRole('textbox', { name: 'ID number' });
      await field.fill('30000002');
      await field.press('Enter');
      await page.getByText('Covered', { exact: true }).waitFor();
      // Her visit from the SMS flow above is still open here, so the screen offers it first: she
      // asks for a second consent.
      await page.getByRole('button', { name: 'Consent for another service' }).click();
      // The station asks for the rest of the services only when the nurse does: she does, and they
      // are still being asked of SHA, and the balance is still coming.
      await page.getByRole('button', { name: 'Ask SHA for the rest' }).click();
      await page.getByText(/Still asking SHA for \d+ of \d+ groups of services/).waitFor({ timeout: 10_000 });
      await page.getByText('Checking the balance…').waitFor();
      await page.getByRole('button', { name: 'Verify by SMS code' }).click();
      const before = (await station.sandbox.smsCodes('30000002')).length;
      await page.getByRole('button', { name: 'Send code' }).click();
      const code = await nextCode(() => station.sandbox.smsCodes('30000002'), before);
      await page.getByRole('textbox', { name: 'SMS code' }).fill(code);
      await page.getByText('Visit open', { exact: true }).waitFor({ timeout: 15_000 });
      expect(Date.now() - started).toBeLessThan(held);
      // The held calls were asked for, and SHA has not answered them yet.
      const recent = (await station.sandbox.recentFaults()).filter((r) => Date.parse(r.at) >= started);
      const heldCalls = recent.filter((r) => r.latency_ms === held);
      expect(heldCalls.some((r) => r.path === '/api/v1/patients/benefits/utilization')).toBe(true);
      expect(heldCalls.some((r) => r.path === '/api/v1/patients/benefits/interventions')).toBe(true);
      expect(heldCalls.every((r) => Date.parse(r.at) + held > Date.now())).toBe(true);
      expect(recent.some((r) => r.path === '/api/v1/patients/benefits/utilization' && r.latency_ms === 0)).toBe(false);
    } finally {
      await station.sandbox.clearFaults();
    }
  });
});
