// A code field with the terminology search under it (diagnoses, medicines): a code typed whole is
// taken as it is; a few letters list the matching concepts (this station's recent ones first,
// marked), and a pick fills the code and keeps its title. Only the newest search's answer is shown.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CommandOutcome } from '../../bridge/types';
import { call } from '../../state/bridge';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';

export interface ConceptDraft {
  /** What the nurse typed, or the code she picked. */
  readonly text: string;
  /** The picked concept's title; null when the code was typed. */
  readonly title: string | null;
}

interface Choice {
  readonly code: string;
  readonly title: string | null;
  readonly recent: boolean;
}

/** The two terminology searches, each with the words of its own list. */
const searches = {
  diagnosis: { words: 'lookups.diagnosis', ask: (text: string): Promise<CommandOutcome<'terminology.searchDiagnoses'>> => call('terminology.searchDiagnoses', { text }) },
  medicine: { words: 'medicines.search', ask: (text: string): Promise<CommandOutcome<'terminology.searchMedicines'>> => call('terminology.searchMedicines', { text }) },
} as const;

/** Waits this long after the last key before asking: a ward's link is slow, typing is not. */
const TYPING_PAUSE_MS = 300;
/** Long enough for a press elsewhere to finish before the list folds away. */
const CLOSE_AFTER_BLUR_MS = 250;

export function ConceptSearch({
  kind,
  value,
  onChange,
  error,
  label,
}: {
  readonly kind: keyof typeof searches;
  readonly value: ConceptDraft;
  readonly onChange: (next: ConceptDraft) => void;
  readonly error?: string | undefined;
  readonly label: string;
}) {
  const { t } = useTranslation();
  const words = searches[kind].words;
  const [choices, setChoices] = useState<readonly Choice[]>([]);
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
        void searches[kind].ask(text).then((answer) => {
          if (mine !== asked.current) return;
          setSearching(false);
          setFailed(!answer.ok);
          setChoices(answer.ok ? answer.value.items : []);
        });
      },
      text.trim().length < 2 ? 0 : TYPING_PAUSE_MS,
    );
    return () => clearTimeout(timer);
  }, [text, open, kind]);

  const typed = text.trim();
  return (
    <div
      className="concept-search"
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
        label={label}
        value={text}
        onChange={(event) => {
          onChange({ text: event.target.value, title: null });
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        hint={value.title ?? t(`${words}.hint`)}
        error={error}
        autoComplete="off"
      />
      {open && (
        <div className="lookup-choices" role="group" aria-label={t(`${words}.choices`)}>
          <p className="lookup-state" role="status">
            {searching
              ? t('lookups.searching')
              : failed
                ? t(`${words}.failed`)
                : choices.length === 0
                  ? typed.length < 2
                    ? t(`${words}.typeMore`)
                    : t(`${words}.none`)
                  : t(`${words}.found`, { count: choices.length })}
          </p>
          {choices.length > 0 && (
            <ul className="lookup-list">
              {choices.map((choice) => (
                <li key={choice.code}>
                  {/* Named by what it shows, after a word said only to a screen reader: the visible words stay in the name (WCAG 2.5.3). */}
                  <Button
                    tone="quiet"
                    onClick={() => {
                      onChange({ text: choice.code, title: choice.title });
                      setOpen(false);
                    }}
                  >
                    <span className="visually-hidden">{t(`${words}.pick`)} </span>
                    <span className="lookup-code">{choice.code}</span>{' '}
                    <span className="lookup-title">{choice.title ?? t(`${words}.noTitle`)}</span>
                    {choice.recent && (
                      <>
                        {' '}
                        <span className="lookup-tag">{t(`${words}.recent`)}</span>
                      </>
                    )}
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
