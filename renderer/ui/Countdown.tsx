// Every wait a nurse sees has a countdown (architecture.md). role="timer" is not announced on each
// tick; the label says what runs out.
import type { ReactNode } from 'react';
import { useFormat } from '../i18n/format';
import { useNow } from './useNow';

export function Countdown({ to, label, urgentBelowMs = 60_000, expired }: { readonly to: string; readonly label: ReactNode; readonly urgentBelowMs?: number; readonly expired?: ReactNode }) {
  const now = useNow(1000);
  const format = useFormat();
  const left = Date.parse(to) - now;
  const state = left <= 0 ? 'over' : left < urgentBelowMs ? 'urgent' : 'running';
  return (
    <div className={`countdown countdown-${state}`}>
      <span className="countdown-label">{label}</span>{' '}
      <span role="timer" className="countdown-value">
        {left <= 0 && expired !== undefined ? expired : format.timeLeft(left)}
      </span>
    </div>
  );
}
