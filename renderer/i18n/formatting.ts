// Dates, times, durations, numbers, money (KES), file sizes and medicine doses for the nurse's
// language, through Intl with the Kenyan locales (en-KE, sw-KE): the one formatting module every
// screen uses (through useFormat, format.ts, bound to the language shown), so each language has its
// own order and form everywhere. The station sends ISO 8601 timestamps and shillings as numbers.
// Plain functions, no React, so Node tests use them as they are.
//   English:   12 Jun 2026 · 09:41 · 12 Jun 2026, 09:41 · 2 capsules · 513 KB
//   Kiswahili: 12 Jun 2026 · saa 09:41 · 12 Jun 2026, saa 09:41 · kapsuli 2 · 513 KB
// In Kiswahili the hour is said with "saa": a time comes from here with it, so no string puts "saa"
// before a time (test/unit/renderer/format.test.ts holds the catalogue to that).
import type { TFunction } from 'i18next';
import { stationNow } from '../ui/station-time';

export type Locale = 'en-KE' | 'sw-KE';

export function localeOf(language: string): Locale {
  return language === 'sw' ? 'sw-KE' : 'en-KE';
}

interface DurationFormatLike {
  format(duration: Record<string, number>): string;
}
type DurationFormatConstructor = new (locale: string, options: { style: 'long' | 'short' | 'narrow' | 'digital' }) => DurationFormatLike;
type Formatter = Intl.DateTimeFormat | Intl.NumberFormat | DurationFormatLike;

const cache = new Map<string, Formatter>();
function cached<T extends Formatter>(key: string, make: () => T): T {
  let format = cache.get(key);
  if (format === undefined) {
    format = make();
    cache.set(key, format);
  }
  return format as T;
}

const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar day (YYYY-MM-DD) is a day, not an instant: it is read and formatted in UTC so no zone shifts it. */
function instant(value: string): { readonly date: Date; readonly day: boolean } {
  const day = CALENDAR_DAY.test(value);
  return { date: new Date(day ? `${value}T00:00:00Z` : value), day };
}

/** "12 Jun 2026" in both languages (sw-KE's months: Jan, Feb, Mac, Apr, Mei, Jun, Jul, Ago, Sep, Okt, Nov, Des). */
export function formatDate(value: string, locale: Locale): string {
  const { date, day } = instant(value);
  return cached(`d${locale}${day}`, () => new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric', ...(day ? { timeZone: 'UTC' } : {}) })).format(date);
}

/** The time of day: "09:41"; in Kiswahili "saa 09:41". */
export function formatTime(value: string, locale: Locale): string {
  const time = cached(`t${locale}`, () => new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })).format(new Date(value));
  return locale === 'sw-KE' ? `saa ${time}` : time;
}

/** A day and a time: "12 Jun 2026, 09:41"; in Kiswahili "12 Jun 2026, saa 09:41". */
export function formatDateTime(value: string, locale: Locale): string {
  return `${formatDate(value, locale)}, ${formatTime(value, locale)}`;
}

/** A moment as a clock time: the time alone today ("09:41", "saa 09:41"), with its day otherwise. */
export function formatClock(value: string, locale: Locale, now: number): string {
  const day = (at: number) => new Date(at).toDateString();
  return day(Date.parse(value)) === day(now) ? formatTime(value, locale) : formatDateTime(value, locale);
}

/** SHA's date where it is one ("2027-12-31", an ISO timestamp), else its text as SHA gave it. */
export function formatDateOrText(value: string, locale: Locale): string {
  return Number.isNaN(Date.parse(value)) ? value : formatDate(value, locale);
}

/** A day as the date field shows it for typing, day first as Kenya writes it: "12/06/2026". */
export function formatDayTyped(day: string): string {
  const [year, month, date] = day.split('-');
  return `${date}/${month}/${year}`;
}

/** A day in words, to be sure of it: "Friday, 12 June 2026"; "Ijumaa, 12 Juni 2026". */
export function formatDayInWords(day: string, locale: Locale): string {
  return cached(`w${locale}`, () => new Intl.DateTimeFormat(locale, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })).format(instant(day).date);
}

export function formatMonthYear(day: string, locale: Locale): string {
  return cached(`my${locale}`, () => new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' })).format(instant(day).date);
}

export function formatWeekday(day: string, locale: Locale, width: 'short' | 'long'): string {
  return cached(`wd${locale}${width}`, () => new Intl.DateTimeFormat(locale, { weekday: width, timeZone: 'UTC' })).format(instant(day).date);
}

/**
 * A day typed by the nurse, day first (12/6/2026, 12-06-2026, 12.06.2026) or as YYYY-MM-DD, as
 * YYYY-MM-DD; null for anything else, a day that does not exist (31/02/2026) included.
 */
export function parseDayTyped(text: string): string | null {
  const trimmed = text.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(trimmed);
  const dayFirst = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(trimmed);
  const parts = iso !== null ? [iso[1], iso[2], iso[3]] : dayFirst !== null ? [dayFirst[3], dayFirst[2], dayFirst[1]] : null;
  if (parts === null) return null;
  const [year, month, date] = parts.map(Number) as [number, number, number];
  const made = new Date(Date.UTC(year, month - 1, date));
  if (made.getUTCFullYear() !== year || made.getUTCMonth() !== month - 1 || made.getUTCDate() !== date) return null;
  return made.toISOString().slice(0, 10);
}

/** Today on the station's clock, as YYYY-MM-DD in this computer's zone. */
export function todayIso(now: number = stationNow()): string {
  const at = new Date(now);
  return `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}`;
}

export function addDays(day: string, days: number): string {
  const date = instant(day).date;
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** The same day of another month, or that month's last day where it has fewer (31 Jan + 1 month = 28 Feb). */
export function addMonths(day: string, months: number): string {
  const date = instant(day).date;
  const target = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(date.getUTCDate(), last));
  return target.toISOString().slice(0, 10);
}

export function sameMonth(a: string, b: string): boolean {
  return a.slice(0, 7) === b.slice(0, 7);
}

/** The day of the month: 12. */
export function isoDay(day: string): number {
  return Number(day.slice(8, 10));
}

/** The first day of the week where the locale says (Kenya: Sunday), 1 = Monday … 7 = Sunday. */
export function firstDayOfWeek(locale: Locale): number {
  const about = new Intl.Locale(locale) as Intl.Locale & { getWeekInfo?: () => { firstDay: number }; weekInfo?: { firstDay: number } };
  return about.getWeekInfo?.().firstDay ?? about.weekInfo?.firstDay ?? 7;
}

/** The weeks shown for the month of `day`: whole weeks from the locale's first day, each 7 days (YYYY-MM-DD). */
export function daysOfMonthGrid(day: string, weekStart: number): string[][] {
  const first = `${day.slice(0, 7)}-01`;
  const offset = (new Date(`${first}T00:00:00Z`).getUTCDay() - (weekStart % 7) + 7) % 7;
  let cursor = addDays(first, -offset);
  const weeks: string[][] = [];
  do {
    const week: string[] = [];
    for (let i = 0; i < 7; i += 1) {
      week.push(cursor);
      cursor = addDays(cursor, 1);
    }
    weeks.push(week);
  } while (sameMonth(cursor, day));
  return weeks;
}

export function formatKes(amount: number, locale: Locale): string {
  return cached(`k${locale}`, () => new Intl.NumberFormat(locale, { style: 'currency', currency: 'KES', maximumFractionDigits: 2 })).format(amount);
}

export function formatNumber(value: number, locale: Locale): string {
  return cached(`n${locale}`, () => new Intl.NumberFormat(locale)).format(value);
}

/** A share: "40%". */
export function formatPercent(share: number, locale: Locale): string {
  return cached(`p${locale}`, () => new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 })).format(share);
}

/**
 * A file's size as Windows Explorer shows it, which is where a ward's files are chosen: KB of 1,024
 * bytes up to a megabyte, then MB of 1,024 KB, the same in both languages. A file's size is rounded
 * up and a limit down, so a file shown no larger than the limit always fits and one refused always
 * shows larger (a 525,000-byte limit is "512 KB"; a file of 525,001 bytes is "513 KB").
 */
export function formatBytes(bytes: number, locale: Locale, round: 'up' | 'down' = 'up'): string {
  const to = round === 'up' ? Math.ceil : Math.floor;
  const oneDecimal = (n: number) => cached(`b${locale}`, () => new Intl.NumberFormat(locale, { maximumFractionDigits: 1 })).format(to(n * 10) / 10);
  if (bytes < 1024 * 1024) return `${formatNumber(Math.max(round === 'up' ? 1 : 0, to(bytes / 1024)), locale)} KB`;
  return `${oneDecimal(bytes / (1024 * 1024))} MB`;
}

/** Time left: "9:58" under an hour, "23 h 12 min" (in the locale's words) above. */
export function formatTimeLeft(ms: number, locale: Locale): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (hours === 0) return `${minutes}:${String(seconds % 60).padStart(2, '0')}`;
  const DurationFormat = (Intl as unknown as { DurationFormat?: DurationFormatConstructor }).DurationFormat;
  if (DurationFormat === undefined) return `${hours}:${String(minutes).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
  return cached(`dur${locale}`, () => new DurationFormat(locale, { style: 'short' })).format({ hours, minutes });
}

/**
 * Medicine units the station knows, by the words a prescriber types for them, each said in the
 * reader's language with its number in that language's place: "2 capsules", "kapsuli 2". Measures
 * written as symbols (ml, mg …) are not in this list: they are printed after the number in both
 * languages, as on the medicine's label. Any other word is shown as typed, in the language's order.
 */
export const medicineUnits: Readonly<Record<string, readonly string[]>> = {
  tablet: ['tablet', 'tablets', 'tab', 'tabs', 'kidonge', 'vidonge'],
  capsule: ['capsule', 'capsules', 'cap', 'caps', 'kapsuli'],
  drop: ['drop', 'drops', 'tone', 'matone'],
  teaspoon: ['teaspoon', 'teaspoons', 'tsp', 'kijiko cha chai', 'vijiko vya chai'],
  tablespoon: ['tablespoon', 'tablespoons', 'tbsp', 'kijiko kikubwa', 'vijiko vikubwa'],
  sachet: ['sachet', 'sachets', 'pakiti'],
  injection: ['injection', 'injections', 'sindano'],
};
const SYMBOL_UNITS = /^(?:ml|mls|l|mg|g|mcg|µg|ug|iu|units?|%)$/i;

/** The unit the prescriber typed as one the station knows ('tablet' …), a symbol, or neither. */
export function medicineUnitOf(typed: string): { readonly known: string } | { readonly symbol: string } | { readonly other: string } {
  const word = typed.trim().toLowerCase().replace(/\s+/g, ' ').replace(/\.$/, '');
  const known = Object.entries(medicineUnits).find(([, forms]) => forms.includes(word));
  if (known !== undefined) return { known: known[0] };
  if (SYMBOL_UNITS.test(word)) return { symbol: typed.trim() };
  return { other: typed.trim() };
}

/** A dose in the reader's language: "2 capsules", "kapsuli 2", "5 ml", "puff 1" for a word the station does not know. */
export function formatDose(t: TFunction, amount: number, typedUnit: string, locale: Locale): string {
  const number = formatNumber(amount, locale);
  const unit = medicineUnitOf(typedUnit);
  if ('known' in unit) return t(`medicineUnits.${unit.known}`, { count: amount, amount: number });
  if ('symbol' in unit) return `${number} ${unit.symbol}`;
  return t('medicineUnits.other', { amount: number, unit: unit.other });
}

