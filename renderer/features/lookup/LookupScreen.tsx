// The first screen of every patient: ID type and number (a keyboard-wedge scanner types the number
// and presses Enter), what went wrong when nothing comes back, and this shift's recent look-ups.
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { idTypes } from './idTypes';
import { cancelLookUp, loadRecent, lookUp, setIdNumber, setIdType, usePatient } from './store';
import type { IdType } from './store';
import { go } from '../../state/navigation';
import { useFormat } from '../../i18n/format';
import { Button } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';
import { ErrorNotice, Notice } from '../../ui/Notice';
import { Screen } from '../../ui/Screen';
import { patience, Waiting } from '../../ui/Waiting';

export function LookupScreen() {
  const { t } = useTranslation();
  const format = useFormat();
  const { idType, idNumber, busy, error, asked, recent } = usePatient();
  const numberField = useRef<HTMLInputElement>(null);

  useEffect(() => {
    numberField.current?.focus();
    void loadRecent();
  }, []);

  const notFound = error?.code === 'NOT_FOUND';
  const badInput = error?.code === 'VALIDATION';

  return (
    <Screen title={t('lookup.title')} focusHeading={false}>
      <form
        className="lookup-form"
        onSubmit={(event) => {
          event.preventDefault();
          void lookUp();
        }}
      >
        <SelectField
          label={t('lookup.idType')}
          value={idType}
          onChange={(event) => setIdType(event.target.value as IdType)}
          choices={idTypes.map((type) => ({ value: type, label: t(`idTypes.${type}`) }))}
        />
        <TextField
          ref={numberField}
          label={t('lookup.idNumber')}
          value={idNumber}
          onChange={(event) => setIdNumber(event.target.value)}
          autoComplete="off"
          spellCheck={false}
          hint={t('lookup.scannerHint')}
          error={badInput ? t('lookup.badNumber') : undefined}
          className="input-large"
        />
        <Button type="submit" tone="primary" busy={busy} disabled={idNumber.trim() === ''}>
          {t('lookup.lookUp')}
        </Button>
      </form>

      {busy && (
        <Waiting
          patienceMs={patience.lookUp}
          onRetry={() => {
            cancelLookUp();
            void lookUp();
          }}
          onCancel={cancelLookUp}
        >
          {t('lookup.searching')}
        </Waiting>
      )}
      {notFound && asked !== null && (
        <Notice tone="warn" title={t('lookup.notFound.title')} alert>
          <p>{t('lookup.notFound.body', { idType: t(`idTypes.${asked.idType}`), idNumber: asked.idNumber })}</p>
          <p>{t('lookup.notFound.next')}</p>
        </Notice>
      )}
      {error !== null && !notFound && !badInput && <ErrorNotice error={error} onRetry={() => void lookUp()} retryBusy={busy} />}

      <section className="panel recent" aria-labelledby="recent-title">
        <h2 id="recent-title">{t('lookup.recent.title')}</h2>
        {recent.length === 0 ? (
          <p className="muted">{t('lookup.recent.none')}</p>
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">{t('lookup.recent.name')}</th>
                <th scope="col">{t('lookup.recent.id')}</th>
                <th scope="col">{t('lookup.recent.cover')}</th>
                <th scope="col">{t('lookup.recent.time')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('lookup.recent.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {recent.map((patient) => (
                <tr key={patient.patientRef}>
                  <td className="masked">{patient.maskedName}</td>
                  <td>
                    {t(`idTypes.${patient.idType}`)} <span className="masked">{patient.maskedIdNumber}</span>
                  </td>
                  {/* The verdict's words with its mark, in one text: the verdict itself stays the only "Covered" alone on screen. */}
                  <td>{`${patient.covered ? '✓' : '✕'} ${patient.covered ? t('eligibility.covered') : t('eligibility.notCovered')}`}</td>
                  <td>{format.time(patient.lookedUpAt)}</td>
                  <td>
                    <Button
                      tone="quiet"
                      aria-label={t('lookup.recent.workFor', { name: patient.maskedName })}
                      onClick={() => go({ name: 'work', patientRef: patient.patientRef })}
                    >
                      {t('lookup.recent.work')}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </Screen>
  );
}
