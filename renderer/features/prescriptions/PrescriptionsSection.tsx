// The visit's prescriptions, and writing one: the prescriber (found in the registry as they are
// typed), each medicine by its generic concept (found by a few letters in SHA's medicines where the
// administrator has set where they are kept; else its code typed) with dose, how often, how long, refills and the
// patient's instructions. Nothing is chosen for the nurse: every number is hers to give.
import { useCallback, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CommandInput, StationError } from '../../bridge/types';
import { call } from '../../state/bridge';
import type { ViewOf } from '../../state/workflows';
import { Button } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';
import { ErrorNotice, Notice } from '../../ui/Notice';
import { useStation } from '../../state/station-store';
import { ConceptSearch } from '../lookups/ConceptSearch';
import { DoctorFields, doctorInput, emptyDoctor, isDoctorComplete, type DoctorDraft } from '../shared/DoctorFields';
import { PrescriptionCard, type Prescription } from './PrescriptionList';
import { ReadBackBar, usePrescriptionReadBack } from './ReadBack';

type Item = CommandInput<'prescription.write'>['items'][number];

interface ItemDraft {
  readonly conceptCode: string;
  /** The title of the medicine picked from the search; null when the code was typed. */
  readonly conceptTitle: string | null;
  readonly conceptName: string;
  readonly doseQuantity: string;
  readonly doseUnit: string;
  readonly timesPerPeriod: string;
  readonly period: string;
  readonly duration: string;
  readonly durationUnit: string;
  readonly refills: string;
  readonly patientInstruction: string;
}

const emptyItem: ItemDraft = { conceptCode: '', conceptTitle: null, conceptName: '', doseQuantity: '', doseUnit: '', timesPerPeriod: '', period: '', duration: '', durationUnit: '', refills: '', patientInstruction: '' };
const units = ['day', 'week', 'month'] as const;
type Unit = (typeof units)[number];
const isUnit = (value: string): value is Unit => (units as readonly string[]).includes(value);

const wholeIn = (text: string, min: number, max: number) => /^\d+$/.test(text.trim()) && Number(text) >= min && Number(text) <= max;

/** The item as the contract takes it, or the names of the fields still wrong. */
export function itemOf(draft: ItemDraft): { item: Item } | { wrong: (keyof ItemDraft)[] } {
  const wrong: (keyof ItemDraft)[] = [];
  if (!/^[A-Za-z0-9][A-Za-z0-9._/-]{0,63}$/.test(draft.conceptCode.trim())) wrong.push('conceptCode');
  const dose = Number(draft.doseQuantity);
  if (draft.doseQuantity.trim() === '' || !Number.isFinite(dose) || dose <= 0) wrong.push('doseQuantity');
  if (draft.doseUnit.trim() === '') wrong.push('doseUnit');
  if (!wholeIn(draft.timesPerPeriod, 1, 48)) wrong.push('timesPerPeriod');
  if (!isUnit(draft.period)) wrong.push('period');
  if (!wholeIn(draft.duration, 1, 365)) wrong.push('duration');
  if (!isUnit(draft.durationUnit)) wrong.push('durationUnit');
  if (!wholeIn(draft.refills, 0, 12)) wrong.push('refills');
  if (wrong.length > 0 || !isUnit(draft.period) || !isUnit(draft.durationUnit)) return { wrong };
  return {
    item: {
      conceptCode: draft.conceptCode.trim(),
      ...(draft.conceptName.trim() === '' ? {} : { conceptName: draft.conceptName.trim() }),
      doseQuantity: dose,
      doseUnit: draft.doseUnit.trim(),
      timesPerPeriod: Number(draft.timesPerPeriod),
      period: draft.period,
      duration: Number(draft.duration),
      durationUnit: draft.durationUnit,
      refills: Number(draft.refills),
      ...(draft.patientInstruction.trim() === '' ? {} : { patientInstruction: draft.patientInstruction.trim() }),
    },
  };
}

export function PrescriptionsSection({ view }: { readonly view: ViewOf<'visit'> }) {
  const { t } = useTranslation();
  const [items, setItems] = useState<Prescription[] | null>(null);
  const [writing, setWriting] = useState(false);
  const workflowId = view.workflowId;

  useEffect(() => {
    let current = true;
    void call('prescription.list', { workflowId }).then((answer) => {
      if (current && answer.ok) setItems(answer.value.items);
    });
    return () => {
      current = false;
    };
  }, [workflowId]);

  const open = view.state === 'open';
  const shown = open || (items !== null && items.length > 0);
  // Only a visit with prescriptions on it is read back on opening: every visit screen asking SHA
  // would add a round trip to each one a nurse opens, for nothing on most.
  const held = items !== null && items.length > 0;
  const readBack = usePrescriptionReadBack(workflowId, held, useCallback((read: Prescription[]) => setItems(read), []));
  if (!shown) return null;
  return (
    <section className="panel" aria-labelledby="prescriptions-title">
      <h2 id="prescriptions-title">{t('prescriptions.title')}</h2>
      {held && <ReadBackBar readBack={readBack} />}
      {items !== null && items.length === 0 && <p className="muted">{t('prescriptions.none')}</p>}
      {items?.map((rx) => <PrescriptionCard key={rx.prescriptionRef} rx={rx} />)}
      {open &&
        (writing ? (
          <WriteForm
            view={view}
            onWritten={(rx) => {
              setItems((list) => [rx, ...(list ?? []).filter((other) => other.prescriptionRef !== rx.prescriptionRef)]);
              setWriting(false);
            }}
            onClose={() => setWriting(false)}
            onUnknown={() => {
              // SHA's answer was lost: the read-back shows what became of it (the station never sends it again).
              setWriting(false);
              void readBack.check();
            }}
          />
        ) : (
          <Button onClick={() => setWriting(true)}>{t('prescriptions.new')}</Button>
        ))}
    </section>
  );
}

function WriteForm({
  view,
  onWritten,
  onClose,
  onUnknown,
}: {
  readonly view: ViewOf<'visit'>;
  readonly onWritten: (rx: Prescription) => void;
  readonly onClose: () => void;
  readonly onUnknown: () => void;
}) {
  const { t } = useTranslation();
  const [prescriber, setPrescriber] = useState<DoctorDraft>(view.doctor ?? emptyDoctor);
  const [drafts, setDrafts] = useState<ItemDraft[]>([emptyItem]);
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<StationError | null>(null);
  const medicinesSearched = useStation((s) => (s.settings?.terminology.medicines ?? null) !== null);
  const checked = drafts.map(itemOf);
  const titleId = useId();

  const submit = async () => {
    setTried(true);
    const ready = checked.flatMap((c) => ('item' in c ? [c.item] : []));
    if (!isDoctorComplete(prescriber) || ready.length !== drafts.length) return;
    setBusy(true);
    const answer = await call('prescription.write', { workflowId: view.workflowId, prescriber: doctorInput(prescriber), items: ready });
    setBusy(false);
    if (answer.ok) onWritten(answer.value);
    else if (answer.error.code === 'OUTCOME_UNKNOWN') onUnknown();
    else setError(answer.error);
  };

  return (
    <form
      className="prescription-form"
      aria-labelledby={titleId}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h3 id={titleId}>{t('prescriptions.writeTitle')}</h3>
      <DoctorFields value={prescriber} onChange={setPrescriber} error={tried && !isDoctorComplete(prescriber) ? t('doctor.numberNeeded') : undefined} />
      {!medicinesSearched && (
        <Notice tone="info" title={t('medicines.notSetUp.title')}>
          <p>{t('medicines.notSetUp.body')}</p>
        </Notice>
      )}
      {drafts.map((draft, index) => {
        const wrong = tried && 'wrong' in checked[index]! ? (checked[index] as { wrong: (keyof ItemDraft)[] }).wrong : [];
        const patch = (changes: Partial<ItemDraft>) => setDrafts((all) => all.map((d, i) => (i === index ? { ...d, ...changes } : d)));
        const set = (field: Exclude<keyof ItemDraft, 'conceptTitle'>, value: string) => patch({ [field]: value });
        const err = (field: keyof ItemDraft) => (wrong.includes(field) ? t(`prescriptions.wrong.${field}`) : undefined);
        return (
          <fieldset key={index} className="prescription-item">
            <legend>{t('prescriptions.medicine', { n: index + 1 })}</legend>
            <div className="row">
              {medicinesSearched ? (
                <ConceptSearch
                  kind="medicine"
                  label={t('prescriptions.conceptCode')}
                  value={{ text: draft.conceptCode, title: draft.conceptTitle }}
                  onChange={(next) =>
                    // A pick names the medicine; typing over a picked code drops the name that came with it.
                    patch({
                      conceptCode: next.text,
                      conceptTitle: next.title,
                      conceptName: next.title ?? (draft.conceptTitle !== null && draft.conceptName === draft.conceptTitle ? '' : draft.conceptName),
                    })
                  }
                  error={err('conceptCode')}
                />
              ) : (
                <TextField label={t('prescriptions.conceptCode')} hint={t('prescriptions.conceptHint')} value={draft.conceptCode} onChange={(e) => set('conceptCode', e.target.value)} error={err('conceptCode')} autoComplete="off" />
              )}
              <TextField label={t('prescriptions.conceptName')} value={draft.conceptName} onChange={(e) => set('conceptName', e.target.value)} maxLength={200} />
            </div>
            <div className="row">
              <TextField label={t('prescriptions.dose')} value={draft.doseQuantity} onChange={(e) => set('doseQuantity', e.target.value)} inputMode="decimal" error={err('doseQuantity')} />
              <TextField label={t('prescriptions.doseUnit')} hint={t('prescriptions.doseUnitHint')} value={draft.doseUnit} onChange={(e) => set('doseUnit', e.target.value)} maxLength={40} error={err('doseUnit')} />
              <TextField label={t('prescriptions.times')} value={draft.timesPerPeriod} onChange={(e) => set('timesPerPeriod', e.target.value)} inputMode="numeric" error={err('timesPerPeriod')} />
              <SelectField
                label={t('prescriptions.period')}
                value={draft.period}
                onChange={(e) => set('period', e.target.value)}
                error={err('period')}
                choices={[{ value: '', label: t('prescriptions.choose') }, ...units.map((u) => ({ value: u, label: t(`prescriptions.per.${u}`) }))]}
              />
            </div>
            <div className="row">
              <TextField label={t('prescriptions.duration')} value={draft.duration} onChange={(e) => set('duration', e.target.value)} inputMode="numeric" error={err('duration')} />
              <SelectField
                label={t('prescriptions.durationUnit')}
                value={draft.durationUnit}
                onChange={(e) => set('durationUnit', e.target.value)}
                error={err('durationUnit')}
                choices={[{ value: '', label: t('prescriptions.choose') }, ...units.map((u) => ({ value: u, label: t(`prescriptions.units.${u}`) }))]}
              />
              <TextField label={t('prescriptions.refillsField')} value={draft.refills} onChange={(e) => set('refills', e.target.value)} inputMode="numeric" error={err('refills')} />
            </div>
            <TextField label={t('prescriptions.instruction')} value={draft.patientInstruction} onChange={(e) => set('patientInstruction', e.target.value)} maxLength={1000} />
            {drafts.length > 1 && (
              <Button tone="quiet" onClick={() => setDrafts((all) => all.filter((_, i) => i !== index))}>
                {t('prescriptions.removeMedicine', { n: index + 1 })}
              </Button>
            )}
          </fieldset>
        );
      })}
      {error !== null && <ErrorNotice error={error} />}
      <div className="actions">
        <Button onClick={() => setDrafts((all) => [...all, emptyItem])}>{t('prescriptions.addMedicine')}</Button>
        <Button type="submit" tone="primary" busy={busy}>
          {t('prescriptions.write')}
        </Button>
        <Button tone="quiet" onClick={onClose}>
          {t('prescriptions.close')}
        </Button>
      </div>
    </form>
  );
}
