// SHA's side of a visit's prescriptions, read back on opening and on demand ("Check with SHA now").
// SHA answers about one prescription of a visit at a time, so the bar says which one it was when
// the visit has several, tells the nurse when a prescription whose answer was lost is now known to
// be at SHA, and never suggests writing one again on SHA's silence alone.
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { CommandOutput, StationError } from '../../bridge/types';
import { useFormat } from '../../i18n/format';
import { call } from '../../state/bridge';
import { Button } from '../../ui/Button';
import { ErrorNotice, Notice } from '../../ui/Notice';
import type { Prescription } from './PrescriptionList';

type Check = CommandOutput<'prescription.check'>;

/** Reads the visit's prescriptions back the first time `enabled` (prescriptions held on it); `check` asks again. */
export function usePrescriptionReadBack(workflowId: string, enabled: boolean, onItems: (items: Prescription[]) => void) {
  const [last, setLast] = useState<Check | null>(null);
  const [error, setError] = useState<StationError | null>(null);
  const [busy, setBusy] = useState(false);
  // Asked once on opening (once there is something to read back), then on demand: a check that
  // makes the list non-empty must not be followed by another that replaces what it said.
  const asked = useRef(false);

  const check = useCallback(async () => {
    asked.current = true;
    setBusy(true);
    const answer = await call('prescription.check', { workflowId });
    setBusy(false);
    if (answer.ok) {
      setError(null);
      setLast(answer.value);
      onItems(answer.value.items);
    } else setError(answer.error);
  }, [workflowId, onItems]);

  useEffect(() => {
    asked.current = false;
  }, [workflowId]);
  useEffect(() => {
    if (!enabled || asked.current) return;
    asked.current = true;
    void check();
  }, [check, enabled]);

  return { last, error, busy, check };
}

/** When SHA was last asked, what went wrong asking, what its answer means (children), and the button to ask again. */
export function CheckWithSha({
  busy,
  checkedAt,
  error,
  onCheck,
  children,
}: {
  readonly busy: boolean;
  readonly checkedAt: string | null;
  readonly error: StationError | null;
  readonly onCheck: () => void;
  readonly children?: ReactNode;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <div className="read-back" aria-live="polite">
      <p className="muted">{busy ? t('rxReadback.checking') : checkedAt === null ? t('rxReadback.notChecked') : t('rxReadback.checkedAt', { time: format.clock(checkedAt) })}</p>
      {error !== null && <ErrorNotice error={error} />}
      {error !== null && checkedAt !== null && <p className="muted">{t('rxReadback.checkFailed')}</p>}
      {children}
      <Button onClick={onCheck} busy={busy}>
        {t('rxReadback.checkNow')}
      </Button>
    </div>
  );
}

export function ReadBackBar({ readBack }: { readonly readBack: ReturnType<typeof usePrescriptionReadBack> }) {
  const { t } = useTranslation();
  const { last, error, busy, check } = readBack;
  const shown = last?.items.find((rx) => rx.prescriptionRef === last.shownRef);
  const code = shown?.exchangeCode ?? t('prescriptions.noCode');
  const unconfirmed = last?.items.some((rx) => rx.state === 'unconfirmed') ?? false;
  return (
    <CheckWithSha busy={busy} checkedAt={last?.checkedAt ?? null} error={error} onCheck={() => void check()}>
      {last?.answer === 'settled' && <Notice tone="ok">{t('rxReadback.answer.settled', { code })}</Notice>}
      {last?.answer === 'matched' && last.items.length > 1 && <p>{t('rxReadback.answer.matched', { code })}</p>}
      {last?.answer === 'unmatched' && <Notice tone="info">{t('rxReadback.answer.unmatched')}</Notice>}
      {last?.answer === 'none' && <Notice tone={unconfirmed ? 'warn' : 'info'}>{t(unconfirmed ? 'rxReadback.answer.noneUnconfirmed' : 'rxReadback.answer.none')}</Notice>}
    </CheckWithSha>
  );
}
