// Flow A end to end through `npm run station:web`: the elective admission. Phase one takes the
// patient's consent by fingerprint before the visit and sends the preauthorization; the doctor and
// the payer approve it through the sandbox's control API while the screen shows each step; phase
// two, on the day, starts from a fresh look-up of the same patient, whose unfinished work shows the
// admission, and opens the visit from the same workflow without a new authorization. The request
// carries a document for SHA, sent with it.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, useTrainingStation } from './support';
import type { StationWeb } from './support';

const session = useTrainingStation();
let station: StationWeb;
let page: Page;
beforeAll(() => {
  ({ station, page } = session);
});

const REQUEST_PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Page >> endobj\ntrailer <<>>\n%%EOF\n');

const step = (name: string) => page.getByRole('list', { name: 'Steps of the planned admission' }).getByRole('listitem').filter({ hasText: name });

async function lookUp(idNumber: string): Promise<void> {
  const field = page.getByRole('textbox', { name: 'ID number' });
  await field.fill(idNumber);
  await field.press('Enter');
  await page.getByText('Covered', { exact: true }).waitFor();
}

describe('flow A, elective inpatient preauthorization (30000001)', () => {
  it('phase one: consent before the visit, the preauth watched through the doctor and the payer until FINALISED', { timeout: 120_000 }, async () => {
    await lookUp('30000001');
    await page.getByRole('combobox', { name: 'Kind of service' }).selectOption('elective-preauth');
    const options = page.getByRole('listbox', { name: 'Interventions' }).getByRole('option');
    await options.first().click();
    await page.getByText('Needs a preauthorization approved by the doctor and by SHA.').waitFor();
    await page.getByRole('button', { name: 'Start planned admission' }).click();
    await page.getByRole('heading', { name: 'Planned admission', exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Patient consent for the planned admission' }).waitFor();
    await expectAccessible(page, 'elective, phase one consent');

    await page.getByRole('button', { name: 'Verify by fingerprint' }).click();
    await page.locator('iframe').waitFor();
    await page.getByRole('heading', { name: 'Preauthorization request' }).waitFor({ timeout: 30_000 });
    // The preauthorization as the exchange takes it: the stay's days and the email for SHA's notices too.
    await page.getByLabel('Admission day').fill('2030-01-15');
    await page.getByLabel('Expected discharge day').fill('2030-01-17');
    await page.getByRole('textbox', { name: 'Amount requested (KES)' }).fill('85000');
    await page.getByRole('textbox', { name: 'Diagnosis (ICD-11 code)' }).fill('1A40.Z');
    await page.getByRole('textbox', { name: 'Identification number' }).fill('A23456');
    await page.getByRole('textbox', { name: "Email for SHA's notices" }).fill('claims@hospital.example');
    // A document for SHA with the request: checked, previewed, kept in the form until it is sent.
    await page.getByRole('combobox', { name: 'Document type' }).selectOption('REQUEST_FORM_BY_RELEVANT_CONSULTANT');
    await page.getByRole('textbox', { name: 'Document title' }).fill('Surgeon’s request');
    await page.getByLabel(/^File: PDF, JPEG or PNG/).setInputFiles({ name: 'request.pdf', mimeType: 'application/pdf', buffer: REQUEST_PDF });
    await page.getByText('PDF, 1 page,').waitFor();
    await page.getByRole('button', { name: 'Add to the request' }).click();
    await page.getByRole('list', { name: 'Documents attached to the request' }).getByText('Surgeon’s request').waitFor();
    await expectAccessible(page, 'elective, the request with a document');
    await page.getByRole('button', { name: 'Send the request' }).click();

    // The doctor's step first, then the payer's, each shown as it moves.
    await step('Doctor approves').and(page.locator('[aria-current="step"]')).waitFor({ timeout: 30_000 });
    const reference = (await page.locator('dt:text-is("SHA reference") + dd').textContent())?.trim() ?? '';
    expect(reference).not.toBe('Not yet');
    // The station kept the document until consent and sent it with the preauthorization (a file SHA refused would have refused the request).
    await page.getByText('Documents sent with the request: Surgeon’s request.').waitFor();
    await expectAccessible(page, 'elective, waiting for the doctor');
    await station.sandbox.doctorApproval(reference);
    await page.getByRole('button', { name: 'Check status now' }).click();
    await step('SHA approves').and(page.locator('[aria-current="step"]')).waitFor({ timeout: 30_000 });
    expect(await step('Doctor approves').textContent()).toContain('done');
    await station.sandbox.payerApproval(reference);
    await page.getByRole('button', { name: 'Check status now' }).click();
    await page.getByText('Preauthorization approved').first().waitFor({ timeout: 30_000 });
    expect(await page.locator('dt:text-is("Status") + dd').textContent()).toBe('Approved');
    await expectAccessible(page, 'elective, finalised');
  });

  it('phase two, on the day: a fresh look-up of the patient shows the admission under unfinished work, and the same workflow opens the visit with no new authorization', { timeout: 60_000 }, async () => {
    await station.sandbox.advanceClock(24 * 3600_000);
    // On the day, the station's work in progress lists the admission waiting for its visit …
    await page.getByRole('button', { name: 'Work in progress' }).click();
    await page.getByRole('heading', { name: 'Work in progress' }).waitFor();
    await page.getByText('approved; ready for admission day').waitFor();
    // SHA's answer, from the station's own poll, in the queue's words.
    await page.getByRole('main').getByText('SHA approved the preauthorization for W*** M*** K***: ready for the admission day.').waitFor();
    await expectAccessible(page, 'work in progress');
    // … but the nurse starts where she starts with every patient: a new look-up of the same ID.
    await page.getByRole('button', { name: 'Patients' }).click();
    await lookUp('30000001');
    const unfinished = page.getByRole('region', { name: 'Unfinished work for this patient' });
    await unfinished.getByText('approved; ready for admission day').waitFor();
    await expectAccessible(page, 'patient with unfinished work');
    await unfinished.getByRole('button', { name: /^Continue the planned admission/ }).click();
    await page.getByRole('heading', { name: 'Planned admission', exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Verify by fingerprint' }).count()).toBe(0);
    expect(await page.locator('iframe').count()).toBe(0);
    await page.getByRole('button', { name: 'Open visit' }).click();
    await page.getByText('Visit open', { exact: true }).waitFor();
    await expectAccessible(page, 'visit from the elective');
  });
});
