// Kiswahili at the ward's screen sizes, end to end through `npm run station:web` (the real station
// core): the top bar on one row at 1024, 1280 and 1366 px in both languages (screens that do not fit
// folded into "More", nothing cut), every list's chosen option whole (the regulators among them), and
// no browser control speaking US English on a Kiswahili screen: the station's own date field (its
// calendar picked by keyboard alone) and file field, in Kiswahili's words, axe-core clean.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, useTrainingStation } from './support';

const session = useTrainingStation(20_000);
let page: Page;
beforeAll(() => {
  ({ page } = session);
});

const WIDTHS = [
  { width: 1024, height: 600 },
  { width: 1280, height: 800 },
  { width: 1366, height: 768 },
] as const;
// What the in-page checks use of the DOM (this project's node-side tsconfig has no DOM library).
interface Box {
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
  readonly width: number;
  readonly height: number;
}
interface Shown {
  readonly textContent: string | null;
  readonly scrollWidth: number;
  readonly clientWidth: number;
  checkVisibility(options?: object): boolean;
  getBoundingClientRect(): Box;
  closest(selector: string): unknown;
  getAttribute(name: string): string | null;
}
interface Control extends Shown {
  readonly type: string;
  readonly id: string;
  readonly selectedOptions: ArrayLike<{ readonly textContent: string | null }>;
}
interface CheckedInput {
  type: string;
  value: string;
  required: boolean;
  min: string;
  readonly validationMessage: string;
  readonly validity: { readonly valid: boolean };
  reportValidity(): boolean;
  dispatchEvent(event: object): boolean;
  remove(): void;
}
interface Win {
  readonly innerWidth: number;
  getComputedStyle(element: Shown): { overflowX: string; fontWeight: string; fontSize: string; fontFamily: string; paddingLeft: string; paddingRight: string };
  readonly document: {
    querySelector(selector: string): (Shown & { querySelectorAll(selector: string): ArrayLike<Shown> }) | null;
    querySelectorAll(selector: string): ArrayLike<Control>;
    createElement(name: 'canvas'): { getContext(kind: '2d'): { font: string; measureText(text: string): { width: number } } | null };
    createElement(name: 'input'): CheckedInput;
    readonly body: { append(node: CheckedInput): void };
    readonly fonts: { readonly status: string };
    readonly activeElement: unknown;
  };
}
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Page >> endobj\ntrailer <<>>\n%%EOF\n');

/** A screen by its name in the top bar, from the "More" menu where it folded there. */
async function goTo(name: string, more: RegExp): Promise<void> {
  const place = page.locator('.nav').getByRole('button', { name, exact: true });
  if ((await place.count()) === 0) await page.getByRole('button', { name: more }).click();
  await page.getByRole('navigation').getByRole('button', { name, exact: true }).click();
}

async function toLanguage(language: 'en' | 'sw'): Promise<void> {
  const other = page.getByRole('button', { name: language === 'sw' ? 'Kiswahili' : 'English', exact: true });
  if ((await other.count()) > 0) await other.click();
  await page.locator(`html[lang="${language}"]`).waitFor();
}

/** The top bar's rows and what in it is cut or outside the window. */
async function topBarProblems(): Promise<{ height: number; rows: number; problems: string[] }> {
  return page.evaluate(() => {
    const win = globalThis as unknown as Win;
    const { document, innerWidth } = win;
    const bar = document.querySelector('.topbar')!;
    const problems: string[] = [];
    const controls = Array.from(bar.querySelectorAll('button')).filter((b) => b.checkVisibility() && b.getBoundingClientRect().width > 1);
    const middles = controls.map((b) => (b.getBoundingClientRect().top + b.getBoundingClientRect().bottom) / 2);
    for (const element of Array.from(bar.querySelectorAll('*'))) {
      if (!element.checkVisibility() || element.closest('.nav-measure') !== null || element.closest('.visually-hidden') !== null) continue;
      const box = element.getBoundingClientRect();
      if (box.width <= 1) continue;
      if (box.right > innerWidth + 0.5 || box.left < -0.5) problems.push(`outside the window: ${element.textContent?.trim()}`);
      if (element.scrollWidth > element.clientWidth + 1 && win.getComputedStyle(element).overflowX !== 'visible') problems.push(`cut: ${element.textContent?.trim()}`);
    }
    // Buttons on one row share their middle line (a few px apart at most).
    const rows = Math.max(...middles) - Math.min(...middles) <= 8 ? 1 : 2;
    return { height: Math.round(bar.getBoundingClientRect().height), rows, problems };
  });
}

/** Every list whose chosen option is wider than the list shows it. */
async function cutLists(): Promise<string[]> {
  return page.evaluate(() => {
    const win = globalThis as unknown as Win;
    const { document } = win;
    const canvas = document.createElement('canvas').getContext('2d')!;
    const out: string[] = [];
    for (const select of Array.from(document.querySelectorAll('select'))) {
      if (!select.checkVisibility()) continue;
      const style = win.getComputedStyle(select);
      canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const text = select.selectedOptions[0]?.textContent ?? '';
      // The list's arrow takes about 24 px of its inside.
      const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 24;
      if (canvas.measureText(text).width > room) out.push(`"${text}" in ${Math.round(room)} px`);
    }
    return out;
  });
}

/** What the browser's own bubble says of fields it refuses (empty, not an email, below its least), and whether typing clears it. */
async function fieldCheckWords(): Promise<{ said: string[]; clearedByTyping: boolean }> {
  return page.evaluate(() => {
    const { document } = globalThis as unknown as Win;
    const { Event } = globalThis as unknown as { Event: new (type: string, init: object) => object };
    const make = (type: string, value: string, setUp: (input: CheckedInput) => void) => {
      const input = document.createElement('input');
      input.type = type;
      input.value = value;
      setUp(input);
      document.body.append(input);
      return input;
    };
    const fields = [
      make('text', '', (input) => (input.required = true)),
      make('email', 'amina', () => undefined),
      make('number', '0', (input) => (input.min = '1')),
    ];
    const said = fields.map((input) => (input.reportValidity(), input.validationMessage));
    const email = fields[1]!;
    email.value = 'amina@mfano.co.ke';
    email.dispatchEvent(new Event('input', { bubbles: true }));
    const clearedByTyping = email.validity.valid;
    for (const input of fields) input.remove();
    return { said, clearedByTyping };
  });
}

/** Browser controls that draw their own words (the browser's language, not the screen's). */
async function browserWordedControls(): Promise<string[]> {
  return page.evaluate(() => {
    const { document } = globalThis as unknown as Win;
    return Array.from(document.querySelectorAll('input'))
      .filter((input) => ['date', 'datetime-local', 'month', 'week', 'time', 'file'].includes(input.type))
      .filter((input) => input.checkVisibility({ opacityProperty: true }) && input.getBoundingClientRect().width > 1)
      .map((input) => `${input.type} ${input.getAttribute('aria-label') ?? input.id}`);
  });
}

describe('Kiswahili at the ward’s screen sizes', () => {
  it('keeps the top bar on one row at 1024, 1280 and 1366 px in both languages, folding what does not fit, nothing cut', { timeout: 120_000 }, async () => {
    const seen: string[] = [];
    for (const language of ['en', 'sw'] as const) {
      await toLanguage(language);
      for (const size of WIDTHS) {
        await page.setViewportSize(size);
        await page.waitForFunction(() => (globalThis as unknown as Win).document.fonts.status === 'loaded');
        await page.waitForTimeout(200);
        const bar = await topBarProblems();
        seen.push(`${language} ${size.width}: ${bar.height} px`);
        expect(bar.rows, `${language} at ${size.width}: one row`).toBe(1);
        expect(bar.height, `${language} at ${size.width}`).toBeLessThanOrEqual(80);
        expect(bar.problems, `${language} at ${size.width}`).toEqual([]);
        // What folded is one press away, in the window, and Escape puts the keyboard back.
        const more = page.getByRole('button', { name: language === 'sw' ? /^Zaidi/ : /^More/ });
        if ((await more.count()) > 0) {
          await more.click();
          const list = page.locator('.nav-more-list');
          await list.waitFor();
          const items = await list.getByRole('button').all();
          expect(items.length).toBeGreaterThan(0);
          for (const item of items) {
            const box = (await item.boundingBox())!;
            expect(box.x + box.width, await item.innerText()).toBeLessThanOrEqual(size.width);
          }
          await expectAccessible(page, `${language} ${size.width}, the folded screens open`);
          await page.keyboard.press('Escape');
          await list.waitFor({ state: 'hidden' });
          expect(await more.evaluate((button) => button === (globalThis as unknown as Win).document.activeElement)).toBe(true);
        }
      }
    }
    // Issue 26 saw the Kiswahili bar take two rows at 1280 px (125 px).
    expect(seen).toHaveLength(6);
  });

  it('has the browser’s own field checks speak the screen’s language, following a switch', { timeout: 60_000 }, async () => {
    await toLanguage('sw');
    expect(await fieldCheckWords()).toEqual({
      said: ['Jaza sehemu hii.', 'Andika anwani ya barua pepe, kama jina@mfano.co.ke.', 'Kiwango cha chini kinachoruhusiwa ni 1.'],
      clearedByTyping: true,
    });
    await toLanguage('en');
    expect((await fieldCheckWords()).said).toEqual(['Fill in this field.', 'Enter an email address, such as name@example.co.ke.', 'The least allowed is 1.']);
  });

  it('reaches a folded screen from "Zaidi" by keyboard', { timeout: 60_000 }, async () => {
    await toLanguage('sw');
    // A ward's seven screens fit at 1024, 1280 and 1366 px; a window a little wider than the small
    // screens' layout (larger type) is narrower than their Kiswahili names: some fold.
    await page.setViewportSize({ width: 1120, height: 800 });
    const more = page.getByRole('button', { name: /^Zaidi/ });
    await more.waitFor();
    await more.focus();
    await page.keyboard.press('Enter');
    await expectAccessible(page, 'the folded screens open, in Kiswahili');
    const last = page.locator('.nav-more-list').getByRole('button').last();
    const name = await last.innerText();
    await last.focus();
    await page.keyboard.press('Enter');
    await page.locator('.nav-more-list').waitFor({ state: 'hidden' });
    await page.getByRole('heading', { level: 1, name }).waitFor();
    // The screen shown is in the folded list: "More" says so.
    expect(await more.getAttribute('class')).toContain('nav-more-current');
    expect(await more.innerText()).toContain('Zaidi');
    await goTo('Wagonjwa', /^Zaidi/);
  });

  it('shows every list’s chosen option whole, the regulators among them, in both languages', { timeout: 90_000 }, async () => {
    for (const language of ['sw', 'en'] as const) {
      await toLanguage(language);
      for (const size of WIDTHS) {
        await page.setViewportSize(size);
        await goTo(language === 'sw' ? 'Dharura' : 'Emergency', language === 'sw' ? /^Zaidi/ : /^More/);
        await page.getByRole('combobox', { name: language === 'sw' ? 'Bodi ya usajili' : 'Regulator' }).waitFor();
        expect(await cutLists(), `${language} at ${size.width}`).toEqual([]);
      }
    }
  });

  it('takes dates in the station’s own field: day first, said back in Kiswahili, a calendar picked by keyboard alone, no browser date control', { timeout: 120_000 }, async () => {
    await toLanguage('en');
    await page.setViewportSize({ width: 1280, height: 800 });
    await goTo('Patients', /^More/);
    const field = page.getByRole('textbox', { name: 'ID number' });
    await field.fill('30000001');
    await field.press('Enter');
    await page.getByText('Covered', { exact: true }).waitFor();
    await page.getByRole('combobox', { name: 'Kind of service' }).selectOption('elective-preauth');
    await page.getByRole('listbox', { name: 'Interventions' }).getByRole('option').first().click();
    await page.getByRole('button', { name: 'Start planned admission' }).click();
    await page.getByRole('button', { name: 'Verify by fingerprint' }).click();
    await page.getByRole('heading', { name: 'Preauthorization request' }).waitFor({ timeout: 30_000 });
    await toLanguage('sw');
    expect(await browserWordedControls()).toEqual([]);

    // Typed day first, as Kenya writes it, and said back in words.
    const admission = page.getByRole('textbox', { name: 'Siku ya kulazwa' });
    await admission.fill('15/01/2030');
    await page.getByText('Jumanne, 15 Januari 2030').waitFor();
    await admission.fill('31/02/2030');
    await page.getByText('Andika tarehe kama siku/mwezi/mwaka').waitFor();

    // The calendar, by keyboard alone: open, a week on, a day back, pick.
    await admission.fill('15/01/2030');
    // The calendar's button is named "Kalenda", described by its field's label (a name holding the label would answer for the field).
    const calendarOf = (field: string) => page.locator('.date-field').filter({ has: page.getByRole('textbox', { name: field, exact: true }) }).getByRole('button', { name: 'Kalenda' });
    expect(await calendarOf('Siku ya kulazwa').getAttribute('aria-describedby')).not.toBeNull();
    await calendarOf('Siku ya kulazwa').focus();
    await page.keyboard.press('Enter');
    const calendar = page.getByRole('dialog', { name: /Siku ya kulazwa: Januari 2030/ });
    await calendar.waitFor();
    expect(await calendar.getByRole('columnheader').allInnerTexts()).toEqual(['Jumapili', 'Jumatatu', 'Jumanne', 'Jumatano', 'Alhamisi', 'Ijumaa', 'Jumamosi'].map((day) => expect.stringMatching(new RegExp(`^${day.slice(0, 3)}`))));
    await expectAccessible(page, 'the calendar open, in Kiswahili');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('PageDown');
    await page.keyboard.press('Enter');
    await calendar.waitFor({ state: 'hidden' });
    expect(await admission.inputValue()).toBe('21/02/2030');
    await page.getByText('Alhamisi, 21 Februari 2030').waitFor();
    // A discharge day before the admission day cannot be picked.
    const discharge = page.getByRole('textbox', { name: 'Siku inayotarajiwa ya kuruhusiwa kutoka' });
    await discharge.fill('20/02/2030');
    await calendarOf('Siku inayotarajiwa ya kuruhusiwa kutoka').click();
    expect(await page.getByRole('button', { name: 'Jumatano, 20 Februari 2030' }).isDisabled()).toBe(true);
    await page.keyboard.press('Escape');

    // The file field in Kiswahili's words, its size as Explorer says it.
    const picker = page.locator('.file-field').first();
    await picker.getByText('Chagua faili…').waitFor();
    await picker.getByText('Bado hakuna faili iliyochaguliwa').waitFor();
    await page.getByLabel(/^Faili: PDF, JPEG au PNG, isiyozidi 512 KB/).setInputFiles({ name: 'ombi.pdf', mimeType: 'application/pdf', buffer: PDF });
    await picker.getByText('ombi.pdf · 1 KB').waitFor();
    expect(await browserWordedControls()).toEqual([]);
    await expectAccessible(page, 'the preauthorization request in Kiswahili, a date and a file chosen');

    // The activity filter's days are the station's field too.
    await goTo('Kumbukumbu', /^Zaidi/);
    await page.getByRole('textbox', { name: 'Kuanzia' }).waitFor();
    expect(await browserWordedControls()).toEqual([]);
  });
});
