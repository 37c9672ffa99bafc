// The bar with the screen's next step: one primary action (and at most a second way), Cancel always
// at its left, a short note between. It is not laid over the screen: the frame (App.tsx) keeps a row
// for it between the screen and the status bar, and a screen's bar is drawn there (a portal), so it
// never covers what the screen shows and never needs scrolling to.
import { useSyncExternalStore } from 'react';
import type { ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { Button } from './Button';

let slot: HTMLElement | null = null;
const listeners = new Set<() => void>();

/** The frame's row for the bar (a ref callback). */
export function actionBarSlot(element: HTMLElement | null): void {
  slot = element;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function useSlot(): HTMLElement | null {
  return useSyncExternalStore(subscribe, () => slot);
}

export interface CancelAction {
  readonly onClick: () => void;
  readonly busy?: boolean;
  /** What Cancel stops, for screen readers (the button itself always says "Cancel"). */
  readonly describes: string;
}

export function ActionBar({ cancel, note, children }: { readonly cancel?: CancelAction | undefined; readonly note?: ReactNode; readonly children?: ReactNode }) {
  const { t } = useTranslation();
  const target = useSlot();
  if (target === null) return null;
  return createPortal(
    <div className="actionbar" role="region" aria-label={t('actionbar.label')}>
      {cancel !== undefined && (
        <>
          <Button tone="danger" busy={cancel.busy} onClick={cancel.onClick} aria-describedby="actionbar-cancel-what">
            {t('common.cancel')}
          </Button>
          <span id="actionbar-cancel-what" className="visually-hidden">
            {cancel.describes}
          </span>
        </>
      )}
      <div className="actionbar-note">{note}</div>
      {children !== undefined && <div className="actionbar-actions">{children}</div>}
    </div>,
    target,
  );
}
