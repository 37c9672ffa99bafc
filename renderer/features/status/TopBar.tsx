// The screens a nurse moves between (Work in progress counting the doctor's and SHA's answers not
// yet seen), the language switch and the lock, on one row at every width: the screens that do not
// fit (longer in Kiswahili, eight at a pharmacy window) fold, last first, into a "More" menu at the
// row's end, and nothing is cut. Screen names avoid the words of the fixed accessible names
// (contracts.md) so a test's name match stays unambiguous.
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { switchLanguage } from '../../i18n';
import { call } from '../../state/bridge';
import { go, useNavigation } from '../../state/navigation';
import type { Route } from '../../state/navigation';
import { lockStation, settingsChanged, useStation } from '../../state/station-store';
import { useClaims } from '../claims/store';
import { unseenAnswers, useQueue } from '../work/queue';

interface Place {
  readonly route: Route;
  readonly key: string;
}

const places: readonly Place[] = [
  { route: { name: 'lookup' }, key: 'nav.patients' },
  { route: { name: 'work' }, key: 'nav.work' },
  { route: { name: 'claims' }, key: 'nav.claims' },
  { route: { name: 'emergency-new' }, key: 'nav.emergency' },
  { route: { name: 'beds' }, key: 'nav.beds' },
  { route: { name: 'pharmacy' }, key: 'nav.pharmacy' },
  { route: { name: 'activity' }, key: 'nav.activity' },
  { route: { name: 'settings' }, key: 'nav.settings' },
];

/** The space between the screens' buttons (.nav's gap), in px. */
const GAP = 2;

export function TopBar() {
  const { t, i18n } = useTranslation();
  const route = useNavigation((s) => s.route);
  const locked = useStation((s) => s.locked);
  const setupNeeded = route.name === 'setup';
  const facility = useStation((s) => s.status?.facility?.name ?? s.settings?.facilityName ?? null);
  const staff = useStation((s) => s.status?.staff ?? null);
  /** The pharmacy window's station (provisioned so) shows its dispensing screen. */
  const pharmacy = useStation((s) => s.settings?.stationRole === 'pharmacy');
  const other = i18n.language === 'sw' ? 'en' : 'sw';
  const items = useQueue((s) => s.items);
  const seen = useQueue((s) => s.seen);
  const answers = unseenAnswers({ items, seen }).length;
  const claimsNeeding = useClaims((s) => s.needsNurse);
  const claimsCloseToDeadline = useClaims((s) => s.closeToDeadline);
  const shown = places.filter((place) => place.route.name !== 'pharmacy' || pharmacy);

  const changeLanguage = async () => {
    await switchLanguage(other);
    const saved = await call('settings.update', { language: other });
    if (saved.ok) settingsChanged(saved.value);
  };

  const current = (place: Route) =>
    place.name === route.name || (place.name === 'lookup' && (route.name === 'patient' || route.name === 'workflow'));

  /** A screen's name with its count of what waits there. */
  const label = (place: Place) => (
    <>
      {t(place.key)}
      {place.route.name === 'work' && answers > 0 && (
        <span className="nav-count">
          <span aria-hidden="true">{answers}</span>
          <span className="visually-hidden">{t('nav.answers', { count: answers })}</span>
        </span>
      )}
      {place.route.name === 'claims' && claimsNeeding > 0 && (
        <span className={claimsCloseToDeadline > 0 ? 'nav-count nav-count-urgent' : 'nav-count'}>
          <span aria-hidden="true">{claimsNeeding}</span>
          <span className="visually-hidden">{t('nav.claimsNeed', { count: claimsNeeding })}</span>
          {claimsCloseToDeadline > 0 && <span className="visually-hidden">{t('nav.claimsCloseToDeadline', { count: claimsCloseToDeadline })}</span>}
        </span>
      )}
    </>
  );
  const fits = useFittingCount(shown.length, [i18n.language, answers, claimsNeeding, claimsCloseToDeadline, pharmacy, facility, staff?.name, locked]);

  return (
    <div className="topbar" ref={fits.bar}>
      <div className="brand">
        <span className="brand-line">
          <span className="brand-name">{t('app.name')}</span>
          {facility !== null && <span className="brand-facility">{facility}</span>}
        </span>
        {staff !== null && !locked && <span className="brand-who">{t('nav.signedInAs', { name: staff.name })}</span>}
      </div>
      {!locked && !setupNeeded && (
        <nav aria-label={t('nav.label')} className="nav-slot" ref={fits.slot}>
          <ul className="nav">
            {shown.slice(0, fits.count).map((place) => (
              <li key={place.key}>
                <button type="button" className="nav-item" aria-current={current(place.route) ? 'page' : undefined} onClick={() => go(place.route)}>
                  {label(place)}
                </button>
              </li>
            ))}
          </ul>
          {fits.count < shown.length && (
            <MoreMenu current={shown.slice(fits.count).some((place) => current(place.route))}>
              {(close) =>
                shown.slice(fits.count).map((place) => (
                  <li key={place.key}>
                    <button
                      type="button"
                      className="nav-item"
                      aria-current={current(place.route) ? 'page' : undefined}
                      onClick={() => {
                        close();
                        go(place.route);
                      }}
                    >
                      {label(place)}
                    </button>
                  </li>
                ))
              }
            </MoreMenu>
          )}
          {/* The screens' names as they would be drawn, measured to know how many fit; never seen or heard. */}
          <div className="nav-measure" aria-hidden="true" ref={fits.measure}>
            {shown.map((place) => (
              <span key={place.key} className="nav-item">
                {label(place)}
              </span>
            ))}
            <span className="nav-item nav-more-button">{t('nav.more')} ▾</span>
          </div>
        </nav>
      )}
      <div className="topbar-tools">
        <button type="button" className="btn btn-quiet" lang={other} onClick={() => void changeLanguage()}>
          {other === 'sw' ? 'Kiswahili' : 'English'}
        </button>
        {!locked && !setupNeeded && (
          <button type="button" className="btn btn-quiet" onClick={() => void lockStation()}>
            {t('nav.lock')}
          </button>
        )}
      </div>
    </div>
  );
}

/**
 * How many of the screens' buttons fit in the row beside the brand and the tools, the "More" button
 * included when some do not; measured on every size change of the bar and when what it shows changes.
 */
function useFittingCount(total: number, changes: readonly unknown[]) {
  const bar = useRef<HTMLDivElement>(null);
  const slot = useRef<HTMLElement>(null);
  const measure = useRef<HTMLDivElement>(null);
  const [count, setCount] = useState(total);

  useLayoutEffect(() => {
    const fit = () => {
      if (slot.current === null || measure.current === null) return;
      const widths = Array.from(measure.current.children, (child) => child.getBoundingClientRect().width);
      const more = widths.pop() ?? 0;
      const room = slot.current.clientWidth;
      const upTo = (n: number) => widths.slice(0, n).reduce((sum, width) => sum + width + GAP, 0);
      let fitting = widths.length;
      if (upTo(fitting) > room) {
        while (fitting > 0 && upTo(fitting) + more > room) fitting -= 1;
      }
      setCount(fitting);
    };
    fit();
    const observer = new ResizeObserver(fit);
    if (bar.current !== null) observer.observe(bar.current);
    // The names change width when a font arrives or the language changes.
    if (measure.current !== null) observer.observe(measure.current);
    return () => observer.disconnect();
    // The names' widths change with the language and the counts; the room with the brand's lines.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [total, ...changes]);

  return { bar, slot, measure, count: Math.min(count, total) };
}

/** The screens that did not fit: a button opening them as a list under it; Escape or a choice closes it. */
function MoreMenu({ current, children }: { readonly current: boolean; readonly children: (close: () => void) => React.ReactNode }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const listId = useId();
  const box = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return undefined;
    const away = (event: PointerEvent) => {
      if (box.current !== null && !box.current.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', away);
    return () => document.removeEventListener('pointerdown', away);
  }, [open]);

  return (
    <div
      className="nav-more"
      ref={box}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          event.preventDefault();
          setOpen(false);
          button.current?.focus();
        }
      }}
    >
      <button
        ref={button}
        type="button"
        className={`nav-item nav-more-button${current ? ' nav-more-current' : ''}`}
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((was) => !was)}
      >
        {t('nav.more')} <span aria-hidden="true">▾</span>
        {current && <span className="visually-hidden"> ({t('nav.currentInside')})</span>}
      </button>
      <ul id={listId} className="nav-more-list" hidden={!open}>
        {children(() => setOpen(false))}
      </ul>
    </div>
  );
}
