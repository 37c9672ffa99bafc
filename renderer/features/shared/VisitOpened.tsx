// Opening the visit from a workflow that took consent (flow B's consent, flow A's visit day), and
// the way to it once it is open: flow B's visit opens itself with the consent, so the consent's
// screen says "Visit open" with the visit's number, and "Open visit" (in the action bar) shows it.
import { useTranslation } from 'react-i18next';
import { go } from '../../state/navigation';
import { run, useWorkflows } from '../../state/workflows';
import { Button } from '../../ui/Button';
import { Notice } from '../../ui/Notice';

/** Sends visit.open for the workflow and shows the visit once it is open. */
export async function openVisit(workflowId: string): Promise<void> {
  const opened = await run(workflowId, 'visit.open', { workflowId });
  if (opened.ok) go({ name: 'workflow', workflowId: opened.value.workflowId });
}

export function VisitOpened({ visitWorkflowId }: { readonly visitWorkflowId: string }) {
  const { t } = useTranslation();
  const visit = useWorkflows((s) => s.views[visitWorkflowId]);
  const visitNumber = visit?.kind === 'visit' ? visit.visitNumber : null;
  return (
    <Notice tone="ok" title={t('state.visit.open')}>
      <p>{visitNumber === null ? t('consent.visitStarted') : t('consent.visitStartedNumber', { number: visitNumber })}</p>
    </Notice>
  );
}

/** The bar's way into the visit: shows the open one, or opens it (again, after a refusal). */
export function OpenVisitButton({ workflowId, visitWorkflowId }: { readonly workflowId: string; readonly visitWorkflowId: string | null }) {
  const { t } = useTranslation();
  const pending = useWorkflows((s) => s.pending[workflowId]) === 'visit.open';
  return (
    <Button tone="primary" busy={pending} onClick={() => (visitWorkflowId === null ? void openVisit(workflowId) : go({ name: 'workflow', workflowId: visitWorkflowId }))}>
      {t('visit.open')}
    </Button>
  );
}
