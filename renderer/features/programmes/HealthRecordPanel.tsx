// The patient's shared health record, read-only, read with the visit's consent: observations and the
// facility's service requests (referrals) about the patient. The reader names herself by her
// practitioner number, as SHA requires. What a security label restricts never reaches this screen:
// the station leaves it out and says only how many entries were withheld.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CommandOutput, StationError } from '../../bridge/types';
import { useFormat } from '../../i18n/format';
import { call } from '../../state/bridge';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { ErrorNotice, Notice } from '../../ui/Notice';

type HealthRecord = CommandOutput<'shr.record'>;
/** As the contract's `practitionerId`, checked here so the field itself can say what is wrong. */
const practitionerNumber = /^[A-Za-z0-9/_-]{2,40}$/;

export function HealthRecordPanel({ workflowId, enabled }: { readonly workflowId: string; readonly enabled: boolean }) {
  const { t } = useTranslation();
  const format = useFormat();
  const [practitioner, setPractitioner] = useState('');
  const [tried, setTried] = useState(false);
  const [record, setRecord] = useState<HealthRecord | null>(null);
  const [error, setError] = useState<StationError | null>(null);
  const [busy, setBusy] = useState(false);
  const practitionerOk = practitionerNumber.test(practitioner.trim());

  const read = async () => {
    setTried(true);
    if (!practitionerOk) return;
    setBusy(true);
    const answer = await call('shr.record', { workflowId, practitionerId: practitioner.trim() });
    setBusy(false);
    if (answer.ok) {
      setRecord(answer.value);
      setError(null);
    } else setError(answer.error);
  };
  const when = (value: string | null) => (value === null ? '—' : format.dateTime(value));

  return (
    <section className="panel" aria-labelledby="record-title">
      <h2 id="record-title">{t('programmes.record.title')}</h2>
      <form
        className="stack"
        onSubmit={(event) => {
          event.preventDefault();
          void read();
        }}
      >
        <TextField
          label={t('programmes.record.practitioner')}
          hint={t('programmes.record.practitionerHint')}
          value={practitioner}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => setPractitioner(event.target.value)}
          error={tried && !practitionerOk ? t('programmes.record.practitionerNeeded') : undefined}
        />
        <div className="actions">
          <Button type="submit" disabled={!enabled} busy={busy}>
            {record === null ? t('programmes.record.read') : t('programmes.record.readAgain')}
          </Button>
        </div>
      </form>
      {error !== null && <ErrorNotice error={error} onRetry={() => void read()} />}
      {record !== null && (
        <>
          <p className="muted">{t('programmes.record.readAt', { time: format.dateTime(record.readAt) })}</p>
          {record.withheld > 0 && <Notice tone="info">{t('programmes.record.withheld', { number: record.withheld })}</Notice>}
          <table className="table record">
            <caption>{t('programmes.record.observations')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('programmes.record.what')}</th>
                <th scope="col">{t('programmes.record.value')}</th>
                <th scope="col">{t('programmes.record.when')}</th>
              </tr>
            </thead>
            <tbody>
              {record.observations.length === 0 && (
                <tr>
                  <td colSpan={3} className="muted">
                    {t('programmes.record.noObservations')}
                  </td>
                </tr>
              )}
              {record.observations.map((o) => (
                <tr key={o.id}>
                  <th scope="row">{o.name}</th>
                  <td>{o.value ?? '—'}</td>
                  <td className="nowrap">{when(o.effectiveAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {record.moreObservations && <p className="muted">{t('programmes.record.more')}</p>}
          <table className="table record">
            <caption>{t('programmes.record.requests')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('programmes.record.to')}</th>
                <th scope="col">{t('programmes.record.status')}</th>
                <th scope="col">{t('programmes.record.when')}</th>
              </tr>
            </thead>
            <tbody>
              {record.serviceRequests.length === 0 && (
                <tr>
                  <td colSpan={3} className="muted">
                    {t('programmes.record.noRequests')}
                  </td>
                </tr>
              )}
              {record.serviceRequests.map((r) => (
                <tr key={r.id}>
                  <th scope="row">{r.performer ?? '—'}</th>
                  <td>{r.status === null ? '—' : t(`programmes.record.statuses.${r.status}`, { defaultValue: r.status })}</td>
                  <td className="nowrap">{when(r.requestedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
