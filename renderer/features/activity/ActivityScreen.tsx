// This station's record, newest first, in plain words: when, who (the staff member signed in), which
// patient (masked), what happened and with what outcome. The technical record (action, summary,
// workflow, error code) is folded away under each entry for the IT officer, with the filters only
// IT needs. Downloaded as JSON Lines; its hash chain checked on request.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuditEntryView } from '../../../electron/contract';
import type { CommandInput, CommandOutput, StationError } from '../../bridge/types';
import { useFormat } from '../../i18n/format';
import { call } from '../../state/bridge';
import { Button } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';
import { Badge, ErrorNotice, Notice } from '../../ui/Notice';
import { Screen } from '../../ui/Screen';
import { whatHappened } from './words';
import { DateField } from '../../ui/DateField';

type Page = CommandOutput<'audit.read'>;
type Verified = CommandOutput<'audit.verify'>;
type Filters = CommandInput<'audit.export'>;
const outcomes = ['started', 'succeeded', 'failed'] as const;
const pageSize = 25;

interface Asked {
  readonly action: string;
  readonly outcome: string;
  readonly from: string;
  readonly to: string;
  readonly workflowId: string;
}
const nothingAsked: Asked = { action: '', outcome: '', from: '', to: '', workflowId: '' };

function filtersOf(asked: Asked): Filters {
  const result: { -readonly [K in keyof Filters]: Filters[K] } = {};
  if (asked.action.trim() !== '') result.action = asked.action.trim();
  if (asked.outcome !== '') result.outcome = asked.outcome as (typeof outcomes)[number];
  if (asked.from !== '') result.from = new Date(`${asked.from}T00:00:00`).toISOString();
  if (asked.to !== '') result.to = new Date(`${asked.to}T23:59:59.999`).toISOString();
  if (/^wf_[A-Za-z0-9_-]{6,64}$/.test(asked.workflowId.trim())) result.workflowId = asked.workflowId.trim();
  return result;
}

export default function ActivityScreen() {
  const { t } = useTranslation();
  const format = useFormat();
  const [draft, setDraft] = useState<Asked>(nothingAsked);
  const [asked, setAsked] = useState<Asked>(nothingAsked);
  const [page, setPage] = useState(1);
  const [round, setRound] = useState(0);
  const [data, setData] = useState<Page | null>(null);
  const [error, setError] = useState<StationError | null>(null);
  const [busy, setBusy] = useState(false);
  const [exported, setExported] = useState<number | null>(null);
  const [verified, setVerified] = useState<Verified | null>(null);

  // Only the answer to the latest request is shown: a slow older page never overwrites a newer one.
  useEffect(() => {
    let current = true;
    setBusy(true);
    void call('audit.read', { ...filtersOf(asked), page, pageSize }).then((answer) => {
      if (!current) return;
      setBusy(false);
      if (answer.ok) {
        setData(answer.value);
        setError(null);
      } else setError(answer.error);
    });
    return () => {
      current = false;
    };
  }, [asked, page, round]);

  const change = (field: keyof Asked, value: string) => setDraft((d) => ({ ...d, [field]: value }));
  const apply = (next: Asked) => {
    setAsked(next);
    setPage(1);
    setRound((r) => r + 1);
  };

  const download = async () => {
    const answer = await call('audit.export', filtersOf(asked));
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
          apply(draft);
        }}
      >
        <DateField label={t('activity.from')} value={draft.from} max={draft.to === '' ? undefined : draft.to} onChange={(day) => change('from', day)} />
        <DateField label={t('activity.to')} value={draft.to} min={draft.from === '' ? undefined : draft.from} onChange={(day) => change('to', day)} />
        <SelectField
          label={t('activity.outcome')}
          value={draft.outcome}
          onChange={(event) => {
            change('outcome', event.target.value);
            apply({ ...draft, outcome: event.target.value });
          }}
          choices={[{ value: '', label: t('activity.anyOutcome') }, ...outcomes.map((value) => ({ value, label: t(`activity.outcomes.${value}`) }))]}
        />
        <details className="it-filters">
          <summary>{t('activity.itFilters')}</summary>
          <div className="row">
            <TextField label={t('activity.action')} value={draft.action} onChange={(event) => change('action', event.target.value)} hint={t('activity.actionHint')} autoComplete="off" />
            <TextField label={t('activity.workflow')} value={draft.workflowId} onChange={(event) => change('workflowId', event.target.value)} autoComplete="off" spellCheck={false} />
          </div>
        </details>
        <div className="actions">
          <Button type="submit" tone="primary" busy={busy}>
            {t('activity.filter')}
          </Button>
          <Button onClick={() => void download()}>{t('activity.export')}</Button>
          <Button onClick={() => void verify()}>{t('activity.verify')}</Button>
        </div>
      </form>
      {exported !== null && <Notice tone="ok">{t('activity.exported', { count: exported })}</Notice>}
      {verified !== null && (
        <Notice tone={verified.intact ? 'ok' : 'bad'} title={verified.intact ? t('activity.intact') : t('activity.broken', { seq: verified.firstBrokenSeq ?? 0 })}>
          <p>{t('activity.checked', { count: verified.recordCount, time: format.dateTime(verified.checkedAt) })}</p>
        </Notice>
      )}
      {error !== null && <ErrorNotice error={error} onRetry={() => setRound((r) => r + 1)} />}
      {data !== null && (
        <>
          <table className="table audit">
            <thead>
              <tr>
                <th scope="col">{t('activity.when')}</th>
                <th scope="col">{t('activity.actor')}</th>
                <th scope="col">{t('activity.patient')}</th>
                <th scope="col">{t('activity.summary')}</th>
              </tr>
            </thead>
            <tbody>
              {data.items.length === 0 && (
                <tr>
                  <td colSpan={4} className="muted">
                    {t('activity.none')}
                  </td>
                </tr>
              )}
              {data.items.map((record) => (
                <Entry key={record.seq} record={record} />
              ))}
            </tbody>
          </table>
          <Pager page={data.page} pages={Math.max(1, data.totalPages)} total={data.total} onPage={setPage} />
        </>
      )}
    </Screen>
  );
}

function Entry({ record }: { readonly record: AuditEntryView }) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <tr className={record.outcome === 'failed' ? 'entry-failed' : undefined}>
      <td className="nowrap">{format.dateTime(record.at)}</td>
      <td>{record.actor ?? t('activity.noActor')}</td>
      <td className="masked">{record.maskedPatient ?? '—'}</td>
      <td>
        <p className="entry-what">
          {whatHappened(t, record)}{' '}
          {record.outcome === 'failed' && <Badge tone="bad">{record.errorCode === null ? t('activity.outcomes.failed') : t(`errors.${record.errorCode}.title`)}</Badge>}
        </p>
        <details className="entry-detail">
          <summary>{t('activity.forIt')}</summary>
          <dl className="facts">
            <div>
              <dt>{t('activity.action')}</dt>
              <dd>
                <code>{record.action}</code> · {t(`activity.outcomes.${record.outcome}`)}
                {record.errorCode !== null && <> · {record.errorCode}</>}
              </dd>
            </div>
            <div>
              <dt>{t('activity.record')}</dt>
              <dd lang="en">{record.summary}</dd>
            </div>
            {record.workflowId !== null && (
              <div>
                <dt>{t('activity.workflow')}</dt>
                <dd>
                  <code>{record.workflowId}</code>
                </dd>
              </div>
            )}
            <div>
              <dt>{t('activity.entry')}</dt>
              <dd>{record.seq}</dd>
            </div>
          </dl>
        </details>
      </td>
    </tr>
  );
}

function Pager({ page, pages, total, onPage }: { readonly page: number; readonly pages: number; readonly total: number; readonly onPage: (page: number) => void }) {
  const { t } = useTranslation();
  return (
    <div className="pager">
      <Button disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('activity.newer')}
      </Button>
      <span>{t('activity.page', { page, pages, total })}</span>
      <Button disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t('activity.older')}
      </Button>
    </div>
  );
}
