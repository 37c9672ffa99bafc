// A screen: its heading (which takes the focus when the screen appears, so keyboard and
// screen-reader users start at the top of what changed), where the patient stands (the stepper of a
// flow) beside it, the patient banner under them, and the screen's content. The heading, the
// stepper and the banner stay at the top while the content scrolls: the patient in hand is always
// in view. Its next step goes in the action bar (ui/ActionBar.tsx).
import { useEffect, useLayoutEffect, useRef } from 'react';
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
  const top = useRef<HTMLDivElement>(null);
  const hasBanner = banner !== undefined;
  useEffect(() => {
    if (focusHeading) heading.current?.focus();
  }, [focusHeading]);
  // What scrolls into view (a focused field, a control reached by Tab, an error) stops below the
  // kept-in-view top, never under it: the scrolling area's scroll padding follows its height.
  useLayoutEffect(() => {
    const kept = top.current;
    const area = kept?.closest<HTMLElement>('.main');
    if (kept === null || area === null || area === undefined) return undefined;
    // --room: the height left under it, for what must fit whole (features/consent: SHA's fingerprint page).
    const follow = () => {
      area.style.setProperty('scroll-padding-top', `${kept.offsetHeight}px`);
      area.style.setProperty('--room', `${area.clientHeight - kept.offsetHeight}px`);
    };
    follow();
    const observer = new ResizeObserver(follow);
    observer.observe(kept);
    observer.observe(area);
    return () => {
      observer.disconnect();
      area.style.removeProperty('scroll-padding-top');
      area.style.removeProperty('--room');
    };
  }, [hasBanner]);
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
      {!hasBanner ? (
        head
      ) : (
        <div className="screen-top" ref={top}>
          {head}
          {banner}
        </div>
      )}
      {children}
    </section>
  );
}
