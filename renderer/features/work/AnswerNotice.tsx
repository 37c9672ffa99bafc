// Under the top bar, on every screen: a doctor or SHA has answered (a preauthorization, a request to
// allow SMS codes). The newest answer not yet told, with the way to it; "Later" puts the notice
// aside, and the answer stays counted on the Work in progress tab until its work is opened.
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../i18n/format';
import { go } from '../../state/navigation';
import { Button } from '../../ui/Button';
import { answerKey, putNoticeAside, sawWorkflow, unseenAnswers, useQueue } from './queue';
import { answerWords, patientOf } from './words';

export function AnswerNotice() {
  const { t } = useTranslation();
  const format = useFormat();
  const items = useQueue((s) => s.items);
  const seen = useQueue((s) => s.seen);
  const noticed = useQueue((s) => s.noticed);
  const fresh = unseenAnswers({ items, seen }).filter((item) => item.answer !== null && !noticed.has(answerKey(item.view.workflowId, item.answer)));
  const newest = fresh.reduce<(typeof fresh)[number] | undefined>((latest, item) => (latest === undefined || Date.parse(item.since) > Date.parse(latest.since) ? item : latest), undefined);
  if (newest?.answer == null) return null;
  const answer = newest.answer;
  return (
    <div className="answer-notice" aria-live="polite">
      <p>
        <strong>{answerWords(t, answer, patientOf(t, newest.view))}</strong>
        {answer.at !== null && <> · {format.clock(answer.at)}</>}
        {fresh.length > 1 && <> · {t('work.notice.more', { count: fresh.length - 1 })}</>}
      </p>
      <div className="actions">
        <Button
          tone="primary"
          onClick={() => {
            sawWorkflow(newest.view.workflowId);
            go({ name: 'workflow', workflowId: newest.view.workflowId });
          }}
        >
          {t('work.notice.open')}
        </Button>
        <Button tone="quiet" onClick={() => putNoticeAside(fresh.flatMap((item) => (item.answer === null ? [] : [answerKey(item.view.workflowId, item.answer)])))}>
          {t('work.notice.later')}
        </Button>
      </div>
    </div>
  );
}
