// The nurse's steps on the renderer against the fake station (test/fixtures/renderer), by role and
// accessible name as contracts.md fixes them. Shared by the screenshots script and the renderer's
// browser tests; the fake's control plays the patient, the doctor and the payer.
import type { Locator, Page } from 'playwright-core';
import type { FakeStationControl } from '../fixtures/renderer/fake-station';

type ControlCall = { [K in keyof FakeStationControl]: FakeStationControl[K] extends (...args: infer A) => unknown ? { name: K; args: A } : never }[keyof FakeStationControl];

/** Calls the fake station's control inside the page; answers what the control answered. */
export async function control(page: Page, call: ControlCall): Promise<unknown> {
  return page.evaluate(({ name, args }) => {
    const fake = (globalThis as unknown as { __idhiniFake: { control: Record<string, (...a: unknown[]) => unknown> } }).__idhiniFake;
    return fake.control[name]?.(...args);
  }, call as { name: string; args: unknown[] });
}

/** A small PNG (a grey page with a darker band, as a scanned invoice looks at a glance), for the document preview. */
const INVOICE_SCAN = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAUCAAAAAChCeKrAAAAHklEQVR4nGM4gQYYvqIBIgSi0AARAhhmUMMdg8QMAJWVCgBH7f0KAAAAAElFTkSuQmCC',
  'base64',
);

async function lookUp(page: Page, idNumber: string): Promise<void> {
  const field = page.getByRole('textbox', { name: 'ID number' });
  await field.fill(idNumber);
  await field.press('Enter');
  if (idNumber === '99999999') await page.getByText('No patient found').waitFor();
  else await page.getByRole('heading', { name: 'Eligibility' }).waitFor();
}

/** The action bar's Cancel: the same place and the same word on every screen. */
export const cancelButton = (page: Page) => page.getByRole('region', { name: 'Next step' }).getByRole('button', { name: 'Cancel', exact: true });

async function lookupWithRecent(page: Page): Promise<void> {
  await lookUp(page, '30000003');
  await cancelButton(page).click();
  await lookUp(page, '30000001');
  await cancelButton(page).click();
  await page.getByRole('textbox', { name: 'ID number' }).fill('30000002');
}

async function exchangeDownAtLookup(page: Page): Promise<void> {
  await control(page, { name: 'exchangeDown', args: [true] });
  const field = page.getByRole('textbox', { name: 'ID number' });
  await field.fill('30000001');
  await field.press('Enter');
  await page.getByText('The SHA exchange is not answering').first().waitFor();
}

async function servicesSearch(page: Page): Promise<void> {
  await lookUp(page, '30000001');
  await page.getByRole('searchbox', { name: 'Search services' }).fill('hernia');
  await page.getByRole('option', { name: /SHA-05-/ }).first().click();
}

async function fingerprintWaiting(page: Page): Promise<void> {
  await lookUp(page, '30000001');
  await page.getByRole('button', { name: 'Verify by fingerprint' }).click();
  await page.locator('iframe').waitFor();
}

async function smsSent(page: Page): Promise<void> {
  await lookUp(page, '30000002');
  await page.getByRole('button', { name: 'Verify by SMS code' }).click();
  await page.getByRole('button', { name: 'Send code' }).click();
  await page.getByRole('textbox', { name: 'SMS code' }).fill('1234');
}

async function fallback(page: Page): Promise<void> {
  await lookUp(page, '30000004');
  await page.getByRole('button', { name: 'Verify by fingerprint' }).click();
  await page.getByText('The fingerprint could not be used').waitFor();
  await page.getByRole('button', { name: 'Send code' }).waitFor();
}

async function threeWrongCodes(page: Page): Promise<void> {
  await smsSent(page);
  for (const [i, left] of ['2 tries', '1 try', '0 tries'].entries()) {
    // A full-length code confirms itself; refused, it is cleared for the next one.
    await page.getByRole('textbox', { name: 'SMS code' }).fill(`00000${i}`);
    await page.getByText(`Wrong code. ${left} left.`).first().waitFor();
  }
  await page.getByText('Three wrong codes').waitFor();
  // No code is taken any more: no Confirm to press.
  if ((await page.getByRole('button', { name: 'Confirm' }).count()) !== 0) throw new Error('a Confirm is offered after three wrong codes');
}

async function stalePending(page: Page): Promise<void> {
  await lookUp(page, '30000002');
  await page.getByRole('button', { name: 'Verify by fingerprint' }).click();
  await page.locator('iframe').waitFor();
  await page.getByRole('button', { name: 'Verify by SMS code' }).click();
  await page.getByRole('button', { name: 'Send code' }).click();
  await page.getByText('An open fingerprint request blocks SMS codes').waitFor();
}

async function openVisit(page: Page, idNumber = '30000001'): Promise<void> {
  await lookUp(page, idNumber);
  await page.getByRole('button', { name: 'Verify by fingerprint' }).click();
  await page.locator('iframe').waitFor();
  await control(page, { name: 'authorize', args: [] });
  await page.getByRole('button', { name: 'Open visit' }).click();
  await page.getByText('Visit open', { exact: true }).waitFor();
}

async function visitWithLine(page: Page): Promise<void> {
  await openVisit(page);
  await page.getByRole('textbox', { name: 'Description (optional)' }).fill('Consultation and dressing');
  await page.getByRole('textbox', { name: 'Unit price (KES)' }).fill('1500');
  await page.getByRole('textbox', { name: 'Diagnosis (ICD-11 code)' }).fill('1A40.Z');
  await page.getByRole('button', { name: 'Add the line' }).click();
  await page.getByRole('cell', { name: 'Consultation and dressing', exact: true }).waitFor();
  await attachDoctor(page);
}

/** The claim's attending doctor named on the visit (the registry's A12345): SHA refuses a claim's end without one. */
async function attachDoctor(page: Page): Promise<void> {
  const doctor = page.getByRole('region', { name: 'Attending doctor' });
  await doctor.getByRole('textbox', { name: 'Identification number' }).fill('A12345');
  await doctor.getByRole('button', { name: 'Add the doctor' }).click();
  await doctor.getByRole('button', { name: 'Change the doctor' }).waitFor();
}

/** A billing line whose diagnosis is found by a few letters in the terminology search, not typed as a code. */
async function diagnosisBySearch(page: Page): Promise<void> {
  await openVisit(page);
  await page.getByRole('textbox', { name: 'Unit price (KES)' }).fill('800');
  await page.getByRole('textbox', { name: 'Diagnosis (ICD-11 code)' }).fill('malar');
  await page.getByRole('group', { name: 'Diagnoses found' }).getByRole('button', { name: /^Choose 1F40\.Z Malaria/ }).click();
}

/** The attending doctor's number typed on a billing line: the registry's name, cadre and licence appear under it. */
async function doctorFound(page: Page): Promise<void> {
  await openVisit(page);
  await page.getByRole('textbox', { name: 'Identification number' }).last().fill('A12345');
  await page.getByText('Dr. Achieng Odhiambo').waitFor();
}

/** The prescription form opened on the open visit, the prescriber found in the registry. */
async function startPrescription(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Write a prescription' }).click();
  const form = page.getByRole('form', { name: 'New prescription' });
  await form.getByRole('textbox', { name: 'Identification number' }).fill('A12345');
  await form.getByText('Dr. Achieng Odhiambo').waitFor();
}

/** A visit opened and a prescription begun on it. */
async function prescriptionForm(page: Page): Promise<void> {
  await openVisit(page);
  await startPrescription(page);
}

const amoxicillin = /^Choose GE10110 Amoxicillin 500 mg/;

/** A medicine's first letters typed on the prescription form: SHA's medicines listed under the field. */
async function medicineBySearch(page: Page): Promise<void> {
  await prescriptionForm(page);
  const form = page.getByRole('form', { name: 'New prescription' });
  await form.getByRole('textbox', { name: 'Generic medicine code' }).fill('amoxi');
  await form.getByRole('group', { name: 'Medicines found' }).getByRole('button', { name: amoxicillin }).waitFor();
}

/** The item's dose (one capsule), how often (3 times a day), how long (5 days) and refills, on the prescription form. */
async function fillItemDetails(form: Locator, refills: string): Promise<void> {
  await form.getByRole('textbox', { name: 'Dose', exact: true }).fill('1');
  await form.getByRole('textbox', { name: 'Dose unit' }).fill('capsule');
  await form.getByRole('textbox', { name: 'How many times' }).fill('3');
  await form.getByRole('combobox', { name: 'Each' }).selectOption('day');
  await form.getByRole('textbox', { name: 'For how long' }).fill('5');
  await form.getByRole('combobox', { name: 'Length in' }).selectOption('day');
  await form.getByRole('textbox', { name: 'Refills (0 for none)' }).fill(refills);
}

/** The rest of the item (dose, how often, how long, one refill), then sent. */
async function sendItem(page: Page): Promise<void> {
  const form = page.getByRole('form', { name: 'New prescription' });
  await fillItemDetails(form, '1');
  await form.getByRole('button', { name: 'Send the prescription to SHA' }).click();
}

/** The rest of the item sent: SHA's number comes back. */
async function prescriptionDetails(page: Page): Promise<void> {
  await sendItem(page);
  await page.getByRole('article', { name: /^Prescription RX-/ }).first().waitFor();
}

/** Amoxicillin, found by search, chosen on the prescription form. */
async function chooseAmoxicillin(page: Page): Promise<void> {
  await medicineBySearch(page);
  await page.getByRole('group', { name: 'Medicines found' }).getByRole('button', { name: amoxicillin }).click();
}

/** A prescription written on the open visit: the prescriber found in the registry, amoxicillin found by search, its dose, how often, how long and one refill. */
async function prescriptionWritten(page: Page): Promise<void> {
  await chooseAmoxicillin(page);
  await prescriptionDetails(page);
}

/** The prescriber approves it at SHA; the nurse asks SHA again and reads the review in words. */
async function prescriptionReviewed(page: Page): Promise<void> {
  await prescriptionWritten(page);
  await control(page, { name: 'payerReviewsPrescription', args: ['APPROVED'] });
  await page.getByRole('button', { name: 'Check with SHA now' }).click();
  await page.getByRole('article', { name: /^Prescription RX-/ }).getByText(/^Approved by the prescriber/).waitFor();
}

/** SHA's answer to the prescription is lost; SHA's read-back shows it has it. */
async function prescriptionSettled(page: Page): Promise<void> {
  await chooseAmoxicillin(page);
  await control(page, { name: 'losePrescriptionAnswer', args: [] });
  await sendItem(page);
  const settled = page.getByText('SHA has the prescription whose answer was lost', { exact: false });
  await settled.waitFor();
  // The form closed beneath the nurse: bring the read-back's news and the card into view.
  await settled.evaluate((element) => element.scrollIntoView({ block: 'center' }));
}

/** On a station provisioned for the pharmacy window: its Pharmacy screen. */
async function pharmacyWindow(page: Page): Promise<void> {
  await page.getByRole('navigation').getByRole('button', { name: 'Pharmacy' }).click();
  await page.getByRole('heading', { name: 'Pharmacy: dispensing' }).waitFor();
}

/** A dispense against the written prescription: the dispenser's ID, one product, part of the fill or the rest. */
async function dispense(page: Page, quantity: string, how: 'part' | 'rest'): Promise<void> {
  await recordDispense(page.getByRole('form', { name: /^Dispense against RX-/ }), quantity, how);
}

/** A dispense form filled and sent: the dispenser's ID, one product, part of the fill or the rest. */
async function recordDispense(form: Locator, quantity: string, how: 'part' | 'rest'): Promise<void> {
  await form.getByRole('combobox', { name: "Dispenser's kind of ID" }).selectOption('National ID');
  await form.getByRole('textbox', { name: "Dispenser's ID number" }).fill('26802244');
  await form.getByRole('textbox', { name: 'Product code' }).fill('AMOX-500-CAP');
  await form.getByRole('textbox', { name: 'Price each (KES)' }).fill('12.50');
  await form.getByRole('textbox', { name: 'Quantity given' }).fill(quantity);
  await form.getByRole('radio', { name: how === 'part' ? /^Part of it/ : /^All of it/ }).check();
  await form.getByRole('button', { name: 'Record the dispense with SHA' }).click();
}

/** Written on the visit, then dispensed at the pharmacy window: part of the fill. */
async function pharmacyPartlyDispensed(page: Page): Promise<void> {
  await prescriptionWritten(page);
  await pharmacyWindow(page);
  await dispense(page, '6', 'part');
  await page.getByText('a fill begun, the rest still to give').waitFor();
}

/** SHA's prescription for a visit a ward station opened (the fake's stand-in for another data dir). */
const wardPrescription = { exchangeCode: 'RX-2026-000117', status: 'ACTIVE', reviewStatus: 'PENDING', medicines: ['AMOX-500'] };

/** At the pharmacy window, the patient's visit a ward station opened, found through SHA. */
async function pharmacyFindsWardVisit(page: Page): Promise<void> {
  await control(page, { name: 'openVisitElsewhere', args: ['30000002', 'SHA-02-001', wardPrescription] });
  await lookUp(page, '30000002');
  await pharmacyWindow(page);
  await page.getByRole('article', { name: 'Visit for General outpatient consultation' }).waitFor();
}

/** The ward's visit reached at the window: found, then the patient's consent there. */
async function pharmacyReachedWardVisit(page: Page): Promise<void> {
  await pharmacyFindsWardVisit(page);
  await consentAtWindow(page);
}

/** The patient's consent at the window (fingerprint) reaches the ward's visit; back at the window, SHA's prescription for it. */
async function consentAtWindow(page: Page): Promise<void> {
  await page.getByRole('button', { name: "Take the patient's consent to dispense" }).click();
  await page.getByRole('button', { name: 'Verify by fingerprint' }).click();
  await page.locator('iframe').waitFor();
  await control(page, { name: 'authorize', args: [] });
  await page.getByRole('button', { name: 'Open visit' }).waitFor();
  await pharmacyWindow(page);
  await page.getByRole('heading', { name: "SHA's prescription RX-2026-000117" }).waitFor();
}

/** A dispense under a visit reached at the window: the dispenser's ID, one product, part of the fill or the rest. */
async function dispenseUnderVisit(page: Page, quantity: string, how: 'part' | 'rest'): Promise<void> {
  await recordDispense(page.getByRole('form', { name: 'Dispense under this visit' }), quantity, how);
}

async function dischargeVerify(page: Page): Promise<void> {
  await visitWithLine(page);
  // An outpatient visit is ended, not discharged: "End visit (discharge)" — still found as "Discharge".
  await page.getByRole('button', { name: 'Discharge' }).click();
  await page.getByRole('heading', { name: 'End-of-visit authorization' }).waitFor();
}

async function dischargeReady(page: Page): Promise<void> {
  await dischargeVerify(page);
  await page.getByRole('button', { name: 'Verify by fingerprint' }).click();
  await page.locator('iframe').waitFor();
  await control(page, { name: 'authorize', args: [] });
  await page.getByRole('button', { name: 'Submit claim' }).waitFor();
}

/** A referral: the reason chosen, then the destination found by a few letters of its name and chosen. */
async function referralChosen(page: Page): Promise<void> {
  await dischargeReady(page);
  await page.getByRole('combobox', { name: 'Reason' }).selectOption({ label: 'Referred' });
  await page.getByRole('textbox', { name: 'Facility name, FR or MFL code' }).fill('referral');
  await page.getByRole('button', { name: 'Find facility' }).click();
  await page.getByRole('radio', { name: /Mlima County Referral Hospital/ }).check();
}

async function referralDone(page: Page): Promise<void> {
  await referralChosen(page);
  await page.getByRole('button', { name: 'Submit claim' }).click();
  await page.getByText('Referred to Mlima County Referral Hospital (FID-00-000005-0)').waitFor();
}

async function beds(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Beds', exact: true }).click();
  await page.getByRole('heading', { name: 'Bed occupancy' }).waitFor();
  await page.getByRole('rowheader', { name: 'Intensive care (ICU)' }).waitFor();
}

async function pomsfBalance(page: Page): Promise<void> {
  await lookUp(page, '30000005');
  await page.getByRole('button', { name: 'Show POMSF balance' }).click();
  await page.getByText('Policy year 1 July').waitFor();
  await page.locator('table.pomsf').first().scrollIntoViewIfNeeded();
}

async function healthRecord(page: Page): Promise<void> {
  await openVisit(page);
  await page.getByRole('textbox', { name: 'Your practitioner number' }).fill('NCK-118822');
  await page.getByRole('button', { name: 'Read the record' }).click();
  await page.getByText('Entries not shown: 2.', { exact: false }).waitFor();
  await page.locator('table.record').first().scrollIntoViewIfNeeded();
}

/** A visit's claim submitted, then returned by SHA for documents (the fake's payer), and the Claims tab opened. */
async function claimsList(page: Page): Promise<void> {
  await dischargeReady(page);
  await page.getByRole('combobox', { name: 'Reason' }).selectOption('RECOVERED');
  await page.getByRole('button', { name: 'Submit claim' }).click();
  await page.getByText('Claim submitted').waitFor();
  await control(page, { name: 'payerMovesClaim', args: ['DRAFT_RESUBMIT_DOCUMENTS'] });
  await page.getByRole('button', { name: /^Claims/ }).click();
  await page.getByRole('heading', { name: 'Claims', exact: true }).waitFor();
  await page.getByText('Needs documents').first().waitFor();
}

/** The returned claim opened: SHA's state in words, the missing document named, the picker. */
async function claimReturned(page: Page): Promise<void> {
  await claimsList(page);
  await page.getByRole('button', { name: /^Claim INV/ }).first().click();
  await page.getByRole('heading', { name: 'Returned for documents' }).waitFor();
}

/** Ten days after the station saw the claim returned: 4 days or fewer left, the tab and the list warn. */
async function claimCloseToDeadline(page: Page): Promise<void> {
  await claimsList(page);
  await control(page, { name: 'advanceClock', args: [10 * 24 * 3_600_000 + 60_000] });
  await page.getByRole('button', { name: 'Check with SHA now' }).click();
  await page.getByText('1 returned claim has 4 days or fewer left').waitFor();
  await page.getByRole('button', { name: /^Claim INV/ }).first().click();
  await page.getByRole('heading', { name: 'Returned for documents' }).waitFor();
}

/** The scanner's folder as a facility sets it (the fake's option: the picker reads it with the settings at start). */
export const SCANNER_FOLDER = 'C:\\Users\\Public\\Scans';

/** The invoice scanned and chosen from the scanner's folder for the returned claim: the preview before it is sent. */
async function claimFromScanner(page: Page): Promise<void> {
  await control(page, { name: 'scannerSaves', args: [{ name: 'scan-0001.pdf', dataBase64: Buffer.from('%PDF-1.4\n1 0 obj << /Type /Page >> endobj\n%%EOF\n').toString('base64') }] });
  await control(page, { name: 'scannerSaves', args: [{ name: 'invoice-scan-0002.png', dataBase64: INVOICE_SCAN.toString('base64') }] });
  await claimReturned(page);
  const scanner = page.getByRole('region', { name: 'From the scanner' });
  await scanner.getByRole('button', { name: /^invoice-scan-0002\.png/ }).click();
  await page.getByRole('group', { name: 'Preview before sending' }).getByRole('img', { name: 'invoice-scan-0002.png' }).waitFor();
  await page.getByRole('combobox', { name: 'Document type' }).selectOption('INVOICE');
  await page.getByRole('button', { name: 'Attach document' }).scrollIntoViewIfNeeded();
}

/** A picture of the invoice chosen for the returned claim: the preview before it is sent. */
async function claimDocumentPreview(page: Page): Promise<void> {
  await claimReturned(page);
  await page.getByRole('combobox', { name: 'Document type' }).selectOption('INVOICE');
  await page.getByLabel(/^File: PDF, JPEG or PNG/).setInputFiles({ name: 'invoice-scan.png', mimeType: 'image/png', buffer: INVOICE_SCAN });
  const preview = page.getByRole('group', { name: 'Preview before sending' });
  await preview.getByRole('img').waitFor();
  await page.getByRole('button', { name: 'Attach document' }).scrollIntoViewIfNeeded();
}

async function chooseIntervention(page: Page, search: string, code: RegExp): Promise<void> {
  await page.getByRole('searchbox', { name: 'Search services' }).fill(search);
  await page.getByRole('option', { name: code }).first().click();
}

async function electiveWaiting(page: Page): Promise<void> {
  await lookUp(page, '30000001');
  await chooseIntervention(page, 'SHA-05-001', /SHA-05-001/);
  await page.getByRole('button', { name: 'Start planned admission' }).click();
  await page.getByRole('button', { name: 'Verify by fingerprint' }).click();
  await page.locator('iframe').waitFor();
  await control(page, { name: 'authorize', args: [] });
  await fillPreauth(page, 'A12345');
  await page.getByRole('button', { name: 'Send the request' }).click();
  await page.getByText('Waiting for the doctor').first().waitFor();
}

/** Consent in (or not yet); the request filled in and a medical report added to it: the consultant's form SHA requires is named as missing. */
async function electivePapers(page: Page, { consentFirst = true } = {}): Promise<void> {
  await lookUp(page, '30000001');
  await chooseIntervention(page, 'SHA-05-001', /SHA-05-001/);
  await page.getByRole('button', { name: 'Start planned admission' }).click();
  if (consentFirst) {
    await page.getByRole('button', { name: 'Verify by fingerprint' }).click();
    await page.locator('iframe').waitFor();
    await control(page, { name: 'authorize', args: [] });
  }
  await fillPreauth(page, 'A12345');
  await page.getByRole('combobox', { name: 'Document type' }).selectOption('MEDICAL_REPORT');
  await page.getByRole('textbox', { name: 'Document title' }).fill('Surgeon’s report');
  await page.getByLabel(/^File: PDF, JPEG or PNG/).setInputFiles({ name: 'report.png', mimeType: 'image/png', buffer: INVOICE_SCAN });
  await page.getByRole('group', { name: 'Preview before sending' }).getByRole('img').waitFor();
  await page.getByRole('button', { name: 'Add to the request' }).click();
  await page.getByRole('list', { name: 'Documents attached to the request' }).getByText('Surgeon’s report').waitFor();
  await page.getByText('Not attached yet: Request form from the consultant.', { exact: false }).scrollIntoViewIfNeeded();
}

/** The whitelist request after three wrong codes, with a doctor's letter as its one supporting document. */
async function whitelistWithLetter(page: Page): Promise<void> {
  await threeWrongCodes(page);
  await page.getByRole('combobox', { name: 'Reason' }).selectOption('MEDICAL_CONDITION');
  await page.getByRole('textbox', { name: 'Document title' }).fill('Letter from Dr. Achieng');
  await page.getByLabel(/^File: PDF, JPEG or PNG/).setInputFiles({ name: 'letter.png', mimeType: 'image/png', buffer: INVOICE_SCAN });
  await page.getByRole('group', { name: 'Preview before sending' }).getByRole('img').waitFor();
  await page.getByRole('button', { name: 'Add to the request' }).click();
  await page.getByRole('list', { name: 'Documents attached to the request' }).getByText('Letter from Dr. Achieng').waitFor();
}

/** The doctor approves while the nurse is elsewhere: the notice under the top bar and the count on the tab. */
async function electiveDoctorAnswered(page: Page): Promise<void> {
  await electiveWaiting(page);
  await page.getByRole('button', { name: 'Patients' }).click();
  await control(page, { name: 'approveDoctor', args: [] });
  await page.getByText(/The doctor approved the preauthorization for/).waitFor();
}

async function electiveFinalised(page: Page): Promise<void> {
  await electiveWaiting(page);
  await control(page, { name: 'approveDoctor', args: [] });
  await control(page, { name: 'approvePayer', args: [] });
  await page.getByRole('button', { name: 'Open visit' }).waitFor();
}

/** The preauthorization request as the exchange takes it: the stay's days, the amount, a diagnosis, the doctor, the email for SHA's notices. */
async function fillPreauth(page: Page, doctorNumber: string): Promise<void> {
  await page.getByLabel('Admission day').fill('2030-01-15');
  await page.getByLabel('Expected discharge day').fill('2030-01-17');
  await page.getByRole('textbox', { name: 'Amount requested (KES)' }).fill('85000');
  await page.getByRole('textbox', { name: 'Diagnosis (ICD-11 code)' }).fill('DD50.Z');
  await page.getByRole('textbox', { name: 'Identification number' }).fill(doctorNumber);
  await page.getByRole('textbox', { name: "Email for SHA's notices" }).fill('claims@hospital.example');
}

/** A new emergency claim filled in: the intervention and its first protocol, the doctor, the reference number and notes. */
async function emergencyNew(page: Page, doctorNumber = 'A12345'): Promise<void> {
  await page.getByRole('button', { name: 'Emergency', exact: true }).click();
  await page.getByRole('heading', { name: 'New emergency claim' }).waitFor();
  await page.getByRole('textbox', { name: 'Emergency intervention code' }).fill('SHA-01-001');
  await page.getByRole('radio').first().check();
  await page.getByRole('textbox', { name: 'Identification number' }).fill(doctorNumber);
  await page.getByRole('combobox', { name: 'Arrived by' }).selectOption('AMBULANCE');
  await page.getByRole('combobox', { name: 'Brought by' }).selectOption('PARAMEDICS');
  await page.getByRole('textbox', { name: 'Reference number' }).fill('AMB-2030-0042');
  await page.getByRole('textbox', { name: 'Notes' }).fill('Road traffic accident, unconscious on arrival');
}

async function emergencyOpen(page: Page): Promise<void> {
  await emergencyNew(page);
  await page.getByRole('button', { name: 'Create emergency claim' }).click();
  await page.getByRole('heading', { name: 'Identify the patient' }).waitFor();
}

/** A wrong visit about to be closed: the reason chosen (nothing chosen for the nurse), what happened said. */
async function visitClosing(page: Page): Promise<void> {
  await visitWithLine(page);
  await page.getByRole('button', { name: 'Close this visit…' }).click();
  await page.getByRole('radio', { name: 'Wrong patient' }).check();
  await page.getByRole('textbox', { name: 'What happened (sent to SHA)' }).fill('Opened for the wrong patient at reception');
}

async function visitClosed(page: Page): Promise<void> {
  await visitClosing(page);
  await page.getByRole('button', { name: 'Close the visit for good' }).click();
  await page.getByText('This visit was closed', { exact: true }).waitFor();
}

/** The doctor changed on an open visit: the old one removed at SHA first, then the new one added. */
async function doctorChanged(page: Page): Promise<void> {
  await visitWithLine(page);
  const doctor = page.getByRole('region', { name: 'Attending doctor' });
  await doctor.getByRole('textbox', { name: 'Identification number' }).fill('A34567');
  await doctor.getByRole('button', { name: /Add the doctor|Change the doctor/ }).click();
  await doctor.getByText(/A34567/).waitFor();
}

/** SHA could not deliver the doctor's request: said so, and sent again from the preauth panel. */
async function electiveDoctorFailed(page: Page): Promise<void> {
  await electiveWaiting(page);
  await control(page, { name: 'failDoctorRequest', args: [] });
  await page.getByText('The request did not reach the doctor').waitFor();
}

/** SHA holds the preauthorization request as a draft (the sandbox's control API, ours): what it means and what to do. */
async function electiveHeldAsDraft(page: Page): Promise<void> {
  await electiveWaiting(page);
  await control(page, { name: 'shaHoldsPreauth', args: ['DRAFT'] });
  await page.getByText('SHA holds the request as a draft').waitFor();
}

async function electiveClarification(page: Page): Promise<void> {
  await electiveWaiting(page);
  await control(page, { name: 'approveDoctor', args: [] });
  await control(page, { name: 'askClarification', args: ['Attach the ultrasound report'] });
  await page.getByText('Attach the ultrasound report').waitFor();
}

/** An open emergency given a second protocol of its intervention. */
async function emergencySecondProtocol(page: Page): Promise<void> {
  await emergencyOpen(page);
  const protocols = page.getByRole('region', { name: 'Protocols on the claim' });
  await protocols.getByRole('combobox', { name: 'Another protocol' }).selectOption({ index: 1 });
  await protocols.getByRole('button', { name: 'Add this protocol' }).click();
  await protocols.getByRole('listitem').nth(1).waitFor();
}

async function workList(page: Page): Promise<void> {
  await electiveWaiting(page);
  await page.getByRole('button', { name: 'Work in progress' }).click();
  await page.getByRole('heading', { name: 'Work in progress' }).waitFor();
  await page.getByRole('button', { name: /^Continue/ }).first().waitFor();
}

async function activity(page: Page): Promise<void> {
  await visitWithLine(page);
  await page.getByRole('button', { name: 'Activity' }).click();
  await page.getByText('SHA did it: add a billing line').first().waitFor();
}

async function settings(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'Station settings' }).waitFor();
}

async function locked(page: Page): Promise<void> {
  await lookUp(page, '30000001');
  await page.getByRole('button', { name: 'Lock' }).click();
  await page.getByRole('heading', { name: 'Station locked' }).waitFor();
}

export const flows = {
  attachDoctor,
  fillItemDetails,
  lookUp,
  lookupWithRecent,
  exchangeDownAtLookup,
  servicesSearch,
  fingerprintWaiting,
  smsSent,
  fallback,
  threeWrongCodes,
  stalePending,
  openVisit,
  visitWithLine,
  diagnosisBySearch,
  doctorFound,
  startPrescription,
  prescriptionForm,
  medicineBySearch,
  prescriptionDetails,
  prescriptionWritten,
  prescriptionReviewed,
  prescriptionSettled,
  pharmacyWindow,
  pharmacyPartlyDispensed,
  pharmacyFindsWardVisit,
  pharmacyReachedWardVisit,
  consentAtWindow,
  dispenseUnderVisit,
  dispense,
  dischargeVerify,
  dischargeReady,
  referralChosen,
  referralDone,
  beds,
  pomsfBalance,
  healthRecord,
  electiveWaiting,
  electivePapers,
  whitelistWithLetter,
  electiveDoctorAnswered,
  electiveFinalised,
  emergencyNew,
  emergencyOpen,
  visitClosing,
  visitClosed,
  doctorChanged,
  electiveDoctorFailed,
  electiveClarification,
  electiveHeldAsDraft,
  emergencySecondProtocol,
  fillPreauth,
  workList,
  claimsList,
  claimReturned,
  claimCloseToDeadline,
  claimFromScanner,
  claimDocumentPreview,
  activity,
  settings,
  locked,
};
