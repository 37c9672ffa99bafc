// Shows one workflow by its kind. The view comes from the store (kept current by events); when the
// screen opens on a workflow not seen yet (from the work list, after a restart) it is fetched. A
// doctor's or SHA's answer on it counts as seen once it is on screen.
import { Suspense, lazy, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { StationError } from '../../bridge/types';
import { call } from '../../state/bridge';
import { go } from '../../state/navigation';
import { useWorkflows } from '../../state/workflows';
import { Button } from '../../ui/Button';
import { ErrorNotice } from '../../ui/Notice';
import { Screen } from '../../ui/Screen';
import { ConsentScreen } from '../consent/ConsentScreen';
import { sawWorkflow } from '../work/queue';

const VisitScreen = lazy(() => import('../visit/VisitScreen'));
const DischargeScreen = lazy(() => import('../discharge/DischargeScreen'));
const ElectiveScreen = lazy(() => import('../elective/ElectiveScreen'));
const EmergencyScreen = lazy(() => import('../emergency/EmergencyScreen'));

export default function WorkflowScreen({ workflowId }: { readonly workflowId: string }) {
  const { t } = useTranslation();
  const view = useWorkflows((s) => s.views[workflowId]);
  const [error, setError] = useState<StationError | null>(null);

  useEffect(() => sawWorkflow(workflowId), [workflowId]);

  useEffect(() => {
    if (view !== undefined) return;
    void call('workflow.get', { workflowId }).then((answer) => {
      if (answer.ok) useWorkflows.getState().upsert(answer.value);
      else setError(answer.error);
    });
  }, [view, workflowId]);

  if (view === undefined) {
    return (
      <Screen title={t('workflow.loading')}>
        {error === null ? (
          <p className="progress">{t('common.loading')}</p>
        ) : (
          <ErrorNotice error={error}>
            <Button onClick={() => go({ name: 'work' })}>{t('nav.work')}</Button>
          </ErrorNotice>
        )}
      </Screen>
    );
  }
  return (
    <Suspense fallback={<p className="loading">{t('common.loading')}</p>}>
      {view.kind === 'consent' && <ConsentScreen view={view} />}
      {view.kind === 'visit' && <VisitScreen view={view} />}
      {view.kind === 'discharge' && <DischargeScreen view={view} />}
      {view.kind === 'elective' && <ElectiveScreen view={view} />}
      {view.kind === 'emergency' && <EmergencyScreen view={view} />}
    </Suspense>
  );
}
