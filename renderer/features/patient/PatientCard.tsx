// The patient in hand, in full: the name, sex, age and date of birth, the last digits of the ID and
// the scheme — as the exchange's eligibility answer gives them, so the nurse can check them against
// the person in front of her. The banner over every patient screen (the look-up's answer, and every
// screen of an open workflow: patient.inHand) stays in view while the screen scrolls. Lists and
// history stay masked.
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { PatientIdentity, PatientInHand, PatientSummary } from '../../../electron/contract';
import { useFormat } from '../../i18n/format';
import { usePatient } from '../lookup/store';
import { inHandKey, inHandOfSummary, loadInHand, useInHand } from './in-hand';

/** "Female · 40 years · born 14 Mar 1985": what the nurse asks the patient to confirm. */
export function useIdentityLine(identity: PatientIdentity, ageYears: number | null): string {
  const { t } = useTranslation();
  const format = useFormat();
  const { sex, dateOfBirth } = identity;
  return [
    sex === null ? t('identity.sexNotGiven') : t(`identity.sex.${sex}`),
    ...(ageYears === null ? [] : [t('eligibility.age', { count: ageYears })]),
    dateOfBirth === null ? t('identity.bornNotGiven') : t('identity.born', { date: format.date(dateOfBirth) }),
  ].join(' · ');
}

/** One line naming the patient in hand in full: name, sex, age, date of birth, the ID's last digits. */
export function PatientInFull({ summary }: { readonly summary: PatientSummary }) {
  const { t } = useTranslation();
  const line = useIdentityLine(summary.identity, summary.ageYears);
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

interface Service {
  readonly code: string;
  readonly name: string;
  readonly scenario: string;
}

/**
 * The banner over a patient screen: who (in full where the station holds it: the look-up's answer,
 * else what the open workflow keeps) and, on a workflow's screens, for what service — the name
 * first, its code after. An emergency not identified yet says so.
 */
export function PatientBanner({
  patient,
  workflowId,
  service,
  serviceType,
  kicker,
}: {
  readonly patient: { readonly patientRef: string; readonly maskedName: string } | null;
  readonly workflowId?: string;
  readonly service?: Service;
  readonly serviceType?: 'OUTPATIENT' | 'INPATIENT' | null;
  /** A word above the name, such as "Check with the patient" before consent. */
  readonly kicker?: string;
}) {
  const { t } = useTranslation();
  const ref = patient?.patientRef ?? null;
  const lookedUp = usePatient((s) => (ref !== null && s.summary?.patientRef === ref ? s.summary : null));
  const kept = useInHand((s) => (ref === null || workflowId === undefined ? undefined : s.known[inHandKey(workflowId, ref)]));
  // Asked again whenever the store has no answer: a lock drops what it held while the screen may stay.
  const missing = kept === undefined;
  useEffect(() => {
    if (ref !== null && workflowId !== undefined && lookedUp === null && missing) loadInHand(workflowId, ref);
  }, [ref, workflowId, lookedUp, missing]);
  const inHand = lookedUp !== null ? inHandOfSummary(lookedUp) : (kept ?? null);
  const nameId = `banner-name-${workflowId ?? 'patient'}`;
  return (
    <section className="patient-banner who-what" aria-labelledby={nameId}>
      <div className="patient-banner-who">
        {kicker !== undefined && <p className="patient-banner-kicker">{kicker}</p>}
        {patient === null ? (
          <p id={nameId} className="patient-name">
            {t('work.unidentified')}
          </p>
        ) : inHand === null ? (
          <p id={nameId} className="patient-name masked">
            {patient.maskedName}
          </p>
        ) : (
          <InFull id={nameId} inHand={inHand} schemeToChoose={lookedUp?.schemeChoiceNeeded === true} />
        )}
      </div>
      {service !== undefined && (
        <p className="who-what-service">
          <span className="service-name">{service.name}</span> <span className="option-code">{service.code}</span>{' '}
          <span className={`scenario scenario-${service.scenario}`}>{t(`scenario.${service.scenario}.name`)}</span>
          {serviceType !== undefined && serviceType !== null && <span className="muted"> · {t(`serviceType.${serviceType}`)}</span>}
        </p>
      )}
    </section>
  );
}

function InFull({ id, inHand, schemeToChoose }: { readonly id: string; readonly inHand: PatientInHand; readonly schemeToChoose: boolean }) {
  const { t } = useTranslation();
  const line = useIdentityLine(inHand.identity, inHand.ageYears);
  return (
    <p className="patient-banner-facts">
      <span id={id} className="patient-name">
        {inHand.identity.fullName ?? <span className="masked">{inHand.maskedName}</span>}
      </span>{' '}
      <span className="patient-banner-line">{line}</span>
      <span className="patient-banner-sep" aria-hidden="true">
        {' · '}
      </span>
      <span className="nowrap">
        {t(`idTypes.${inHand.idType}`)} <span>{t('identity.idEnding', { digits: inHand.identity.idNumberEnd })}</span>
      </span>
      {(inHand.scheme !== null || schemeToChoose) && (
        <>
          <span className="patient-banner-sep" aria-hidden="true">
            {' · '}
          </span>
          <span>{inHand.scheme ?? `${t('identity.scheme')}: ${t('identity.schemeToChoose')}`}</span>
        </>
      )}
    </p>
  );
}
