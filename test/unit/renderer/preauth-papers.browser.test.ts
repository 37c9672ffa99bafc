// Documents on a preauthorization request and on an OTP whitelist request, in Chromium against the
// fake station: the types SHA requires for the intervention offered first and the missing ones named
// before sending, the file checked and previewed, the documents going with the request; a request
// whose documents the station lost says so and asks for them again; the whitelist's one document.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openWithFake, serveRenderer } from '../../fixtures/renderer/harness';
import { useChromium } from '../../support/browser-suite';
import type { StaticServer } from '../../support/chromium';
import { flows } from '../../e2e/flows';

let server: StaticServer | undefined;
const chromium = useChromium({ setUp: async () => void (server = await serveRenderer()), tearDown: async () => server?.close() });

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Page >> endobj\ntrailer <<>>\n%%EOF\n');

async function open(): Promise<Page> {
  const { page } = await openWithFake(chromium.browser, server!, { viewport: { width: 1024, height: 600 } });
  page.setDefaultTimeout(10_000);
  return page;
}

interface Sent {
  command: string;
  workflowId: string;
  documentType: string | null;
  title: string;
  fileName: string;
  bytes: number;
}
const sentPapers = (page: Page) => page.evaluate(() => (globalThis as unknown as { __idhiniFake: { control: { requestPapers: Sent[] } } }).__idhiniFake.control.requestPapers);

describe('documents on a preauthorization request', () => {
  it('offers the required types first, names the missing ones before sending, and sends the documents with the request', { timeout: 60_000 }, async () => {
    const page = await open();
    try {
      await flows.electivePapers(page);
      const type = page.getByRole('combobox', { name: 'Document type' });
      // Nothing chosen for the nurse; SHA's required types in their own group, first.
      expect(await type.inputValue()).toBe('');
      expect(await type.locator('optgroup').first().locator('option').allTextContents()).toEqual(['Medical report', 'Request form from the consultant']);
      await page.getByText('SHA requires these documents for this preauthorization: Medical report and Request form from the consultant.').waitFor();
      await page.getByText('Not attached yet: Request form from the consultant. You may still send the request; SHA may then ask for them.').waitFor();

      // A file that is not what it says never joins the request.
      const file = page.getByLabel(/^File: PDF, JPEG or PNG/);
      await file.setInputFiles({ name: 'form.pdf', mimeType: 'application/pdf', buffer: Buffer.from('not a pdf') });
      await page.getByRole('alert').filter({ hasText: 'is not a PDF, JPEG or PNG' }).first().waitFor();
      await type.selectOption('REQUEST_FORM_BY_RELEVANT_CONSULTANT');
      await file.setInputFiles({ name: 'form.pdf', mimeType: 'application/pdf', buffer: PDF });
      await page.getByText('PDF, 1 page,').waitFor();
      await page.getByRole('button', { name: 'Add to the request' }).click();
      const list = page.getByRole('list', { name: 'Documents attached to the request' });
      await list.getByText('Request form from the consultant', { exact: false }).first().waitFor();
      expect(await page.getByText(/^Not attached yet/).count()).toBe(0);

      // Removed and added again: the list is the nurse's until she sends.
      await list.getByRole('button', { name: 'Remove form.pdf' }).click();
      await page.getByText(/^Not attached yet: Request form from the consultant/).waitFor();
      await type.selectOption('REQUEST_FORM_BY_RELEVANT_CONSULTANT');
      await file.setInputFiles({ name: 'form.pdf', mimeType: 'application/pdf', buffer: PDF });
      await page.getByRole('button', { name: 'Add to the request' }).click();
      await list.getByRole('button', { name: 'Remove form.pdf' }).waitFor();

      await page.getByRole('region', { name: 'Next step' }).getByRole('button', { name: 'Send the request' }).click();
      await page.getByText('Waiting for the doctor').first().waitFor();
      await page.getByText('Documents sent with the request: Surgeon’s report and Request form from the consultant.').waitFor();
      expect(await sentPapers(page)).toEqual([
        expect.objectContaining({ command: 'elective.submitPreauth', documentType: 'MEDICAL_REPORT', title: 'Surgeon’s report', fileName: 'report.png' }),
        expect.objectContaining({ command: 'elective.submitPreauth', documentType: 'REQUEST_FORM_BY_RELEVANT_CONSULTANT', title: 'Request form from the consultant', fileName: 'form.pdf', bytes: PDF.length }),
      ]);
    } finally {
      await page.context().close();
    }
  });

  it('says when the station lost the documents of a request waiting to be sent, and takes them again', { timeout: 60_000 }, async () => {
    const page = await open();
    try {
      // The request with its document given before consent: it waits to be sent once the patient consents.
      await flows.electivePapers(page, { consentFirst: false });
      await page.locator('form').getByRole('button', { name: 'Send the request' }).click();
      await page.getByText('Documents waiting on this station to go with the request: Surgeon’s report.').waitFor();
      expect(await sentPapers(page)).toHaveLength(1);
      // As the core shows it after a restart that found the documents gone from the data folder.
      await page.evaluate(() => {
        const fake = (globalThis as unknown as { __idhiniFake: { control: { requestPapers: Sent[]; preauthPapersGone(id: string): void } } }).__idhiniFake;
        fake.control.preauthPapersGone(fake.control.requestPapers[0]!.workflowId);
      });
      await page.getByText('The documents are no longer on this computer').first().waitFor();
      await page.getByText('Attached before, and no longer on this station: Surgeon’s report. Attach them again before sending.').waitFor();
      await page.getByRole('combobox', { name: 'Document type' }).waitFor();
      await page.getByText('Not attached yet: Medical report and Request form from the consultant.', { exact: false }).waitFor();
    } finally {
      await page.context().close();
    }
  });
});

describe('a document on a whitelist request', () => {
  it('takes one document, without a type to choose, and sends it with the request', { timeout: 60_000 }, async () => {
    const page = await open();
    try {
      await flows.whitelistWithLetter(page);
      // SHA takes one document here: once chosen, the picker gives way to it.
      expect(await page.getByRole('combobox', { name: 'Document type' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Add to the request' }).count()).toBe(0);
      await page.getByRole('button', { name: 'Send the request' }).click();
      await page.getByText('Request sent; SHA has not answered yet').waitFor();
      expect(await sentPapers(page)).toEqual([expect.objectContaining({ command: 'consent.requestWhitelist', documentType: null, title: 'Letter from Dr. Achieng', fileName: 'letter.png' })]);
    } finally {
      await page.context().close();
    }
  });
});
