// A facility of the registry, found by a few letters of its name or by its FR code: the referral
// destination of a discharge. Nothing is chosen for the nurse; each facility shows SHA's status
// beside its name (a suspended one is shown, marked, since hiding a hospital that could take the
// patient is the worse failure).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CommandOutput, StationError } from '../../bridge/types';
import { call } from '../../state/bridge';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { Badge, ErrorNotice } from '../../ui/Notice';

export type Facility = CommandOutput<'facilities.search'>['items'][number];

export function FacilityPicker({
  chosen,
  onChoose,
  error,
}: {
  readonly chosen: Facility | null;
  readonly onChoose: (facility: Facility) => void;
  /** The form's own complaint (no facility chosen yet). */
  readonly error?: string | undefined;
}) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [found, setFound] = useState<readonly Facility[] | null>(null);
  const [failure, setFailure] = useState<StationError | null>(null);
  const [busy, setBusy] = useState(false);
  const [tooShort, setTooShort] = useState(false);

  const find = async () => {
    const text = search.trim();
    setTooShort(text.length < 2);
    if (text.length < 2) return;
    setBusy(true);
    const answer = await call('facilities.search', { search: text });
    setBusy(false);
    if (answer.ok) {
      setFound(answer.value.items);
      setFailure(null);
    } else setFailure(answer.error);
  };

  return (
    <fieldset className="panel facility-picker" aria-describedby={error === undefined ? undefined : 'facility-picker-error'}>
      <legend>{t('programmes.referral.legend')}</legend>
      <TextField
        label={t('programmes.referral.search')}
        hint={t('programmes.referral.searchHint')}
        value={search}
        autoComplete="off"
        onChange={(event) => setSearch(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            void find();
          }
        }}
        error={tooShort ? t('programmes.referral.tooShort') : undefined}
      />
      <Button busy={busy} onClick={() => void find()}>
        {t('programmes.referral.find')}
      </Button>
      {failure !== null && <ErrorNotice error={failure} onRetry={() => void find()} />}
      {found !== null && found.length === 0 && <p className="muted">{t('programmes.referral.none')}</p>}
      {found !== null && found.length > 0 && (
        <div className="radios" role="radiogroup" aria-label={t('programmes.referral.found', { number: found.length })}>
          {found.map((facility) => (
            <label key={facility.code} className="radio">
              <input type="radio" name="referral-facility" value={facility.code} checked={chosen?.code === facility.code} onChange={() => onChoose(facility)} />
              <span>
                {facility.name ?? facility.code}{' '}
                {facility.operational === 'no' && <Badge tone="bad">{t('programmes.referral.notOperational', { status: facility.operationalStatus ?? '' })}</Badge>}
                <span className="field-hint">
                  {[facility.code, facility.level, facility.operational === 'unknown' ? t('programmes.referral.statusUnknown') : null].filter((part) => part !== null).join(' · ')}
                </span>
              </span>
            </label>
          ))}
        </div>
      )}
      {chosen !== null && chosen.operational === 'no' && <p className="field-error">{t('programmes.referral.chosenNotOperational')}</p>}
      {error !== undefined && (
        <p id="facility-picker-error" className="field-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}
