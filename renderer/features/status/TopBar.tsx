// The screens a nurse moves between (Work in progress counting the doctor's and SHA's answers not
// yet seen), the language switch and the lock. Screen names avoid the words of the fixed accessible
// names (contracts.md) so a test's name match stays unambiguous.
import { useTranslation } from 'react-i18next';
import { switchLanguage } from '../../i18n';
import { call } from '../../state/bridge';
import { go, useNavigation } from '../../state/navigation';
import type { Route } from '../../state/navigation';
import { lockStation, settingsChanged, useStation } from '../../state/station-store';
import { useClaims } from '../claims/store';
import { unseenAnswers, useQueue } from '../work/queue';

const places: readonly { readonly route: Route; readonly key: string }[] = [
  { route: { name: 'lookup' }, key: 'nav.patients' },
  { route: { name: 'work' }, key: 'nav.work' },
  { route: { name: 'claims' }, key: 'claims.nav' },
  { route: { name: 'emergency-new' }, key: 'nav.emergency' },
  { route: { name: 'beds' }, key: 'programmes.nav.beds' },
  { route: { name: 'pharmacy' }, key: 'pharmacy.nav' },
  { route: { name: 'activity' }, key: 'nav.activity' },
  { route: { name: 'settings' }, key: 'nav.settings' },
];

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

  const changeLanguage = async () => {
    await switchLanguage(other);
    const saved = await call('settings.update', { language: other });
    if (saved.ok) settingsChanged(saved.value);
  };

  const current = (place: Route) =>
    place.name === route.name || (place.name === 'lookup' && (route.name === 'patient' || route.name === 'workflow'));

  return (
    <div className="topbar">
      <div className="brand">
        <span className="brand-line">
          <span className="brand-name">{t('app.name')}</span>
          {facility !== null && <span className="brand-facility">{facility}</span>}
        </span>
        {staff !== null && !locked && <span className="brand-who">{t('nav.signedInAs', { name: staff.name })}</span>}
      </div>
      {!locked && !setupNeeded && (
        <nav aria-label={t('nav.label')}>
          <ul className="nav">
            {places.filter((place) => place.route.name !== 'pharmacy' || pharmacy).map((place) => (
              <li key={place.key}>
                <button type="button" className="nav-item" aria-current={current(place.route) ? 'page' : undefined} onClick={() => go(place.route)}>
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
                      <span className="visually-hidden">{t('claims.navNeeds', { count: claimsNeeding })}</span>
                      {claimsCloseToDeadline > 0 && <span className="visually-hidden">{t('claimDeadline.navClose', { count: claimsCloseToDeadline })}</span>}
                    </span>
                  )}
                </button>
              </li>
            ))}
          </ul>
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
