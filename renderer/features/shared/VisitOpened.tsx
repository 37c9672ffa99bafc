// Opening the visit from a workflow that took consent (flow B's consent, flow A's visit day), and
// the way to it once it is open (a confirmed SMS code opens it at once: "Open visit" then shows it).
import { useTranslation } from 'react-i18next';
import { go } from '../../state/navigation';
import { run } from '../../state/workflows';
import { Button } from '../../ui/Button';
import { Notice } from '../../ui/Notice';

/** Sends visit.open for the workflow and shows the visit once it is open. */
export async function openVisit(workflowId: string): Promise<void> {
  const opened = await run(workflowId, 'visit.open', { workflowId });
  if (opened.ok) go({ name: 'workflow', workflowId: opened.value.workflowId });
}

export function VisitOpened({ visitWorkflowId }: { readonly visitWorkflowId: string }) {
  const { t } = useTranslation();
  return (
    <Notice tone="ok" title={t('consent.visitStarted')}>
      <Button tone="primary" onClick={() => go({ name: 'workflow', workflowId: visitWorkflowId })}>
        {t('visit.open')}
      </Button>
    </Notice>
  );
}
