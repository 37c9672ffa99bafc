// A screen: its heading takes the focus when it appears, so keyboard and screen-reader users start
// at the top of what changed.
import { useEffect, useRef } from 'react';
import type { ReactNode } from 'react';

export function Screen({
  title,
  focusHeading = true,
  aside,
  children,
}: {
  readonly title: ReactNode;
  readonly focusHeading?: boolean;
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
        {aside}
      </div>
      {children}
    </section>
  );
}
