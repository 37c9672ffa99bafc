// Issue 14's corrections end to end through `npm run station:web` (the real station core and its
// sandbox) in Chromium, by role and accessible name: a doctor changed on an open visit (SHA's one
// doctor removed first) and a refused one leaving the previous doctor in place; a wrong visit
// closed with its reason; an emergency given a second protocol; a preauth whose request never
// reached the doctor sent again. axe-core on each screen on the way.
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

async function sandbox(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${station.sandbox.url}/sandbox${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`sandbox ${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

async function lookUp(idNumber: string): Promise<void> {
  await page.getByRole('button', { name: 'Patients' }).click();
  const field = page.getByRole('textbox', { name: 'ID number' });
  await field.fill(idNumber);
  await field.press('Enter');
  await page.getByText('Covered', { exact: true }).waitFor();
}

describe('corrections at the bedside', () => {
  it('the doctor changed on an open visit, a refused doctor leaving the previous one, then the wrong visit closed with its reason', { timeout: 120_000 }, async () => {
    await lookUp('30000001');
    await page.getByRole('button', { name: 'Verify by fingerprint' }).click();
    await page.getByText('Visit open', { exact: true }).waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Open visit' }).click();
    await page.getByRole('heading', { name: 'Visit', exact: true }).waitFor();
    await page.getByRole('textbox', { name: 'Unit price (KES)' }).fill('850');
    await page.getByRole('textbox', { name: 'Diagnosis (ICD-11 code)' }).fill('1A40.Z');
    await page.locator('form.add-line').getByRole('textbox', { name: 'Identification number' }).fill('A12345');
    await page.getByRole('button', { name: 'Add the line' }).click();
    await page.getByRole('cell', { name: '1A40.Z' }).waitFor();

    // The doctor changed: SHA had A12345 (from the line); it is removed, then A34567 added — no DOCTOR_ALREADY_ATTACHED.
    const doctor = page.getByRole('region', { name: 'Attending doctor' });
    await doctor.getByText(/A12345/).waitFor();
    await doctor.getByRole('textbox', { name: 'Identification number' }).fill('A34567');
    await doctor.getByRole('button', { name: 'Change the doctor' }).click();
    await doctor.getByText(/A34567/).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    // A number the registry does not know: said plainly, and the doctor on the claim stays.
    await doctor.getByRole('textbox', { name: 'Identification number' }).fill('Z99999');
    await doctor.getByRole('button', { name: 'Change the doctor' }).click();
    await page.getByRole('alert').filter({ hasText: 'Doctor not found' }).waitFor();
    await doctor.getByText(/A34567/).waitFor();
    await expectAccessible(page, 'visit, doctor changed');

    // The visit was opened for the wrong patient: closed with its reason, for good.
    await page.getByRole('button', { name: 'Close this visit…' }).click();
    await page.getByRole('radio', { name: 'Wrong patient' }).check();
    await page.getByRole('textbox', { name: 'What happened (sent to SHA)' }).fill('Opened for the wrong patient at reception');
    await expectAccessible(page, 'visit, closing');
    await page.getByRole('button', { name: 'Close the visit for good' }).click();
    await page.getByText('This visit was closed', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Add the line' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Discharge' }).count()).toBe(0);
    const transitions = (await sandbox('GET', '/transitions')) as { entity_type: string; to_state: string }[];
    expect(transitions.filter((t) => t.entity_type === 'claim').at(-1)?.to_state).toBe('CLOSED');
    await expectAccessible(page, 'visit closed');
  });

  it('an emergency claim given a second protocol after its creation, the window shown as a clock time', { timeout: 120_000 }, async () => {
    await page.getByRole('button', { name: 'Emergency', exact: true }).click();
    await page.getByRole('heading', { name: 'New emergency claim' }).waitFor();
    await page.getByRole('textbox', { name: 'Emergency intervention code' }).fill('SHA-01-001');
    await page.getByRole('radio').first().check();
    await page.getByRole('textbox', { name: 'Identification number' }).fill('A34567');
    await page.getByRole('combobox', { name: 'Arrived by' }).selectOption('AMBULANCE');
    await page.getByRole('combobox', { name: 'Brought by' }).selectOption('PARAMEDICS');
    await page.getByRole('textbox', { name: 'Reference number' }).fill('AMB-2030-0099');
    await page.getByRole('textbox', { name: 'Notes' }).fill('Fall from a height, conscious');
    await page.getByRole('button', { name: 'Create emergency claim' }).click();
    await page.getByRole('heading', { name: 'Identify the patient' }).waitFor({ timeout: 30_000 });
    await page.getByText(/^Submit by /).waitFor();

    const protocols = page.getByRole('region', { name: 'Protocols on the claim' });
    await expect.poll(() => protocols.getByRole('combobox', { name: 'Another protocol' }).locator('option').count(), { timeout: 10_000 }).toBeGreaterThan(1);
    await protocols.getByRole('combobox', { name: 'Another protocol' }).selectOption({ index: 1 });
    await protocols.getByRole('button', { name: 'Add this protocol' }).click();
    await expect.poll(() => protocols.getByRole('listitem').count(), { timeout: 10_000 }).toBe(2);
    expect(await page.getByRole('alert').count()).toBe(0);
    await expectAccessible(page, 'emergency, second protocol');
  });

  it('a preauth whose request never reached the doctor is sent again, not ended', { timeout: 120_000 }, async () => {
    await lookUp('30000001');
    await page.getByRole('combobox', { name: 'Kind of service' }).selectOption('elective-preauth');
    await page.getByRole('listbox', { name: 'Interventions' }).getByRole('option').first().click();
    await page.getByText('Needs a preauthorization approved by the doctor and by SHA.').waitFor();
    await page.getByRole('button', { name: 'Start planned admission' }).click();
    await page.getByRole('button', { name: 'Verify by fingerprint' }).click();
    await page.getByRole('heading', { name: 'Preauthorization request' }).waitFor({ timeout: 30_000 });
    await page.getByLabel('Admission day').fill('2030-02-10');
    await page.getByLabel('Expected discharge day').fill('2030-02-12');
    await page.getByRole('textbox', { name: 'Amount requested (KES)' }).fill('85000');
    await page.getByRole('textbox', { name: 'Diagnosis (ICD-11 code)' }).fill('1A40.Z');
    await page.getByRole('textbox', { name: 'Identification number' }).fill('A23456');
    await page.getByRole('textbox', { name: "Email for SHA's notices" }).fill('claims@hospital.example');
    await page.getByRole('button', { name: 'Send the request' }).click();
    await page.getByText('Waiting for the doctor').first().waitFor({ timeout: 30_000 });
    const reference = (await page.locator('dt:text-is("SHA reference") + dd').textContent())?.trim() ?? '';

    await sandbox('POST', `/preauths/${reference}/status`, { to: 'DOCTOR_REQUEST_FAILED' });
    await page.getByRole('button', { name: 'Check status now' }).click();
    await page.getByText('The request did not reach the doctor').waitFor();
    await expectAccessible(page, 'elective, doctor request failed');
    const asked = (await station.sandbox.doctorMessages('A23456')).filter((p) => p === 'preauth_doctor_consent').length;
    await page.getByRole('button', { name: 'Send to the doctor again' }).click();
    await page.locator('dt:text-is("Status") + dd').filter({ hasText: 'Sent to the doctor' }).waitFor();
    expect(await page.getByText('The request did not reach the doctor').count()).toBe(0);
    expect((await station.sandbox.doctorMessages('A23456')).filter((p) => p === 'preauth_doctor_consent').length).toBe(asked + 1);
    // The doctor approves as usual afterwards.
    await station.sandbox.doctorApproval(reference);
    await page.getByRole('button', { name: 'Check status now' }).click();
    await page.locator('dt:text-is("Status") + dd').filter({ hasText: 'Doctor approved; with SHA' }).waitFor();
  });
});
