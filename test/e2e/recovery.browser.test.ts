// What goes wrong at a bedside, end to end through `npm run station:web`: a patient not found, a
// patient not covered, unusable fingerprints (30000004's BIOMETRICS_NOT_FOUND_OTP_ALLOWED), a stale
// fingerprint request blocking the SMS code, and the exchange failing mid-flow (sandbox faults, the
// status bar saying so too) — each visible on screen with the way out the screen offers, taken to
// the end.
import type { Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, nextCode, useTrainingStation } from './support';
import type { StationWeb } from './support';

const session = useTrainingStation();
let station: StationWeb;
let page: Page;
beforeAll(() => {
  ({ station, page } = session);
});

afterEach(async () => {
  await station.sandbox.clearFaults();
  await page.getByRole('button', { name: 'Patients' }).click();
});

async function lookUp(idNumber: string): Promise<void> {
  const field = page.getByRole('textbox', { name: 'ID number' });
  await field.fill(idNumber);
  await field.press('Enter');
}

describe('look-up', () => {
  it('says clearly when no patient has the number (99999999)', async () => {
    await lookUp('99999999');
    await page.getByRole('alert').filter({ hasText: 'No patient found' }).waitFor();
    await page.getByText('SHA has no patient with National ID 99999999.').waitFor();
    await expectAccessible(page, 'patient not found');
  });

  it('shows a patient who is not covered (30000003) with the reason and the possible solution', async () => {
    await lookUp('30000003');
    await page.getByRole('heading', { name: 'Eligibility' }).waitFor();
    await page.getByText('Not covered', { exact: true }).waitFor();
    await page.getByText('Why:').waitFor();
    await page.getByText('What the patient can do:').waitFor();
    expect(await page.getByRole('button', { name: 'Verify by fingerprint' }).count()).toBe(0);
    await expectAccessible(page, 'not covered');
  });
});

describe('consent when the fingerprint cannot be used', () => {
  it('explains the fallback to an SMS code in the patient\'s words (30000004) and opens the visit with it', { timeout: 60_000 }, async () => {
    await lookUp('30000004');
    await page.getByText('Covered', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Verify by fingerprint' }).click();
    await page.getByText('The fingerprint could not be used').waitFor({ timeout: 30_000 });
    await page.getByText(/The machine could not read your fingerprints\. This is not your fault\./).waitFor();
    await page.getByText('SMS code allowed for').waitFor();
    await expectAccessible(page, 'SMS fallback');
    const before = (await station.sandbox.smsCodes('30000004')).length;
    await page.getByRole('button', { name: 'Send code' }).click();
    const code = await nextCode(() => station.sandbox.smsCodes('30000004'), before);
    await page.getByRole('textbox', { name: 'SMS code' }).fill(code);
    await page.getByRole('button', { name: 'Open visit' }).click();
    await page.getByText('Visit open', { exact: true }).waitFor();
  });

  it('switches from a fingerprint request still open on screen to an SMS code (30000002): the open request is withdrawn, the code goes out', { timeout: 60_000 }, async () => {
    await lookUp('30000002');
    await page.getByText('SMS code allowed').waitFor();
    // The patient has not put a finger on the reader: the page's capture from the device service
    // waits (else the virtual reader's finger would authorize it, and the visit open itself).
    const noFinger = (url: URL) => url.pathname === '/capture';
    await page.route(noFinger, () => undefined);
    await page.getByRole('button', { name: 'Verify by fingerprint' }).click();
    await page.locator('iframe').waitFor();
    // The patient changes their mind while the fingerprint request is still PENDING.
    await page.getByRole('button', { name: 'Verify by SMS code' }).click();
    await page.unroute(noFinger);
    const before = (await station.sandbox.smsCodes('30000002')).length;
    await page.getByRole('button', { name: 'Send code' }).click();
    const code = await nextCode(() => station.sandbox.smsCodes('30000002'), before);
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.getByRole('textbox', { name: 'SMS code' }).fill(code);
    await page.getByRole('button', { name: 'Open visit' }).waitFor();
  });

  it('is not blocked by a stale PENDING fingerprint request left open elsewhere (30000002)', { timeout: 60_000 }, async () => {
    // For a service the visit the test above opened does not cover: for one it covers, SHA answers
    // that visit's authorization instead of a new request (R WORKFLOWS §9), and nothing is stale.
    const stale = await station.sandbox.openFingerprintRequestElsewhere('30000002', 'SHA-02-002');
    expect(stale.status).toBe('PENDING');
    await lookUp('30000002');
    // The visit the test above opened is offered first: the nurse asks for another service's consent.
    await page.getByRole('button', { name: 'Consent for another service' }).click();
    await page.getByText('SMS code allowed').waitFor();
    const interventions = page.getByRole('listbox', { name: 'Interventions' });
    await interventions.getByRole('option', { selected: true }).waitFor();
    await page.getByRole('button', { name: 'Verify by SMS code' }).click();
    const before = (await station.sandbox.smsCodes('30000002')).length;
    await page.getByRole('button', { name: 'Send code' }).click();
    // The exchange refuses the code while the stale request is PENDING; the station withdraws it and sends again.
    const code = await nextCode(() => station.sandbox.smsCodes('30000002'), before);
    await page.getByRole('textbox', { name: 'SMS code' }).fill(code);
    await page.getByRole('button', { name: 'Open visit' }).click();
    await page.getByText('Visit open', { exact: true }).waitFor();
    const rejected = (await station.sandbox.transitions()).filter((t) => t.subject_guid === stale.guid && t.to_state === 'REJECTED');
    expect(rejected).toHaveLength(1);
  });
});

describe('the exchange failing mid-flow', () => {
  it('keeps the work, says the exchange is not answering, and the recovery the screen offers completes the step', { timeout: 90_000 }, async () => {
    await lookUp('30000002');
    await page.getByText('Covered', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Consent for another service' }).click();
    await page.getByRole('button', { name: 'Verify by SMS code' }).click();
    await page.getByRole('button', { name: 'Send code' }).waitFor();
    // Every exchange call fails from now on (the sandbox's fault injection).
    await station.sandbox.faults({ fail_rate: 1, status: 503 });
    await page.getByRole('button', { name: 'Send code' }).click();
    const error = page.getByRole('alert').filter({ hasText: 'The SHA exchange is not answering' });
    await error.waitFor({ timeout: 45_000 });
    expect(await error.textContent()).toContain('Nothing was lost.');
    // The status bar agrees with the screen: the exchange is not answering.
    const statusBar = page.getByRole('contentinfo');
    await expect.poll(() => statusBar.textContent(), { timeout: 10_000 }).toContain('SHA exchange not answering');
    await expectAccessible(page, 'exchange failing');
    // The exchange comes back; the screen's own way out sends the code.
    await station.sandbox.clearFaults();
    const before = (await station.sandbox.smsCodes('30000002')).length;
    await error.getByRole('button', { name: 'Try again' }).click();
    const code = await nextCode(() => station.sandbox.smsCodes('30000002'), before);
    await expect.poll(() => statusBar.textContent(), { timeout: 10_000 }).toContain('SHA exchange answering');
    await page.getByRole('textbox', { name: 'SMS code' }).fill(code);
    await page.getByRole('button', { name: 'Open visit' }).click();
    await page.getByText('Visit open', { exact: true }).waitFor();
  });
});
