// The area reserved for the authorization link. Its rectangle goes to the station
// (authorizationView.setArea): in Electron the shell lays its own hardened view over it; in browser
// mode the answer is that the renderer shows the link itself, in a sandboxed iframe. A message from
// the page is only a hint: the station looks the authorization up at once, and only its answer
// decides (it polls as well, for a page that says nothing).
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../state/bridge';
import { checkFingerprint } from './check';

interface Link {
  readonly handle: string;
  readonly url: string;
  readonly expiresAt: string;
}

export function AuthorizationArea({ workflowId, link }: { readonly workflowId: string; readonly link: Link }) {
  const { t } = useTranslation();
  const area = useRef<HTMLDivElement>(null);
  const [shownBy, setShownBy] = useState<'shell' | 'renderer' | null>(null);

  useLayoutEffect(() => {
    const element = area.current;
    if (element === null) return;
    let frame = 0;
    let last = '';
    const report = () => {
      frame = 0;
      const rect = element.getBoundingClientRect();
      const next = {
        x: Math.max(0, Math.round(rect.left)),
        y: Math.max(0, Math.round(rect.top)),
        width: Math.max(1, Math.round(rect.width)),
        height: Math.max(1, Math.round(rect.height)),
      };
      const key = JSON.stringify(next);
      if (key === last) return;
      last = key;
      void call('authorizationView.setArea', { handle: link.handle, area: next }).then((answer) => {
        if (answer.ok) setShownBy(answer.value.shownBy);
      });
    };
    const schedule = () => {
      if (frame === 0) frame = requestAnimationFrame(report);
    };
    report();
    // The page takes the screen: brought fully into view (on a small terminal the heading scrolls
    // away) once the screen has settled — after the screen's heading took the focus.
    const reveal = requestAnimationFrame(() => element.scrollIntoView({ block: 'end' }));
    const observer = new ResizeObserver(schedule);
    observer.observe(element);
    window.addEventListener('resize', schedule);
    window.addEventListener('scroll', schedule, true);
    return () => {
      cancelAnimationFrame(reveal);
      if (frame !== 0) cancelAnimationFrame(frame);
      observer.disconnect();
      window.removeEventListener('resize', schedule);
      window.removeEventListener('scroll', schedule, true);
      void call('authorizationView.setArea', { handle: link.handle, area: null });
    };
  }, [link.handle]);

  useEffect(() => {
    const origin = new URL(link.url).origin;
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== origin) return;
      const data: unknown = event.data;
      if (typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'EKYC_COMPLETE') void checkFingerprint(workflowId);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [link.url, workflowId]);

  return (
    <div ref={area} className="auth-area">
      {shownBy === 'renderer' ? (
        <iframe
          title={t('fingerprint.frameTitle')}
          src={link.url}
          sandbox="allow-scripts allow-same-origin allow-forms"
          allow="local-network-access; local-network; loopback-network"
          referrerPolicy="no-referrer"
        />
      ) : (
        <p className="auth-placeholder">{shownBy === 'shell' ? t('fingerprint.shownByShell') : t('fingerprint.preparing')}</p>
      )}
    </div>
  );
}
