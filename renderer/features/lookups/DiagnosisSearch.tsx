// The diagnosis field with the terminology search under it: a code typed whole is taken as it is;
// a few letters list the matching ICD-11 codes (this station's recent ones first, marked), and a
// pick fills the code and keeps its title. Only the newest search's answer is shown.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CommandOutput } from '../../bridge/types';
import { call } from '../../state/bridge';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { isDiagnosisCode } from '../shared/formats';

export interface DiagnosisDraft {
  /** What the nurse typed, or the code she picked. */
  readonly text: string;
  /** The picked concept's title; null when the code was typed. */
  readonly title: string | null;
}

export const emptyDiagnosis: DiagnosisDraft = { text: '', title: null };

/** The diagnosis as the contract takes it: the code, with its title when it was picked. */
export function diagnosisInput(draft: DiagnosisDraft): { code: string; name?: string } {
  const code = draft.text.trim();
  return draft.title === null ? { code } : { code, name: draft.title };
}

export const isDiagnosisGiven = (draft: DiagnosisDraft): boolean => isDiagnosisCode(draft.text.trim());

type Choices = CommandOutput<'terminology.searchDiagnoses'>['items'];

/** Waits this long after the last key before asking: a ward's link is slow, typing is not. */
const TYPING_PAUSE_MS = 300;
/** Long enough for a press elsewhere to finish before the list folds away. */
const CLOSE_AFTER_BLUR_MS = 250;

export function DiagnosisSearch({
  value,
  onChange,
  error,
  label,
}: {
  readonly value: DiagnosisDraft;
  readonly onChange: (next: DiagnosisDraft) => void;
  readonly error?: string;
  /** Where a screen has two diagnosis fields (a line's, the claim's), each is named for its own. */
  readonly label?: string;
}) {
  const { t } = useTranslation();
  const [choices, setChoices] = useState<Choices>([]);
  const [open, setOpen] = useState(false);
  const [searching, setSearching] = useState(false);
  const [failed, setFailed] = useState(false);
  const asked = useRef(0);
  const closing = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const text = value.text;

  useEffect(() => () => clearTimeout(closing.current), []);

  useEffect(() => {
    if (!open) return undefined;
    const mine = ++asked.current;
    const timer = setTimeout(
      () => {
        setSearching(true);
        void call('terminology.searchDiagnoses', { text }).then((answer) => {
          if (mine !== asked.current) return;
          setSearching(false);
          setFailed(!answer.ok);
          setChoices(answer.ok ? answer.value.items : []);
        });
      },
      text.trim().length < 2 ? 0 : TYPING_PAUSE_MS,
    );
    return () => clearTimeout(timer);
  }, [text, open]);

  const typed = text.trim();
  return (
    <div
      className="diagnosis-search"
      onBlur={(event) => {
        // Closed a moment after the focus leaves, not at once: closing moves what lies below, and a
        // press that took the focus away (on "Add the line", say) must land where it was aimed.
        if (event.currentTarget.contains(event.relatedTarget)) return;
        clearTimeout(closing.current);
        closing.current = setTimeout(() => setOpen(false), CLOSE_AFTER_BLUR_MS);
      }}
      onFocus={() => clearTimeout(closing.current)}
      onKeyDown={(event) => {
        if (event.key === 'Escape') setOpen(false);
      }}
    >
      <TextField
        label={label ?? t('visit.lines.diagnosis')}
        value={text}
        onChange={(event) => {
          onChange({ text: event.target.value, title: null });
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        hint={value.title ?? t('lookups.diagnosis.hint')}
        error={error}
        autoComplete="off"
      />
      {open && (
        <div className="lookup-choices" role="group" aria-label={t('lookups.diagnosis.choices')}>
          <p className="lookup-state" role="status">
            {searching
              ? t('lookups.searching')
              : failed
                ? t('lookups.diagnosis.failed')
                : choices.length === 0
                  ? typed.length < 2
                    ? t('lookups.diagnosis.typeMore')
                    : t('lookups.diagnosis.none')
                  : t('lookups.diagnosis.found', { count: choices.length })}
          </p>
          {choices.length > 0 && (
            <ul className="lookup-list">
              {choices.map((choice) => (
                <li key={choice.code}>
                  <Button
                    tone="quiet"
                    aria-label={t('lookups.diagnosis.pick', { code: choice.code, title: choice.title ?? '' })}
                    onClick={() => {
                      onChange({ text: choice.code, title: choice.title });
                      setOpen(false);
                    }}
                  >
                    <span className="lookup-code">{choice.code}</span>
                    <span className="lookup-title">{choice.title ?? t('lookups.diagnosis.noTitle')}</span>
                    {choice.recent && <span className="lookup-tag">{t('lookups.diagnosis.recent')}</span>}
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
