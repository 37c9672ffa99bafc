// Consent by SMS code: the words to read to the patient, the masked contacts to pick from (the main
// one preselected; "Send code" is the action bar's, submitting this form), resend after the cooldown,
// the code the patient reads out. The field takes no more digits than the exchange's codes have, and
// a code typed to its full length confirms itself (no press) wherever it is asked — consent, the
// visit end, an emergency patient's identification; "Confirm" stays for a second try, and joins a
// confirmation already on its way instead of sending the code twice. A refused code is cleared, the
// error beside the empty field, scrolled into view; the last try says what comes after it, and once
// no try is left the field is closed and no Confirm is offered (the way on is the fingerprint or
// SHA's permission, above). Once the code is accepted the form stays, read-only, beside the open visit.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { VerificationStep } from '../../../electron/contract';
import { useFormat } from '../../i18n/format';
import { go } from '../../state/navigation';
import { run, useWorkflows } from '../../state/workflows';
import { Button } from '../../ui/Button';
import { Countdown } from '../../ui/Countdown';
import { RadioGroup, SelectField, TextField } from '../../ui/Field';
import { useNow } from '../../ui/useNow';
import { patience, Waiting } from '../../ui/Waiting';
import { PatientScript } from './PatientScript';
import type { ScriptPurpose } from './PatientScript';
import { smsCodeForm, smsSendForm } from './verification-state';

type Sms = NonNullable<VerificationStep['sms']>;

export function SmsPanel({
  workflowId,
  sms,
  sent,
  accepted,
  fallback,
  purpose,
  next,
}: {
  readonly workflowId: string;
  readonly sms: Sms;
  readonly sent: boolean;
  /** The code was accepted: the visit it opened is shown beside. */
  readonly accepted: boolean;
  /** The fallback after unusable fingerprints: its own words to the patient are on screen already. */
  readonly fallback: boolean;
  /** What the patient agrees to, said in the words read to them. */
  readonly purpose: ScriptPurpose;
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
  const [tried, setTried] = useState(false);
  /** The code last sent to be confirmed: typed again unchanged, it is not sent again by itself. */
  const confirmed = useRef<string | null>(null);
  const field = useRef<HTMLInputElement>(null);

  const send = () => void run(workflowId, 'consent.sendSms', { workflowId, ...(contactId === null ? {} : { contactId }) });
  const resendAt = sms.resendAvailableAt === null ? null : Date.parse(sms.resendAvailableAt);
  const coolingDown = resendAt !== null && resendAt > now;
  const codeValid = code.length === sms.codeLength;
  const confirming = pending === 'consent.confirmSms';

  const codeFailure = failure?.command === 'consent.confirmSms' ? failure.error : null;
  /** Three wrong codes: no code is taken any more (the core offers no confirmation). */
  const outOfTries = !accepted && sms.escapeOffered;
  const lastTry = codeFailure?.code === 'OTP_INVALID' && codeFailure.details?.attemptsLeft === 1;
  // A refused code is cleared for the next one, its error in view beside the field.
  useEffect(() => {
    if (codeFailure?.code !== 'OTP_INVALID' && codeFailure?.code !== 'OTP_EXPIRED') return;
    setCode('');
    confirmed.current = null;
    field.current?.scrollIntoView({ block: 'center' });
    field.current?.focus();
  }, [codeFailure]);
  const confirm = (value: string) => {
    // The same code again joins its confirmation, or, refused as wrong, would only count once more.
    if (accepted || (value === confirmed.current && (confirming || codeFailure?.code === 'OTP_INVALID'))) return;
    confirmed.current = value;
    void run(workflowId, 'consent.confirmSms', { workflowId, code: value });
  };
  const typed = (value: string) => {
    const digits = value.replace(/\D/g, '').slice(0, sms.codeLength);
    setCode(digits);
    if (digits.length === sms.codeLength && digits !== confirmed.current && next.includes('consent.confirmSms')) confirm(digits);
  };

  const codeError =
    codeFailure === null
      ? undefined
      : codeFailure.code === 'OTP_INVALID'
        ? `${t('errors.OTP_INVALID.title')}. ${codeFailure.details?.attemptsLeft === undefined ? '' : t('errors.attemptsLeft', { count: codeFailure.details.attemptsLeft })}${lastTry ? ` ${t('sms.lastTry')}` : ''}`
        : codeFailure.code === 'OTP_EXPIRED'
          ? `${t('errors.OTP_EXPIRED.title')}. ${t('errors.OTP_EXPIRED.action')}`
          : undefined;
  const contactChoices = sms.contacts.map((contact) => ({
    value: contact.contactId,
    label: contact.masked,
    hint: contact.main ? t('sms.mainContact') : undefined,
  }));
  const toPatient = () => go({ name: 'patient' });

  return (
    <div className="sms">
      {!sent ? (
        <form
          id={smsSendForm(workflowId)}
          className="sms-send"
          onSubmit={(event) => {
            event.preventDefault();
            send();
          }}
        >
          {!fallback && <PatientScript purpose={purpose} about="code" />}
          {sms.contacts.length > 1 ? (
            <RadioGroup legend={t('sms.pickContact')} name={`contact-${workflowId}`} value={contactId} onChange={setContactId} choices={contactChoices} />
          ) : mainContact !== undefined ? (
            <p>
              {t('sms.goesTo')} <strong className="masked">{mainContact.masked}</strong>
            </p>
          ) : null}
          {pending === 'consent.sendSms' && (
            <Waiting patienceMs={patience.write} onCancel={toPatient} cancelLabel={t('consent.backToPatient')}>
              {t('sms.sending')}
            </Waiting>
          )}
        </form>
      ) : (
        <>
          <div className="sent-line">
            <p>{t('sms.sentTo', { contact: sms.sentTo ?? '', time: sms.sentAt === null ? '' : format.time(sms.sentAt) })}</p>
            {!accepted && sms.codeExpiresAt !== null && <Countdown to={sms.codeExpiresAt} label={t('sms.codeExpires')} expired={t('sms.codeExpired')} />}
          </div>
          {!accepted && <p className="patient-words">{t('sms.readOut')}</p>}
          <form
            id={smsCodeForm(workflowId)}
            className="code-form"
            onSubmit={(event) => {
              event.preventDefault();
              if (accepted) return;
              if (codeValid) confirm(code);
              else setTried(true);
            }}
          >
            <TextField
              ref={field}
              label={t('sms.codeLabel')}
              value={code}
              onChange={(event) => typed(event.target.value)}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={sms.codeLength}
              readOnly={accepted || outOfTries}
              hint={accepted ? t('sms.accepted') : outOfTries ? t('sms.noTriesLeft') : t('sms.codeHint', { count: sms.codeLength })}
              error={codeError ?? (tried && !codeValid ? t('sms.codeNeeded', { count: sms.codeLength }) : undefined)}
              className="input-code"
              autoFocus
            />
            {!outOfTries && (
              <Button type="submit" tone="primary" disabled={!accepted && !next.includes('consent.confirmSms')}>
                {t('sms.confirm')}
              </Button>
            )}
          </form>
          {confirming && (
            <Waiting patienceMs={patience.write} onCancel={toPatient} cancelLabel={t('consent.backToPatient')}>
              {t('sms.confirming')}
            </Waiting>
          )}
          {!accepted && sms.failedAttempts > 0 && codeError === undefined && <p className="bad-text">{t('sms.failedAttempts', { count: sms.failedAttempts })}</p>}
          {!accepted && next.includes('consent.sendSms') && (
            <div className="actions resend">
              {sms.contacts.length > 1 && (
                <SelectField label={t('sms.resendTo')} value={contactId ?? ''} onChange={(event) => setContactId(event.target.value)} choices={contactChoices} />
              )}
              <Button busy={pending === 'consent.sendSms'} disabled={coolingDown || !next.includes('consent.sendSms')} onClick={send}>
                {coolingDown && resendAt !== null ? t('sms.resendIn', { time: format.timeLeft(resendAt - now) }) : t('sms.resend')}
              </Button>
            </div>
          )}
        </>
      )}
    </div>
  );
}
