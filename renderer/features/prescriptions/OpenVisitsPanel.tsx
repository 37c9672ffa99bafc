// The pharmacy window's look at SHA: the patient's visits open at the facility, wherever they were
// opened (a ward station keeps its own data, so the pharmacy asks the exchange). A visit not yet
// held here offers the patient's consent at the window, which reaches that visit; with none open
// the pharmacist is told plainly, and nothing is opened.
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CommandOutput, StationError } from '../../bridge/types';
import { useFormat } from '../../i18n/format';
import { call } from '../../state/bridge';
import { go } from '../../state/navigation';
import { Button } from '../../ui/Button';
import { ErrorNotice, Notice } from '../../ui/Notice';

type OpenVisits = CommandOutput<'pharmacy.openVisits'>;
type OpenVisit = OpenVisits['visits'][number];

export function OpenVisitsPanel({ patientRef, primary }: { readonly patientRef: string; readonly primary: boolean }) {
  const { t } = useTranslation();
  const format = useFormat();
  const [answer, setAnswer] = useState<OpenVisits | null>(null);
  const [error, setError] = useState<StationError | null>(null);
  const [checking, setChecking] = useState(true);

  const check = useCallback(async () => {
    setChecking(true);
    setError(null);
    const result = await call('pharmacy.openVisits', { patientRef });
    setChecking(false);
    if (result.ok) setAnswer(result.value);
    else setError(result.error);
  }, [patientRef]);

  useEffect(() => {
    void check();
  }, [check]);

  return (
    <section className="panel" aria-labelledby="pharmacy-open-visits" aria-busy={checking}>
      <h2 id="pharmacy-open-visits">{t('pharmacyFind.openTitle')}</h2>
      {checking && answer === null && <p className="muted">{t('pharmacyFind.checking')}</p>}
      {error !== null && <ErrorNotice error={error} />}
      {answer !== null && answer.visits.length === 0 && (
        <Notice tone="info" title={t('pharmacyFind.noneOpen')}>
          <p>{t('pharmacyFind.noneOpenWhy')}</p>
        </Notice>
      )}
      {answer?.visits.map((visit) => (
        <OpenVisitRow key={visit.interventions.map((i) => i.code).join(' ')} patientRef={patientRef} visit={visit} primary={primary} />
      ))}
      {answer !== null && <p className="muted">{t('pharmacyFind.checkedAt', { time: format.time(answer.checkedAt) })}</p>}
      <div className="actions">
        <Button onClick={() => void check()} busy={checking}>
          {t('pharmacyFind.checkAgain')}
        </Button>
      </div>
    </section>
  );
}

function OpenVisitRow({ patientRef, visit, primary }: { readonly patientRef: string; readonly visit: OpenVisit; readonly primary: boolean }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<StationError | null>(null);
  const names = visit.interventions.map((i) => i.name ?? i.code).join(', ');
  const first = visit.interventions[0]!;

  const takeConsent = async () => {
    setBusy(true);
    setError(null);
    const result = await call('consent.begin', { patientRef, interventionCode: first.code, forOpenVisit: true });
    setBusy(false);
    if (result.ok) go({ name: 'workflow', workflowId: result.value.workflowId });
    else setError(result.error);
  };

  return (
    <article className="open-visit" aria-label={t('pharmacyFind.visitFor', { names })}>
      <h3>{t('pharmacyFind.visitFor', { names })}</h3>
      {visit.workflowId !== null ? (
        <p>{t('pharmacyFind.held')}</p>
      ) : (
        <>
          <p>{t('pharmacyFind.consentWhy')}</p>
          {error !== null && <ErrorNotice error={error} />}
          <Button tone={primary ? 'primary' : 'secondary'} busy={busy} onClick={() => void takeConsent()}>
            {t('pharmacyFind.takeConsent')}
          </Button>
        </>
      )}
    </article>
  );
}
