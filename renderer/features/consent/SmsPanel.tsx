// Consent by SMS code: the masked contacts to pick from (the main one preselected), send, resend
// after the cooldown, the code the patient reads out.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { VerificationStep } from '../../../electron/contract';
import { useFormat } from '../../i18n/format';
import { run, useWorkflows } from '../../state/workflows';
import { Button } from '../../ui/Button';
import { Countdown } from '../../ui/Countdown';
import { RadioGroup, SelectField, TextField } from '../../ui/Field';
import { useNow } from '../../ui/useNow';

type Sms = NonNullable<VerificationStep['sms']>;

export function SmsPanel({
  workflowId,
  sms,
  sent,
  next,
}: {
  readonly workflowId: string;
  readonly sms: Sms;
  readonly sent: boolean;
  readonly next: readonly string[];
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const now = useNow(1000);
  const pending = useWorkflows((s) => s.pending[workflowId]);
  const failure = useWorkflows((s) => s.failures[workflowId]);
  const mainContact = sms.contacts.find((contact) => contact.main) ?? sms.contacts[0];
  const [contactId, setContactId] = useState<string | null>(sms.selectedContactId ?? mainContact?.contactId ?? null);
  const [code, setCode] = useState('');

  const send = () => void run(workflowId, 'consent.sendSms', { workflowId, ...(contactId === null ? {} : { contactId }) });
  const resendAt = sms.resendAvailableAt === null ? null : Date.parse(sms.resendAvailableAt);
  const coolingDown = resendAt !== null && resendAt > now;
  const codeValid = /^[0-9]{4,8}$/.test(code);

  const codeFailure = failure?.command === 'consent.confirmSms' ? failure.error : null;
  const codeError =
    codeFailure === null
      ? undefined
      : codeFailure.code === 'OTP_INVALID'
        ? `${t('errors.OTP_INVALID.title')}. ${codeFailure.details?.attemptsLeft === undefined ? '' : t('errors.attemptsLeft', { count: codeFailure.details.attemptsLeft })}`
        : codeFailure.code === 'OTP_EXPIRED'
          ? `${t('errors.OTP_EXPIRED.title')}. ${t('errors.OTP_EXPIRED.action')}`
          : undefined;
  const contactChoices = sms.contacts.map((contact) => ({
    value: contact.contactId,
    label: contact.masked,
    hint: contact.main ? t('sms.mainContact') : undefined,
  }));

  return (
    <div className="sms">
      {!sent ? (
        <>
          {sms.contacts.length > 1 ? (
            <RadioGroup legend={t('sms.pickContact')} name={`contact-${workflowId}`} value={contactId} onChange={setContactId} choices={contactChoices} />
          ) : mainContact !== undefined ? (
            <p>
              {t('sms.goesTo')} <strong className="masked">{mainContact.masked}</strong>
            </p>
          ) : null}
          <Button tone="primary" busy={pending === 'consent.sendSms'} disabled={!next.includes('consent.sendSms')} onClick={send}>
            {t('sms.send')}
          </Button>
        </>
      ) : (
        <>
          <div className="sent-line">
            <p>{t('sms.sentTo', { contact: sms.sentTo ?? '', time: sms.sentAt === null ? '' : format.time(sms.sentAt) })}</p>
            {sms.codeExpiresAt !== null && <Countdown to={sms.codeExpiresAt} label={t('sms.codeExpires')} expired={t('sms.codeExpired')} />}
          </div>
          <form
            className="code-form"
            onSubmit={(event) => {
              event.preventDefault();
              if (!codeValid) return;
              void run(workflowId, 'consent.confirmSms', { workflowId, code }).then((answer) => {
                if (answer.ok) setCode('');
              });
            }}
          >
            <TextField
              label={t('sms.codeLabel')}
              value={code}
              onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, 8))}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={8}
              hint={t('sms.codeHint')}
              error={codeError}
              className="input-code"
              autoFocus
            />
            <Button type="submit" tone="primary" busy={pending === 'consent.confirmSms'} disabled={!codeValid || !next.includes('consent.confirmSms')}>
              {t('sms.confirm')}
            </Button>
          </form>
          {sms.failedAttempts > 0 && codeError === undefined && <p className="bad-text">{t('sms.failedAttempts', { count: sms.failedAttempts })}</p>}
          <div className="actions resend">
            {sms.contacts.length > 1 && (
              <SelectField label={t('sms.resendTo')} value={contactId ?? ''} onChange={(event) => setContactId(event.target.value)} choices={contactChoices} />
            )}
            <Button busy={pending === 'consent.sendSms'} disabled={coolingDown || !next.includes('consent.sendSms')} onClick={send}>
              {coolingDown && resendAt !== null ? t('sms.resendIn', { time: format.timeLeft(resendAt - now) }) : t('sms.resend')}
            </Button>
          </div>
        </>
      )}
    </div>
  );
}
