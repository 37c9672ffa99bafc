// Unfinished workflows (an elective waiting for its visit day, an open visit, an emergency still
// to identify), each with its state in words and a way back in.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { WorkflowView } from '../../../electron/contract';
import type { StationError } from '../../bridge/types';
import { useFormat } from '../../i18n/format';
import { call } from '../../state/bridge';
import { go } from '../../state/navigation';
import { useWorkflows } from '../../state/workflows';
import { Button } from '../../ui/Button';
import { ErrorNotice } from '../../ui/Notice';

export function useWorkList(patientRef: string | undefined, includeEnded: boolean) {
  const [items, setItems] = useState<readonly WorkflowView[] | null>(null);
  const [error, setError] = useState<StationError | null>(null);
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    void call('workflow.list', { ...(patientRef === undefined ? {} : { patientRef }), includeEnded }).then((answer) => {
      if (!current) return;
      if (answer.ok) {
        setItems(answer.value.items);
        setError(null);
        for (const view of answer.value.items) useWorkflows.getState().upsert(view);
      } else setError(answer.error);
    });
    return () => {
      current = false;
    };
  }, [patientRef, includeEnded, round]);
  return { items, error, reload: () => setRound((r) => r + 1) };
}

export function WorkList({ items, emptyText }: { readonly items: readonly WorkflowView[]; readonly emptyText: string }) {
  const { t } = useTranslation();
  const format = useFormat();
  if (items.length === 0) return <p className="muted">{emptyText}</p>;
  return (
    <ul className="worklist">
      {items.map((view) => {
        const who = 'patient' in view && view.patient !== null ? view.patient.maskedName : t('work.unidentified');
        return (
          <li key={view.workflowId}>
            <div>
              <p className="work-title">
                {t(`work.kind.${view.kind}`)} · <span className="masked">{who}</span>
              </p>
              <p className="muted small">
                {t(`state.${view.kind}.${view.state}`)} · {view.intervention.code} · {format.dateTime(view.updatedAt)}
              </p>
            </div>
            <Button tone="secondary" aria-label={t('work.continueWith', { kind: t(`work.kind.${view.kind}`), name: who })} onClick={() => go({ name: 'workflow', workflowId: view.workflowId })}>
              {t('work.continue')}
            </Button>
          </li>
        );
      })}
    </ul>
  );
}

export function WorkListError({ error, onRetry }: { readonly error: StationError; readonly onRetry: () => void }) {
  return <ErrorNotice error={error} onRetry={onRetry} />;
}
