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
import { DispenseForm } from './DispenseForm';
import { DispenseList, useShaWords } from './PrescriptionList';

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

  const dispensed = (workflowId: string, dispenses: OpenVisit['dispenses']) =>
    setAnswer((current) => current && { ...current, visits: current.visits.map((v) => (v.workflowId === workflowId ? { ...v, dispenses } : v)) });

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
        <OpenVisitRow key={visit.interventions.map((i) => i.code).join(' ')} patientRef={patientRef} visit={visit} primary={primary} onDispensed={dispensed} />
      ))}
      {answer !== null && <p className="muted">{t('pharmacyFind.checkedAt', { time: format.clock(answer.checkedAt) })}</p>}
      <div className="actions">
        <Button onClick={() => void check()} busy={checking}>
          {t('pharmacyFind.checkAgain')}
        </Button>
      </div>
    </section>
  );
}

interface RowProps {
  readonly patientRef: string;
  readonly visit: OpenVisit;
  readonly primary: boolean;
  readonly onDispensed: (workflowId: string, dispenses: OpenVisit['dispenses']) => void;
}

function OpenVisitRow({ patientRef, visit, primary, onDispensed }: RowProps) {
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
      {visit.openedHere ? (
        <p>{t('pharmacyFind.openedHere')}</p>
      ) : visit.workflowId !== null ? (
        <HeldVisit workflowId={visit.workflowId} visit={visit} onDispensed={onDispensed} />
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

/** A visit held here: SHA's prescription for it, what was dispensed at this window, and the dispense form. */
function HeldVisit({ workflowId, visit, onDispensed }: { readonly workflowId: string; readonly visit: OpenVisit; readonly onDispensed: RowProps['onDispensed'] }) {
  const { t } = useTranslation();
  const shaWords = useShaWords();
  const rx = visit.prescription;
  return (
    <>
      <p>{t('pharmacyFind.held')}</p>
      {rx === null ? (
        <Notice tone="info">
          <p>{t('pharmacyFind.noPrescription')}</p>
        </Notice>
      ) : (
        <>
          <h4>{t('pharmacyFind.shaPrescription', { code: rx.exchangeCode ?? '' })}</h4>
          {rx.reviewStatus === 'REJECTED' && <Notice tone="bad">{t('rxReadback.review.REJECTED')}</Notice>}
          <p>
            {t('pharmacyFind.shaStatus', {
              status: rx.status === null ? t('pharmacyFind.notSaid') : shaWords('status', rx.status),
              review: rx.reviewStatus === null ? t('pharmacyFind.notSaid') : shaWords('review', rx.reviewStatus),
            })}
          </p>
          {rx.medicines.length > 0 && <p>{t('pharmacyFind.medicines', { list: rx.medicines.join(', ') })}</p>}
          <p className="muted">{t('pharmacyFind.oneAnswer')}</p>
          <p className="muted">{t('pharmacyFind.noFillCount')}</p>
          <DispenseList dispenses={visit.dispenses} />
          <DispenseForm
            name={workflowId}
            label={t('pharmacyFind.dispenseUnder')}
            title={t('pharmacyFind.dispenseUnder')}
            send={async (input) => {
              const answer = await call('pharmacy.dispense', { workflowId, ...input });
              if (!answer.ok) return answer.error;
              onDispensed(workflowId, answer.value.dispenses);
              return null;
            }}
          />
        </>
      )}
    </>
  );
}
