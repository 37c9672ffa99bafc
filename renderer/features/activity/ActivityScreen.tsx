// This station's audit trail: newest first, filtered by time, action, outcome or workflow; exported
// as JSON Lines; its hash chain checked on request.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CommandInput, CommandOutput, StationError } from '../../bridge/types';
import { useFormat } from '../../i18n/format';
import { call } from '../../state/bridge';
import { latestAnswer } from '../../state/latest-answer';
import { Button } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';
import { ErrorNotice, Notice } from '../../ui/Notice';
import { Screen } from '../../ui/Screen';

type Page = CommandOutput<'audit.read'>;
type Verified = CommandOutput<'audit.verify'>;
type Filters = CommandInput<'audit.export'>;
const outcomes = ['started', 'succeeded', 'failed'] as const;
const pageSize = 25;

export default function ActivityScreen() {
  const { t } = useTranslation();
  const format = useFormat();
  const [action, setAction] = useState('');
  const [outcome, setOutcome] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [workflowId, setWorkflowId] = useState('');
  const [page, setPage] = useState(1);
  const [data, setData] = useState<Page | null>(null);
  const [error, setError] = useState<StationError | null>(null);
  const [busy, setBusy] = useState(false);
  const [exported, setExported] = useState<number | null>(null);
  const [verified, setVerified] = useState<Verified | null>(null);

  const filters = useCallback((): Filters => {
    const result: { -readonly [K in keyof Filters]: Filters[K] } = {};
    if (action.trim() !== '') result.action = action.trim();
    if (outcome !== '') result.outcome = outcome as (typeof outcomes)[number];
    if (from !== '') result.from = new Date(`${from}T00:00:00`).toISOString();
    if (to !== '') result.to = new Date(`${to}T23:59:59.999`).toISOString();
    if (/^wf_[A-Za-z0-9_-]{6,64}$/.test(workflowId.trim())) result.workflowId = workflowId.trim();
    return result;
  }, [action, outcome, from, to, workflowId]);

  // A filter typed or a page turned while an answer is on its way: only the newest answer lands.
  const latest = useRef(latestAnswer());
  const load = useCallback(async () => {
    const ticket = latest.current.take();
    setBusy(true);
    const answer = await call('audit.read', { ...filters(), page, pageSize });
    if (!ticket.current()) return;
    setBusy(false);
    if (answer.ok) {
      setData(answer.value);
      setError(null);
    } else setError(answer.error);
  }, [filters, page]);

  useEffect(() => {
    void load();
  }, [load]);

  const exportFile = async () => {
    const answer = await call('audit.export', filters());
    if (!answer.ok) {
      setError(answer.error);
      return;
    }
    const url = URL.createObjectURL(new Blob([answer.value.content], { type: answer.value.mediaType }));
    const link = document.createElement('a');
    link.href = url;
    link.download = answer.value.fileName;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    setExported(answer.value.recordCount);
  };

  const verify = async () => {
    const answer = await call('audit.verify', {});
    if (answer.ok) setVerified(answer.value);
    else setError(answer.error);
  };

  return (
    <Screen title={t('activity.title')}>
      <form
        className="filters"
        onSubmit={(event) => {
          event.preventDefault();
          setPage(1);
          void load();
        }}
      >
        <TextField label={t('activity.action')} value={action} onChange={(event) => setAction(event.target.value)} hint={t('activity.actionHint')} autoComplete="off" />
        <SelectField
          label={t('activity.outcome')}
          value={outcome}
          onChange={(event) => {
            setOutcome(event.target.value);
            setPage(1);
          }}
          choices={[{ value: '', label: t('activity.anyOutcome') }, ...outcomes.map((value) => ({ value, label: t(`activity.outcomes.${value}`) }))]}
        />
        <TextField label={t('activity.from')} type="date" value={from} onChange={(event) => setFrom(event.target.value)} />
        <TextField label={t('activity.to')} type="date" value={to} onChange={(event) => setTo(event.target.value)} />
        <TextField label={t('activity.workflow')} value={workflowId} onChange={(event) => setWorkflowId(event.target.value)} autoComplete="off" spellCheck={false} />
        <div className="actions">
          <Button type="submit" tone="primary" busy={busy}>
            {t('activity.filter')}
          </Button>
          <Button onClick={() => void exportFile()}>{t('activity.export')}</Button>
          <Button onClick={() => void verify()}>{t('activity.verify')}</Button>
        </div>
      </form>
      {exported !== null && <Notice tone="ok">{t('activity.exported', { count: exported })}</Notice>}
      {verified !== null && (
        <Notice tone={verified.intact ? 'ok' : 'bad'} title={verified.intact ? t('activity.intact') : t('activity.broken', { seq: verified.firstBrokenSeq ?? 0 })}>
          <p>{t('activity.checked', { count: verified.recordCount, time: format.dateTime(verified.checkedAt) })}</p>
        </Notice>
      )}
      {error !== null && <ErrorNotice error={error} onRetry={() => void load()} />}
      {data !== null && (
        <>
          <table className="table audit">
            <thead>
              <tr>
                <th scope="col">{t('activity.when')}</th>
                <th scope="col">{t('activity.action')}</th>
                <th scope="col">{t('activity.outcome')}</th>
                <th scope="col">{t('activity.actor')}</th>
                <th scope="col">{t('activity.summary')}</th>
                <th scope="col">{t('activity.workflow')}</th>
              </tr>
            </thead>
            <tbody>
              {data.items.length === 0 && (
                <tr>
                  <td colSpan={6} className="muted">
                    {t('activity.none')}
                  </td>
                </tr>
              )}
              {data.items.map((record) => (
                <tr key={record.seq}>
                  <td>{format.dateTime(record.at)}</td>
                  <td>
                    <code>{record.action}</code>
                  </td>
                  <td className={record.outcome === 'failed' ? 'bad-text' : undefined}>
                    {t(`activity.outcomes.${record.outcome}`)}
                    {record.errorCode !== null && <span className="small"> · {record.errorCode}</span>}
                  </td>
                  <td>{record.actor ?? '—'}</td>
                  <td>{record.summary}</td>
                  <td className="small">
                    <code>{record.workflowId ?? ''}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="pager">
            <Button disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
              {t('activity.newer')}
            </Button>
            <span>{t('activity.page', { page: data.page, pages: Math.max(1, data.totalPages), total: data.total })}</span>
            <Button disabled={page >= data.totalPages} onClick={() => setPage((p) => p + 1)}>
              {t('activity.older')}
            </Button>
          </div>
        </>
      )}
    </Screen>
  );
}
