// Flow B's consent: the verification step, and the visit it opens in the same step — by the SMS
// code (the visit is the consent) or once the exchange has authorized the fingerprint. "Visit open"
// then says so, and "Open visit" shows the visit; after a refusal it opens it again. Cancel stops
// the consent (withdrawing a fingerprint request still open) and goes back to the patient.
import { useTranslation } from 'react-i18next';
import { go } from '../../state/navigation';
import { useWorkflows } from '../../state/workflows';
import type { ViewOf } from '../../state/workflows';
import { ActionBar } from '../../ui/ActionBar';
import { Button } from '../../ui/Button';
import { ErrorNotice, Notice } from '../../ui/Notice';
import { Screen } from '../../ui/Screen';
import { patience, Waiting } from '../../ui/Waiting';
import { usePatient } from '../lookup/store';
import { PatientSteps, viewPosition } from '../shared/PatientSteps';
import { OpenVisitButton, openVisit, VisitOpened } from '../shared/VisitOpened';
import { WhoAndWhat } from '../shared/WhoAndWhat';
import { cancelVerification } from './verification-state';
import { VerificationBar } from './VerificationBar';
import { VerificationPanel } from './VerificationPanel';

export function ConsentScreen({ view }: { readonly view: ViewOf<'consent'> }) {
  const { t } = useTranslation();
  const workflowId = view.workflowId;
  const pending = useWorkflows((s) => s.pending[workflowId]);
  const failure = useWorkflows((s) => s.failures[workflowId]);
  const patientInHand = usePatient((s) => s.summary?.patientRef === view.patient.patientRef);
  const back = () => go(patientInHand ? { name: 'patient' } : { name: 'lookup' });
  const cancel =
    view.state === 'verifying' || view.state === 'verified'
      ? {
          describes: t('consent.cancelWhat'),
          busy: pending === 'consent.cancel',
          onClick: () => void cancelVerification(workflowId).then((done) => done && back()),
        }
      : undefined;

  return (
    <Screen
      title={t('consent.title')}
      steps={<PatientSteps position={viewPosition(view)} />}
      banner={<WhoAndWhat workflowId={workflowId} patient={view.patient} intervention={view.intervention} serviceType={view.serviceType} />}
    >
      {view.state !== 'cancelled' && <VerificationPanel view={view} step={view.verification} />}

      {view.state === 'verified' && failure?.command === 'visit.open' && <ErrorNotice error={failure.error} onRetry={() => void openVisit(workflowId)} retryBusy={pending === 'visit.open'} />}
      {view.state === 'opening-visit' && (
        <Waiting patienceMs={patience.write} onCancel={back} cancelLabel={t('consent.backToPatient')}>
          {t('consent.openingVisit')}
        </Waiting>
      )}
      {view.state === 'visit-opened' && view.visitWorkflowId !== null && <VisitOpened visitWorkflowId={view.visitWorkflowId} />}
      {view.state === 'cancelled' && <Notice tone="warn" title={t('consent.cancelled')} />}

      {view.state === 'verifying' ? (
        <VerificationBar view={view} step={view.verification} cancel={cancel} />
      ) : (
        <ActionBar cancel={cancel}>
          {(view.next.includes('visit.open') || view.state === 'visit-opened') && <OpenVisitButton workflowId={workflowId} visitWorkflowId={view.visitWorkflowId} />}
          {view.state === 'cancelled' && (
            <Button tone="primary" onClick={back}>
              {t('consent.backToPatient')}
            </Button>
          )}
        </ActionBar>
      )}
    </Screen>
  );
}
