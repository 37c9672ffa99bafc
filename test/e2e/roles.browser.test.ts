// Roles end to end in Chromium through `npm run station:web -- --staff "NAME:PIN"`: the station
// starts signed in as the Training nurse; a nurse sees the administrator's settings read-only and
// the station refuses them over its own bridge (with the page's own secret); a second nurse's PIN at
// the lock switches the user, and the activity record shows who did what, for which patient.
import { describe, expect, it } from 'vitest';
import { connectBridge, secretOf } from '../integration/browser-host/bridge-client';
import { nextCode, useTrainingStation } from './support';

const AMINA = { name: 'Amina Wekesa', pin: '4821' };
const BARAKA = { name: 'Baraka Mwangi', pin: '9034' };
const session = useTrainingStation(15_000, ['--staff', `${AMINA.name}:${AMINA.pin}`, '--staff', `${BARAKA.name}:${BARAKA.pin}`]);

async function signInAt(pin: string): Promise<void> {
  const { page } = session;
  await page.getByRole('button', { name: 'Lock' }).click();
  await page.getByRole('heading', { name: 'Station locked' }).waitFor();
  await page.getByRole('textbox', { name: 'PIN' }).fill(pin);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('textbox', { name: 'ID number' }).waitFor();
}

describe('roles at the station', () => {
  it('starts as the Training nurse, who cannot reach the administrator’s settings', { timeout: 60_000 }, async () => {
    const { page, station } = session;
    await page.getByText('Signed in: Training nurse').waitFor();
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByText('Only the station\'s administrator may change').waitFor();
    for (const field of ['Exchange address', 'Allowed fingerprint page addresses']) {
      expect(await page.getByRole('textbox', { name: field }).getAttribute('readonly'), field).not.toBeNull();
    }
    expect(await page.getByRole('checkbox', { name: 'Training mode (sandbox)' }).isDisabled()).toBe(true);
    expect(await page.getByRole('heading', { name: 'Staff' }).count()).toBe(0);
    // The station itself refuses, to the page's own bridge secret: where secrets go is not the window's to say.
    const bridge = await connectBridge(new URL(station.url).origin, secretOf(station.url));
    try {
      expect(await bridge.invoke('settings.update', { exchangeBaseUrl: 'https://look-alike.example.org' })).toMatchObject({ ok: false, error: { code: 'ADMINISTRATOR_REQUIRED' } });
      expect(await bridge.invoke('settings.update', { allowedLinkOrigins: ['https://look-alike.example.org'] })).toMatchObject({ ok: false, error: { code: 'ADMINISTRATOR_REQUIRED' } });
      expect(await bridge.invoke('staff.add', { name: 'Me', role: 'administrator', pin: '123456' })).toMatchObject({ ok: false, error: { code: 'ADMINISTRATOR_REQUIRED' } });
    } finally {
      bridge.close();
    }
  });

  it("a second nurse's PIN switches the user, and the activity list shows who did what", { timeout: 90_000 }, async () => {
    const { page, station } = session;
    await signInAt(AMINA.pin);
    await page.getByText(`Signed in: ${AMINA.name}`).waitFor();
    // Amina takes 30000002's consent by SMS code: the code opens the visit.
    const field = page.getByRole('textbox', { name: 'ID number' });
    await field.fill('30000002');
    await field.press('Enter');
    await page.getByRole('button', { name: 'Verify by SMS code' }).click();
    const seen = (await station.sandbox.smsCodes('30000002')).length;
    await page.getByRole('button', { name: 'Send code' }).click();
    const code = await nextCode(() => station.sandbox.smsCodes('30000002'), seen);
    await page.getByRole('textbox', { name: 'SMS code' }).fill(code);
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('button', { name: 'Open visit' }).click();
    await page.getByText('Visit open', { exact: true }).waitFor();

    // A wrong PIN at the lock is refused; Baraka's takes over.
    await page.getByRole('button', { name: 'Lock' }).click();
    await page.getByRole('textbox', { name: 'PIN' }).fill('0000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('That PIN is not known here').waitFor();
    await page.getByRole('textbox', { name: 'PIN' }).fill(BARAKA.pin);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText(`Signed in: ${BARAKA.name}`).waitFor();

    // The record in plain words: who, which patient (masked), what.
    await page.getByRole('button', { name: 'Activity' }).click();
    const rows = page.getByRole('row');
    await rows.filter({ hasText: 'Took over the station' }).first().waitFor();
    expect(await rows.filter({ hasText: 'Took over the station' }).filter({ hasText: BARAKA.name }).count()).toBeGreaterThan(0);
    const visitOpened = rows.filter({ hasText: 'SHA did it: open the visit' });
    expect(await visitOpened.filter({ hasText: AMINA.name }).filter({ hasText: 'O*** J*** O***' }).count()).toBeGreaterThan(0);
    expect(await visitOpened.filter({ hasText: BARAKA.name }).count()).toBe(0);
    // The technical record is there for IT, folded away under each entry.
    const detail = visitOpened.first().getByText('Details for IT');
    await detail.click();
    await visitOpened.first().getByText('exchange.claims.createVisit').waitFor();
  });
});
