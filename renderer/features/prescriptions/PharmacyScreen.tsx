// The pharmacy window: the patient looked up (the look-up every consent starts with), their visits
// open at SHA for the facility (opened at any station: the patient's consent here reaches one),
// their prescriptions on the visits this station holds, and dispensing against one — the actual
// products with price and quantity, the dispenser named by an identity document, part of a fill or
// the rest of it. The dispense is made under the consent of the visit the prescription was written
// on. Each visit's prescriptions are read back from SHA on opening and on demand: a review turned
// down shows before anything is given.
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { StationError } from '../../bridge/types';
import { call } from '../../state/bridge';
import { go } from '../../state/navigation';
import { Button } from '../../ui/Button';
import { Notice } from '../../ui/Notice';
import { Screen } from '../../ui/Screen';
import { usePatient } from '../lookup/store';
import { PatientBanner } from '../patient/PatientCard';
import { DispenseForm } from './DispenseForm';
import { OpenVisitsPanel } from './OpenVisitsPanel';
import { PrescriptionCard, type Prescription } from './PrescriptionList';
import { CheckWithSha } from './ReadBack';

export default function PharmacyScreen() {
  const { t } = useTranslation();
  const summary = usePatient((s) => s.summary);
  const [items, setItems] = useState<Prescription[] | null>(null);
  const [checkedAt, setCheckedAt] = useState<string | null>(null);
  const [checkError, setCheckError] = useState<StationError | null>(null);
  const [checking, setChecking] = useState(false);
  const patientRef = summary?.patientRef ?? null;

  /** SHA's read-back of every visit these prescriptions were written on, kept where it answers. */
  const checkWithSha = useCallback(async (list: readonly Prescription[]) => {
    const visits = [...new Set(list.map((rx) => rx.workflowId))];
    if (visits.length === 0) return;
    setChecking(true);
    const answers = await Promise.all(visits.map((workflowId) => call('prescription.check', { workflowId })));
    setChecking(false);
    const fresh = new Map(answers.flatMap((answer) => (answer.ok ? answer.value.items : [])).map((rx) => [rx.prescriptionRef, rx]));
    setItems((current) => (current ?? []).map((rx) => fresh.get(rx.prescriptionRef) ?? rx));
    const failed = answers.find((answer) => !answer.ok);
    setCheckError(failed !== undefined && !failed.ok ? failed.error : null);
    const answered = answers.flatMap((answer) => (answer.ok ? [answer.value.checkedAt] : []));
    if (answered.length > 0) setCheckedAt(answered.sort().at(-1)!);
  }, []);

  useEffect(() => {
    if (patientRef === null) return undefined;
    let current = true;
    void call('prescription.list', { patientRef }).then((answer) => {
      if (!current) return;
      const list = answer.ok ? answer.value.items : [];
      setItems(list);
      void checkWithSha(list);
    });
    return () => {
      current = false;
    };
  }, [patientRef, checkWithSha]);

  if (summary === null) {
    return (
      <Screen title={t('pharmacy.title')}>
        <Notice tone="info" title={t('pharmacy.lookUpFirst')}>
          <p>{t('pharmacy.lookUpWhy')}</p>
        </Notice>
        <Button onClick={() => go({ name: 'lookup' })}>{t('pharmacy.toLookUp')}</Button>
      </Screen>
    );
  }
  const replace = (rx: Prescription) => setItems((list) => (list ?? []).map((other) => (other.prescriptionRef === rx.prescriptionRef ? rx : other)));
  return (
    <Screen title={t('pharmacy.title')} banner={<PatientBanner patient={summary} kicker={t('identity.check')} />}>
      <OpenVisitsPanel patientRef={summary.patientRef} primary={items !== null && !items.some((rx) => rx.dispensable)} />
      <section className="panel" aria-labelledby="pharmacy-prescriptions">
        <h2 id="pharmacy-prescriptions">{t('prescriptions.title')}</h2>
        {items === null && <p className="muted">{t('common.loading')}</p>}
        {items !== null && items.length === 0 && <p className="muted">{t('pharmacy.none')}</p>}
        {items !== null && items.length > 0 && (
          <CheckWithSha busy={checking} checkedAt={checkedAt} error={checkError} onCheck={() => void checkWithSha(items)} />
        )}
        {items?.map((rx) => (
          <PrescriptionCard key={rx.prescriptionRef} rx={rx}>
            {rx.dispensable ? (
              <DispenseForm
                name={rx.prescriptionRef}
                label={t('pharmacy.dispenseFor', { code: rx.exchangeCode ?? rx.prescriptionRef })}
                title={rx.fillInProgress ? t('pharmacy.restTitle') : rx.fillsCompleted > 0 ? t('pharmacy.refillTitle') : t('pharmacy.dispenseTitle')}
                send={async (input) => {
                  const answer = await call('prescription.dispense', { prescriptionRef: rx.prescriptionRef, ...input });
                  if (!answer.ok) return answer.error;
                  replace(answer.value);
                  return null;
                }}
              />
            ) : (
              rx.state === 'written' && <p className="muted">{t('pharmacy.allGiven')}</p>
            )}
          </PrescriptionCard>
        ))}
      </section>
    </Screen>
  );
}

