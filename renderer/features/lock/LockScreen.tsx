// The lock, which is also where a shift starts: nothing of any patient is on screen (the stores
// dropped it when the lock came). A staff member's PIN opens the station — the same nurse's, or
// another's, which signs her in instead — at a fresh look-up. A station that has no administrator
// yet, outside training, first asks the IT officer to make one.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { StationError } from '../../bridge/types';
import { go } from '../../state/navigation';
import { setUpAdministrator, unlockStation, useStation } from '../../state/station-store';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { ErrorNotice, Notice } from '../../ui/Notice';

export function LockScreen() {
  const { t } = useTranslation();
  const status = useStation((s) => s.status);
  const firstAdministrator = status !== null && !status.administratorExists && !status.trainingMode && status.staff === null;
  const signedOut = status?.staff === null;
  return (
    <section className="lock" aria-labelledby="lock-title">
      <h1 id="lock-title">{firstAdministrator || signedOut ? t('lock.signedOutTitle') : t('lock.title')}</h1>
      {firstAdministrator ? (
        <FirstAdministrator />
      ) : (
        <>
          <p>{signedOut ? t('lock.signedOutBody') : t('lock.body')}</p>
          {status?.staff != null && <p className="muted">{t('lock.lockedBy', { name: status.staff.name })}</p>}
          <PinForm />
        </>
      )}
    </section>
  );
}

function PinForm() {
  const { t } = useTranslation();
  const [pin, setPin] = useState('');
  const [error, setError] = useState<StationError | null>(null);
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.focus(), []);
  const signIn = async () => {
    setBusy(true);
    const failed = await unlockStation(pin);
    setBusy(false);
    setPin('');
    setError(failed);
    // Signed in, the station's navigation opens what she was doing (or the look-up for someone else).
    if (failed !== null) field.current?.focus();
  };
  return (
    <form
      className="lock-form"
      onSubmit={(event) => {
        event.preventDefault();
        void signIn();
      }}
    >
      <TextField ref={field} label={t('lock.pin')} hint={t('lock.pinHint')} type="password" autoComplete="off" inputMode="numeric" value={pin} onChange={(e) => setPin(e.target.value)} required />
      {error !== null && <ErrorNotice error={error} />}
      <Button type="submit" tone="primary" wide busy={busy} disabled={pin === ''}>
        {t('lock.signIn')}
      </Button>
    </form>
  );
}

const ADMINISTRATOR_PIN_LENGTH = 6;

function FirstAdministrator() {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [pin, setPin] = useState('');
  const [again, setAgain] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [error, setError] = useState<StationError | null>(null);
  const [busy, setBusy] = useState(false);
  const create = async () => {
    if (pin.length < ADMINISTRATOR_PIN_LENGTH) return setProblem(t('lock.firstAdmin.tooShort'));
    if (pin !== again) return setProblem(t('lock.firstAdmin.mismatch'));
    setProblem(null);
    setBusy(true);
    const failed = await setUpAdministrator({ name: name.trim(), pin });
    setBusy(false);
    setError(failed);
    if (failed === null) go({ name: 'setup' });
  };
  return (
    <form
      className="lock-form"
      onSubmit={(event) => {
        event.preventDefault();
        void create();
      }}
    >
      <h2>{t('lock.firstAdmin.title')}</h2>
      <p>{t('lock.firstAdmin.body')}</p>
      <TextField label={t('lock.firstAdmin.name')} value={name} onChange={(e) => setName(e.target.value)} required autoComplete="off" />
      <TextField label={t('lock.firstAdmin.pin')} type="password" value={pin} onChange={(e) => setPin(e.target.value)} required autoComplete="off" />
      <TextField label={t('lock.firstAdmin.pinAgain')} type="password" value={again} onChange={(e) => setAgain(e.target.value)} required autoComplete="off" error={problem ?? undefined} />
      {error !== null && <ErrorNotice error={error} />}
      {problem === null && error === null && <Notice tone="info">{t('lock.pinHint')}</Notice>}
      <Button type="submit" tone="primary" wide busy={busy}>
        {t('lock.firstAdmin.create')}
      </Button>
    </form>
  );
}
