// A prescription as the nurse and the pharmacy read it: each medicine in words (one capsule three
// times a day for five days), SHA's number, its status and the prescriber's review as SHA answered,
// and how far it has been dispensed. Shared by the visit and the pharmacy window.
import { useTranslation } from 'react-i18next';
import type { CommandOutput } from '../../bridge/types';
import { useFormat } from '../../i18n/format';
import { Notice } from '../../ui/Notice';

export type Prescription = CommandOutput<'prescription.write'>;

/**
 * The words the station puts a prescription's status and review into: the sandbox's (ours: no
 * source lists SHA's vocabulary, docs/exchange-wire.md); any other word is shown as SHA gave it.
 */
const knownStatuses = ['ACTIVE', 'COMPLETED', 'CANCELLED', 'EXPIRED'] as const;
const knownReviews = ['NOT_REQUIRED', 'PENDING', 'APPROVED', 'REJECTED'] as const;

/** SHA's status or review word in the nurse's words where the station knows it, else SHA's own. */
export function useShaWords(): (kind: 'status' | 'review', word: string) => string {
  const { t } = useTranslation();
  return (kind, word) => {
    const known = (kind === 'status' ? knownStatuses : knownReviews) as readonly string[];
    return known.includes(word) ? t(`rxReadback.${kind}.${word}`) : t('rxReadback.sayOther', { word });
  };
}

export function PrescriptionCard({ rx, children }: { readonly rx: Prescription; readonly children?: React.ReactNode }) {
  const { t } = useTranslation();
  const format = useFormat();
  const shaWords = useShaWords();
  /** SHA's word in the nurse's words, and when SHA said it. */
  const inWords = (kind: 'status' | 'review', word: string | null) => {
    if (word === null) return t('common.notYet');
    const said = shaWords(kind, word);
    return rx.statusAt === null ? said : `${said} (${t('rxReadback.asOf', { time: format.dateTime(rx.statusAt) })})`;
  };
  return (
    <article className="prescription" aria-label={t('prescriptions.cardName', { code: rx.exchangeCode ?? t('prescriptions.noCode') })}>
      <p className="notice-title">
        {rx.exchangeCode ?? t('prescriptions.noCode')} · {format.dateTime(rx.writtenAt)}
      </p>
      {rx.state === 'unconfirmed' && <Notice tone="warn">{t('prescriptions.unconfirmed')}</Notice>}
      {rx.reviewStatus === 'REJECTED' && <Notice tone="bad">{t('rxReadback.review.REJECTED')}</Notice>}
      <ul className="prescription-items">
        {rx.items.map((item, index) => (
          <li key={`${item.conceptCode}-${index}`}>
            <strong>{item.conceptName ?? item.conceptCode}</strong> <span className="muted">({item.conceptCode})</span>
            <br />
            {t('prescriptions.dosage', {
              dose: format.dose(item.doseQuantity, item.doseUnit),
              count: item.timesPerPeriod,
              period: t(`prescriptions.per.${item.period}`),
              length: t(`prescriptions.lengths.${item.durationUnit}`, { count: item.duration }),
            })}
            {item.refills > 0 && ` · ${t('prescriptions.refills', { count: item.refills })}`}
            {item.patientInstruction !== null && (
              <>
                <br />
                {item.patientInstruction}
              </>
            )}
          </li>
        ))}
      </ul>
      <dl className="facts">
        <div>
          <dt>{t('prescriptions.status')}</dt>
          <dd>{inWords('status', rx.status)}</dd>
        </div>
        <div>
          <dt>{t('prescriptions.review')}</dt>
          <dd>{inWords('review', rx.reviewStatus)}</dd>
        </div>
        <div>
          <dt>{t('prescriptions.fills')}</dt>
          <dd>
            {t('prescriptions.fillsDone', { done: rx.fillsCompleted, allowed: rx.fillsAllowed })}
            {rx.fillInProgress && ` · ${t('prescriptions.fillInProgress')}`}
          </dd>
        </div>
      </dl>
      <DispenseList dispenses={rx.dispenses} />
      {children}
    </article>
  );
}

/** What was dispensed, each with its products and whether it completed a fill (or is unconfirmed). */
export function DispenseList({ dispenses }: { readonly dispenses: Prescription['dispenses'] }) {
  const { t } = useTranslation();
  const format = useFormat();
  if (dispenses.length === 0) return null;
  return (
    <ul className="prescription-dispenses">
      {dispenses.map((d) => (
        <li key={d.dispenseRef}>
          {format.dateTime(d.at)}: {d.products.map((p) => `${p.productCode} × ${format.number(p.quantity)} @ ${format.kes(p.priceKes)}`).join(', ')} ·{' '}
          {d.state === 'unconfirmed' ? t('prescriptions.dispenseUnconfirmed') : d.completesFill ? t('prescriptions.fillCompleted') : t('prescriptions.partOfFill')}
        </li>
      ))}
    </ul>
  );
}
