// The idle lock: nothing of any patient is on screen (the stores dropped it when the lock came);
// unlocking starts again at a fresh look-up.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { StationError } from '../../bridge/types';
import { go } from '../../state/navigation';
import { unlockStation } from '../../state/station-store';
import { Button } from '../../ui/Button';
import { ErrorNotice } from '../../ui/Notice';

export function LockScreen() {
  const { t } = useTranslation();
  const [error, setError] = useState<StationError | null>(null);
  const [busy, setBusy] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => button.current?.focus(), []);
  return (
    <section className="lock" aria-labelledby="lock-title">
      <h1 id="lock-title">{t('lock.title')}</h1>
      <p>{t('lock.body')}</p>
      <Button
        ref={button}
        tone="primary"
        wide
        busy={busy}
        onClick={() => {
          setBusy(true);
          void unlockStation().then((failed) => {
            setBusy(false);
            setError(failed);
            if (failed === null) go({ name: 'lookup' });
          });
        }}
      >
        {t('lock.unlock')}
      </Button>
      {error !== null && <ErrorNotice error={error} />}
    </section>
  );
}
