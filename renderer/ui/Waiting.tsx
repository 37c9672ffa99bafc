// A wait on SHA, in words: what is being asked of SHA, shown at once; and once the wait has gone on
// longer than suits the call (`patienceMs`), that SHA is slow and the way out — try again, or stop
// waiting. The way out needs one timer, set when the wait starts and gone with it: nothing on the
// nurse's path waits for it.
import { useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './Button';

export function Waiting({
  children,
  patienceMs,
  onRetry,
  onCancel,
  cancelLabel,
}: {
  /** What is being asked of SHA, in the nurse's words. */
  readonly children: ReactNode;
  readonly patienceMs: number;
  readonly onRetry?: () => void;
  readonly onCancel?: () => void;
  readonly cancelLabel?: string;
}) {
  const { t } = useTranslation();
  const [late, setLate] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setLate(true), patienceMs);
    return () => clearTimeout(timer);
  }, [patienceMs]);
  return (
    <div className="waiting" aria-live="polite">
      <p className="progress">{children}</p>
      {late && (
        <div className="waiting-late">
          <p>{t('waiting.slow')}</p>
          {(onRetry !== undefined || onCancel !== undefined) && (
            <div className="actions">
              {onRetry !== undefined && (
                <Button tone="primary" onClick={onRetry}>
                  {t('common.tryAgain')}
                </Button>
              )}
              {onCancel !== undefined && <Button onClick={onCancel}>{cancelLabel ?? t('waiting.stop')}</Button>}
            </div>
          )}
        </div>
      )}
    </div>
  );
}

/** How long each kind of call may take on a ward before the way out is offered (the ward profile's slow end, and then some). */
export const patience = {
  /** Eligibility and the registry: 0.5–1.5 s on a ward. */
  lookUp: 6_000,
  /** Contacts, sub-benefits and one sub-benefit's services: up to 4 s. */
  details: 10_000,
  /** A write: the code sent, the visit opened, 0.5–2 s; the station's own deadline is 20 s. */
  write: 10_000,
} as const;
