// The ward's queue on this station: every unfinished piece of work (or one patient's, from this
// shift's look-ups), resumed after a restart or on the admission day, with how long each has waited,
// its deadline, and what the doctor or SHA answered.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigation } from '../../state/navigation';
import { Button } from '../../ui/Button';
import { Checkbox } from '../../ui/Field';
import { ErrorNotice } from '../../ui/Notice';
import { Screen } from '../../ui/Screen';
import { WorkRows, useWorkQueue } from './WorkRows';

export default function WorkScreen() {
  const { t } = useTranslation();
  const route = useNavigation((s) => s.route);
  const patientRef = route.name === 'work' ? route.patientRef : undefined;
  const [includeEnded, setIncludeEnded] = useState(false);
  const { items, error, reload } = useWorkQueue(patientRef, includeEnded);
  return (
    <Screen title={patientRef === undefined ? t('work.title') : t('work.titlePatient')} aside={<Button onClick={reload}>{t('common.refresh')}</Button>}>
      <Checkbox label={t('work.includeEnded')} checked={includeEnded} onChange={(event) => setIncludeEnded(event.target.checked)} />
      {error !== null && <ErrorNotice error={error} onRetry={reload} />}
      {items === null && error === null && <p className="progress">{t('common.loading')}</p>}
      {items !== null && (items.length === 0 ? <p className="muted">{t('work.none')}</p> : <WorkRows items={items} />)}
    </Screen>
  );
}
