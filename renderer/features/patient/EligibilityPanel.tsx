// Covered or not at a glance; when not, the exchange's reason and possible solution (in the nurse's
// words where the station knows them); how consent can be taken; the cover dates and the schemes,
// with the choice of scheme for a member under two.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PatientSummary } from '../../../electron/contract';
import { ExchangeText, useExchangeWords } from '../../i18n/exchange-words';
import { useFormat } from '../../i18n/format';
import { Button } from '../../ui/Button';
import { RadioGroup } from '../../ui/Field';
import { Badge, ErrorNotice } from '../../ui/Notice';
import { chooseScheme, usePatient } from '../lookup/store';

export function EligibilityPanel({ summary }: { readonly summary: PatientSummary }) {
  const { t } = useTranslation();
  const format = useFormat();
  const words = useExchangeWords();
  const { choosingScheme, schemeError } = usePatient();
  const covered = summary.covered;

  return (
    <section className={`panel eligibility ${covered ? 'is-covered' : 'is-not-covered'}`} aria-labelledby="eligibility-title">
      <h2 id="eligibility-title">{t('eligibility.title')}</h2>
      <p className={`verdict ${covered ? 'verdict-ok' : 'verdict-bad'}`}>
        <span aria-hidden="true" className="verdict-mark">
          {covered ? '✓' : '✕'}
        </span>
        <span>{covered ? t('eligibility.covered') : t('eligibility.notCovered')}</span>
      </p>
      {summary.schemeChoiceNeeded && <SchemeChoice summary={summary} busy={choosingScheme} />}
      {schemeError !== null && <ErrorNotice error={schemeError} />}

      {!covered && (
        <div className="why-not">
          {summary.reason !== null && (
            <p>
              <strong>{t('eligibility.reason')}</strong> <ExchangeText value={summary.reason} />
            </p>
          )}
          {summary.possibleSolution !== null && (
            <p>
              <strong>{t('eligibility.solution')}</strong> <ExchangeText value={summary.possibleSolution} />
            </p>
          )}
          {summary.message !== null && summary.reason === null && (
            <p>
              <ExchangeText value={summary.message} />
            </p>
          )}
        </div>
      )}

      {/* How consent can be taken depends on the phones, which come just after eligibility. */}
      {covered && !summary.detailsLoading && (
        <div className="badges">
          {summary.badges.smsCodeAllowed && <Badge tone="info">{t('eligibility.badge.smsAllowed')}</Badge>}
          {summary.badges.fingerprintRequired && <Badge tone="warn">{t('eligibility.badge.fingerprintRequired')}</Badge>}
          {!summary.hasPhone && <Badge tone="neutral">{t('eligibility.badge.noPhone')}</Badge>}
        </div>
      )}

      <dl className="facts">
        <div>
          <dt>{t('eligibility.memberType')}</dt>
          <dd>{words.memberType(summary.memberType)}</dd>
        </div>
        <div>
          <dt>{t('eligibility.coverage')}</dt>
          <dd>
            {summary.coverageStart !== null && summary.coverageEnd !== null
              ? t('eligibility.fromTo', { from: format.date(summary.coverageStart), to: format.date(summary.coverageEnd) })
              : t('common.notGiven')}
          </dd>
        </div>
      </dl>

      {summary.schemes.length > 1 && (
        <>
          <h3>{t('eligibility.schemes')}</h3>
          <ul className="schemes">
            {summary.schemes.map((scheme) => (
              <li key={scheme.schemeId} className={scheme.schemeId === summary.chosenSchemeId ? 'scheme-chosen' : undefined}>
                <span className="scheme-name">{scheme.name}</span>
                <Badge tone={scheme.covered ? 'ok' : 'bad'}>{scheme.covered ? t('eligibility.scheme.active') : t('eligibility.scheme.inactive')}</Badge>
                {scheme.schemeId === summary.chosenSchemeId && <Badge tone="info">{t('eligibility.scheme.inUse')}</Badge>}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

/** Nothing chosen for the nurse: the member says which scheme this visit is under. */
function SchemeChoice({ summary, busy }: { readonly summary: PatientSummary; readonly busy: boolean }) {
  const { t } = useTranslation();
  const choices = summary.schemes.filter((scheme) => scheme.covered);
  const [chosen, setChosen] = useState<string | null>(null);
  return (
    <div className="notice notice-info">
      <p className="notice-title">{t('eligibility.choose.title')}</p>
      <RadioGroup
        legend={t('eligibility.choose.legend')}
        name="scheme"
        value={chosen}
        onChange={setChosen}
        choices={choices.map((scheme) => ({ value: scheme.schemeId, label: scheme.name }))}
      />
      <Button tone="primary" busy={busy} disabled={chosen === null} onClick={() => chosen !== null && void chooseScheme(chosen)}>
        {t('eligibility.choose.use')}
      </Button>
    </div>
  );
}
