// Flow B's consent: the verification step, and the visit it opens in the same step — by the SMS
// code (the visit is the consent) or once the exchange has authorized the fingerprint. "Visit open"
// then says so, and "Open visit" shows the visit; after a refusal it opens it again.
import { useTranslation } from 'react-i18next';
import { go } from '../../state/navigation';
import { run, useWorkflows } from '../../state/workflows';
import type { ViewOf } from '../../state/workflows';
import { Button } from '../../ui/Button';
import { ErrorNotice, Notice } from '../../ui/Notice';
import { Screen } from '../../ui/Screen';
import { patience, Waiting } from '../../ui/Waiting';
import { openVisit, VisitOpened } from '../shared/VisitOpened';
import { WhoAndWhat } from '../shared/WhoAndWhat';
import { VerificationPanel } from './VerificationPanel';

export function ConsentScreen({ view }: { readonly view: ViewOf<'consent'> }) {
  const { t } = useTranslation();
  const workflowId = view.workflowId;
  const pending = useWorkflows((s) => s.pending[workflowId]);
  const failure = useWorkflows((s) => s.failures[workflowId]);
  const stage = view.verification.stage;

  return (
    <Screen
      title={t('consent.title')}
      aside={
        view.next.includes('consent.cancel') && stage !== 'awaiting-fingerprint' && view.state === 'verifying' ? (
          <Button tone="danger" busy={pending === 'consent.cancel'} onClick={() => void run(workflowId, 'consent.cancel', { workflowId })}>
            {t('consent.cancelConsent')}
          </Button>
        ) : undefined
      }
    >
      <WhoAndWhat patient={view.patient} intervention={view.intervention} serviceType={view.serviceType} />
      {view.state !== 'cancelled' && <VerificationPanel view={view} step={view.verification} />}

      {view.next.includes('visit.open') && (
        <div className="startbar">
          {failure?.command === 'visit.open' && <ErrorNotice error={failure.error} onRetry={() => void openVisit(workflowId)} retryBusy={pending === 'visit.open'} />}
          <Button tone="primary" wide busy={pending === 'visit.open'} onClick={() => void openVisit(workflowId)}>
            {t('visit.open')}
          </Button>
        </div>
      )}
      {view.state === 'opening-visit' && (
        <Waiting patienceMs={patience.write} onCancel={() => go({ name: 'patient' })} cancelLabel={t('consent.backToPatient')}>
          {t('consent.openingVisit')}
        </Waiting>
      )}
      {view.state === 'visit-opened' && view.visitWorkflowId !== null && <VisitOpened visitWorkflowId={view.visitWorkflowId} />}
      {view.state === 'cancelled' && (
        <Notice tone="warn" title={t('consent.cancelled')}>
          <Button onClick={() => go({ name: 'patient' })}>{t('consent.backToPatient')}</Button>
        </Notice>
      )}
    </Screen>
  );
}
