// The station's own date field, so no date shows in the browser's US English (mm/dd/yyyy) on a
// Kiswahili screen: a text field taking the day first, as Kenya writes it (12/06/2026; 2026-06-12
// too), the chosen day said back in words in the nurse's language, and a calendar of the station's
// own to pick from, by pointer or by keyboard (arrows move a day or a week, Page Up / Page Down a
// month, Home / End the week's ends, Enter picks, Escape closes). The value is a calendar day,
// YYYY-MM-DD, or '' while none (or none valid) is given.
import { useEffect, useId, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../i18n/format';
import { addDays, addMonths, daysOfMonthGrid, firstDayOfWeek, isoDay, parseDayTyped, sameMonth, todayIso } from '../i18n/formatting';

interface DateFieldProps {
  readonly label: string;
  readonly hint?: ReactNode;
  readonly error?: ReactNode;
  /** YYYY-MM-DD, or '' for none. */
  readonly value: string;
  readonly onChange: (value: string) => void;
  /** The first and last days that may be picked (YYYY-MM-DD). */
  readonly min?: string;
  readonly max?: string;
}

export function DateField({ label, hint, error, value, onChange, min, max }: DateFieldProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const id = useId();
  const opener = useRef<HTMLButtonElement>(null);
  const [typed, setTyped] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const shown = typed ?? (value === '' ? '' : format.dayTyped(value));
  const unreadable = typed !== null && typed.trim() !== '' && parseDayTyped(typed) === null;
  const outside = value !== '' && ((min !== undefined && value < min) || (max !== undefined && value > max));

  const type = (text: string) => {
    setTyped(text);
    const day = parseDayTyped(text);
    if (day !== null) onChange(day);
    else if (text.trim() === '') onChange('');
  };
  const pick = (day: string) => {
    setTyped(null);
    onChange(day);
    setOpen(false);
    opener.current?.focus();
  };
  const described = [`${id}-format`, value !== '' ? `${id}-said` : '', hint ? `${id}-hint` : '', error || unreadable ? `${id}-error` : ''].filter(Boolean).join(' ');

  return (
    <div className="field date-field">
      <label htmlFor={id} id={`${id}-label`}>
        {label}
      </label>
      <div className="date-entry">
        <input
          id={id}
          type="text"
          inputMode="numeric"
          autoComplete="off"
          spellCheck={false}
          value={shown}
          onChange={(event) => type(event.target.value)}
          onBlur={() => {
            if (typed !== null && parseDayTyped(typed) !== null) setTyped(null);
          }}
          aria-invalid={error || unreadable || outside ? true : undefined}
          aria-describedby={described}
        />
        <button
          ref={opener}
          type="button"
          className="btn btn-quiet date-open"
          aria-haspopup="dialog"
          aria-expanded={open}
          aria-describedby={`${id}-label`}
          onClick={() => setOpen((was) => !was)}
        >
          <CalendarIcon />
          <span>{t('date.open')}</span>
        </button>
      </div>
      <span id={`${id}-format`} className="field-hint">
        {t('date.format')}
      </span>
      {value !== '' && (
        <span id={`${id}-said`} className="date-said" aria-live="polite">
          {format.dayInWords(value)}
        </span>
      )}
      {hint ? (
        <span id={`${id}-hint`} className="field-hint">
          {hint}
        </span>
      ) : null}
      {error || unreadable ? (
        <span id={`${id}-error`} className="field-error">
          {unreadable ? t('date.unreadable') : error}
        </span>
      ) : null}
      {open && (
        <Calendar
          label={label}
          value={value}
          min={min}
          max={max}
          onPick={pick}
          onClose={() => {
            setOpen(false);
            opener.current?.focus();
          }}
        />
      )}
    </div>
  );
}

function CalendarIcon() {
  return (
    <svg aria-hidden="true" focusable="false" width="20" height="20" viewBox="0 0 20 20">
      <rect x="2" y="4" width="16" height="14" rx="2" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="M2 8h16M6 2v4M14 2v4" stroke="currentColor" strokeWidth="2" />
    </svg>
  );
}

interface CalendarProps {
  readonly label: string;
  readonly value: string;
  readonly min: string | undefined;
  readonly max: string | undefined;
  readonly onPick: (day: string) => void;
  readonly onClose: () => void;
}

/** A month of days as a grid; the focused day moves with the keys, and the month with it. */
function Calendar({ label, value, min, max, onPick, onClose }: CalendarProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const headingId = useId();
  const today = todayIso();
  const start = value !== '' ? value : min !== undefined && today < min ? min : max !== undefined && today > max ? max : today;
  const [focused, setFocused] = useState(start);
  const grid = useRef<HTMLTableElement>(null);
  /** A key moved the day: the focus follows it (a press on the month buttons keeps the focus there). */
  const keyMoved = useRef(false);
  const weekStart = firstDayOfWeek(format.locale);
  const weeks = daysOfMonthGrid(focused, weekStart);
  const allowed = (day: string) => (min === undefined || day >= min) && (max === undefined || day <= max);

  useEffect(() => {
    if (!keyMoved.current) return;
    keyMoved.current = false;
    grid.current?.querySelector<HTMLButtonElement>(`button[data-day="${focused}"]`)?.focus();
  }, [focused]);
  useEffect(() => {
    // Opening puts the keyboard on the chosen day (else today).
    grid.current?.querySelector<HTMLButtonElement>('button[tabindex="0"]')?.focus();
  }, []);

  const move = (to: string, byKey = false) => {
    keyMoved.current = byKey;
    setFocused(to);
  };
  const onKey = (event: React.KeyboardEvent) => {
    const steps: Record<string, () => string> = {
      ArrowLeft: () => addDays(focused, -1),
      ArrowRight: () => addDays(focused, 1),
      ArrowUp: () => addDays(focused, -7),
      ArrowDown: () => addDays(focused, 7),
      PageUp: () => addMonths(focused, -1),
      PageDown: () => addMonths(focused, 1),
      Home: () => addDays(focused, -((new Date(`${focused}T00:00:00Z`).getUTCDay() - (weekStart % 7) + 7) % 7)),
      End: () => addDays(focused, 6 - ((new Date(`${focused}T00:00:00Z`).getUTCDay() - (weekStart % 7) + 7) % 7)),
    };
    const step = steps[event.key];
    if (step !== undefined && (event.target as HTMLElement).matches('.calendar-day')) {
      event.preventDefault();
      move(step(), true);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      onClose();
    }
  };

  return (
    <div className="calendar" role="dialog" aria-modal="false" aria-labelledby={headingId} onKeyDown={onKey}>
      <div className="calendar-head">
        <button type="button" className="btn btn-quiet" onClick={() => move(addMonths(focused, -1))}>
          <span aria-hidden="true">‹</span>
          <span className="visually-hidden">{t('date.previousMonth')}</span>
        </button>
        <p id={headingId} className="calendar-month" aria-live="polite">
          <span className="visually-hidden">{label}: </span>
          {format.monthYear(focused)}
        </p>
        <button type="button" className="btn btn-quiet" onClick={() => move(addMonths(focused, 1))}>
          <span className="visually-hidden">{t('date.nextMonth')}</span>
          <span aria-hidden="true">›</span>
        </button>
      </div>
      <table ref={grid} className="calendar-grid" role="grid" aria-labelledby={headingId}>
        <thead>
          <tr>
            {weeks[0]!.map((day) => (
              <th key={day} scope="col" abbr={format.weekday(day, 'long')}>
                {format.weekday(day, 'short')}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week) => (
            <tr key={week[0]}>
              {week.map((day) => {
                const inMonth = sameMonth(day, focused);
                return (
                  <td key={day} aria-selected={day === value}>
                    <button
                      type="button"
                      data-day={day}
                      className={`calendar-day${inMonth ? '' : ' calendar-other-month'}${day === value ? ' calendar-chosen' : ''}`}
                      tabIndex={day === focused ? 0 : -1}
                      disabled={!allowed(day)}
                      aria-current={day === today ? 'date' : undefined}
                      aria-label={format.dayInWords(day)}
                      onClick={() => onPick(day)}
                      onFocus={() => setFocused(day)}
                    >
                      {isoDay(day)}
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <div className="calendar-foot">
        <button type="button" className="btn btn-quiet" disabled={!allowed(today)} onClick={() => onPick(today)}>
          {t('date.today')}
        </button>
        <button type="button" className="btn btn-quiet" onClick={onClose}>
          {t('date.close')}
        </button>
      </div>
    </div>
  );
}
