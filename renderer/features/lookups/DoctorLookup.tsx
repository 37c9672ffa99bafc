// The doctor found in the professionals registry before being attached: once the number is typed,
// the registry's name, cadre and licence state show under the fields; a doctor found here before
// can be picked by a part of the name, which fills the three fields. Only the newest answer shows.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CommandOutput, StationError } from '../../bridge/types';
import { useFormat } from '../../i18n/format';
import { call } from '../../state/bridge';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';

type Card = CommandOutput<'professionals.find'>['professional'];
type Doctor = Card['doctor'];
type Found = { readonly card: Card } | { readonly error: StationError } | null;

/** Waits this long after the last key before asking the registry. */
const TYPING_PAUSE_MS = 500;

/** `doctor`: the three fields once complete, else null; `onPick`: a doctor chosen by name. */
export function DoctorLookup({ doctor, onPick }: { readonly doctor: Doctor | null; readonly onPick: (doctor: Doctor) => void }) {
  const { t } = useTranslation();
  const [found, setFound] = useState<Found>(null);
  const [busy, setBusy] = useState(false);
  const [again, setAgain] = useState(0);
  const asked = useRef(0);
  const complete = doctor !== null;
  const { identificationType = '', identificationNumber = '', regulationBody = '' } = doctor ?? {};

  useEffect(() => {
    const mine = ++asked.current;
    setFound(null);
    if (!complete) return undefined;
    const timer = setTimeout(() => {
      setBusy(true);
      void call('professionals.find', { doctor: { identificationType, identificationNumber, regulationBody } }).then((answer) => {
        if (mine !== asked.current) return;
        setBusy(false);
        setFound(answer.ok ? { card: answer.value.professional } : { error: answer.error });
      });
    }, TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [complete, identificationType, identificationNumber, regulationBody, again]);

  return (
    <div className="doctor-lookup">
      <div className="lookup-result" role="status">
        {busy && found === null && complete && <p>{t('lookups.doctor.checking')}</p>}
        {found !== null && 'card' in found && <ProfessionalSummary card={found.card} />}
        {found !== null && 'error' in found && (
          <div className={`notice notice-${found.error.code === 'DOCTOR_NOT_FOUND' ? 'bad' : 'warn'}`}>
            <p>{found.error.code === 'DOCTOR_NOT_FOUND' ? t('lookups.doctor.notFound') : t('lookups.doctor.failed')}</p>
            {found.error.code !== 'DOCTOR_NOT_FOUND' && (
              <Button tone="quiet" onClick={() => setAgain((n) => n + 1)}>
                {t('lookups.doctor.again')}
              </Button>
            )}
          </div>
        )}
      </div>
      <DoctorByName onPick={(card) => onPick(card.doctor)} />
    </div>
  );
}

function ProfessionalSummary({ card }: { readonly card: Card }) {
  const { t } = useTranslation();
  const format = useFormat();
  const ends = card.licenceEnds === null ? null : format.dateOrText(card.licenceEnds);
  const fine = card.licence === 'active';
  return (
    <div className={`notice notice-${fine ? 'ok' : 'warn'} professional`}>
      <p className="notice-title">{card.name ?? t('lookups.doctor.noName')}</p>
      <p>{[card.cadre, card.specialty].filter((part) => part !== null).join(' · ') || t('lookups.doctor.noCadre')}</p>
      <p>
        {t(`lookups.doctor.licence.${card.licence}`)}
        {ends !== null && ` · ${t('lookups.doctor.licenceEnds', { date: ends })}`}
      </p>
      {!fine && <p>{t('lookups.doctor.checkFirst')}</p>}
    </div>
  );
}

function DoctorByName({ onPick }: { readonly onPick: (card: Card) => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [items, setItems] = useState<CommandOutput<'professionals.searchByName'>['items'] | null>(null);
  const asked = useRef(0);
  const typed = name.trim();

  useEffect(() => {
    const mine = ++asked.current;
    if (typed.length < 2) {
      setItems(null);
      return undefined;
    }
    const timer = setTimeout(() => {
      void call('professionals.searchByName', { name: typed }).then((answer) => {
        if (mine === asked.current) setItems(answer.ok ? answer.value.items : []);
      });
    }, 250);
    return () => clearTimeout(timer);
  }, [typed]);

  return (
    <div className="doctor-by-name">
      <TextField label={t('lookups.doctor.byName')} hint={t('lookups.doctor.byNameHint')} value={name} onChange={(event) => setName(event.target.value)} autoComplete="off" />
      {items !== null && (
        <div className="lookup-choices" role="group" aria-label={t('lookups.doctor.choices')}>
          {items.length === 0 ? (
            <p className="lookup-state">{t('lookups.doctor.noneByName')}</p>
          ) : (
            <ul className="lookup-list">
              {items.map((card) => (
                <li key={`${card.doctor.regulationBody}-${card.doctor.identificationNumber}`}>
                  <Button
                    tone="quiet"
                    onClick={() => {
                      onPick(card);
                      setName('');
                    }}
                  >
                    <span className="lookup-title">{card.name ?? card.doctor.identificationNumber}</span>
                    <span className="lookup-code">
                      {card.doctor.regulationBody} {card.doctor.identificationNumber}
                    </span>
                    {card.cadre !== null && <span className="lookup-tag">{card.cadre}</span>}
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
