// The formatting module (formatting.ts) bound to the language shown: every screen formats through
// useFormat, and re-renders when the language changes.
import { useTranslation } from 'react-i18next';
import { stationNow } from '../ui/station-time';
import { formatBytes, formatClock, formatDate, formatDateOrText, formatDateTime, formatDayInWords, formatDayTyped, formatDose, formatKes, formatMonthYear, formatNumber, formatPercent, formatTime, formatTimeLeft, formatWeekday, localeOf } from './formatting';

export type { Locale } from './formatting';

/** The formatters bound to the current language; components re-render when it changes. */
export function useFormat() {
  const { t, i18n } = useTranslation();
  const locale = localeOf(i18n.language);
  return {
    locale,
    date: (value: string) => formatDate(value, locale),
    dateOrText: (value: string) => formatDateOrText(value, locale),
    time: (value: string) => formatTime(value, locale),
    dateTime: (value: string) => formatDateTime(value, locale),
    clock: (value: string) => formatClock(value, locale, stationNow()),
    dayTyped: formatDayTyped,
    dayInWords: (day: string) => formatDayInWords(day, locale),
    monthYear: (day: string) => formatMonthYear(day, locale),
    weekday: (day: string, width: 'short' | 'long') => formatWeekday(day, locale, width),
    kes: (amount: number) => formatKes(amount, locale),
    number: (value: number) => formatNumber(value, locale),
    percent: (share: number) => formatPercent(share, locale),
    bytes: (bytes: number, round: 'up' | 'down' = 'up') => formatBytes(bytes, locale, round),
    dose: (amount: number, unit: string) => formatDose(t, amount, unit, locale),
    timeLeft: (ms: number) => formatTimeLeft(ms, locale),
  };
}
