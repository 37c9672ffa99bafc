// `npm run screens`: regenerates the screenshots under docs/screens/ — every screen in English and
// in Swahili, at 1280x800 and a few at 1024x600 — by driving the built renderer in Chromium against
// the fake station (test/fixtures/renderer) at a fixed time, so the pictures change only when the
// screens do. Each flow runs in English, is photographed, then switched to Kiswahili with the
// language button and photographed again.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { openWithFake, serveRenderer } from '../fixtures/renderer/harness';
import { ensureRendererBuilt, launchChromium, root } from '../support/chromium';
import type { FakeStationOptions } from '../fixtures/renderer/fake-station';
import { flows, SCANNER_FOLDER } from './flows';

interface Shot {
  readonly name: string;
  readonly fake?: FakeStationOptions;
  readonly viewport?: { width: number; height: number };
  /** Brings the screen to the state to photograph (in English). */
  readonly reach: (page: Page) => Promise<void>;
  /** After the language button: brings back what pressing it closed (a list that folds when its field loses the focus). */
  readonly again?: (page: Page) => Promise<void>;
}

const small = { width: 1024, height: 600 };

const shots: readonly Shot[] = [
  { name: '01-first-run', fake: { firstRun: true }, reach: (page) => page.getByRole('heading', { name: 'Set up this station' }).waitFor() },
  { name: '02-look-up', reach: flows.lookupWithRecent },
  { name: '03-look-up-not-found', reach: (page) => flows.lookUp(page, '99999999') },
  { name: '04-look-up-exchange-down', reach: flows.exchangeDownAtLookup },
  { name: '05-eligibility-covered', reach: (page) => flows.lookUp(page, '30000001') },
  { name: '06-eligibility-not-covered', reach: (page) => flows.lookUp(page, '30000003') },
  { name: '07-eligibility-two-schemes', reach: (page) => flows.lookUp(page, '30000005') },
  { name: '08-services-search', reach: flows.servicesSearch },
  { name: '09-consent-fingerprint', reach: flows.fingerprintWaiting },
  { name: '10-consent-sms-code', reach: flows.smsSent },
  { name: '11-consent-fallback-30000004', reach: flows.fallback },
  { name: '12-consent-three-wrong-codes', reach: flows.threeWrongCodes },
  { name: '13-consent-stale-pending', reach: flows.stalePending },
  { name: '14-visit-open', reach: flows.visitWithLine },
  { name: '15-visit-end-authorize', reach: flows.dischargeVerify },
  { name: '16-visit-end-submit', reach: flows.dischargeReady },
  { name: '17-elective-phase-one', reach: flows.electiveWaiting },
  { name: '18-elective-finalised', reach: flows.electiveFinalised },
  { name: '19-emergency-new', reach: flows.emergencyNew },
  { name: '20-emergency-open', reach: flows.emergencyOpen },
  { name: '21-work-in-progress', reach: flows.workList },
  { name: '22-activity', reach: flows.activity },
  { name: '23-settings', reach: flows.settings },
  { name: '24-locked', reach: flows.locked },
  { name: '25-eligibility-1024x600', viewport: small, reach: (page) => flows.lookUp(page, '30000001') },
  { name: '26-consent-sms-1024x600', viewport: small, reach: flows.smsSent },
  { name: '27-visit-1024x600', viewport: small, reach: flows.visitWithLine },
  { name: '28-consent-fingerprint-1024x600', viewport: small, reach: flows.fingerprintWaiting },
  {
    name: '29-diagnosis-search',
    reach: async (page) => {
      await flows.openVisit(page);
      await page.getByRole('textbox', { name: 'Diagnosis (ICD-11 code)' }).fill('malar');
      const choices = page.getByRole('group', { name: 'Diagnoses found' });
      await choices.getByRole('button').first().waitFor();
      await choices.scrollIntoViewIfNeeded();
    },
    again: (page) => listAgain(page, 'form.add-line .concept-search input', 'Utambuzi uliopatikana'),
  },
  { name: '30-doctor-found-in-registry', reach: flows.doctorFound },
  { name: '31-prescription-written', reach: flows.prescriptionWritten },
  { name: '62-prescription-read-back', reach: flows.prescriptionReviewed },
  { name: '63-prescription-settled-by-read-back', reach: flows.prescriptionSettled },
  { name: '32-pharmacy-fill-begun', fake: { stationRole: 'pharmacy' }, reach: flows.pharmacyPartlyDispensed },
  { name: '33-pharmacy-1024x600', fake: { stationRole: 'pharmacy' }, viewport: small, reach: flows.pharmacyPartlyDispensed },
  { name: '64-pharmacy-ward-visit-found', fake: { stationRole: 'pharmacy' }, reach: flows.pharmacyFindsWardVisit },
  { name: '65-pharmacy-ward-visit-dispensing', fake: { stationRole: 'pharmacy' }, reach: flows.pharmacyReachedWardVisit },
  { name: '40-referral-destination', reach: flows.referralChosen },
  { name: '41-referral-submitted', reach: flows.referralDone },
  { name: '42-bed-occupancy', reach: flows.beds },
  { name: '43-pomsf-balance', reach: flows.pomsfBalance },
  { name: '44-shared-health-record', reach: flows.healthRecord },
  { name: '34-visit-closing', reach: flows.visitClosing },
  { name: '35-visit-closed', reach: flows.visitClosed },
  { name: '36-visit-doctor-changed', reach: flows.doctorChanged },
  { name: '37-elective-doctor-request-failed', reach: flows.electiveDoctorFailed },
  { name: '38-elective-clarification', reach: flows.electiveClarification },
  { name: '38b-elective-held-as-draft', reach: flows.electiveHeldAsDraft },
  { name: '39-emergency-second-protocol', reach: flows.emergencySecondProtocol },
  { name: '50-claims', reach: flows.claimsList },
  { name: '51-claim-returned-for-documents', reach: flows.claimReturned },
  { name: '52-claim-document-preview', reach: flows.claimDocumentPreview },
  { name: '53-claim-returned-1024x600', viewport: small, reach: flows.claimReturned },
  { name: '80-medicine-search', reach: medicinesListed, again: (page) => listAgain(page, '.prescription-form .concept-search input', 'Dawa zilizopatikana') },
  { name: '81-medicine-search-1024x600', viewport: small, reach: medicinesListed, again: (page) => listAgain(page, '.prescription-form .concept-search input', 'Dawa zilizopatikana') },
  {
    name: '82-prescription-medicines-not-set-up',
    fake: { medicinesSetUp: false },
    reach: async (page) => {
      await flows.prescriptionForm(page);
      await page.getByRole('textbox', { name: 'Generic medicine code' }).scrollIntoViewIfNeeded();
    },
  },
  { name: '60-elective-preauth-documents', reach: flows.electivePapers },
  { name: '61-whitelist-request-document', reach: flows.whitelistWithLetter },
  { name: '54-claim-close-to-deadline', reach: flows.claimCloseToDeadline },
  { name: '55-claim-document-from-scanner', fake: { scannerFolder: SCANNER_FOLDER }, reach: flows.claimFromScanner },
];

/** The search field (`field`, a selector: its name has changed language) focused again, and its list, named in Kiswahili, shown. */
async function listAgain(page: Page, field: string, swahiliList: string): Promise<void> {
  await page.locator(field).first().focus();
  const list = page.getByRole('group', { name: swahiliList });
  await list.getByRole('button').first().waitFor();
  await list.scrollIntoViewIfNeeded();
}

/** The medicines found for a few letters, the list brought into view. */
async function medicinesListed(page: Page): Promise<void> {
  await flows.medicineBySearch(page);
  await page.getByRole('group', { name: 'Medicines found' }).scrollIntoViewIfNeeded();
}

const clockAt = new Date('2025-06-12T09:41:00+03:00');

export async function makeScreens(only?: RegExp): Promise<string[]> {
  await ensureRendererBuilt();
  const server = await serveRenderer();
  const browser = await launchChromium();
  const written: string[] = [];
  try {
    for (const language of ['en', 'sw'] as const) mkdirSync(join(root, 'docs/screens', language), { recursive: true });
    for (const shot of shots) {
      if (only !== undefined && !only.test(shot.name)) continue;
      const { context, page } = await openWithFake(browser, server, { fake: shot.fake ?? {}, viewport: shot.viewport ?? { width: 1280, height: 800 }, clockAt });
      try {
        await shot.reach(page);
        await settle(page);
        const en = join(root, 'docs/screens/en', `${shot.name}.png`);
        await page.screenshot({ path: en });
        await page.getByRole('button', { name: 'Kiswahili', exact: true }).click();
        await page.getByRole('button', { name: 'English', exact: true }).waitFor();
        await shot.again?.(page);
        await settle(page);
        const sw = join(root, 'docs/screens/sw', `${shot.name}.png`);
        await page.screenshot({ path: sw });
        written.push(en, sw);
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return written;
}

/** Lets lazy chunks, fonts and the last event land before the picture (scrolled as the nurse would find it). */
async function settle(page: Page): Promise<void> {
  await page.evaluate(() => (globalThis as unknown as { document: { fonts: { ready: Promise<unknown> } } }).document.fonts.ready.then(() => undefined));
  await page.waitForTimeout(250);
}

if (process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '')) {
  const only = process.argv[2] === undefined ? undefined : new RegExp(process.argv[2]);
  const written = await makeScreens(only);
  process.stdout.write(`${written.length} screenshots written under docs/screens/\n`);
}
