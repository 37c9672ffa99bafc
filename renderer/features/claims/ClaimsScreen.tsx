// The station's claims after the nurse's work on them: each with SHA's state in words, what it
// means and what to do, when the station last checked with SHA and when it checks next; those
// needing her first. One claim: checked with SHA on opening and on demand, its documents (the
// types SHA lists for the service, those missing named before anything is sent back), a document
// attached from a file, and a returned claim sent back (or reopened) as the one primary action.
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ClaimDetail, ClaimSummary } from '../../../electron/contract';
import type { StationError } from '../../bridge/types';
import { useFormat } from '../../i18n/format';
import { call } from '../../state/bridge';
import { go, useNavigation } from '../../state/navigation';
import { ActionBar } from '../../ui/ActionBar';
import { Button } from '../../ui/Button';
import { Badge, ErrorNotice, Notice } from '../../ui/Notice';
import { Screen } from '../../ui/Screen';
import { DocumentPicker, type ChosenDocument } from './DocumentPicker';
import { claimAnswered, refreshClaims, useClaims } from './store';
import { typesWords } from '../shared/documents';
import { DeadlineLine, DeadlineNotice } from './ResubmitDeadline';

const attentionTone = { documents: 'warn', correction: 'warn', 'on-hold': 'warn', failed: 'bad', none: 'neutral' } as const;

export default function ClaimsScreen() {
  const route = useNavigation((s) => s.route);
  const workflowId = route.name === 'claims' ? route.workflowId : undefined;
  return workflowId === undefined ? <ClaimList /> : <ClaimView key={workflowId} workflowId={workflowId} />;
}

function who(t: ReturnType<typeof useTranslation>['t'], claim: ClaimSummary): string {
  return claim.patient?.maskedName ?? t('claims.emergencyUnknown');
}

function ClaimList() {
  const { t } = useTranslation();
  const format = useFormat();
  const items = useClaims((s) => s.items);
  const needsNurse = useClaims((s) => s.needsNurse);
  const closeToDeadline = useClaims((s) => s.closeToDeadline);
  const error = useClaims((s) => s.error);
  const [busy, setBusy] = useState(false);
  const reload = useCallback(async () => {
    setBusy(true);
    await refreshClaims(true);
    setBusy(false);
  }, []);
  // Opening the claims reads back from SHA those not checked lately.
  useEffect(() => void reload(), [reload]);
  return (
    <Screen title={t('claims.title')} aside={<Button busy={busy} onClick={() => void reload()}>{t('claims.checkNow')}</Button>}>
      <p className="muted">{t('claims.intro')}</p>
      {needsNurse > 0 && <Notice tone="warn" title={t('claims.needsCount', { count: needsNurse })} />}
      {closeToDeadline > 0 && (
        <Notice tone="bad" title={t('claimDeadline.closeCount', { count: closeToDeadline })}>
          <p>{t('claimDeadline.closeWhy')}</p>
        </Notice>
      )}
      {error !== null && <ErrorNotice error={error} onRetry={() => void reload()} />}
      {items === null && error === null && <p className="progress">{t('common.loading')}</p>}
      {items !== null && items.length === 0 && <p className="muted">{t('claims.none')}</p>}
      {items !== null && items.length > 0 && (
        <ul className="worklist claimlist">
          {items.map((claim) => (
            <li key={claim.workflowId} className={claim.attention === 'none' ? undefined : 'work-fresh'}>
              <div className="work-what">
                <p className="work-title">
                  <span className="masked">{who(t, claim)}</span> · {claim.intervention.code} {claim.intervention.name}
                </p>
                <p className="work-state">
                  {claim.status === null ? t('claims.notChecked') : t(`claimStatus.${claim.status}`)}
                  {claim.attention !== 'none' && (
                    <>
                      {' '}
                      <Badge tone={attentionTone[claim.attention]}>{t(`claims.attention.${claim.attention}`)}</Badge>
                    </>
                  )}
                </p>
                {claim.resubmitBy !== null && <DeadlineLine deadline={claim.resubmitBy} />}
                <p className="muted">{claim.checkedAt === null ? t('claims.notChecked') : t('claims.checkedAt', { time: format.clock(claim.checkedAt) })}</p>
              </div>
              <Button tone={claim.attention === 'none' ? 'secondary' : 'primary'} onClick={() => go({ name: 'claims', workflowId: claim.workflowId })}>
                {t('claims.row', { invoice: claim.invoiceNumber ?? t('claims.noInvoice') })}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Screen>
  );
}

type Busy = 'check' | 'attach' | 'resubmit' | `remove:${string}` | null;

function ClaimView({ workflowId }: { readonly workflowId: string }) {
  const { t } = useTranslation();
  const format = useFormat();
  const [claim, setClaim] = useState<ClaimDetail | null>(null);
  const [error, setError] = useState<StationError | null>(null);
  const [busy, setBusy] = useState<Busy>('check');
  const [told, setTold] = useState<string | null>(null);

  const answered = (answer: Awaited<ReturnType<typeof call<'claims.get'>>>): boolean => {
    setBusy(null);
    if (!answer.ok) {
      setError(answer.error);
      return false;
    }
    setClaim(answer.value);
    setError(null);
    claimAnswered(answer.value);
    return true;
  };

  const check = useCallback(async () => {
    setBusy('check');
    setTold(null);
    answered(await call('claims.get', { workflowId }));
  }, [workflowId]);
  useEffect(() => void check(), [check]);

  const attach = async (document: ChosenDocument): Promise<boolean> => {
    setBusy('attach');
    setTold(null);
    const ok = answered(await call('claims.attach', { workflowId, document }));
    if (ok) setTold(t('claims.documents.attached', { title: document.title }));
    return ok;
  };
  const remove = async (attachmentId: string) => {
    setBusy(`remove:${attachmentId}`);
    setTold(null);
    answered(await call('claims.removeAttachment', { workflowId, attachmentId }));
  };
  const resubmit = async () => {
    if (claim?.resubmit === null || claim === null) return;
    const mode = claim.resubmit;
    setBusy('resubmit');
    setTold(null);
    if (answered(await call('claims.resubmit', { workflowId }))) setTold(t(mode === 'send-back' ? 'claims.resubmit.sentBack' : 'claims.resubmit.reopened'));
  };

  const back = <Button onClick={() => go({ name: 'claims' })}>{t('claims.back')}</Button>;
  if (claim === null) {
    return (
      <Screen title={t('claims.title')} aside={back}>
        {error === null ? <p className="progress">{t('common.loading')}</p> : <ErrorNotice error={error} onRetry={() => void check()} />}
      </Screen>
    );
  }
  const status = claim.status;
  const missing = claim.documentTypes.missing;
  const canAttach = claim.next.includes('claims.attach');
  const canRemove = claim.next.includes('claims.removeAttachment');
  return (
    <Screen title={t('claims.row', { invoice: claim.invoiceNumber ?? t('claims.noInvoice') })} aside={back}>
      <p>
        <span className="masked">{who(t, claim)}</span> · {claim.intervention.code} {claim.intervention.name}
        {claim.totalKes > 0 && <> · {t('claims.total', { amount: format.kes(claim.totalKes) })}</>}
      </p>
      <section aria-labelledby="claim-state" className="claim-state">
        <h2 id="claim-state">
          {status === null ? t('claims.notChecked') : t(`claimStatus.${status}`)}{' '}
          {claim.attention !== 'none' && <Badge tone={attentionTone[claim.attention]}>{t(`claims.attention.${claim.attention}`)}</Badge>}
        </h2>
        {status !== null && (
          <Notice tone={claim.attention === 'none' ? 'info' : 'warn'}>
            <p>
              <strong>{t('claims.meaning')}:</strong> {t(`claims.status.${status}.meaning`)}
            </p>
            <p>
              <strong>{t('claims.todo')}:</strong> {t(`claims.status.${status}.todo`)}
            </p>
          </Notice>
        )}
        {claim.resubmitBy !== null && <DeadlineNotice deadline={claim.resubmitBy} />}
        <p className="muted">
          {claim.checkedAt === null ? t('claims.notChecked') : t('claims.checkedAt', { time: format.clock(claim.checkedAt) })} ·{' '}
          {claim.nextCheckAt === null ? t('claims.noNextCheck') : t('claims.nextCheck', { time: format.clock(claim.nextCheckAt) })}
        </p>
        <Button busy={busy === 'check'} onClick={() => void check()}>
          {t('claims.checkNow')}
        </Button>
      </section>
      {error !== null && <ErrorNotice error={error} />}
      {error === null && claim.lastError !== null && <ErrorNotice error={claim.lastError} />}
      {told !== null && (
        <Notice tone="ok">
          <p role="status">{told}</p>
        </Notice>
      )}
      <section aria-labelledby="claim-documents" className="claim-documents">
        <h2 id="claim-documents">{t('claims.documents.title')}</h2>
        <p>
          {claim.documentTypes.applicable === null
            ? t('claims.documents.notListed')
            : t('claims.documents.listed', { types: typesWords(t, claim.documentTypes.applicable, format.locale) })}
        </p>
        {claim.documentTypes.applicable !== null &&
          (missing.length > 0 ? (
            <Notice tone={claim.attention === 'documents' ? 'warn' : 'info'}>
              <p>{t('claims.documents.missing', { types: typesWords(t, missing, format.locale) })}</p>
            </Notice>
          ) : (
            <p>{t('claims.documents.allThere')}</p>
          ))}
        <h3>{t('claims.documents.onClaim')}</h3>
        {claim.documents.length === 0 ? (
          <p className="muted">{t('claims.documents.none')}</p>
        ) : (
          <ul className="documentlist">
            {claim.documents.map((d) => {
              const title = d.title ?? (d.documentType === null ? d.attachmentId : t(`claims.documentType.${d.documentType}`, { defaultValue: d.documentType }));
              return (
                <li key={d.attachmentId}>
                  <span>
                    {title}
                    {d.documentType !== null && <span className="muted"> · {t(`claims.documentType.${d.documentType}`, { defaultValue: d.documentType })}</span>}
                  </span>
                  {canRemove && (
                    <Button tone="quiet" busy={busy === `remove:${d.attachmentId}`} onClick={() => void remove(d.attachmentId)}>
                      {t('claims.documents.remove', { title })}
                    </Button>
                  )}
                </li>
              );
            })}
          </ul>
        )}
        {canAttach ? (
          <DocumentPicker listed={claim.documentTypes.applicable} busy={busy === 'attach'} onAttach={attach} />
        ) : (
          <p className="muted">{t('claims.documents.closed')}</p>
        )}
      </section>
      {claim.resubmit !== null && claim.next.includes('claims.resubmit') && (
        <ActionBar note={claim.resubmit === 'send-back' && missing.length > 0 ? t('claims.resubmit.missingFirst', { types: typesWords(t, missing, format.locale) }) : undefined}>
          <Button tone="primary" busy={busy === 'resubmit'} onClick={() => void resubmit()}>
            {t(`claims.resubmit.${claim.resubmit}`)}
          </Button>
        </ActionBar>
      )}
    </Screen>
  );
}
