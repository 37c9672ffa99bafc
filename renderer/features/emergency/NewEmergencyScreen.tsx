// Flow C, first step: an emergency claim for a patient who may not be identified yet, created at
// once. One emergency intervention and its protocol (with the tariff), the attending doctor (asked
// to approve the claim once it exists), how the patient arrived and who brought them, the
// facility's reference number for the emergency and what happened.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CommandInput, CommandOutput, StationError } from '../../bridge/types';
import { useFormat } from '../../i18n/format';
import { call } from '../../state/bridge';
import { go } from '../../state/navigation';
import { run, useWorkflows } from '../../state/workflows';
import { ActionBar } from '../../ui/ActionBar';
import { Button } from '../../ui/Button';
import { SelectField, TextArea, TextField } from '../../ui/Field';
import { ErrorNotice, Notice } from '../../ui/Notice';
import { Screen } from '../../ui/Screen';
import { DoctorFields, doctorInput, emptyDoctor, isDoctorComplete } from '../shared/DoctorFields';
import type { DoctorDraft } from '../shared/DoctorFields';
import { usePatient } from '../lookup/store';
import { PatientSteps } from '../shared/PatientSteps';
import { useEmergencyDraft } from './draft';

type Protocol = CommandOutput<'emergency.protocols'>['items'][number];
type Create = CommandInput<'emergency.create'>;
const arrivals = ['AMBULANCE', 'WALK-IN', 'OTHER'] as const satisfies readonly Create['modeOfArrival'][];
const bringers = ['RELATIVE', 'SAMARITAN', 'PARAMEDICS', 'UNKNOWN'] as const satisfies readonly Create['broughtBy'][];
/** The exchange lists protocols per emergency intervention (SHA-01-…). */
const isEmergencyCode = (code: string) => /^SHA-01-[A-Za-z0-9._-]+$/i.test(code);
const isReference = (value: string) => /^[A-Za-z0-9/_ .-]{1,60}$/.test(value);

export default function NewEmergencyScreen() {
  const { t } = useTranslation();
  const format = useFormat();
  const draft = useEmergencyDraft();
  const [interventionCode, setInterventionCode] = useState(draft.interventionCode ?? '');
  const [search, setSearch] = useState('');
  const [protocols, setProtocols] = useState<readonly Protocol[] | null>(null);
  const [listError, setListError] = useState<StationError | null>(null);
  const [round, setRound] = useState(0);
  const [chosen, setChosen] = useState<Protocol | null>(null);
  const [doctor, setDoctor] = useState<DoctorDraft>(emptyDoctor);
  const [arrival, setArrival] = useState<Create['modeOfArrival'] | ''>('');
  const [broughtBy, setBroughtBy] = useState<Create['broughtBy'] | ''>('');
  const [reference, setReference] = useState('');
  const [notes, setNotes] = useState('');
  const [tried, setTried] = useState(false);
  const pending = useWorkflows((s) => s.pending.emergency) === 'emergency.create';
  const failure = useWorkflows((s) => s.failures.emergency);

  const code = interventionCode.trim().toUpperCase();
  useEffect(() => {
    let current = true;
    if (!isEmergencyCode(code)) {
      setProtocols(null);
      setListError(null);
      return undefined;
    }
    const timer = setTimeout(() => {
      void call('emergency.protocols', {
        interventionCode: code,
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
  }, [search, code, round]);

  const doctorOk = isDoctorComplete(doctor);
  const referenceOk = isReference(reference.trim());
  const notesOk = notes.trim() !== '';
  const formId = 'new-emergency';

  return (
    <Screen title={t('emergency.newTitle')} steps={<PatientSteps position={{ flow: 'emergency', done: [], current: 'claim' }} />}>
      <Notice tone="info">{t('emergency.newExplain')}</Notice>
      <form
        id={formId}
        className="stack"
        onSubmit={(event) => {
          event.preventDefault();
          setTried(true);
          if (chosen === null || !doctorOk || !referenceOk || !notesOk || arrival === '' || broughtBy === '') return;
          void run('emergency', 'emergency.create', {
            interventionCode: chosen.interventionCode,
            protocolCode: chosen.protocolCode,
            doctor: doctorInput(doctor),
            modeOfArrival: arrival,
            broughtBy,
            referenceNumber: reference.trim(),
            notes: notes.trim(),
          }).then((answer) => {
            if (answer.ok) go({ name: 'workflow', workflowId: answer.value.workflowId });
          });
        }}
      >
        <section className="panel" aria-labelledby="protocols-title">
          <h2 id="protocols-title">{t('emergency.protocol.title')}</h2>
          <div className="row">
            <TextField
              label={t('emergency.intervention')}
              value={interventionCode}
              onChange={(event) => {
                setInterventionCode(event.target.value);
                setChosen(null);
              }}
              hint={t('emergency.interventionHint')}
              autoComplete="off"
              spellCheck={false}
              error={interventionCode.trim() !== '' && !isEmergencyCode(code) ? t('emergency.interventionNeeded') : undefined}
            />
            <TextField label={t('emergency.protocol.search')} type="search" value={search} onChange={(event) => setSearch(event.target.value)} autoComplete="off" />
          </div>
          {listError !== null && <ErrorNotice error={listError} onRetry={() => setRound((r) => r + 1)} />}
          {!isEmergencyCode(code) && <p className="muted">{t('emergency.protocol.chooseIntervention')}</p>}
          {isEmergencyCode(code) && protocols === null && listError === null && <p className="progress">{t('common.loading')}</p>}
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
              onChange={(event) => setArrival(event.target.value as Create['modeOfArrival'] | '')}
              choices={[{ value: '', label: t('common.choose') }, ...arrivals.map((value) => ({ value, label: t(`emergency.arrivals.${value}`) }))]}
              error={tried && arrival === '' ? t('emergency.arrivalNeeded') : undefined}
            />
            <SelectField
              label={t('emergency.broughtBy')}
              value={broughtBy}
              onChange={(event) => setBroughtBy(event.target.value as Create['broughtBy'] | '')}
              choices={[{ value: '', label: t('common.choose') }, ...bringers.map((value) => ({ value, label: t(`emergency.bringers.${value}`) }))]}
              error={tried && broughtBy === '' ? t('emergency.broughtByNeeded') : undefined}
            />
            <TextField
              label={t('emergency.reference')}
              value={reference}
              onChange={(event) => setReference(event.target.value)}
              maxLength={60}
              autoComplete="off"
              hint={t('emergency.referenceHint')}
              error={tried && !referenceOk ? t('emergency.referenceNeeded') : undefined}
            />
          </div>
          <TextArea
            label={t('emergency.notes')}
            value={notes}
            onChange={(event) => setNotes(event.target.value)}
            maxLength={2000}
            error={tried && !notesOk ? t('emergency.notesNeeded') : undefined}
          />
        </section>
        {failure !== undefined && <ErrorNotice error={failure.error} />}
      </form>
      <ActionBar cancel={{ describes: t('emergency.cancelNewWhat'), onClick: () => go(draft.patientRef !== null && usePatient.getState().summary?.patientRef === draft.patientRef ? { name: 'patient' } : { name: 'lookup' }) }}>
        <Button type="submit" form={formId} tone="primary" busy={pending}>
          {t('emergency.create')}
        </Button>
      </ActionBar>
    </Screen>
  );
}
