import type { ComponentProps, ReactNode } from 'react';

type Tone = 'primary' | 'secondary' | 'danger' | 'quiet';

interface ButtonProps extends Omit<ComponentProps<'button'>, 'className'> {
  readonly tone?: Tone;
  /** Shows progress and blocks a second press while the station works on the first. */
  readonly busy?: boolean;
  readonly wide?: boolean;
  readonly children: ReactNode;
}

export function Button({ tone = 'secondary', busy = false, wide = false, disabled, children, type = 'button', ...rest }: ButtonProps) {
  return (
    <button
      {...rest}
      type={type}
      className={`btn btn-${tone}${wide ? ' btn-wide' : ''}`}
      disabled={disabled === true || busy}
      aria-busy={busy || undefined}
    >
      {busy && <span className="spinner" aria-hidden="true" />}
      {children}
    </button>
  );
}
