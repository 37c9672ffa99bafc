// Flow C, first step: an emergency claim for a patient who may not be identified yet. One
// intervention and its protocol (with the tariff), the attending doctor (who receives the SMS code
// that authorizes the claim), how the patient arrived and who brought them.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CommandInput, CommandOutput, StationError } from '../../bridge/types';
import { useFormat } from '../../i18n/format';
import { call } from '../../state/bridge';
import { go } from '../../state/navigation';
import { run, useWorkflows } from '../../state/workflows';
import { Button } from '../../ui/Button';
import { SelectField, TextArea, TextField } from '../../ui/Field';
import { ErrorNotice, Notice } from '../../ui/Notice';
import { Screen } from '../../ui/Screen';
import { DoctorFields, doctorInput, emptyDoctor, isDoctorComplete } from '../shared/DoctorFields';
import type { DoctorDraft } from '../shared/DoctorFields';
import { useEmergencyDraft } from './draft';

type Protocol = CommandOutput<'emergency.protocols'>['items'][number];
type Create = CommandInput<'emergency.create'>;
const arrivals = ['AMBULANCE', 'WALK-IN', 'OTHER'] as const satisfies readonly Create['modeOfArrival'][];
const bringers = ['RELATIVE', 'SAMARITAN', 'PARAMEDICS', 'UNKNOWN'] as const satisfies readonly Create['broughtBy'][];

export default function NewEmergencyScreen() {
  const { t } = useTranslation();
  const format = useFormat();
  const draft = useEmergencyDraft();
  const [search, setSearch] = useState('');
  const [protocols, setProtocols] = useState<readonly Protocol[] | null>(null);
  const [listError, setListError] = useState<StationError | null>(null);
  const [round, setRound] = useState(0);
  const [chosen, setChosen] = useState<Protocol | null>(null);
  const [doctor, setDoctor] = useState<DoctorDraft>(emptyDoctor);
  const [arrival, setArrival] = useState<Create['modeOfArrival']>('WALK-IN');
  const [broughtBy, setBroughtBy] = useState<Create['broughtBy']>('RELATIVE');
  const [reference, setReference] = useState('');
  const [notes, setNotes] = useState('');
  const [tried, setTried] = useState(false);
  const pending = useWorkflows((s) => s.pending.emergency) === 'emergency.create';
  const failure = useWorkflows((s) => s.failures.emergency);

  useEffect(() => {
    let current = true;
    const timer = setTimeout(() => {
      void call('emergency.protocols', {
        ...(draft.interventionCode === null ? {} : { interventionCode: draft.interventionCode }),
        ...(search.trim() === '' ? {} : { search: search.trim() }),
        pageSize: 50,
      }).then((answer) => {
        if (!current) return;
        if (answer.ok) {
          setProtocols(answer.value.items);
          setListError(null);
        } else setListError(answer.error);
      });
    }, 200);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [search, draft.interventionCode, round]);

  const doctorOk = isDoctorComplete(doctor);

  return (
    <Screen title={t('emergency.newTitle')}>
      <Notice tone="info">{t('emergency.newExplain')}</Notice>
      <form
        className="stack"
        onSubmit={(event) => {
          event.preventDefault();
          setTried(true);
          if (chosen === null || !doctorOk) return;
          void run('emergency', 'emergency.create', {
            interventionCode: chosen.interventionCode,
            protocolCode: chosen.protocolCode,
            doctor: doctorInput(doctor),
            modeOfArrival: arrival,
            broughtBy,
            ...(reference.trim() === '' ? {} : { referenceNumber: reference.trim() }),
            ...(notes.trim() === '' ? {} : { notes: notes.trim() }),
          }).then((answer) => {
            if (answer.ok) go({ name: 'workflow', workflowId: answer.value.workflowId });
          });
        }}
      >
        <section className="panel" aria-labelledby="protocols-title">
          <h2 id="protocols-title">{t('emergency.protocol.title')}</h2>
          <TextField label={t('emergency.protocol.search')} type="search" value={search} onChange={(event) => setSearch(event.target.value)} autoComplete="off" />
          {listError !== null && <ErrorNotice error={listError} onRetry={() => setRound((r) => r + 1)} />}
          {protocols === null && listError === null && <p className="progress">{t('common.loading')}</p>}
          {protocols !== null && protocols.length === 0 && <p className="muted">{t('emergency.protocol.none')}</p>}
          {protocols !== null && protocols.length > 0 && (
            <fieldset className="radios protocol-list">
              <legend>{t('emergency.protocol.legend')}</legend>
              {protocols.map((protocol) => (
                <label key={`${protocol.interventionCode}/${protocol.protocolCode}`} className="radio">
                  <input
                    type="radio"
                    name="protocol"
                    checked={chosen?.protocolCode === protocol.protocolCode && chosen.interventionCode === protocol.interventionCode}
                    onChange={() => setChosen(protocol)}
                  />
                  <span>
                    <span className="option-code">{protocol.protocolCode}</span> {protocol.name}
                    <span className="field-hint">
                      {protocol.interventionCode} · {format.kes(protocol.tariffKes)}
                    </span>
                  </span>
                </label>
              ))}
            </fieldset>
          )}
          {tried && chosen === null && <p className="field-error">{t('emergency.protocol.needed')}</p>}
        </section>
        <section className="panel">
          <h2>{t('emergency.doctorTitle')}</h2>
          <p className="muted">{t('emergency.doctorExplain')}</p>
          <DoctorFields value={doctor} onChange={setDoctor} error={tried && !doctorOk ? t('doctor.numberNeeded') : undefined} />
          <div className="row">
            <SelectField
              label={t('emergency.arrival')}
              value={arrival}
              onChange={(event) => setArrival(event.target.value as Create['modeOfArrival'])}
              choices={arrivals.map((value) => ({ value, label: t(`emergency.arrivals.${value}`) }))}
            />
            <SelectField
              label={t('emergency.broughtBy')}
              value={broughtBy}
              onChange={(event) => setBroughtBy(event.target.value as Create['broughtBy'])}
              choices={bringers.map((value) => ({ value, label: t(`emergency.bringers.${value}`) }))}
            />
            <TextField label={t('emergency.reference')} value={reference} onChange={(event) => setReference(event.target.value)} maxLength={60} autoComplete="off" />
          </div>
          <TextArea label={t('emergency.notes')} value={notes} onChange={(event) => setNotes(event.target.value)} maxLength={2000} />
        </section>
        {failure !== undefined && <ErrorNotice error={failure.error} />}
        <div className="startbar">
          <Button type="submit" tone="primary" wide busy={pending}>
            {t('emergency.create')}
          </Button>
        </div>
      </form>
    </Screen>
  );
}
