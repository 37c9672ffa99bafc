// Consent by fingerprint: which finger, in plain words, and the SHA page as large as the screen
// allows, so the patient can follow it. The station moves on by itself when SHA confirms (the page's
// completion asks at once; the core also keeps asking); "Ask SHA now" is there for a page that says
// it is done while nothing moves. The reader's diagnostics appear only when something is wrong, in
// the status bar's own words; a capture asked for by any page other than SHA's is shown to decline.
import { useTranslation } from 'react-i18next';
import type { VerificationStep } from '../../../electron/contract';
import { useFormat } from '../../i18n/format';
import { declineCapture, refreshReaders, useStation } from '../../state/station-store';
import { useWorkflows } from '../../state/workflows';
import { Button } from '../../ui/Button';
import { Countdown } from '../../ui/Countdown';
import { Notice } from '../../ui/Notice';
import { readerWords, serviceWords } from '../status/readerWords';
import { AuthorizationArea } from './AuthorizationArea';
import { checkFingerprint } from './check';
import { PatientScript } from './PatientScript';
import type { ScriptPurpose } from './PatientScript';

export function FingerprintPanel({ workflowId, step, purpose }: { readonly workflowId: string; readonly step: VerificationStep; readonly purpose: ScriptPurpose }) {
  const { t } = useTranslation();
  const pending = useWorkflows((s) => s.pending[workflowId]);
  const link = step.fingerprint?.link ?? null;
  if (link === null) return <p className="progress">{t('fingerprint.requesting')}</p>;
  // Which finger, and the time the page stays open, are in the action bar: the page takes the screen.
  return (
    <div className="fingerprint">
      <ReaderTrouble pageOrigin={new URL(link.url).origin} />
      <PatientScript purpose={purpose} about="finger" />
      <AuthorizationArea workflowId={workflowId} link={link} />
      <p className="fingerprint-foot">
        <span className="muted small">{t('fingerprint.movesOn')}</span>{' '}
        <Button tone="quiet" busy={pending === 'consent.checkFingerprint'} onClick={() => void checkFingerprint(workflowId)}>
          {t('fingerprint.checkNow')}
        </Button>
      </p>
    </div>
  );
}

/**
 * Only when something is wrong: the reader or the hardware service as the status bar says it, what to
 * do about it, and a capture asked for by a page that is not SHA's.
 */
export function ReaderTrouble({ pageOrigin }: { readonly pageOrigin: string | null }) {
  const { t } = useTranslation();
  const format = useFormat();
  const readers = useStation((s) => s.readers);
  const capture = useStation((s) => s.capture);
  if (readers === null) return null;
  const reader = readerWords(readers);
  const service = serviceWords(readers);
  const serviceState = readers.hardwareService.state;
  const readerAbsent = readers.reader.state === 'absent' && !readers.reader.virtual && serviceState !== 'ready';
  const readerWrong = reader.tone !== 'ok' && (readers.reader.state !== 'absent' || readerAbsent);
  const strangeCapture = capture !== null && capture.origin !== pageOrigin;
  if (!readerWrong && service.tone === 'ok' && !strangeCapture) return null;
  return (
    <div className="reader-trouble">
      {(readerWrong || service.tone !== 'ok') && (
        <Notice tone="warn" title={[readerWrong ? reader.text(t) : null, service.tone !== 'ok' ? service.text(t) : null].filter(Boolean).join(' · ')}>
          {service.tone !== 'ok' && <p>{t(`readers.fix.${serviceState}`)}</p>}
          {readerAbsent && <p>{t('readers.fix.absent')}</p>}
          {readers.reader.message !== null && <p>{readers.reader.message}</p>}
          <div className="actions">
            <Button onClick={() => void refreshReaders(true)}>{t('readers.checkAgain')}</Button>
          </div>
        </Notice>
      )}
      {strangeCapture && (
        <Notice tone="info" title={t('readers.capture.title')}>
          <p>{t('readers.capture.body', { origin: capture.origin, time: format.clock(capture.requestedAt) })}</p>
          <div className="actions">
            <Button onClick={() => void declineCapture()}>{t('readers.capture.decline')}</Button>
          </div>
        </Notice>
      )}
    </div>
  );
}

/** The action bar's note while SHA's page waits: which finger, and how long the page stays open. */
export function FingerprintNote({ step }: { readonly step: VerificationStep }) {
  const { t } = useTranslation();
  const link = step.fingerprint?.link ?? null;
  return (
    <div className="fingerprint-note">
      <p className="fingerprint-instruction">{t('fingerprint.instructions')}</p>
      {link !== null && <Countdown to={link.expiresAt} label={t('fingerprint.linkExpires')} expired={t('fingerprint.linkExpired')} />}
    </div>
  );
}
