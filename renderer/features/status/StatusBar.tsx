// Always on screen: whether the exchange answers, the reader (the status region tests and screen
// readers find by role), the exchange's hardware service and the station's device service, and
// earlier work the station set aside because it could not read it back (the IT officer's details
// are in Settings).
import { useTranslation } from 'react-i18next';
import { useStation } from '../../state/station-store';
import { readerWords, serviceWords } from './readerWords';

export function StatusBar() {
  const { t } = useTranslation();
  const status = useStation((s) => s.status);
  const readers = useStation((s) => s.readers);
  const exchange = status?.exchange.state ?? 'unknown';
  return (
    <footer className="statusbar">
      <div className={`status-item status-${exchange === 'reachable' ? 'ok' : exchange === 'unreachable' ? 'bad' : 'neutral'}`}>
        <span className="dot" aria-hidden="true" />
        {t(`status.exchange.${exchange}`)}
      </div>
      <div role="status" aria-label={t('readers.regionName')} className={`status-item status-${readers === null ? 'neutral' : readerWords(readers).tone}`}>
        <span className="dot" aria-hidden="true" />
        {readers === null ? t('readers.unknown') : readerWords(readers).text(t)}
      </div>
      {readers !== null && (
        <div className={`status-item status-${serviceWords(readers).tone}`}>
          <span className="dot" aria-hidden="true" />
          {serviceWords(readers).text(t)}
        </div>
      )}
      {status !== null && status.unavailablePieces.length > 0 && (
        <div className="status-item status-warn">{t('status.unavailable', { pieces: status.unavailablePieces.map((p) => p.piece).join(', ') })}</div>
      )}
      {status !== null && status.setAside.count > 0 && <div className="status-item status-warn">{t('status.setAside', { count: status.setAside.count })}</div>}
    </footer>
  );
}
