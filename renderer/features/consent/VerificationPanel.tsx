// The verification step of any workflow taking consent (consent, elective, discharge, emergency):
// the route the station core chose and why, then the SMS or fingerprint panel, the ways out after a
// rejection, expiry or three wrong codes, and the whitelist request when nothing else can work.
import { useTranslation } from 'react-i18next';
import type { VerificationStep, WorkflowView } from '../../../electron/contract';
import { go } from '../../state/navigation';
import { retry, run, useWorkflows } from '../../state/workflows';
import { Button } from '../../ui/Button';
import { Countdown } from '../../ui/Countdown';
import { ErrorNotice, Notice } from '../../ui/Notice';
import { patience, Waiting } from '../../ui/Waiting';
import { FingerprintPanel } from './FingerprintPanel';
import { chooseSms, useRoutePreference } from './preference';
import { SmsPanel } from './SmsPanel';
import { WhitelistForm } from './WhitelistForm';

export function VerificationPanel({ view, step }: { readonly view: WorkflowView; readonly step: VerificationStep }) {
  const { t } = useTranslation();
  const workflowId = view.workflowId;
  const next: readonly string[] = view.next;
  const failure = useWorkflows((s) => s.failures[workflowId]);
  const pending = useWorkflows((s) => s.pending[workflowId]);
  const smsChosen = useRoutePreference((s) => s.smsChosen[workflowId] ?? false);
  const route = step.route;
  const stage = step.stage;

  const startFingerprint = () => {
    chooseSms(workflowId, false);
    void run(workflowId, 'consent.startFingerprint', { workflowId });
  };
  const canFingerprint = route.fingerprintAllowed && next.includes('consent.startFingerprint');
  const canSms = route.smsAllowed && next.includes('consent.sendSms');
  const ended = stage === 'rejected' || stage === 'expired' || stage === 'cancelled';
  // Where the code opens the visit it confirms itself once complete, and stays on screen, read-only,
  // beside the visit it opened ("Confirm" with it: a press that comes late still finds it).
  const opensVisit = step.purpose === 'visit' || step.purpose === 'visit-day';
  const codeAccepted = opensVisit && stage === 'verified' && step.verifiedBy === 'sms';
  const showSms =
    stage === 'sms-sent' || codeAccepted || (canSms && (stage === 'ready' || ended || stage === 'awaiting-fingerprint') && (smsChosen || !route.fingerprintAllowed));

  return (
    <section className="panel verification" aria-labelledby={`verification-${workflowId}`}>
      <h2 id={`verification-${workflowId}`}>{t(`verification.purpose.${step.purpose}`)}</h2>
      <RouteExplained step={step} />

      {failure !== undefined && !(failure.command === 'consent.confirmSms' && (failure.error.code === 'OTP_INVALID' || failure.error.code === 'OTP_EXPIRED')) && (
        <FailureNotice workflowId={workflowId} />
      )}
      {failure === undefined && view.lastError !== null && stage !== 'verified' && <ErrorNotice error={view.lastError} />}

      {stage === 'verified' && (
        <Notice tone="ok" title={t('verification.verified')}>
          <p>{t('verification.verifiedPatient')}</p>
        </Notice>
      )}

      {(stage === 'blocked' || route.route === 'blocked') && stage !== 'verified' && (
        <>
          <Notice tone="bad" title={t('verification.blocked.title')}>
            <p>{t(`consent.reason.${route.reason}`)}</p>
          </Notice>
          {next.includes('consent.requestWhitelist') || step.whitelist !== null ? <WhitelistForm workflowId={workflowId} whitelist={step.whitelist} /> : null}
        </>
      )}

      {ended && (
        <Notice tone="warn" title={t(`verification.ended.${stage}`)}>
          <p>{t(`verification.endedHelp.${stage}`)}</p>
          {next.includes('consent.retry') && (
            <Button tone="primary" busy={pending === 'consent.retry'} onClick={() => void run(workflowId, 'consent.retry', { workflowId })}>
              {t('verification.retry')}
            </Button>
          )}
        </Notice>
      )}

      {step.sms?.escapeOffered === true && stage !== 'verified' && (
        <div className="escape">
          <h3>{t('verification.escape.title')}</h3>
          <p>{t('verification.escape.body')}</p>
          {canFingerprint && (
            <Button tone="primary" onClick={startFingerprint}>
              {t('consent.byFingerprint')}
            </Button>
          )}
          {(step.whitelist !== null || next.includes('consent.requestWhitelist')) && route.route !== 'blocked' && (
            <WhitelistForm workflowId={workflowId} whitelist={step.whitelist} />
          )}
        </div>
      )}

      {stage === 'awaiting-fingerprint' && canSms && !showSms && (
        <div className="actions">
          <Button onClick={() => chooseSms(workflowId, true)}>{t('consent.bySms')}</Button>
        </div>
      )}
      {showSms && step.sms !== null && <SmsPanel workflowId={workflowId} sms={step.sms} sent={stage === 'sms-sent' || codeAccepted} accepted={codeAccepted} confirmsItself={opensVisit} next={next} />}
      {stage === 'awaiting-fingerprint' && <FingerprintPanel workflowId={workflowId} step={step} next={next} />}

      {(stage === 'ready' || ended) && step.sms?.escapeOffered !== true && route.route !== 'blocked' && (
        <div className="actions route-choice">
          {canFingerprint && (
            <Button tone={showSms ? 'secondary' : 'primary'} busy={pending === 'consent.startFingerprint'} onClick={startFingerprint}>
              {t('consent.byFingerprint')}
            </Button>
          )}
          {canSms && !showSms && (
            <Button tone="primary" onClick={() => chooseSms(workflowId, true)}>
              {t('consent.bySms')}
            </Button>
          )}
        </div>
      )}
      {pending === 'consent.startFingerprint' && (
        <Waiting patienceMs={patience.write} onCancel={() => go({ name: 'patient' })} cancelLabel={t('consent.backToPatient')}>
          {t('fingerprint.requesting')}
        </Waiting>
      )}
    </section>
  );
}

/** The route and its reason in words; the SMS fallback after unusable fingerprints in the patient's words. */
function RouteExplained({ step }: { readonly step: VerificationStep }) {
  const { t } = useTranslation();
  const route = step.route;
  if (route.route === 'sms-fallback') {
    return (
      <div className="notice notice-info fallback">
        <p className="notice-title">{t('consent.fallback.title')}</p>
        <p className="patient-words" lang={undefined}>
          {t('consent.fallback.patientWords')}
        </p>
        <p>{t('consent.fallback.nurse')}</p>
        {route.fallbackUntil !== null && <Countdown to={route.fallbackUntil} label={t('consent.fallback.until')} expired={t('consent.fallback.closed')} />}
      </div>
    );
  }
  return (
    <p className="route">
      <strong>{route.route === 'fingerprint' && route.smsAllowed ? t('consent.route.fingerprint-or-sms') : t(`consent.route.${route.route}`)}</strong> —{' '}
      {t(`consent.reason.${route.reason}`)}
    </p>
  );
}

/** A failed command with its way out; a stale fingerprint request blocking SMS codes gets its own button. */
function FailureNotice({ workflowId }: { readonly workflowId: string }) {
  const { t } = useTranslation();
  const failure = useWorkflows((s) => s.failures[workflowId]);
  const pending = useWorkflows((s) => s.pending[workflowId]);
  if (failure === undefined) return null;
  const code = failure.error.code;
  return (
    <ErrorNotice error={failure.error} onRetry={code === 'PENDING_AUTHORIZATION_BLOCKS_OTP' ? undefined : () => void retry(workflowId)} retryBusy={pending !== undefined}>
      {code === 'PENDING_AUTHORIZATION_BLOCKS_OTP' && (
        <Button tone="primary" busy={pending === 'consent.cancel'} onClick={() => void run(workflowId, 'consent.cancel', { workflowId })}>
          {t('verification.cancelPending')}
        </Button>
      )}
    </ErrorNotice>
  );
}
