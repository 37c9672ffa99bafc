// The station's own file field: the browser's control says "Choose File / No file chosen" in US
// English whatever the screen's language, so it is hidden (still the element screen readers and the
// keyboard reach, and what opens the computer's own file dialog) behind a button and a line in the
// nurse's words: which file is chosen, and its size as Explorer shows it.
import { useId } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface FileFieldProps {
  readonly label: string;
  readonly accept: string;
  /** What is chosen, in words ("smear.pdf · 12 KB"), or null for nothing yet. */
  readonly chosen: ReactNode;
  readonly error?: ReactNode;
  readonly onChoose: (file: File | undefined) => void;
  /** A new key empties the browser's control, so the same file can be chosen again. */
  readonly resetKey?: number;
}

export function FileField({ label, accept, chosen, error, onChoose, resetKey }: FileFieldProps) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="field file-field">
      <span id={`${id}-label`} className="field-label">
        {label}
      </span>
      <div className="file-field-control">
        <input
          key={resetKey}
          id={id}
          type="file"
          accept={accept}
          aria-labelledby={`${id}-label`}
          aria-describedby={[`${id}-chosen`, error ? `${id}-error` : ''].filter(Boolean).join(' ')}
          aria-invalid={error ? true : undefined}
          onChange={(event) => onChoose(event.target.files?.[0])}
        />
        <label htmlFor={id} className="btn">
          {t('files.choose')}
        </label>
        <span id={`${id}-chosen`} className="file-chosen">
          {chosen ?? t('files.none')}
        </span>
      </div>
      {error ? (
        <span id={`${id}-error`} className="field-error" role="alert">
          {error}
        </span>
      ) : null}
    </div>
  );
}
