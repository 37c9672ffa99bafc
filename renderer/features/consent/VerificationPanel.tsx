// The verification step of any workflow taking consent (consent, elective, discharge, emergency), as
// the nurse reads it: the route the station core chose and why, the SMS panel (with the words to read
// to the patient) or the SHA fingerprint page, what went wrong and the way out, and the whitelist
// request when nothing else can work. Its one next step is in the action bar (VerificationBar).
import { useTranslation } from 'react-i18next';
import type { VerificationStep, WorkflowView } from '../../../electron/contract';
import { go } from '../../state/navigation';
import { retry, useWorkflows } from '../../state/workflows';
import { Countdown } from '../../ui/Countdown';
import { ErrorNotice, Notice } from '../../ui/Notice';
import { patience, Waiting } from '../../ui/Waiting';
import { FingerprintPanel } from './FingerprintPanel';
import { PatientScript } from './PatientScript';
import type { ScriptPurpose } from './PatientScript';
import { SmsPanel } from './SmsPanel';
import { useVerificationState } from './verification-state';
import { WhitelistForm } from './WhitelistForm';

export function VerificationPanel({ view, step }: { readonly view: WorkflowView; readonly step: VerificationStep }) {
  const { t } = useTranslation();
  const workflowId = view.workflowId;
  const state = useVerificationState(view, step);
  const failure = useWorkflows((s) => s.failures[workflowId]);
  const pending = useWorkflows((s) => s.pending[workflowId]);
  const stage = step.stage;
  const fingerprintOnScreen = stage === 'awaiting-fingerprint' && !state.showSms;
  const closeBy = view.kind === 'discharge' ? view.closeBy : null;
  const purpose: ScriptPurpose = step.purpose === 'discharge' && closeBy === 'submit' ? 'visit-end' : step.purpose;

  return (
    <section className="panel verification" aria-labelledby={`verification-${workflowId}`}>
      <h2 id={`verification-${workflowId}`}>{t(`verification.purpose.${purpose}`)}</h2>
      {!fingerprintOnScreen && <RouteExplained step={step} purpose={purpose} />}

      {failure !== undefined && !(failure.command === 'consent.confirmSms' && (failure.error.code === 'OTP_INVALID' || failure.error.code === 'OTP_EXPIRED')) && (
        <FailureNotice workflowId={workflowId} />
      )}
      {failure === undefined && view.lastError !== null && stage !== 'verified' && <ErrorNotice error={view.lastError} />}

      {stage === 'verified' && !state.codeAccepted && (
        <Notice tone="ok" title={t('verification.verified')}>
          <p>{t('verification.verifiedPatient')}</p>
        </Notice>
      )}

      {state.blocked && (
        <>
          <Notice tone="bad" title={t('verification.blocked.title')}>
            <p>{t(`consent.reason.${step.route.reason}`)}</p>
          </Notice>
          {state.next.includes('consent.requestWhitelist') || step.whitelist !== null ? <WhitelistForm workflowId={workflowId} whitelist={step.whitelist} /> : null}
        </>
      )}

      {state.ended && (
        <Notice tone="warn" title={t(`verification.ended.${stage}`)}>
          <p>{t(`verification.endedHelp.${stage}`)}</p>
        </Notice>
      )}

      {state.escape && (
        <div className="escape">
          <h3>{t('verification.escape.title')}</h3>
          <p>{t('verification.escape.body')}</p>
          {(step.whitelist !== null || state.next.includes('consent.requestWhitelist')) && step.route.route !== 'blocked' && (
            <WhitelistForm workflowId={workflowId} whitelist={step.whitelist} />
          )}
        </div>
      )}

      {state.showSms && step.sms !== null && (
        <SmsPanel
          workflowId={workflowId}
          sms={step.sms}
          sent={stage === 'sms-sent' || state.codeAccepted}
          accepted={state.codeAccepted}
          fallback={step.route.route === 'sms-fallback'}
          purpose={purpose}
          next={state.next}
        />
      )}
      {fingerprintOnScreen && <FingerprintPanel workflowId={workflowId} step={step} purpose={purpose} />}

      {pending === 'consent.startFingerprint' && (
        <Waiting patienceMs={patience.write} onCancel={() => go({ name: 'patient' })} cancelLabel={t('consent.backToPatient')}>
          {t('fingerprint.requesting')}
        </Waiting>
      )}
    </section>
  );
}

/** The route and its reason in words; the SMS fallback after unusable fingerprints in the patient's words. */
function RouteExplained({ step, purpose }: { readonly step: VerificationStep; readonly purpose: ScriptPurpose }) {
  const { t } = useTranslation();
  const route = step.route;
  if (route.route === 'sms-fallback') {
    return (
      <div className="notice notice-info fallback">
        <p className="notice-title">{t('consent.fallback.title')}</p>
        <PatientScript purpose={purpose} about="fallback" />
        <p>{t('consent.fallback.nurse')}</p>
        {route.fallbackUntil !== null && <Countdown to={route.fallbackUntil} label={t('consent.fallback.until')} expired={t('consent.fallback.closed')} />}
      </div>
    );
  }
  if (step.stage === 'verified' || route.route === 'blocked') return null;
  return (
    <p className="route">
      <strong>{route.route === 'fingerprint' && route.smsAllowed ? t('consent.route.fingerprint-or-sms') : t(`consent.route.${route.route}`)}</strong> —{' '}
      {t(`consent.reason.${route.reason}`)}
    </p>
  );
}

/**
 * A failed command with its way out. A fingerprint request still open that blocks SMS codes at SHA
 * has its own: the action bar's one button withdraws it and sends the code (VerificationBar).
 */
function FailureNotice({ workflowId }: { readonly workflowId: string }) {
  const failure = useWorkflows((s) => s.failures[workflowId]);
  const pending = useWorkflows((s) => s.pending[workflowId]);
  if (failure === undefined) return null;
  const blocked = failure.error.code === 'PENDING_AUTHORIZATION_BLOCKS_OTP';
  return <ErrorNotice error={failure.error} onRetry={blocked ? undefined : () => void retry(workflowId)} retryBusy={pending !== undefined} />;
}
