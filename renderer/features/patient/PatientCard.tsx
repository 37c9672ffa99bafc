// The patient in hand, in full and large enough to read out: the name, sex, age and date of birth,
// the last digits of the ID and the scheme — as the exchange's eligibility answer gives them, so the
// nurse can check them against the person in front of her before consent. Lists and history stay
// masked; this is only ever the patient just looked up.
import { useTranslation } from 'react-i18next';
import type { PatientSummary } from '../../../electron/contract';
import { useFormat } from '../../i18n/format';

/** "Female · 40 years · born 14 Mar 1985": what the nurse asks the patient to confirm. */
export function useIdentityLine(summary: PatientSummary): string {
  const { t } = useTranslation();
  const format = useFormat();
  const { sex, dateOfBirth } = summary.identity;
  return [
    sex === null ? t('identity.sexNotGiven') : t(`identity.sex.${sex}`),
    ...(summary.ageYears === null ? [] : [t('eligibility.age', { count: summary.ageYears })]),
    dateOfBirth === null ? t('identity.bornNotGiven') : t('identity.born', { date: format.date(dateOfBirth) }),
  ].join(' · ');
}

export function PatientCard({ summary }: { readonly summary: PatientSummary }) {
  const { t } = useTranslation();
  const line = useIdentityLine(summary);
  const scheme = summary.schemes.find((s) => s.schemeId === summary.chosenSchemeId) ?? null;
  return (
    <section className="panel patient-card" aria-labelledby="patient-card-title">
      <p className="patient-card-kicker">{t('identity.check')}</p>
      <h2 id="patient-card-title" className="patient-full-name">
        {summary.identity.fullName ?? <span className="masked">{summary.maskedName}</span>}
      </h2>
      <p className="patient-card-line">{line}</p>
      <dl className="facts patient-card-facts">
        <div>
          <dt>{t(`idTypes.${summary.idType}`)}</dt>
          <dd>{t('identity.idEnding', { digits: summary.identity.idNumberEnd })}</dd>
        </div>
        <div>
          <dt>{t('identity.scheme')}</dt>
          <dd>{scheme?.name ?? (summary.schemeChoiceNeeded ? t('identity.schemeToChoose') : t('common.notGiven'))}</dd>
        </div>
      </dl>
    </section>
  );
}

/** One line naming the patient in hand in full: name, sex, age, date of birth, the ID's last digits. */
export function PatientInFull({ summary }: { readonly summary: PatientSummary }) {
  const { t } = useTranslation();
  const line = useIdentityLine(summary);
  return (
    <p>
      <span className="patient-name">{summary.identity.fullName ?? <span className="masked">{summary.maskedName}</span>}</span>
      <span className="small">
        {' '}
        · {line} · {t(`idTypes.${summary.idType}`)} {t('identity.idEnding', { digits: summary.identity.idNumberEnd })}
      </span>
    </p>
  );
}
