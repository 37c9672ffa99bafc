// The screens a nurse does not open first — claims, beds, activity, settings, the work list — are
// not in the first bundle: each comes, with its own words, the first time it is opened, from the
// station's own server and nothing else (a ward PC may have no internet at all). While one comes,
// the screen says so; when one cannot come, it says that and offers to reload the screens.
// Issue 24: the first screen's JavaScript at most 120 KB gzipped.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { distDir } from '../support/chromium';
import { useTrainingStation } from './support';

const session = useTrainingStation(15_000);
let page: Page;
beforeAll(() => {
  ({ page } = session);
});

type Words = { readonly [key: string]: string | Words };
const wordsOf = (folder: string, language: 'en' | 'sw'): Words => JSON.parse(readFileSync(join(import.meta.dirname, `../../renderer/features/${folder}/${language}.json`), 'utf8')) as Words;
const word = (words: Words, path: string): string => path.split('.').reduce<string | Words>((node, part) => (node as Words)[part] as string | Words, words) as string;

/** The later screens: the top bar's button to each, and its heading, by language. */
const screens = (['en', 'sw'] as const).map((language) => {
  const nav = (key: string) => word(wordsOf('status', language), `nav.${key}`);
  return {
    language,
    screens: [
      { button: nav('claims'), heading: word(wordsOf('claims', language), 'claims.title') },
      { button: nav('beds'), heading: word(wordsOf('programmes', language), 'programmes.beds.title') },
      { button: nav('activity'), heading: word(wordsOf('activity', language), 'activity.title') },
      { button: nav('settings'), heading: word(wordsOf('settings', language), 'settings.title') },
      { button: nav('work'), heading: word(wordsOf('work', language), 'work.title') },
    ],
  };
});

/** Every namespace of the renderer's words: the shared ones and each feature folder's. */
const namespaces = new Set(
  [join(import.meta.dirname, '../../renderer/i18n/en.json'), ...readdirSync(join(import.meta.dirname, '../../renderer/features'), { withFileTypes: true }).map((d) => join(d.parentPath, d.name, 'en.json'))]
    .flatMap((file) => {
      try {
        return Object.keys(JSON.parse(readFileSync(file, 'utf8')) as object);
      } catch {
        return [];
      }
    }),
);

/** Text on the page that is a key instead of its words ('claims.title'): a screen drawn without them. */
async function keysShown(): Promise<string[]> {
  const text = await page.locator('body').innerText();
  return [...text.matchAll(/\b([a-z][A-Za-z]+)(?:\.[A-Za-z_]+)+\b/g)].filter((m) => namespaces.has(m[1] as string)).map((m) => m[0]);
}

describe('screens loaded on first use', () => {
  it('keeps the later screens and their words out of the first bundle', () => {
    const html = readFileSync(join(distDir, 'index.html'), 'utf8');
    const files = [...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g), ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g)].map((m) => m[1] as string);
    const initial = files.map((file) => readFileSync(join(distDir, file), 'utf8')).join('\n');
    // Each later screen is a chunk of its own, not one the first screen loads.
    const chunks = readdirSync(join(distDir, 'assets'));
    for (const screen of ['ClaimsScreen', 'BedsScreen', 'ActivityScreen', 'SettingsScreen', 'PharmacyScreen', 'WorkScreen']) {
      const chunk = chunks.find((f) => f.startsWith(`${screen}-`) && f.endsWith('.js'));
      expect(chunk, screen).toBeDefined();
      expect(files.some((f) => f.endsWith(chunk!))).toBe(false);
    }
    // The look-up's words are there; the later screens' words are not.
    expect(initial).toContain(word(wordsOf('lookup', 'en'), 'lookup.title'));
    for (const words of [
      word(wordsOf('programmes', 'en'), 'programmes.beds.title'),
      word(wordsOf('activity', 'en'), 'activity.title'),
      word(wordsOf('claims', 'en'), 'claims.documents.needFile'),
      word(wordsOf('settings', 'en'), 'settings.trainingHint'),
    ]) {
      expect(initial).not.toContain(words);
    }
  });

  it('says so when a screen’s code cannot be loaded, and reloading the screens brings it', { timeout: 60_000 }, async () => {
    await page.route(/\/assets\/BedsScreen-[^/]+\.js$/, (route) => route.abort());
    await page.getByRole('button', { name: 'Beds', exact: true }).click();
    await page.getByText('This screen could not be shown').waitFor();
    await page.unroute(/\/assets\/BedsScreen-[^/]+\.js$/);
    // The reload brings her back to the screen she asked for (each screen is an entry of the window's history).
    await page.getByRole('button', { name: 'Reload the screens' }).click();
    await page.getByRole('heading', { name: 'Bed occupancy' }).waitFor();
  });

  it('shows what is opening while a screen’s code comes', { timeout: 60_000 }, async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route(/\/assets\/ActivityScreen-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Activity', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Opening the screen…' }).waitFor();
    release();
    await page.getByRole('heading', { name: word(wordsOf('activity', 'en'), 'activity.title') }).waitFor();
    await page.unroute(/\/assets\/ActivityScreen-[^/]+\.js$/);
  });

  it('brings every later screen from the station itself, with its words, in English and in Kiswahili', { timeout: 120_000 }, async () => {
    const origin = new URL(session.station.url).origin;
    const elsewhere: string[] = [];
    await page.route('**/*', async (route) => {
      const url = route.request().url();
      if (url.startsWith(origin) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
      elsewhere.push(url);
      return route.abort();
    });
    try {
      for (const { language, screens: list } of screens) {
        if (language === 'sw') await page.getByRole('button', { name: 'Kiswahili', exact: true }).click();
        for (const screen of list) {
          await page.getByRole('button', { name: screen.button, exact: true }).click();
          await page.getByRole('heading', { name: screen.heading, exact: true }).waitFor();
          expect(await keysShown(), `${screen.heading} (${language})`).toEqual([]);
        }
      }
      await page.getByRole('button', { name: 'English', exact: true }).click();
    } finally {
      await page.unroute('**/*');
    }
    expect(elsewhere).toEqual([]);
  });
});
