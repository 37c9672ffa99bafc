// Dates, times, numbers, sizes and doses in each language's own order and form (renderer/i18n/
// formatting.ts, the one formatting module of the screens), and the catalogue held to it: no Kiswahili
// string says "saa" before a time the module already says it with, and the dosing line reads in
// Kiswahili's order (the noun before its number).
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  addMonths,
  daysOfMonthGrid,
  firstDayOfWeek,
  formatBytes,
  formatClock,
  formatDate,
  formatDateTime,
  formatDayInWords,
  formatDose,
  formatTime,
  medicineUnitOf,
  parseDayTyped,
} from '../../../renderer/i18n/formatting';
import { MAX_BASE64, MAX_BYTES } from '../../../renderer/features/claims/files';
import { catalogue, flatten } from '../../support/catalogues';

// 12 June 2026, 09:41 in Nairobi (the tests run with the machine's zone; the day and hour are read in it).
const at = new Date(2026, 5, 12, 9, 41).toISOString();
const en = i18next.createInstance();
const sw = i18next.createInstance();

beforeAll(async () => {
  await en.init({ lng: 'en', resources: { en: { translation: catalogue('en') } }, interpolation: { escapeValue: false }, initAsync: false });
  await sw.init({ lng: 'sw', resources: { sw: { translation: catalogue('sw') } }, interpolation: { escapeValue: false }, initAsync: false });
});

describe('the formatting module', () => {
  it('says a day, a time and both in each language’s form, "saa" once in Kiswahili', () => {
    expect(formatDate(at, 'en-KE')).toBe('12 Jun 2026');
    expect(formatDate('2026-06-12', 'sw-KE')).toBe('12 Jun 2026');
    expect(formatTime(at, 'en-KE')).toBe('09:41');
    expect(formatTime(at, 'sw-KE')).toBe('saa 09:41');
    expect(formatDateTime(at, 'en-KE')).toBe('12 Jun 2026, 09:41');
    expect(formatDateTime(at, 'sw-KE')).toBe('12 Jun 2026, saa 09:41');
    expect(formatClock(at, 'sw-KE', Date.parse(at))).toBe('saa 09:41');
    expect(formatClock(at, 'sw-KE', Date.parse(at) + 86_400_000)).toBe('12 Jun 2026, saa 09:41');
    expect(formatDayInWords('2026-06-12', 'sw-KE')).toBe('Ijumaa, 12 Juni 2026');
    expect(formatDayInWords('2026-06-12', 'en-KE')).toBe('Friday, 12 June 2026');
  });

  it('reads a typed day day-first, as Kenya writes it, and refuses a day that does not exist', () => {
    expect(parseDayTyped('12/06/2026')).toBe('2026-06-12');
    expect(parseDayTyped('1/2/2026')).toBe('2026-02-01');
    expect(parseDayTyped('12.6.2026')).toBe('2026-06-12');
    expect(parseDayTyped('2030-01-15')).toBe('2030-01-15');
    expect(parseDayTyped('31/02/2026')).toBeNull();
    expect(parseDayTyped('06/12')).toBeNull();
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
  });

  it('lays a month out in whole weeks from the locale’s first day (Sunday in Kenya)', () => {
    expect(firstDayOfWeek('sw-KE')).toBe(7);
    const weeks = daysOfMonthGrid('2026-06-12', 7);
    expect(weeks[0]![0]).toBe('2026-05-31');
    expect(weeks.at(-1)!.at(-1)).toBe('2026-07-04');
    expect(weeks.every((week) => week.length === 7)).toBe(true);
  });

  it('says a size as Explorer does (KB of 1,024 bytes, rounded up), and the documents’ limit exactly, so the two never disagree', () => {
    expect(MAX_BYTES).toBe(512 * 1024);
    expect(MAX_BYTES).toBeLessThanOrEqual((MAX_BASE64 * 3) / 4);
    expect(formatBytes(MAX_BYTES, 'en-KE', 'down')).toBe('512 KB');
    expect(formatBytes(MAX_BYTES + 1, 'en-KE')).toBe('513 KB');
    expect(formatBytes(1, 'en-KE')).toBe('1 KB');
    expect(formatBytes(3 * 1024 * 1024 + 1, 'sw-KE')).toBe('3.1 MB');
    // A file is taken exactly when its size as shown is no larger than the limit as shown.
    for (let bytes = 500_000; bytes < 540_000; bytes += 97) {
      const shown = Number(formatBytes(bytes, 'en-KE').split(' ')[0]);
      expect(bytes <= MAX_BYTES, String(bytes)).toBe(shown <= 512);
    }
  });

  it('puts a dose in each language’s order, its unit in that language, a symbol after its number', () => {
    expect(formatDose(en.t, 1, 'capsule', 'en-KE')).toBe('1 capsule');
    expect(formatDose(en.t, 2, 'Tablets', 'en-KE')).toBe('2 tablets');
    expect(formatDose(sw.t, 1, 'capsule', 'sw-KE')).toBe('kapsuli 1');
    expect(formatDose(sw.t, 2, 'tablet', 'sw-KE')).toBe('vidonge 2');
    expect(formatDose(sw.t, 1, 'kidonge', 'sw-KE')).toBe('kidonge 1');
    expect(formatDose(en.t, 2, 'vidonge', 'en-KE')).toBe('2 tablets');
    expect(formatDose(sw.t, 5, 'ml', 'sw-KE')).toBe('5 ml');
    expect(formatDose(sw.t, 2, 'puffs', 'sw-KE')).toBe('puffs 2');
    expect(medicineUnitOf(' Caps. ')).toEqual({ known: 'capsule' });
  });

  it('writes the dosing line in each language’s order: "kapsuli 1 mara 3 kwa siku, kwa siku 5"', () => {
    const line = (t: typeof en.t, locale: 'en-KE' | 'sw-KE') =>
      t('prescriptions.dosage', { dose: formatDose(t, 1, 'capsule', locale), count: 3, period: t('prescriptions.per.day'), length: t('prescriptions.lengths.day', { count: 5 }) });
    expect(line(en.t, 'en-KE')).toBe('1 capsule 3 times a day, for 5 days');
    expect(line(sw.t, 'sw-KE')).toBe('kapsuli 1 mara 3 kwa siku, kwa siku 5');
    expect(sw.t('prescriptions.dosage', { dose: 'kidonge 1', count: 1, period: sw.t('prescriptions.per.week'), length: sw.t('prescriptions.lengths.month', { count: 1 }) })).toBe(
      'kidonge 1 mara moja kwa wiki, kwa mwezi 1',
    );
  });
});

describe('the catalogue and the formatting module', () => {
  const swahili = flatten(catalogue('sw'));
  it('never says "saa" (or "tarehe saa") before a time the module already says it with', () => {
    const timePlaceholders = /\{\{(time|since|seen|when)\}\}/;
    const doubled = [...swahili].filter(([, text]) => /\bsaa\s+\{\{(time|since|seen|when)\}\}/i.test(text) && timePlaceholders.test(text)).map(([key, text]) => `${key}: ${text}`);
    expect(doubled).toEqual([]);
  });

  it('puts no count before the word it counts in Kiswahili ("dai 1 liko…", never ", 1 karibu…")', () => {
    // A count opening a sentence or a clause is a count before its noun, or a count with no noun at all.
    const countFirst = /(?:^|[,;(·]\s*)\{\{(?:count|n|number|shown|done|amount)\}\}\s+\p{L}/u;
    expect(countFirst.test(', {{count}} karibu na mwisho wa muda wa SHA')).toBe(true);
    expect(countFirst.test(', dai {{count}} liko karibu na mwisho wa muda wa SHA')).toBe(false);
    const before = [...swahili].filter(([, text]) => countFirst.test(text)).map(([key, text]) => `${key}: ${text}`);
    expect(before).toEqual([]);
  });
});
