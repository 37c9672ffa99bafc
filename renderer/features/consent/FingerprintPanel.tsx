// Consent by fingerprint: the reader and hardware-service state (with what to do about each), the
// authorization page in its reserved area, the time left on the link, cancel and check now.
import { useTranslation } from 'react-i18next';
import type { VerificationStep } from '../../../electron/contract';
import { useFormat } from '../../i18n/format';
import { declineCapture, refreshReaders, useStation } from '../../state/station-store';
import { run, useWorkflows } from '../../state/workflows';
import { Button } from '../../ui/Button';
import { Countdown } from '../../ui/Countdown';
import { Notice } from '../../ui/Notice';
import { AuthorizationArea } from './AuthorizationArea';
import { checkFingerprint } from './check';

export function FingerprintPanel({ workflowId, step, next }: { readonly workflowId: string; readonly step: VerificationStep; readonly next: readonly string[] }) {
  const { t } = useTranslation();
  const pending = useWorkflows((s) => s.pending[workflowId]);
  const link = step.fingerprint?.link ?? null;
  return (
    <div className="fingerprint">
      <div className="fingerprint-side">
        {link === null ? (
          <p className="progress">{t('fingerprint.requesting')}</p>
        ) : (
          <>
            <p>{t('fingerprint.instructions')}</p>
            <Countdown to={link.expiresAt} label={t('fingerprint.linkExpires')} expired={t('fingerprint.linkExpired')} />
          </>
        )}
        <div className="actions">
          <Button busy={pending === 'consent.checkFingerprint'} onClick={() => void checkFingerprint(workflowId)}>
            {t('fingerprint.checkNow')}
          </Button>
          {next.includes('consent.cancel') && (
            <Button tone="danger" busy={pending === 'consent.cancel'} onClick={() => void run(workflowId, 'consent.cancel', { workflowId })}>
              {t('fingerprint.cancel')}
            </Button>
          )}
        </div>
        <ReaderDetails />
      </div>
      {link !== null && <AuthorizationArea workflowId={workflowId} link={link} />}
    </div>
  );
}

/** The detail behind the status bar, with the recovery for each state. */
export function ReaderDetails() {
  const { t } = useTranslation();
  const format = useFormat();
  const readers = useStation((s) => s.readers);
  const capture = useStation((s) => s.capture);
  if (readers === null) return null;
  const service = readers.hardwareService;
  const local = readers.localDeviceService;
  const serviceOk = service.state === 'ready' || local.state === 'running';
  return (
    <div className="reader-details">
      <ul className="reader-lines">
        <li className={readers.reader.state === 'error' || readers.reader.state === 'absent' ? 'warn-text' : undefined}>
          <strong>{t('readers.reader')}:</strong> {readers.reader.virtual ? t('readers.virtual') : (readers.reader.label ?? '')} {t(`readers.state.${readers.reader.state}`)}
          {readers.reader.message !== null && <> · {readers.reader.message}</>}
        </li>
        <li className={serviceOk ? undefined : 'warn-text'}>
          <strong>{t('readers.serviceLabel')}:</strong> {t(`readers.service.${service.state}`)}
          {local.state !== 'off' && <> · {t(`readers.local.${local.state}`)}</>}
        </li>
      </ul>
      {!serviceOk && <Notice tone="warn">{t(`readers.fix.${service.state}`)}</Notice>}
      {readers.reader.state === 'absent' && !readers.reader.virtual && service.state !== 'ready' && <Notice tone="warn">{t('readers.fix.absent')}</Notice>}
      {capture !== null && (
        <Notice tone="info" title={t('readers.capture.title')}>
          <p>{t('readers.capture.body', { origin: capture.origin, time: format.time(capture.requestedAt) })}</p>
          <Button onClick={() => void declineCapture()}>{t('readers.capture.decline')}</Button>
        </Notice>
      )}
      <Button tone="quiet" onClick={() => void refreshReaders(true)}>
        {t('readers.checkAgain')}
      </Button>
    </div>
  );
}
