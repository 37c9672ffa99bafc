// Issue 15 end to end across two stations, each with its own data folder, against one sandbox: a
// ward station (station:web in training, with its sandbox) writes a prescription on a visit; a
// pharmacy station (a second station:web on that sandbox as the same facility, `--exchange`) finds
// the patient's open visit through SHA, takes the patient's consent at the window by SMS code —
// which reaches the ward's visit, no second claim — and dispenses under it, part then the rest.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStationWeb as startStationWebProcess, urlIn, type StationWebProcess } from '../support/station-web-process';
import { flows } from './flows';
import { expectAccessible, fillPrescription, nextCode, openVisitBySms, useTrainingStation } from './support';

const PATIENT = '30000002';
const PHARMACIST = { name: 'Wambui Pharmacist', pin: '8642' };
const ward = useTrainingStation(15_000);
let pharmacyStation: StationWebProcess;
let pharmacy: Page;
let dir: string;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'idhini-pharmacy-station-'));
  const secretFile = join(dir, 'client-secret');
  writeFileSync(secretFile, 'demo-hospital-secret\n', { mode: 0o600 });
  // The same facility as the ward's training station (the sandbox's demo hospital), its own data folder.
  pharmacyStation = await startStationWebProcess(
    [
      ...['--port', '0', '--exchange', ward.station.sandbox.url, '--client-id', 'demo-hospital', '--client-secret-file', secretFile],
      ...['--facility-code', 'FID-00-000004-0', '--facility-name', 'Idhini Demo Hospital', '--agent-id', '20000001'],
      ...['--device-service-port', String(await freePort()), '--data-dir', join(dir, 'pharmacy-data')],
      ...['--admin', `${PHARMACIST.name}:${PHARMACIST.pin}`],
    ],
    1,
  );
  pharmacy = await ward.browser.newPage({ viewport: { width: 1280, height: 800 } });
  pharmacy.setDefaultTimeout(15_000);
}, 150_000);

afterAll(async () => {
  await pharmacy?.close();
  await pharmacyStation?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Claims opened at the sandbox so far (each claim's first transition). */
const claimsOpened = async () => (await ward.station.sandbox.transitions()).filter((t) => t.entity_type === 'claim' && t.from_state === null).length;

describe('a prescription written at a ward station, dispensed at a pharmacy station with its own data', () => {
  it('the ward opens a visit and writes the prescription', { timeout: 90_000 }, async () => {
    const page = ward.page;
    await openVisitBySms(page, ward.station.sandbox, PATIENT);
    const form = await fillPrescription(page);
    await form.getByRole('button', { name: 'Send the prescription to SHA' }).click();
    await page.getByRole('article', { name: /^Prescription RX-/ }).waitFor();
  });

  it('the pharmacy finds the ward’s visit through SHA, takes the patient’s consent at the window, and dispenses part then the rest', { timeout: 120_000 }, async () => {
    const claimsBefore = await claimsOpened();
    // The pharmacy station: its administrator signs in and makes it the pharmacy window's.
    await pharmacy.goto(urlIn(pharmacyStation.lines[0]));
    await pharmacy.getByRole('textbox', { name: 'PIN' }).fill(PHARMACIST.pin);
    await pharmacy.getByRole('button', { name: 'Sign in' }).click();
    await pharmacy.getByRole('textbox', { name: 'ID number' }).waitFor();
    await pharmacy.getByRole('button', { name: 'Settings' }).click();
    await pharmacy.getByRole('combobox', { name: 'What this station is for' }).selectOption('pharmacy');
    await pharmacy.getByRole('button', { name: 'Save settings' }).click();
    await pharmacy.getByRole('navigation').getByRole('button', { name: 'Pharmacy' }).click();
    await pharmacy.getByRole('button', { name: 'Go to the patient look-up' }).click();
    const field = pharmacy.getByRole('textbox', { name: 'ID number' });
    await field.fill(PATIENT);
    await field.press('Enter');
    await pharmacy.getByRole('button', { name: "This patient's prescriptions" }).click();

    // Nothing of the ward's is in this station's data: the visit is found at SHA.
    await pharmacy.getByText('No prescription for this patient has been written at this station.').waitFor();
    const visit = pharmacy.getByRole('article', { name: /^Visit for / });
    await visit.getByRole('button', { name: "Take the patient's consent to dispense" }).waitFor();
    await expectAccessible(pharmacy, 'pharmacy, the ward’s visit found at SHA');
    await visit.getByRole('button', { name: "Take the patient's consent to dispense" }).click();
    await pharmacy.getByRole('button', { name: 'Verify by SMS code' }).click();
    const before = (await ward.station.sandbox.smsCodes(PATIENT)).length;
    await pharmacy.getByRole('button', { name: 'Send code' }).click();
    await pharmacy.getByRole('textbox', { name: 'SMS code' }).fill(await nextCode(() => ward.station.sandbox.smsCodes(PATIENT), before));
    await pharmacy.getByText('Visit open', { exact: true }).waitFor();
    expect(await claimsOpened()).toBe(claimsBefore);

    await pharmacy.getByRole('navigation').getByRole('button', { name: 'Pharmacy' }).click();
    await visit.getByRole('heading', { name: /^SHA's prescription RX-/ }).waitFor();
    await visit.getByText('Medicines: AMOX-500').waitFor();
    await expectAccessible(pharmacy, 'pharmacy, dispensing under the ward’s visit');
    await flows.dispenseUnderVisit(pharmacy, '6', 'part');
    await visit.getByText(/AMOX-500-CAP × 6 .* part of a fill/).waitFor();
    await flows.dispenseUnderVisit(pharmacy, '9', 'rest');
    await visit.getByText(/AMOX-500-CAP × 9 .* fill completed/).waitFor();
    expect(await claimsOpened()).toBe(claimsBefore);
  });
});
