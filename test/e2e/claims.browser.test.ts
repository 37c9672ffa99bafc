// Issue 14's proof for claims, end to end through `npm run station:web` (the real station core and
// its sandbox) in Chromium, by role and accessible name: an outpatient claim submitted, returned by
// SHA for documents (the sandbox's control API plays SHA), seen on the Claims tab with its count,
// its state in words and the missing document named, fixed with a PDF attached from a file
// (checked and previewed first) and sent back; SHA has it again. Then a second claim fixed with a
// scan from the scanner's folder the administrator set (a real folder on this computer, read by the
// station core). axe-core on every screen on the way, in English and in Kiswahili.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, nextCode, useTrainingStation } from './support';
import type { StationWeb } from './support';

const IT_OFFICER = { name: 'IT officer', pin: '771199' };
const session = useTrainingStation(15_000, ['--admin', `${IT_OFFICER.name}:${IT_OFFICER.pin}`]);
const scans = mkdtempSync(join(tmpdir(), 'idhini-e2e-scans-'));
afterAll(() => rmSync(scans, { recursive: true, force: true }));
let station: StationWeb;
let page: Page;
beforeAll(() => {
  ({ station, page } = session);
});

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n3 0 obj << /Type /Page /Parent 2 0 R >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

async function switchLanguage(to: 'sw' | 'en'): Promise<void> {
  await page.getByRole('button', { name: to === 'sw' ? 'Kiswahili' : 'English', exact: true }).click();
  await page.getByRole('button', { name: to === 'sw' ? 'English' : 'Kiswahili', exact: true }).waitFor();
}

/** Flow B by SMS code for 30000002: the visit opened, a line with the doctor, the visit ended by the discharge code and the claim submitted. */
async function submitAClaim(): Promise<void> {
  const field = page.getByRole('textbox', { name: 'ID number' });
  await field.fill('30000002');
  await field.press('Enter');
  await page.getByText('Covered', { exact: true }).waitFor();
  await page.getByRole('button', { name: 'Verify by SMS code' }).click();
  let before = (await station.sandbox.smsCodes('30000002')).length;
  await page.getByRole('button', { name: 'Send code' }).click();
  await page.getByRole('textbox', { name: 'SMS code' }).fill(await nextCode(() => station.sandbox.smsCodes('30000002'), before));
  await page.getByText('Visit open', { exact: true }).waitFor();
  await page.getByRole('button', { name: 'Open visit' }).click();
  await page.getByRole('heading', { name: 'Visit', exact: true }).waitFor();
  await page.getByRole('textbox', { name: 'Unit price (KES)' }).fill('1200');
  await page.getByRole('textbox', { name: 'Diagnosis (ICD-11 code)' }).fill('1A40.Z');
  await page.locator('form.add-line').getByRole('textbox', { name: 'Identification number' }).fill('A12345');
  await page.getByRole('button', { name: 'Add the line' }).click();
  await page.getByRole('cell', { name: '1A40.Z' }).waitFor();
  await page.getByRole('button', { name: 'Discharge' }).click();
  await page.getByRole('heading', { name: 'End-of-visit authorization' }).waitFor();
  await page.getByRole('button', { name: 'Verify by SMS code' }).click();
  before = (await station.sandbox.smsCodes('30000002')).length;
  await page.getByRole('button', { name: 'Send code' }).click();
  await page.getByRole('textbox', { name: 'SMS code' }).fill(await nextCode(() => station.sandbox.smsCodes('30000002'), before));
  // The full code confirms itself (at the visit end it opens nothing).
  const reason = page.getByRole('combobox', { name: 'Reason' });
  await reason.waitFor({ timeout: 30_000 });
  // Before the claim goes, the documents SHA lists for the service and not on it are named.
  await page.getByText('Not on the claim yet: Invoice.', { exact: false }).waitFor();
  await expectAccessible(page, 'visit end with the documents named');
  await reason.selectOption('RECOVERED');
  await page.getByRole('button', { name: 'Submit claim' }).click();
  await page.getByText('Claim submitted').waitFor({ timeout: 30_000 });
}

describe('a claim returned for documents', () => {
  it('is seen on the Claims tab, fixed with an attached document and sent back to SHA', { timeout: 120_000 }, async () => {
    await submitAClaim();
    const created = (await station.sandbox.transitions()).filter((t) => t.entity_type === 'claim' && t.from_state === null).at(-1);
    expect(created).toBeDefined();
    const token = created!.consent_token;
    // SHA's side: the claim goes on for review and comes back for the facility's own invoice.
    for (const to of ['DISPATCHED', 'SUBMITTED_PAYER', 'DRAFT_RESUBMIT_DOCUMENTS']) await station.sandbox.payerMovesClaim(token, to, to === 'DRAFT_RESUBMIT_DOCUMENTS' ? ['INVOICE'] : undefined);

    const tab = page.getByRole('navigation').getByRole('button', { name: /^Claims/ });
    await tab.click();
    await page.getByRole('heading', { name: 'Claims', exact: true }).waitFor();
    // Opening the claims checks them with SHA: the return is seen, counted on the tab and first in the list.
    await page.getByText('1 claim needs you').waitFor();
    await expect.poll(() => tab.textContent()).toBe('Claims1, 1 needs you');
    const first = page.getByRole('main').getByRole('listitem').first();
    await first.getByText('Needs documents').waitFor();
    await expectAccessible(page, 'claims');
    await first.getByRole('button', { name: /^Claim INV/ }).click();

    await page.getByRole('heading', { name: 'Returned for documents' }).waitFor();
    await page.getByText('SHA returned the claim: it needs more documents.').waitFor();
    // The invoice the station made went with the claim; the nurse replaces it with the facility's scan.
    await page.getByRole('button', { name: /^Remove invoice-INV-[\w-]+\.pdf$/ }).click();
    await page.getByText('Missing: Invoice.', { exact: true }).waitFor({ timeout: 20_000 });
    const bar = page.getByRole('region', { name: 'Next step' });
    await bar.getByText('Still missing: Invoice. SHA may refuse the claim without them.').waitFor();
    await expectAccessible(page, 'claim returned for documents');
    await switchLanguage('sw');
    await page.getByRole('heading', { name: 'Limerudishwa kwa ajili ya nyaraka' }).waitFor();
    await page.getByText('Nyaraka zinazokosekana: Ankara.', { exact: true }).waitFor();
    await expectAccessible(page, 'claim returned for documents (Kiswahili)');
    await switchLanguage('en');

    // Sent back without it, SHA refuses, and the claim says so in words.
    await bar.getByRole('button', { name: 'Send back to SHA' }).click();
    await page.getByText('SHA needs more documents').waitFor();

    await page.getByRole('combobox', { name: 'Document type' }).selectOption('INVOICE');
    await page.getByLabel(/^File: PDF, JPEG or PNG/).setInputFiles({ name: 'final-invoice.pdf', mimeType: 'application/pdf', buffer: PDF });
    await page.getByRole('group', { name: 'Preview before sending' }).getByText('PDF, 1 page,').waitFor();
    await expectAccessible(page, 'document previewed');
    await page.getByRole('button', { name: 'Attach document' }).click();
    await page.getByText('Invoice is on the claim.').waitFor({ timeout: 20_000 });
    await page.getByText('A document of every type SHA lists is on the claim.').waitFor();

    await bar.getByRole('button', { name: 'Send back to SHA' }).click();
    await page.getByText('The claim is back with SHA.').waitFor({ timeout: 20_000 });
    await page.getByRole('heading', { name: 'Submitted' }).waitFor();
    await expect.poll(() => tab.textContent()).toBe('Claims');
    const back = (await station.sandbox.transitions()).filter((t) => t.consent_token === token).map((t) => t.to_state);
    expect(back.slice(-2)).toEqual(['DRAFT_RESUBMIT_DOCUMENTS', 'SUBMITTED']);
    await expectAccessible(page, 'claim sent back');
  });

  it('is fixed with a scan from the scanner’s folder the administrator set', { timeout: 120_000 }, async () => {
    // The administrator sets the folder (the Training nurse may not).
    await page.getByRole('button', { name: 'Lock' }).click();
    await page.getByRole('textbox', { name: 'PIN' }).fill(IT_OFFICER.pin);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('textbox', { name: 'ID number' }).waitFor();
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('textbox', { name: 'Scanner\'s folder' }).fill(scans);
    await page.getByRole('button', { name: 'Save settings' }).click();
    // Saved: the form is drawn again from the station's settings (its "saved" note goes with the old one).
    await expect.poll(() => page.getByRole('button', { name: 'Save settings' }).getAttribute('aria-busy')).toBeNull();
    await expect.poll(() => page.getByRole('textbox', { name: 'Scanner\'s folder' }).inputValue()).toBe(scans);
    await page.getByRole('button', { name: 'Patients' }).click();

    await submitAClaim();
    const token = (await station.sandbox.transitions()).filter((t) => t.entity_type === 'claim' && t.from_state === null).at(-1)!.consent_token;
    for (const to of ['DISPATCHED', 'SUBMITTED_PAYER', 'DRAFT_RESUBMIT_DOCUMENTS']) await station.sandbox.payerMovesClaim(token, to, to === 'DRAFT_RESUBMIT_DOCUMENTS' ? ['INVOICE'] : undefined);
    writeFileSync(join(scans, 'scan-0001.pdf'), PDF);
    await page.getByRole('navigation').getByRole('button', { name: /^Claims/ }).click();
    await page.getByText('1 claim needs you').waitFor();
    await page.getByRole('main').getByRole('listitem').filter({ hasText: 'Needs documents' }).getByRole('button', { name: /^Claim INV/ }).click();
    await page.getByRole('heading', { name: 'Returned for documents' }).waitFor();
    // SHA's 14 days, counted from now, when the station first saw the return.
    await page.getByText(/^Send back by /).waitFor();

    const scanner = page.getByRole('region', { name: 'From the scanner' });
    await scanner.getByRole('button', { name: /^scan-0001\.pdf/ }).waitFor();
    // The scanner saves the invoice after the picker opened: "Look again" finds it, newest first.
    writeFileSync(join(scans, 'invoice-0002.pdf'), PDF);
    await scanner.getByRole('button', { name: 'Look again' }).click();
    await expect.poll(() => scanner.locator('.scanner-name').allTextContents()).toEqual(['invoice-0002.pdf', 'scan-0001.pdf']);
    await expectAccessible(page, 'the scanner’s files');
    await scanner.getByRole('button', { name: /^invoice-0002\.pdf/ }).click();
    await page.getByRole('group', { name: 'Preview before sending' }).getByText('PDF, 1 page,').waitFor();
    await page.getByRole('combobox', { name: 'Document type' }).selectOption('INVOICE');
    await page.getByRole('button', { name: 'Attach document' }).click();
    await page.getByText('Invoice is on the claim.').waitFor({ timeout: 20_000 });
    // Read back from SHA after the upload: the paper is on the claim there, and the claim goes back.
    await page.getByText('A document of every type SHA lists is on the claim.').waitFor();
    await page.getByRole('region', { name: 'Next step' }).getByRole('button', { name: 'Send back to SHA' }).click();
    await page.getByText('The claim is back with SHA.').waitFor({ timeout: 20_000 });
  });
});
