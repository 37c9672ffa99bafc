// The ward's queue as rows: whose work (masked) and what it is, its state in words, how long it has
// waited, the deadline that counts as a clock time, the doctor's or SHA's answer when one came, and
// one way back in. Soonest deadline first, then the longest waiting.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { WorkItem } from '../../../electron/contract';
import type { StationError } from '../../bridge/types';
import { useFormat } from '../../i18n/format';
import { call } from '../../state/bridge';
import { go } from '../../state/navigation';
import { useWorkflows } from '../../state/workflows';
import { Button } from '../../ui/Button';
import { Badge } from '../../ui/Notice';
import { useNow } from '../../ui/useNow';
import { answerKey, refreshQueue, sawWorkflow, useQueue } from './queue';
import { answerWords, deadlineOf, patientOf, waitedWords } from './words';

/** The queue of this station, or of one patient; read again whenever the station's queue changes. */
export function useWorkQueue(patientRef: string | undefined, includeEnded: boolean, idle = false) {
  const [items, setItems] = useState<readonly WorkItem[] | null>(null);
  const [error, setError] = useState<StationError | null>(null);
  const [round, setRound] = useState(0);
  const changed = useQueue((s) => s.items);
  useEffect(() => {
    if (idle) return undefined;
    let current = true;
    void call('work.queue', { ...(patientRef === undefined ? {} : { patientRef }), includeEnded }).then((answer) => {
      if (!current) return;
      if (answer.ok) {
        setItems(answer.value.items);
        setError(null);
        for (const item of answer.value.items) useWorkflows.getState().upsert(item.view);
      } else setError(answer.error);
    });
    return () => {
      current = false;
    };
  }, [patientRef, includeEnded, round, changed, idle]);
  return {
    items,
    error,
    reload: () => {
      setRound((r) => r + 1);
      void refreshQueue();
    },
  };
}

const urgency = (item: WorkItem) => {
  const deadline = deadlineOf(item.view);
  return deadline === null ? Number.POSITIVE_INFINITY : Date.parse(deadline.at);
};

export function WorkRows({ items }: { readonly items: readonly WorkItem[] }) {
  const { t } = useTranslation();
  const format = useFormat();
  const now = useNow(30_000);
  const seen = useQueue((s) => s.seen);
  const ordered = [...items].sort((a, b) => urgency(a) - urgency(b) || Date.parse(a.since) - Date.parse(b.since));
  return (
    <ul className="worklist">
      {ordered.map((item) => {
        const view = item.view;
        const who = patientOf(t, view);
        const deadline = deadlineOf(view);
        const fresh = item.answer !== null && !seen.has(answerKey(view.workflowId, item.answer));
        return (
          <li key={view.workflowId} className={fresh ? 'work-fresh' : undefined}>
            <div className="work-what">
              <p className="work-title">
                {t(`work.kind.${view.kind}`)} · <span className="masked">{who}</span>
              </p>
              {/* With the service, in one text: a state's words (such as "Visit open") never stand alone here as they do on the workflow's own screen. */}
              <p className="work-state">{`${t(`state.${view.kind}.${view.state}`)} · ${view.intervention.code} ${view.intervention.name}`}</p>
              {item.answer !== null && (
                <p>
                  <Badge tone={item.answer.outcome === 'approved' ? 'ok' : 'bad'}>{fresh ? t('work.newAnswer') : t('work.answered')}</Badge>{' '}
                  {answerWords(t, item.answer, who)}
                  {item.answer.at !== null && <> · {format.clock(item.answer.at)}</>}
                </p>
              )}
            </div>
            <div className="work-times">
              <p>{t('work.waiting', { duration: waitedWords(t, now - Date.parse(item.since)), since: format.clock(item.since) })}</p>
              {deadline !== null && <p className={Date.parse(deadline.at) - now < 3600_000 ? 'warn-text' : undefined}>{t(`work.deadline.${deadline.kind}`, { time: format.clock(deadline.at) })}</p>}
            </div>
            <Button
              tone={fresh ? 'primary' : 'secondary'}
              aria-label={t('work.continueWith', { context: view.kind, kind: t(`work.kind.${view.kind}`), name: who })}
              onClick={() => {
                sawWorkflow(view.workflowId);
                go({ name: 'workflow', workflowId: view.workflowId });
              }}
            >
              {t('work.continue')}
            </Button>
          </li>
        );
      })}
    </ul>
  );
}
