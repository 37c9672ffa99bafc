// This facility's beds, as SHA counts them, for the nurse admitting a patient: by bed type, how many
// there are, how many are in use and how many are free. A count SHA did not give is shown as not
// known, never as zero; the time of the reading is said, and it can be read again.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CommandOutput, StationError } from '../../bridge/types';
import { useFormat } from '../../i18n/format';
import { call } from '../../state/bridge';
import { Button } from '../../ui/Button';
import { ErrorNotice } from '../../ui/Notice';
import { Screen } from '../../ui/Screen';

type Occupancy = CommandOutput<'beds.occupancy'>;

export default function BedsScreen() {
  const { t } = useTranslation();
  const format = useFormat();
  const [occupancy, setOccupancy] = useState<Occupancy | null>(null);
  const [error, setError] = useState<StationError | null>(null);
  const [busy, setBusy] = useState(true);
  const [round, setRound] = useState(0);

  useEffect(() => {
    let current = true;
    setBusy(true);
    void call('beds.occupancy', {}).then((answer) => {
      if (!current) return;
      setBusy(false);
      if (answer.ok) {
        setOccupancy(answer.value);
        setError(null);
      } else setError(answer.error);
    });
    return () => {
      current = false;
    };
  }, [round]);

  const unknown = t('programmes.beds.unknown');
  const number = (value: number | null) => (value === null ? unknown : format.number(value));
  const free = (beds: number | null, inUse: number | null) => (beds === null || inUse === null ? null : Math.max(0, beds - inUse));
  const share = (beds: number | null, inUse: number | null) => (beds === null || inUse === null || beds === 0 ? unknown : format.percent(inUse / beds));

  return (
    <Screen title={t('programmes.beds.title')}>
      {occupancy !== null && (
        <p>
          {occupancy.facilityName ?? ''}
          {occupancy.level !== null && <> · {occupancy.level}</>} · {t('programmes.beds.readAt', { time: format.dateTime(occupancy.readAt) })}
        </p>
      )}
      {error !== null && <ErrorNotice error={error} onRetry={() => setRound((r) => r + 1)} />}
      {busy && occupancy === null && <p className="progress">{t('programmes.beds.reading')}</p>}
      {occupancy !== null && (
        <table className="table beds">
          <caption className="visually-hidden">{t('programmes.beds.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('programmes.beds.type')}</th>
              <th scope="col" className="num">
                {t('programmes.beds.beds')}
              </th>
              <th scope="col" className="num">
                {t('programmes.beds.inUse')}
              </th>
              <th scope="col" className="num">
                {t('programmes.beds.free')}
              </th>
              <th scope="col" className="num">
                {t('programmes.beds.occupied')}
              </th>
            </tr>
          </thead>
          <tbody>
            {occupancy.rows.length === 0 && (
              <tr>
                <td colSpan={5} className="muted">
                  {t('programmes.beds.none')}
                </td>
              </tr>
            )}
            {occupancy.rows.map((row) => (
              <tr key={row.bedType}>
                <th scope="row">{t(`programmes.beds.types.${row.bedType}`)}</th>
                <td className="num">{number(row.beds)}</td>
                <td className="num">{number(row.inUse)}</td>
                <td className="num">{number(free(row.beds, row.inUse))}</td>
                <td className="num">{share(row.beds, row.inUse)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">{t('programmes.beds.total')}</th>
              <td className="num">{number(occupancy.totalBeds)}</td>
              <td className="num">{number(occupancy.totalInUse)}</td>
              <td className="num">{number(free(occupancy.totalBeds, occupancy.totalInUse))}</td>
              <td className="num">{share(occupancy.totalBeds, occupancy.totalInUse)}</td>
            </tr>
          </tfoot>
        </table>
      )}
      <div className="actions">
        <Button busy={busy} onClick={() => setRound((r) => r + 1)}>
          {t('programmes.beds.readAgain')}
        </Button>
      </div>
    </Screen>
  );
}
