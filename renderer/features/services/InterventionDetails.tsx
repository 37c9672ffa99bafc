// The chosen intervention: its scenario and what that means for the nurse (the station core's
// `handling`, put into words), and its utilization balance.
import { useTranslation } from 'react-i18next';
import type { Intervention } from '../../../electron/contract';
import { useFormat } from '../../i18n/format';
import { ErrorNotice } from '../../ui/Notice';
import { retryUtilization, useServices } from './store';

export function InterventionDetails({ intervention }: { readonly intervention: Intervention }) {
  const { t } = useTranslation();
  const format = useFormat();
  const utilization = useServices((s) => s.utilization[intervention.code]);
  const handling = intervention.handling;
  const meaning = [
    t(`services.handling.startsWith.${handling.startsWith}`),
    t(`services.handling.serviceType.${handling.serviceType}`),
    handling.needsPreauth ? t('services.handling.needsPreauth') : t('services.handling.noPreauth'),
    ...(handling.needsDoctor ? [t('services.handling.needsDoctor')] : []),
    t(`services.handling.billing.${handling.billing}`),
    t(`services.handling.closeBy.${handling.closeBy}`),
  ];
  return (
    <section className="panel details" aria-labelledby="details-title">
      {/* The code is in the list beside it; repeating it here would make it ambiguous to find by text. */}
      <h3 id="details-title">{intervention.name}</h3>
      <p>
        <span className={`scenario scenario-${intervention.scenario}`}>{t(`scenario.${intervention.scenario}.name`)}</span>{' '}
        {t(`scenario.${intervention.scenario}.means`)}
      </p>
      <ul className="meaning">
        {meaning.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      {intervention.requiredDocuments.length > 0 && (
        <p className="small">
          {t('services.documents')} {intervention.requiredDocuments.join(', ')}
        </p>
      )}
      <h4>{t('services.balance.title')}</h4>
      {utilization === undefined || utilization === 'loading' ? (
        <p className="progress">{t('services.balance.loading')}</p>
      ) : 'retryable' in utilization ? (
        <ErrorNotice error={utilization} onRetry={() => retryUtilization(intervention.code)} />
      ) : (
        <div className="balance">
          <p className={utilization.available ? 'ok-text' : 'bad-text'}>
            {utilization.available ? t('services.balance.available') : t('services.balance.unavailable')}
            {utilization.nextAvailableAt !== null && !utilization.available && <> · {t('services.balance.next', { when: format.dateOrText(utilization.nextAvailableAt) })}</>}
          </p>
          <dl className="facts">
            {utilization.individual !== null && (
              <div>
                <dt>{t('services.balance.individual')}</dt>
                <dd>
                  {t('services.balance.remaining', { remaining: format.kes(utilization.individual.remainingKes), limit: format.kes(utilization.individual.limitKes) })}
                </dd>
              </div>
            )}
            {utilization.household !== null && (
              <div>
                <dt>{t('services.balance.household')}</dt>
                <dd>
                  {t('services.balance.remaining', { remaining: format.kes(utilization.household.remainingKes), limit: format.kes(utilization.household.limitKes) })}
                </dd>
              </div>
            )}
            {utilization.utilizationDays !== null && (
              <div>
                <dt>{t('services.balance.days')}</dt>
                <dd>{format.number(utilization.utilizationDays)}</dd>
              </div>
            )}
          </dl>
        </div>
      )}
    </section>
  );
}
