// The open visit: its number and status (never the consent token), the attending doctor, the
// billing lines in their minimal form, the claim preview, and the way to the visit's end in the
// action bar: "Discharge" for an inpatient, "End visit (discharge)" for an outpatient.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ClaimPreview } from '../../../electron/contract';
import type { StationError } from '../../bridge/types';
import { useFormat } from '../../i18n/format';
import { call } from '../../state/bridge';
import { go } from '../../state/navigation';
import { run, useWorkflows } from '../../state/workflows';
import type { ViewOf } from '../../state/workflows';
import { ActionBar } from '../../ui/ActionBar';
import { Button } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';
import { ErrorNotice, Notice } from '../../ui/Notice';
import { Screen } from '../../ui/Screen';
import { DiagnosisSearch, diagnosisInput, emptyDiagnosis, isDiagnosisGiven, type DiagnosisDraft } from '../lookups/DiagnosisSearch';
import { DoctorFields, doctorInput, emptyDoctor, isDoctorComplete } from '../shared/DoctorFields';
import type { DoctorDraft } from '../shared/DoctorFields';
import { PrescriptionsSection } from '../prescriptions/PrescriptionsSection';
import { PatientSteps, viewPosition } from '../shared/PatientSteps';
import { WhoAndWhat } from '../shared/WhoAndWhat';
import { WorkflowError } from '../shared/WorkflowError';
import { HealthRecordPanel } from '../programmes/HealthRecordPanel';
import { VisitClosedNotice, VisitCorrections } from '../corrections/VisitCorrections';
import { PreviewPanel } from './PreviewPanel';
import { ServicesSection, visitServices } from './ServicesSection';
import { DocumentPicker, type ChosenDocument } from '../claims/DocumentPicker';
import { documentTypes } from '../shared/documents';
import { heldPaperRefusal, MAX_BYTES_TOGETHER } from '../shared/heldPapers';
import { knownIntervention, useServices } from '../services/store';

type VisitView = ViewOf<'visit'>;

export default function VisitScreen({ view }: { readonly view: VisitView }) {
  const { t } = useTranslation();
  const format = useFormat();
  const workflowId = view.workflowId;
  const pending = useWorkflows((s) => s.pending[workflowId]);

  // SHA refuses a claim without its doctor: the doctor is taken before the patient is asked for a code or a finger.
  const doctorFirst = view.doctor === null && view.dischargeWorkflowId === null && view.next.includes('discharge.begin') && view.next.includes('visit.attachDoctor');

  const beginDischarge = async () => {
    if (view.dischargeWorkflowId !== null) {
      go({ name: 'workflow', workflowId: view.dischargeWorkflowId });
      return;
    }
    const begun = await run(workflowId, 'discharge.begin', { workflowId });
    if (begun.ok) go({ name: 'workflow', workflowId: begun.value.workflowId });
  };

  return (
    <Screen
      title={t('visit.title')}
      steps={<PatientSteps position={viewPosition(view)} />}
      banner={<WhoAndWhat workflowId={workflowId} patient={view.patient} intervention={view.intervention} serviceType={view.serviceType} />}
    >
      <div className={`visit-status state-${view.state}`}>
        <p className="visit-state">{t(`state.visit.${view.state}`)}</p>
        <dl className="facts">
          <div>
            <dt>{t('visit.number')}</dt>
            <dd className="big">{view.visitNumber ?? t('common.notYet')}</dd>
          </div>
          <div>
            <dt>{t('visit.claimStatus')}</dt>
            <dd>{view.claimStatus === null ? t('common.notYet') : t(`claimStatus.${view.claimStatus}`)}</dd>
          </div>
          <div>
            <dt>{t('visit.invoice')}</dt>
            <dd>{view.invoiceNumber ?? t('common.notYet')}</dd>
          </div>
          <div>
            <dt>{t('visit.started')}</dt>
            <dd>{view.startedAt === null ? t('common.notYet') : format.dateTime(view.startedAt)}</dd>
          </div>
        </dl>
      </div>
      <WorkflowError view={view} />
      <VisitClosedNotice view={view} />

      <ServicesSection view={view} />
      <LinesSection view={view} />
      <DoctorSection view={view} />
      <VisitCorrections view={view} />
      <PrescriptionsSection view={view} />

      <PreviewSection workflowId={workflowId} enabled={view.next.includes('visit.preview')} />
      <HealthRecordPanel workflowId={workflowId} enabled={view.state === 'open' || view.state === 'closing' || view.state === 'closed'} />

      {doctorFirst && (
        <ActionBar note={<p>{t('visit.doctorFirst.note')}</p>}>
          <Button tone="primary" onClick={focusDoctor}>
            {t('visit.doctorFirst.button')}
          </Button>
        </ActionBar>
      )}
      {!doctorFirst && (view.next.includes('discharge.begin') || view.dischargeWorkflowId !== null) && (
        <ActionBar note={<p>{view.closeBy === 'discharge' ? t('visit.endHintDischarge') : t('visit.endHintSubmit')}</p>}>
          {/* An inpatient is discharged; an outpatient visit is ended — which SHA calls its discharge too. */}
          <Button tone="primary" busy={pending === 'discharge.begin'} onClick={() => void beginDischarge()}>
            {view.closeBy === 'discharge' ? t('visit.discharge') : t('visit.endVisit')}
          </Button>
        </ActionBar>
      )}
    </Screen>
  );
}

/** Takes the nurse to the doctor's identification field. */
function focusDoctor(): void {
  const field = document.querySelector<HTMLInputElement>('section[aria-labelledby="doctor-title"] input[type="text"], section[aria-labelledby="doctor-title"] input:not([type])');
  field?.scrollIntoView({ block: 'center' });
  field?.focus();
}

function DoctorSection({ view }: { readonly view: VisitView }) {
  const { t } = useTranslation();
  const [doctor, setDoctor] = useState<DoctorDraft>(emptyDoctor);
  const [tried, setTried] = useState(false);
  const pending = useWorkflows((s) => s.pending[view.workflowId]) === 'visit.attachDoctor';
  return (
    <section className="panel" aria-labelledby="doctor-title">
      <h2 id="doctor-title">{t('visit.doctor.title')}</h2>
      {view.doctor !== null ? (
        <p>
          {t(`doctor.idTypes.${view.doctor.identificationType}`, { defaultValue: view.doctor.identificationType })} {view.doctor.identificationNumber} ·{' '}
          {view.doctor.regulationBody}
        </p>
      ) : (
        <p className="muted">{t('visit.doctor.none')}</p>
      )}
      {view.next.includes('visit.attachDoctor') && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            setTried(true);
            if (!isDoctorComplete(doctor)) return;
            void run(view.workflowId, 'visit.attachDoctor', { workflowId: view.workflowId, doctor: doctorInput(doctor) });
          }}
        >
          <DoctorFields value={doctor} onChange={setDoctor} error={tried && !isDoctorComplete(doctor) ? t('doctor.numberNeeded') : undefined} />
          <Button type="submit" busy={pending}>
            {view.doctor === null ? t('visit.doctor.attach') : t('visit.doctor.change')}
          </Button>
        </form>
      )}
    </section>
  );
}

function LinesSection({ view }: { readonly view: VisitView }) {
  const { t } = useTranslation();
  const format = useFormat();
  const pending = useWorkflows((s) => s.pending[view.workflowId]);
  return (
    <section className="panel" aria-labelledby="lines-title">
      <h2 id="lines-title">{t('visit.lines.title')}</h2>
      {view.intervention.scenario === 'per-diem' && <Notice tone="info">{t('visit.lines.automatic')}</Notice>}
      {view.lines.length === 0 ? (
        <p className="muted">{t('visit.lines.none')}</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">{t('visit.lines.item')}</th>
              <th scope="col">{t('visit.lines.diagnoses')}</th>
              <th scope="col" className="num">
                {t('visit.lines.quantity')}
              </th>
              <th scope="col" className="num">
                {t('visit.lines.amount')}
              </th>
              <th scope="col">
                <span className="visually-hidden">{t('visit.lines.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {view.lines.map((line) => (
              <tr key={line.lineId}>
                <td>
                  {line.description ?? line.itemCode ?? line.interventionCode}
                  {line.automatic && <span className="muted small"> · {t('visit.lines.auto')}</span>}
                </td>
                <td>{line.diagnoses.map((d) => d.code).join(', ')}</td>
                <td className="num">{format.number(line.quantity)}</td>
                <td className="num">{format.kes(line.amountKes)}</td>
                <td>
                  {!line.automatic && view.next.includes('visit.removeLine') && (
                    <Button
                      tone="quiet"
                      busy={pending === 'visit.removeLine'}
                      aria-label={t('visit.lines.removeNamed', { item: line.description ?? line.interventionCode })}
                      onClick={() => void run(view.workflowId, 'visit.removeLine', { workflowId: view.workflowId, lineId: line.lineId })}
                    >
                      {t('visit.lines.remove')}
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={3}>
                {t('visit.lines.total')}
              </th>
              <td className="num">
                <strong>{format.kes(view.totalKes)}</strong>
              </td>
              <td />
            </tr>
          </tfoot>
        </table>
      )}
      {view.next.includes('visit.addLine') && <AddLineForm view={view} />}
    </section>
  );
}

/** The contract's most papers on one billing line. */
const MAX_LINE_PAPERS = 5;

function AddLineForm({ view }: { readonly view: VisitView }) {
  const { t } = useTranslation();
  const pending = useWorkflows((s) => s.pending[view.workflowId]) === 'visit.addLine';
  // A line bills one of the visit's services standing on the claim: the one it opened for unless the nurse chooses another.
  const billable = visitServices(view).filter((s) => s.active);
  const [serviceCode, setServiceCode] = useState(view.intervention.code);
  const billed = billable.find((s) => s.code === serviceCode) ?? billable[0] ?? view.intervention;
  const [description, setDescription] = useState('');
  const [price, setPrice] = useState('');
  const [quantity, setQuantity] = useState('1');
  const [diagnosis, setDiagnosis] = useState<DiagnosisDraft>(emptyDiagnosis);
  const [doctor, setDoctor] = useState<DoctorDraft>(view.doctor ?? emptyDoctor);
  const [papers, setPapers] = useState<readonly ChosenDocument[]>([]);
  const [paperProblem, setPaperProblem] = useState<string | null>(null);
  const [tried, setTried] = useState(false);
  /** The line just added, said until the next one is begun: every action says it worked. */
  const [added, setAdded] = useState<string | null>(null);
  const format = useFormat();
  // The document types SHA lists for the visit's service, offered first: known while the patient's
  // services are in hand (not on a visit resumed later, where the picker offers every type alike).
  const required = useServices((s) => knownIntervention(s, view.patient.patientRef, billed.code)?.requiredDocuments ?? null);
  const listed = required === null ? null : documentTypes.filter((d) => required.includes(d));

  const priceValue = Number(price);
  const quantityValue = Number(quantity);
  const priceOk = price.trim() !== '' && Number.isFinite(priceValue) && priceValue >= 0;
  const quantityOk = Number.isInteger(quantityValue) && quantityValue >= 1;
  const diagnosisOk = isDiagnosisGiven(diagnosis);
  const doctorGiven = doctor.identificationNumber.trim() !== '';

  // The papers go with the line in one command, so they are held here until the line is added,
  // within the contract's count and its limit for the files of one line together.
  const holdPaper = (paper: ChosenDocument): Promise<boolean> => {
    const refusal = heldPaperRefusal(papers, paper, MAX_LINE_PAPERS);
    if (refusal === 'too-many') setPaperProblem(t('visit.lines.papersTooMany', { count: MAX_LINE_PAPERS }));
    else if (refusal === 'too-big') setPaperProblem(t('visit.lines.papersTooBig', { limit: format.bytes(MAX_BYTES_TOGETHER, 'down') }));
    else {
      setPaperProblem(null);
      setPapers([...papers, paper]);
    }
    return Promise.resolve(refusal === null);
  };

  return (
    <form
      className="add-line"
      onChange={() => setAdded(null)}
      onSubmit={(event) => {
        event.preventDefault();
        setTried(true);
        if (!priceOk || !quantityOk || !diagnosisOk || (doctorGiven && !isDoctorComplete(doctor))) return;
        void run(view.workflowId, 'visit.addLine', {
          workflowId: view.workflowId,
          ...(billed.code === view.intervention.code ? {} : { interventionCode: billed.code }),
          unitPriceKes: priceValue,
          quantity: quantityValue,
          diagnoses: [diagnosisInput(diagnosis)],
          ...(description.trim() === '' ? {} : { description: description.trim() }),
          ...(doctorGiven ? { doctor: doctorInput(doctor) } : {}),
          ...(papers.length === 0 ? {} : { attachments: [...papers] }),
        }).then((answer) => {
          if (!answer.ok) return;
          setAdded(t('visit.lines.added', { amount: format.kes(priceValue * quantityValue) }));
          setTried(false);
          setDescription('');
          setPrice('');
          setQuantity('1');
          setDiagnosis(emptyDiagnosis);
          setPapers([]);
          setPaperProblem(null);
        });
      }}
    >
      <h3>{t('visit.lines.add')}</h3>
      {billable.length > 1 && (
        <SelectField
          label={t('visit.lines.service')}
          value={billed.code}
          onChange={(event) => setServiceCode(event.target.value)}
          choices={billable.map((s) => ({ value: s.code, label: `${s.name} (${s.code})` }))}
        />
      )}
      <div className="row">
        <TextField label={t('visit.lines.description')} value={description} onChange={(e) => setDescription(e.target.value)} maxLength={200} />
        <TextField
          label={t('visit.lines.unitPrice')}
          value={price}
          onChange={(e) => setPrice(e.target.value)}
          inputMode="decimal"
          error={tried && !priceOk ? t('visit.lines.priceNeeded') : undefined}
        />
        <TextField
          label={t('visit.lines.quantity')}
          value={quantity}
          onChange={(e) => setQuantity(e.target.value)}
          inputMode="numeric"
          error={tried && !quantityOk ? t('visit.lines.quantityNeeded') : undefined}
        />
        <DiagnosisSearch value={diagnosis} onChange={setDiagnosis} error={tried && !diagnosisOk ? t('visit.lines.diagnosisNeeded') : undefined} />
      </div>
      <DoctorFields value={doctor} onChange={setDoctor} error={tried && doctorGiven && !isDoctorComplete(doctor) ? t('doctor.numberNeeded') : undefined} />
      <DocumentPicker listed={listed} busy={false} onAttach={holdPaper} />
      {paperProblem !== null && <Notice tone="warn">{paperProblem}</Notice>}
      {papers.length > 0 && (
        <ul className="line-papers" aria-label={t('visit.lines.papers')}>
          {papers.map((paper, index) => (
            <li key={`${paper.fileName}-${index}`}>
              {t('visit.lines.paper', { title: paper.title, file: paper.fileName })}{' '}
              <Button tone="quiet" onClick={() => setPapers(papers.filter((_, i) => i !== index))}>
                {t('visit.lines.paperRemove', { title: paper.title })}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <Button type="submit" tone="primary" busy={pending}>
        {t('visit.lines.addButton')}
      </Button>
      <p role="status" className="ok-text">
        {added}
      </p>
    </form>
  );
}

function PreviewSection({ workflowId, enabled }: { readonly workflowId: string; readonly enabled: boolean }) {
  const { t } = useTranslation();
  const [preview, setPreview] = useState<ClaimPreview | null>(null);
  const [error, setError] = useState<StationError | null>(null);
  const [busy, setBusy] = useState(false);
  const load = async () => {
    setBusy(true);
    const answer = await call('visit.preview', { workflowId });
    setBusy(false);
    if (answer.ok) {
      setPreview(answer.value);
      setError(null);
    } else setError(answer.error);
  };
  return (
    <section className="panel" aria-labelledby="preview-title">
      <h2 id="preview-title">{t('preview.title')}</h2>
      <Button disabled={!enabled} busy={busy} onClick={() => void load()}>
        {preview === null ? t('preview.show') : t('preview.refresh')}
      </Button>
      {error !== null && <ErrorNotice error={error} onRetry={() => void load()} />}
      {preview !== null && <PreviewPanel preview={preview} />}
    </section>
  );
}
