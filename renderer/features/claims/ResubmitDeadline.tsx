// The days SHA gives to send back a claim returned for documents, as the station counts them: the
// deadline as a date and time, how long is left, and that SHA's own clock may have started before
// the station saw the return (the wire does not say when SHA returned it).
import { useTranslation } from 'react-i18next';
import type { ClaimSummary } from '../../../electron/contract';
import { useFormat } from '../../i18n/format';
import { Badge, Notice } from '../../ui/Notice';
import { useNow } from '../../ui/useNow';

type Deadline = NonNullable<ClaimSummary['resubmitBy']>;

const DAY_MS = 24 * 60 * 60 * 1000;

/** One line for the claims list: the deadline, marked when 4 days or fewer are left. */
export function DeadlineLine({ deadline }: { readonly deadline: Deadline }) {
  const { t } = useTranslation();
  const format = useFormat();
  const now = useNow(60_000);
  const past = Date.parse(deadline.deadline) <= now;
  return (
    <p className={deadline.closeToDeadline ? undefined : 'muted'}>
      {t(past ? 'claimDeadline.endedAt' : 'claimDeadline.sendBackBy', { time: format.dateTime(deadline.deadline) })}
      {deadline.closeToDeadline && (
        <>
          {' '}
          <Badge tone="bad">{t(past ? 'claimDeadline.past' : 'claimDeadline.close')}</Badge>
        </>
      )}
    </p>
  );
}

/** The claim's own notice: the deadline, the time left, and where the count starts. */
export function DeadlineNotice({ deadline }: { readonly deadline: Deadline }) {
  const { t } = useTranslation();
  const format = useFormat();
  const now = useNow(60_000);
  const left = Date.parse(deadline.deadline) - now;
  return (
    <Notice tone={deadline.closeToDeadline ? 'bad' : 'warn'} title={t(left <= 0 ? 'claimDeadline.endedAt' : 'claimDeadline.sendBackBy', { time: format.dateTime(deadline.deadline) })}>
      <p>
        {left <= 0
          ? t('claimDeadline.pastTodo')
          : left >= DAY_MS
            ? t('claimDeadline.daysLeft', { count: Math.floor(left / DAY_MS) })
            : t('claimDeadline.hoursLeft', { left: format.timeLeft(left) })}
      </p>
      <p>{t('claimDeadline.counted', { seen: format.dateTime(deadline.returnSeenAt) })}</p>
    </Notice>
  );
}
