// Dates, times, durations and money (KES) for the nurse's language, through Intl with the Kenyan
// locales (en-KE, sw-KE). The station sends ISO 8601 timestamps and shillings as numbers.
import { useTranslation } from 'react-i18next';
import { stationNow } from '../ui/station-time';

export type Locale = 'en-KE' | 'sw-KE';

export function localeOf(language: string): Locale {
  return language === 'sw' ? 'sw-KE' : 'en-KE';
}

interface DurationFormatLike {
  format(duration: Record<string, number>): string;
}
type DurationFormatConstructor = new (locale: string, options: { style: 'long' | 'short' | 'narrow' | 'digital' }) => DurationFormatLike;

const cache = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat | DurationFormatLike>();
function cached<T extends Intl.DateTimeFormat | Intl.NumberFormat | DurationFormatLike>(key: string, make: () => T): T {
  let format = cache.get(key);
  if (format === undefined) {
    format = make();
    cache.set(key, format);
  }
  return format as T;
}

export function formatDate(value: string, locale: Locale): string {
  // Calendar dates (YYYY-MM-DD) are days, not instants: format them in UTC so no zone shifts the day.
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const date = new Date(dateOnly ? `${value}T00:00:00Z` : value);
  return cached(`d${locale}${dateOnly}`, () =>
    new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric', ...(dateOnly ? { timeZone: 'UTC' } : {}) }),
  ).format(date);
}

export function formatTime(value: string, locale: Locale): string {
  return cached(`t${locale}`, () => new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' })).format(new Date(value));
}

/** A day and a time: "12 Jun, 09:41"; in Swahili the hour is said as such: "12 Jun, saa 09:41". */
export function formatDateTime(value: string, locale: Locale): string {
  const day = cached(`dm${locale}`, () => new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short' })).format(new Date(value));
  const time = formatTime(value, locale);
  return locale === 'sw-KE' ? `${day}, saa ${time}` : `${day}, ${time}`;
}

/** A moment as a clock time: the time alone today ("09:41"), with its day otherwise. */
export function formatClock(value: string, locale: Locale, now: number): string {
  const day = (at: number) => new Date(at).toDateString();
  return day(Date.parse(value)) === day(now) ? formatTime(value, locale) : formatDateTime(value, locale);
}

export function formatKes(amount: number, locale: Locale): string {
  return cached(`k${locale}`, () => new Intl.NumberFormat(locale, { style: 'currency', currency: 'KES', maximumFractionDigits: 2 })).format(amount);
}

export function formatNumber(value: number, locale: Locale): string {
  return cached(`n${locale}`, () => new Intl.NumberFormat(locale)).format(value);
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

/** The formatters bound to the current language; components re-render when it changes. */
export function useFormat() {
  const { i18n } = useTranslation();
  const locale = localeOf(i18n.language);
  return {
    locale,
    date: (value: string) => formatDate(value, locale),
    time: (value: string) => formatTime(value, locale),
    dateTime: (value: string) => formatDateTime(value, locale),
    clock: (value: string) => formatClock(value, locale, stationNow()),
    kes: (amount: number) => formatKes(amount, locale),
    number: (value: number) => formatNumber(value, locale),
    timeLeft: (ms: number) => formatTimeLeft(ms, locale),
  };
}
