// Form fields with their label, hint and error tied to the control, large enough for a ward.
import { useId } from 'react';
import type { ComponentProps, InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';

interface Described {
  readonly label: ReactNode;
  readonly hint?: ReactNode;
  readonly error?: ReactNode;
}

function describedBy(id: string, hint: unknown, error: unknown): string | undefined {
  const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return ids === '' ? undefined : ids;
}

function Help({ id, hint, error }: { id: string; hint: ReactNode; error: ReactNode }) {
  return (
    <>
      {hint ? (
        <span id={`${id}-hint`} className="field-hint">
          {hint}
        </span>
      ) : null}
      {error ? (
        <span id={`${id}-error`} className="field-error">
          {error}
        </span>
      ) : null}
    </>
  );
}

export function TextField({ label, hint, error, id: given, ...input }: Described & ComponentProps<'input'>) {
  const own = useId();
  const id = given ?? own;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} {...input} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, hint, error)} />
      <Help id={id} hint={hint} error={error} />
    </div>
  );
}

export function TextArea({ label, hint, error, ...area }: Described & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} rows={3} {...area} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, hint, error)} />
      <Help id={id} hint={hint} error={error} />
    </div>
  );
}

export interface Choice {
  readonly value: string;
  readonly label: string;
}

export function SelectField({
  label,
  hint,
  error,
  choices,
  ...select
}: Described & { readonly choices: readonly Choice[] } & SelectHTMLAttributes<HTMLSelectElement>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} {...select} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, hint, error)}>
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
      <Help id={id} hint={hint} error={error} />
    </div>
  );
}

export function Checkbox({ label, hint, ...input }: { readonly label: ReactNode; readonly hint?: ReactNode } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className="check">
      <input id={id} type="checkbox" {...input} aria-describedby={hint ? `${id}-hint` : undefined} />
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <span id={`${id}-hint`} className="field-hint">
          {hint}
        </span>
      ) : null}
    </div>
  );
}

export function RadioGroup({
  legend,
  name,
  choices,
  value,
  onChange,
}: {
  readonly legend: ReactNode;
  readonly name: string;
  readonly choices: readonly (Choice & { readonly hint?: ReactNode })[];
  readonly value: string | null;
  readonly onChange: (value: string) => void;
}) {
  return (
    <fieldset className="radios">
      <legend>{legend}</legend>
      {choices.map((choice) => (
        <label key={choice.value} className="radio">
          <input type="radio" name={name} value={choice.value} checked={value === choice.value} onChange={() => onChange(choice.value)} />
          <span>
            {choice.label}
            {choice.hint ? <span className="field-hint">{choice.hint}</span> : null}
          </span>
        </label>
      ))}
    </fieldset>
  );
}
