// The invoice the station made from SHA's billing lines of the claim (issue 22), shown before the
// claim is sent: its lines, total and pages, and the PDF to open. It goes on the claim as its
// invoice (with an inpatient's discharge summary) when the nurse discharges or submits, unless the
// claim holds an invoice already: a scan the nurse attached on the claim's documents stands.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CommandOutput, StationError } from '../../bridge/types';
import { useFormat } from '../../i18n/format';
import { call } from '../../state/bridge';
import { go } from '../../state/navigation';
import { Button } from '../../ui/Button';
import { ErrorNotice } from '../../ui/Notice';

type Made = CommandOutput<'discharge.madeInvoice'>;

/** A link the browser opens or saves: the PDF as a blob, released when the panel goes. */
function usePdfLink(made: Made | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (made === null) return;
    const bytes = Uint8Array.from(atob(made.dataBase64), (c) => c.charCodeAt(0));
    const link = URL.createObjectURL(new Blob([bytes], { type: 'application/pdf' }));
    setUrl(link);
    return () => URL.revokeObjectURL(link);
  }, [made]);
  return url;
}

export function MadeInvoice({ workflowId, visitWorkflowId, inpatient }: { readonly workflowId: string; readonly visitWorkflowId: string; readonly inpatient: boolean }) {
  const { t } = useTranslation();
  const format = useFormat();
  const [made, setMade] = useState<Made | null>(null);
  const [error, setError] = useState<StationError | null>(null);
  const [attempt, setAttempt] = useState(0);
  const link = usePdfLink(made);
  useEffect(() => {
    let current = true;
    void call('discharge.madeInvoice', { workflowId }).then((answer) => {
      if (!current) return;
      if (answer.ok) {
        setMade(answer.value);
        setError(null);
      } else setError(answer.error);
    });
    return () => {
      current = false;
    };
  }, [workflowId, attempt]);

  return (
    <section className="panel" aria-labelledby="made-invoice-title">
      <h2 id="made-invoice-title">{t('discharge.madeInvoice.title')}</h2>
      {made === null && error === null && <p className="progress">{t('discharge.madeInvoice.making')}</p>}
      {error !== null && <ErrorNotice error={error} onRetry={() => setAttempt(attempt + 1)} />}
      {made !== null && (
        <>
          <p>{t('discharge.madeInvoice.summary', { title: made.title, count: made.lineCount, total: format.kes(made.totalKes) })}</p>
          <p>
            {made.onClaim
              ? t('discharge.madeInvoice.onClaim')
              : inpatient
                ? t('discharge.madeInvoice.willAttachInpatient')
                : t('discharge.madeInvoice.willAttach')}
          </p>
          <div className="row">
            {link !== null && (
              <a className="btn btn-secondary" href={link} download={made.fileName} target="_blank" rel="noreferrer">
                {t('discharge.madeInvoice.open')}
              </a>
            )}
            {!made.onClaim && <Button onClick={() => go({ name: 'claims', workflowId: visitWorkflowId })}>{t('discharge.madeInvoice.scanInstead')}</Button>}
          </div>
        </>
      )}
    </section>
  );
}
