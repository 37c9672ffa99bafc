// A screen: its heading (which takes the focus when the screen appears, so keyboard and
// screen-reader users start at the top of what changed), where the patient stands (the stepper of a
// flow) beside it, the patient banner under them, and the screen's content. The heading, the
// stepper and the banner stay at the top while the content scrolls: the patient in hand is always
// in view. Its next step goes in the action bar (ui/ActionBar.tsx).
import { useEffect, useRef } from 'react';
import type { ReactNode } from 'react';

export function Screen({
  title,
  focusHeading = true,
  steps,
  aside,
  banner,
  children,
}: {
  readonly title: ReactNode;
  readonly focusHeading?: boolean;
  /** The flow's stepper. */
  readonly steps?: ReactNode;
  readonly aside?: ReactNode;
  /** The patient in hand (features/patient/PatientCard.tsx, PatientBanner): kept in view. */
  readonly banner?: ReactNode;
  readonly children: ReactNode;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusHeading) heading.current?.focus();
  }, [focusHeading]);
  const head = (
    <div className="screen-head">
      <h1 id="screen-title" ref={heading} tabIndex={-1}>
        {title}
      </h1>
      {steps}
      {aside}
    </div>
  );
  return (
    <section className="screen" aria-labelledby="screen-title">
      {banner === undefined ? (
        head
      ) : (
        <div className="screen-top">
          {head}
          {banner}
        </div>
      )}
      {children}
    </section>
  );
}
