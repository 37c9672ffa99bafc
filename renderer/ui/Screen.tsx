// A screen: its heading (which takes the focus when the screen appears, so keyboard and
// screen-reader users start at the top of what changed), where the patient stands (the stepper of a
// flow) beside it, and the screen's content. Its next step goes in the action bar (ui/ActionBar.tsx).
import { useEffect, useRef } from 'react';
import type { ReactNode } from 'react';

export function Screen({
  title,
  focusHeading = true,
  steps,
  aside,
  children,
}: {
  readonly title: ReactNode;
  readonly focusHeading?: boolean;
  /** The flow's stepper. */
  readonly steps?: ReactNode;
  readonly aside?: ReactNode;
  readonly children: ReactNode;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusHeading) heading.current?.focus();
  }, [focusHeading]);
  return (
    <section className="screen" aria-labelledby="screen-title">
      <div className="screen-head">
        <h1 id="screen-title" ref={heading} tabIndex={-1}>
          {title}
        </h1>
        {steps}
        {aside}
      </div>
      {children}
    </section>
  );
}
