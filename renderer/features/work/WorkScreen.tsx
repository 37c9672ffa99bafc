// Work in progress on this station: unfinished workflows of every patient (or of one, from the
// recent look-ups), resumed after a restart or on the visit day.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigation } from '../../state/navigation';
import { Button } from '../../ui/Button';
import { Checkbox } from '../../ui/Field';
import { Screen } from '../../ui/Screen';
import { WorkList, WorkListError, useWorkList } from './WorkList';

export default function WorkScreen() {
  const { t } = useTranslation();
  const route = useNavigation((s) => s.route);
  const patientRef = route.name === 'work' ? route.patientRef : undefined;
  const [includeEnded, setIncludeEnded] = useState(false);
  const { items, error, reload } = useWorkList(patientRef, includeEnded);
  return (
    <Screen title={patientRef === undefined ? t('work.title') : t('work.titlePatient')} aside={<Button onClick={reload}>{t('common.refresh')}</Button>}>
      <Checkbox label={t('work.includeEnded')} checked={includeEnded} onChange={(event) => setIncludeEnded(event.target.checked)} />
      {error !== null && <WorkListError error={error} onRetry={reload} />}
      {items === null && error === null && <p className="progress">{t('common.loading')}</p>}
      {items !== null && <WorkList items={items} emptyText={t('work.none')} />}
    </Screen>
  );
}
