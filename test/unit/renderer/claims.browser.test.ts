// The claims screen in Chromium against the fake station: a submitted claim returned by SHA for
// documents counted on the Claims tab and first in the list, its state in words with what it means
// and what to do, the missing document named before it is sent back, a file checked (type by its
// content, the size limit) and previewed before it is attached, then the claim sent back.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openWithFake, serveRenderer } from '../../fixtures/renderer/harness';
import { useChromium } from '../../support/browser-suite';
import type { StaticServer } from '../../support/chromium';
import { control, flows, SCANNER_FOLDER } from '../../e2e/flows';

let server: StaticServer | undefined;
const chromium = useChromium({ setUp: async () => void (server = await serveRenderer()), tearDown: async () => server?.close() });

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Page >> endobj\n2 0 obj << /Type /Page >> endobj\n3 0 obj << /Type /Pages >> endobj\ntrailer <<>>\n%%EOF\n');

async function open(): Promise<Page> {
  const { page } = await openWithFake(chromium.browser, server!, { viewport: { width: 1024, height: 600 } });
  page.setDefaultTimeout(10_000);
  return page;
}

describe('claims', () => {
  it('counts a claim returned for documents, shows what it means, names the missing document, previews a file and sends the claim back', { timeout: 60_000 }, async () => {
    const page = await open();
    try {
      await flows.claimsList(page);
      // The tab counts the claim needing the nurse, in words for screen readers.
      const tab = page.getByRole('navigation').getByRole('button', { name: /^Claims/ });
      await expect.poll(() => tab.textContent()).toBe('Claims1, 1 needs you');
      await page.getByText('1 claim needs you').waitFor();
      await page.getByRole('button', { name: /^Claim INV/ }).first().click();
      await page.getByRole('heading', { name: 'Returned for documents' }).waitFor();
      await page.getByText('SHA returned the claim: it needs more documents.').waitFor();
      await page.getByText('Attach the missing documents below, then send the claim back.').waitFor();
      await page.getByText('Missing: Invoice.', { exact: true }).waitFor();
      const bar = page.getByRole('region', { name: 'Next step' });
      await bar.getByText('Still missing: Invoice. SHA may refuse the claim without them.').waitFor();

      // Nothing chosen for the nurse: the type is hers to choose, the listed ones first.
      const type = page.getByRole('combobox', { name: 'Document type' });
      expect(await type.inputValue()).toBe('');
      expect((await type.locator('optgroup').first().getAttribute('label')) ?? '').toBe('Listed by SHA for this service');
      expect(await type.locator('optgroup').first().locator('option').allTextContents()).toEqual(['Invoice']);
      await page.getByRole('button', { name: 'Attach document' }).click();
      await page.getByText('Choose the document type.').waitFor();

      // A file that is not what its name says, and one over the limit, never get as far as a preview.
      const file = page.getByLabel(/^File: PDF, JPEG or PNG/);
      await file.setInputFiles({ name: 'invoice.pdf', mimeType: 'application/pdf', buffer: Buffer.from('not a pdf at all') });
      await page.getByRole('alert').filter({ hasText: 'is not a PDF, JPEG or PNG' }).first().waitFor();
      await file.setInputFiles({ name: 'scan.png', mimeType: 'image/png', buffer: Buffer.concat([PNG, Buffer.alloc(600_000)]) });
      await page.getByRole('alert').filter({ hasText: 'the station sends at most' }).first().waitFor();
      await file.setInputFiles({ name: 'notes.docx', mimeType: 'application/msword', buffer: PDF });
      await page.getByRole('alert').filter({ hasText: 'Only PDF, JPEG or PNG files' }).first().waitFor();

      // A PDF's pages are counted; a picture is shown before it is sent.
      await file.setInputFiles({ name: 'final.pdf', mimeType: 'application/pdf', buffer: PDF });
      await page.getByText('PDF, 2 pages,').waitFor();
      await file.setInputFiles({ name: 'invoice.png', mimeType: 'image/png', buffer: PNG });
      const preview = page.getByRole('group', { name: 'Preview before sending' });
      await preview.getByRole('img', { name: 'invoice.png' }).waitFor();
      await type.selectOption('INVOICE');
      await page.getByRole('button', { name: 'Attach document' }).click();
      await page.getByText('Invoice is on the claim.').waitFor();
      await page.getByText('A document of every type SHA lists is on the claim.').waitFor();
      expect(await bar.getByText(/Still missing/).count()).toBe(0);

      await bar.getByRole('button', { name: 'Send back to SHA' }).click();
      await page.getByText('The claim is back with SHA.').waitFor();
      await page.getByRole('heading', { name: 'Submitted' }).waitFor();
      expect(await page.getByRole('region', { name: 'Next step' }).count()).toBe(0);
      await page.getByRole('button', { name: 'All claims' }).click();
      await page.getByRole('heading', { name: 'Claims', exact: true }).waitFor();
      await expect.poll(() => tab.textContent()).toBe('Claims');
    } finally {
      await page.context().close();
    }
  });

  it('shows SHA’s 14 days to send a returned claim back as a date and time, counted from when the station saw the return, and warns from 4 days left', { timeout: 60_000 }, async () => {
    const page = await open();
    try {
      await flows.claimReturned(page);
      const notice = page.getByText(/^Send back by /).first();
      await notice.waitFor();
      await page.getByText(/^Counted from .*, when this station first saw the claim returned\. SHA's own clock may have started earlier/).waitFor();
      // Seen just now: 14 days less the moment since, in whole days.
      await page.getByText(/^13 days left\. SHA rejects a claim returned for documents 14 days after its notice\.$/).waitFor();
      const tab = page.getByRole('navigation').getByRole('button', { name: /^Claims/ });
      expect(await tab.locator('.nav-count-urgent').count()).toBe(0);

      await page.getByRole('button', { name: 'All claims' }).click();
      await page.getByRole('heading', { name: 'Claims', exact: true }).waitFor();
      expect(await page.getByText('4 days or fewer left').count()).toBe(0);
      await control(page, { name: 'advanceClock', args: [10 * 24 * 3_600_000 + 60_000] });
      await page.getByRole('button', { name: 'Check with SHA now' }).click();
      await page.getByText('1 returned claim has 4 days or fewer left').waitFor();
      await expect.poll(() => tab.textContent()).toBe('Claims1, 1 needs you, 1 close to SHA\'s deadline');
      expect(await tab.locator('.nav-count-urgent').count()).toBe(1);
      // The row keeps the deadline the station counted from its first sight, not from the latest check.
      const row = page.getByRole('listitem').filter({ hasText: 'Returned for documents' });
      await row.getByText('4 days or fewer left').waitFor();
      await row.getByRole('button', { name: /^Claim INV/ }).click();
      await page.getByText(/^3 days left\./).waitFor();
    } finally {
      await page.context().close();
    }
  });

  it('offers the scanner’s files newest first beside a file from the computer, checks a scan like any file, notices a new scan on “Look again” and attaches it', { timeout: 60_000 }, async () => {
    const { page } = await openWithFake(chromium.browser, server!, { viewport: { width: 1024, height: 600 }, fake: { scannerFolder: SCANNER_FOLDER } });
    page.setDefaultTimeout(10_000);
    const saves = (name: string, bytes: Buffer) => control(page, { name: 'scannerSaves', args: [{ name, dataBase64: bytes.toString('base64') }] });
    try {
      await saves('scan-0001.pdf', PDF);
      await saves('scan-0002.pdf', Buffer.from('a text file named as a PDF'));
      await saves('scan-0003.png', Buffer.concat([PNG, Buffer.alloc(600_000)]));
      await flows.claimReturned(page);
      await page.getByRole('heading', { name: 'From a file' }).waitFor();
      const scanner = page.getByRole('region', { name: 'From the scanner' });
      const names = () => scanner.locator('.scanner-name').allTextContents();
      await expect.poll(names).toEqual(['scan-0003.png', 'scan-0002.pdf', 'scan-0001.pdf']);
      // Nothing is chosen for the nurse.
      expect(await scanner.locator('[aria-pressed="true"]').count()).toBe(0);

      // A scan over the limit is refused from its listed size; one that is not what its name says, by its bytes.
      await scanner.getByRole('button', { name: /^scan-0003\.png/ }).click();
      await page.getByRole('alert').filter({ hasText: 'the station sends at most' }).first().waitFor();
      await scanner.getByRole('button', { name: /^scan-0002\.pdf/ }).click();
      await page.getByRole('alert').filter({ hasText: 'is not a PDF, JPEG or PNG' }).first().waitFor();
      await scanner.getByRole('button', { name: /^scan-0001\.pdf/ }).click();
      await page.getByText('PDF, 2 pages,').waitFor();

      // The scanner saves another page: the list shows it once the nurse looks again.
      await saves('invoice-0004.png', PNG);
      expect(await names()).not.toContain('invoice-0004.png');
      await scanner.getByRole('button', { name: 'Look again' }).click();
      await expect.poll(names).toEqual(['invoice-0004.png', 'scan-0003.png', 'scan-0002.pdf', 'scan-0001.pdf']);
      await scanner.getByRole('button', { name: /^invoice-0004\.png/ }).click();
      await page.getByRole('group', { name: 'Preview before sending' }).getByRole('img', { name: 'invoice-0004.png' }).waitFor();
      expect(await scanner.locator('[aria-pressed="true"]').allTextContents()).toEqual([expect.stringMatching(/^invoice-0004\.png/)]);
      await page.getByRole('combobox', { name: 'Document type' }).selectOption('INVOICE');
      await page.getByRole('button', { name: 'Attach document' }).click();
      await page.getByText('Invoice is on the claim.').waitFor();
      // The form empties, and the scanner's list with it (listed again, nothing chosen).
      await expect.poll(() => scanner.locator('[aria-pressed="true"]').count()).toBe(0);
      expect(await names()).toContain('invoice-0004.png');
    } finally {
      await page.context().close();
    }
  });

  it('offers no scanner where the administrator set no folder', { timeout: 60_000 }, async () => {
    const page = await open();
    try {
      await flows.claimReturned(page);
      await page.getByLabel(/^File: PDF, JPEG or PNG/).waitFor();
      expect(await page.getByRole('region', { name: 'From the scanner' }).count()).toBe(0);
    } finally {
      await page.context().close();
    }
  });

  it('names the documents SHA lists and the claim lacks before it is submitted, with the way to attach them', { timeout: 60_000 }, async () => {
    const page = await open();
    try {
      await flows.dischargeReady(page);
      await page.getByText('Not on the claim yet: Invoice. Attach the ones you have before the claim goes to SHA.').waitFor();
      await page.getByRole('button', { name: 'Documents of this claim' }).click();
      await page.getByRole('heading', { name: 'Draft' }).waitFor();
      // A claim not yet submitted takes documents; there is nothing to send back.
      await page.getByRole('combobox', { name: 'Document type' }).waitFor();
      expect(await page.getByRole('region', { name: 'Next step' }).count()).toBe(0);
    } finally {
      await page.context().close();
    }
  });
});

