// Messages in the screen: what happened and what the nurse can do about it. Errors are announced
// (role alert); each carries the way out its code allows.
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReactNode } from 'react';
import type { StationError } from '../bridge/types';
import { useFormat } from '../i18n/format';
import { Button } from './Button';

type Tone = 'info' | 'ok' | 'warn' | 'bad' | 'training';

export function Notice({
  tone,
  title,
  children,
  alert = false,
}: {
  readonly tone: Tone;
  readonly title?: ReactNode;
  readonly children?: ReactNode;
  /** Announced, and scrolled into view when it appears: the nurse must see what went wrong. */
  readonly alert?: boolean;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (alert) box.current?.scrollIntoView({ block: 'nearest' });
  }, [alert]);
  return (
    <div ref={box} className={`notice notice-${tone}`} role={alert ? 'alert' : undefined}>
      {title ? <p className="notice-title">{title}</p> : null}
      {children}
    </div>
  );
}

/** The station's error, in the nurse's words, with "Try again" when the code says it may work. */
export function ErrorNotice({
  error,
  onRetry,
  retryBusy = false,
  children,
}: {
  readonly error: StationError;
  readonly onRetry?: () => void;
  readonly retryBusy?: boolean;
  readonly children?: ReactNode;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const details = error.details;
  return (
    <Notice tone={error.code === 'OTP_RESEND_TOO_SOON' ? 'warn' : 'bad'} title={t(`errors.${error.code}.title`)} alert>
      <p>{t(`errors.${error.code}.action`)}</p>
      {details?.attemptsLeft !== undefined && <p>{t('errors.attemptsLeft', { count: details.attemptsLeft })}</p>}
      {details?.retryAt !== undefined && <p>{t('errors.retryAt', { time: format.clock(details.retryAt) })}</p>}
      {details?.windowEndsAt !== undefined && <p>{t('errors.windowEndsAt', { time: format.clock(details.windowEndsAt) })}</p>}
      {details?.reason !== undefined && (
        <p>
          <strong>{t('errors.exchangeReason')}</strong> {details.reason}
        </p>
      )}
      {details?.possibleSolution !== undefined && (
        <p>
          <strong>{t('errors.exchangeSolution')}</strong> {details.possibleSolution}
        </p>
      )}
      {details?.field !== undefined && error.code === 'VALIDATION' && <p>{t('errors.field', { field: details.field })}</p>}
      {(details?.traceId !== undefined || details?.exchangeCode !== undefined) && (
        <p className="small">
          {t('errors.forSupport')} {[details.exchangeCode, details.traceId].filter(Boolean).join(' · ')}
        </p>
      )}
      {(onRetry !== undefined && error.retryable) || children ? (
        <div className="actions">
          {onRetry !== undefined && error.retryable && (
            <Button tone="primary" onClick={onRetry} busy={retryBusy}>
              {t('common.tryAgain')}
            </Button>
          )}
          {children}
        </div>
      ) : null}
    </Notice>
  );
}

export function Badge({ tone, children }: { readonly tone: 'ok' | 'warn' | 'bad' | 'info' | 'neutral'; readonly children: ReactNode }) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}
