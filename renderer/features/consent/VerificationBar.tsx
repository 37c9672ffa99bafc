// The action bar while consent is being taken: Cancel at its left (what it stops is the screen's
// to say), a note of what happens now, and the one next step — verify by fingerprint, or send the
// code; while SHA's page waits for the finger, nothing to press (it moves on by itself) but the one
// clear way to an SMS code where it is allowed. Confirming the code stays beside the code itself.
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { VerificationStep, WorkflowView } from '../../../electron/contract';
import { run, useWorkflows } from '../../state/workflows';
import { ActionBar } from '../../ui/ActionBar';
import type { CancelAction } from '../../ui/ActionBar';
import { Button } from '../../ui/Button';
import { FingerprintNote } from './FingerprintPanel';
import { chooseSms } from './preference';
import { smsSendForm, useVerificationState } from './verification-state';

export function VerificationBar({ view, step, cancel }: { readonly view: WorkflowView; readonly step: VerificationStep; readonly cancel?: CancelAction }) {
  const { t } = useTranslation();
  const state = useVerificationState(view, step);
  const pending = useWorkflows((s) => s.pending[view.workflowId]);
  const failure = useWorkflows((s) => s.failures[view.workflowId]);
  const workflowId = view.workflowId;
  const stage = step.stage;

  const startFingerprint = () => {
    chooseSms(workflowId, false);
    void run(workflowId, 'consent.startFingerprint', { workflowId });
  };
  const fingerprintButton = (tone: 'primary' | 'secondary') => (
    <Button tone={tone} busy={pending === 'consent.startFingerprint'} onClick={startFingerprint}>
      {t('consent.byFingerprint')}
    </Button>
  );
  const smsButton = (
    <Button onClick={() => chooseSms(workflowId, true)} disabled={pending === 'consent.startFingerprint'}>
      {t('consent.bySms')}
    </Button>
  );

  let note: ReactNode = null;
  let actions = null;
  if (stage === 'awaiting-fingerprint' && !state.showSms) {
    note = <FingerprintNote step={step} />;
    actions = state.canSms ? smsButton : null;
  } else if (stage === 'sms-sent' || state.codeAccepted) {
    note = state.codeAccepted ? null : <p>{t('sms.barNoteItself')}</p>;
    actions = state.escape && state.canFingerprint ? fingerprintButton('primary') : null;
  } else if (state.escape) {
    actions = state.canFingerprint ? fingerprintButton('primary') : null;
  } else if ((stage === 'ready' || state.ended || stage === 'awaiting-fingerprint') && !state.blocked) {
    if (state.showSms && failure?.error.code === 'PENDING_AUTHORIZATION_BLOCKS_OTP') {
      actions = (
        <Button tone="primary" busy={pending === 'consent.cancel' || pending === 'consent.sendSms'} onClick={() => void cancelAndSend(workflowId, step, failure.input)}>
          {t('verification.cancelAndSend')}
        </Button>
      );
    } else if (state.showSms) {
      actions = (
        <>
          {state.canFingerprint && fingerprintButton('secondary')}
          <Button type="submit" form={smsSendForm(workflowId)} tone="primary" busy={pending === 'consent.sendSms'} disabled={!state.next.includes('consent.sendSms')}>
            {t('sms.send')}
          </Button>
        </>
      );
    } else {
      actions = (
        <>
          {state.canSms && smsButton}
          {state.canFingerprint && fingerprintButton('primary')}
        </>
      );
    }
  } else if (state.blocked) {
    note = <p>{t('verification.blocked.title')}</p>;
  }

  // The service the consent is for, named where the press is made.
  const service = (
    <p className="bar-service" title={view.intervention.name}>
      {t('verification.forService')} <strong>{view.intervention.name}</strong>
    </p>
  );
  return (
    <ActionBar
      cancel={cancel}
      note={
        <>
          {service}
          {note}
        </>
      }
    >
      {actions}
    </ActionBar>
  );
}

/**
 * A fingerprint request blocks the SMS code at SHA. This station's own open request is withdrawn,
 * then the code is sent to the contact asked for; one left open elsewhere the core withdraws itself
 * when SHA names it, so the code is simply sent again.
 */
async function cancelAndSend(workflowId: string, step: VerificationStep, input: unknown): Promise<void> {
  if (step.stage === 'awaiting-fingerprint') {
    const withdrawn = await run(workflowId, 'consent.cancel', { workflowId });
    if (!withdrawn.ok) return;
  }
  const contactId = typeof input === 'object' && input !== null && 'contactId' in input && typeof input.contactId === 'string' ? input.contactId : undefined;
  await run(workflowId, 'consent.sendSms', { workflowId, ...(contactId === undefined ? {} : { contactId }) });
}
