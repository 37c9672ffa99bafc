// Flow A, the elective admission, in two phases. Phase one: consent before the visit and the
// preauthorization, watched until FINALISED with the doctor's and the payer's steps shown. Phase
// two, on the day: the visit opens on the same workflow, without a new authorization. Cancel gives
// up the consent while it is being taken, or the preauthorization (with the reason SHA is told).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../i18n/format';
import { run, useWorkflows } from '../../state/workflows';
import type { ViewOf } from '../../state/workflows';
import { ActionBar } from '../../ui/ActionBar';
import type { CancelAction } from '../../ui/ActionBar';
import { Button } from '../../ui/Button';
import { TextArea, TextField } from '../../ui/Field';
import { Notice } from '../../ui/Notice';
import { Screen } from '../../ui/Screen';
import { cancelVerification } from '../consent/verification-state';
import { VerificationBar } from '../consent/VerificationBar';
import { VerificationPanel } from '../consent/VerificationPanel';
import { DiagnosisSearch, diagnosisInput, emptyDiagnosis, isDiagnosisGiven, type DiagnosisDraft } from '../lookups/DiagnosisSearch';
import { DoctorFields, doctorInput, emptyDoctor, isDoctorComplete } from '../shared/DoctorFields';
import type { DoctorDraft } from '../shared/DoctorFields';
import { PatientSteps, viewPosition } from '../shared/PatientSteps';
import { OpenVisitButton, VisitOpened } from '../shared/VisitOpened';
import { WhoAndWhat } from '../shared/WhoAndWhat';
import { WorkflowError } from '../shared/WorkflowError';
import { PreauthCorrections } from '../corrections/PreauthCorrections';
import type { ChosenDocument } from '../claims/DocumentPicker';
import { paperTitles, PreauthPapers } from './PreauthPapers';
import { DateField } from '../../ui/DateField';

type ElectiveView = ViewOf<'elective'>;

/** A calendar day as the date field gives it (2030-01-15). */
const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);
const isEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);

export default function ElectiveScreen({ view }: { readonly view: ElectiveView }) {
  const { t } = useTranslation();
  const format = useFormat();
  const workflowId = view.workflowId;
  const pending = useWorkflows((s) => s.pending[workflowId]);
  const [cancelling, setCancelling] = useState(false);
  const verification = view.verification;
  const showVerification = verification !== null && (view.state === 'verifying' || view.state === 'visit-day-verifying' || verification.stage !== 'verified');
  const verifyingNow = verification !== null && (view.state === 'verifying' || view.state === 'visit-day-verifying');
  const cancel: CancelAction | undefined = verifyingNow
    ? { describes: t('elective.cancelWhat'), busy: pending === 'consent.cancel', onClick: () => void cancelVerification(workflowId) }
    : view.next.includes('elective.cancelPreauth')
      ? { describes: t('elective.cancelWhat'), onClick: () => setCancelling(true) }
      : undefined;

  return (
    <Screen
      title={t('elective.title')}
      steps={<PatientSteps position={viewPosition(view)} />}
      banner={<WhoAndWhat workflowId={view.workflowId} patient={view.patient} intervention={view.intervention} serviceType="INPATIENT" />}
    >
      {showVerification && verification !== null && <VerificationPanel view={view} step={verification} />}
      {!showVerification && <WorkflowError view={view} />}

      {view.next.includes('elective.submitPreauth') ? (
        <PreauthForm view={view} inBar={!verifyingNow} />
      ) : (
        view.preauth === null && view.preauthDocuments.attached.length > 0 && <p>{t('preauthPapers.waiting', { names: paperTitles(view, format.locale) })}</p>
      )}
      <PreauthCorrections view={view} />
      {view.preauth !== null && <PreauthProgress view={view} cancelling={cancelling} onCancelled={() => setCancelling(false)} />}

      {view.state === 'finalised' && (
        <Notice tone="ok" title={t('elective.finalised.title')}>
          <p>{t('elective.finalised.body')}</p>
        </Notice>
      )}
      {view.state === 'preauth-rejected' && <Notice tone="bad" title={t('elective.rejected.title')}>{t('elective.rejected.body')}</Notice>}
      {view.state === 'cancelled' && <Notice tone="warn" title={t('elective.cancelled')} />}
      {view.state === 'reconciling' && <Notice tone="info">{t('elective.reconciling')}</Notice>}
      {view.state === 'visit-opened' && view.visitWorkflowId !== null && <VisitOpened visitWorkflowId={view.visitWorkflowId} />}

      {verifyingNow && verification !== null ? (
        <VerificationBar view={view} step={verification} cancel={cancel} />
      ) : (
        <ActionBar cancel={cancel} note={view.next.includes('visit.open') ? <p>{t('elective.visitDayHint')}</p> : view.state === 'awaiting-doctor' || view.state === 'awaiting-payer' ? <p>{t('elective.progress.watching')}</p> : undefined}>
          {view.next.includes('elective.submitPreauth') && !verifyingNow && (
            <Button type="submit" form={preauthForm(workflowId)} tone="primary" busy={pending === 'elective.submitPreauth'}>
              {t('elective.form.send')}
            </Button>
          )}
          {view.next.includes('elective.refreshPreauth') && (
            <Button tone="primary" busy={pending === 'elective.refreshPreauth'} onClick={() => void run(workflowId, 'elective.refreshPreauth', { workflowId })}>
              {t('elective.progress.checkStatus')}
            </Button>
          )}
          {(view.next.includes('visit.open') || view.state === 'visit-opened') && <OpenVisitButton workflowId={workflowId} visitWorkflowId={view.visitWorkflowId} />}
        </ActionBar>
      )}
    </Screen>
  );
}

const preauthForm = (workflowId: string) => `preauth-${workflowId}`;

type StepState = 'done' | 'current' | 'waiting' | 'failed';

/** The preauthorization's own steps: the request, the doctor's approval, SHA's. */
function PreauthSteps({ view }: { readonly view: ElectiveView }) {
  const { t } = useTranslation();
  const preauth = view.preauth;
  const doctor: StepState =
    preauth === null ? 'waiting' : preauth.doctorStep === 'approved' ? 'done' : preauth.doctorStep === 'failed' ? 'failed' : preauth.doctorStep === 'waiting' ? 'current' : 'waiting';
  const payer: StepState =
    preauth === null ? 'waiting' : preauth.payerStep === 'approved' ? 'done' : preauth.payerStep === 'rejected' ? 'failed' : preauth.payerStep === 'waiting' ? 'current' : 'waiting';
  const steps: readonly { key: string; state: StepState }[] = [
    { key: 'request', state: preauth !== null ? 'done' : 'current' },
    { key: 'doctor', state: doctor },
    { key: 'payer', state: payer },
  ];
  return (
    <ol className="steps" aria-label={t('elective.stepsLabel')}>
      {steps.map((step, index) => (
        <li key={step.key} className={`step step-${step.state}`} aria-current={step.state === 'current' ? 'step' : undefined}>
          <span className="step-number" aria-hidden="true">
            {step.state === 'done' ? '✓' : step.state === 'failed' ? '✕' : index + 1}
          </span>
          <span>
            {t(`elective.steps.${step.key}`)}
            <span className="visually-hidden"> — {t(`elective.stepState.${step.state}`)}</span>
          </span>
        </li>
      ))}
    </ol>
  );
}

function PreauthForm({ view, inBar }: { readonly view: ElectiveView; readonly inBar: boolean }) {
  const { t } = useTranslation();
  const workflowId = view.workflowId;
  const pending = useWorkflows((s) => s.pending[workflowId]) === 'elective.submitPreauth';
  const [serviceStart, setServiceStart] = useState('');
  const [serviceEnd, setServiceEnd] = useState('');
  const [email, setEmail] = useState('');
  const [amount, setAmount] = useState('');
  const [diagnosis, setDiagnosis] = useState<DiagnosisDraft>(emptyDiagnosis);
  const [notes, setNotes] = useState('');
  const [doctor, setDoctor] = useState<DoctorDraft>(emptyDoctor);
  const [papers, setPapers] = useState<ChosenDocument[]>([]);
  const [tried, setTried] = useState(false);
  const amountValue = Number(amount);
  const amountOk = amount.trim() !== '' && Number.isFinite(amountValue) && amountValue >= 0;
  const diagnosisOk = isDiagnosisGiven(diagnosis);
  const doctorOk = isDoctorComplete(doctor);
  const datesOk = isDay(serviceStart) && isDay(serviceEnd) && serviceEnd >= serviceStart;
  const emailOk = isEmail(email.trim());
  return (
    <form
      id={preauthForm(workflowId)}
      className="panel"
      onSubmit={(event) => {
        event.preventDefault();
        setTried(true);
        if (!amountOk || !diagnosisOk || !doctorOk || !datesOk || !emailOk) return;
        void run(workflowId, 'elective.submitPreauth', {
          workflowId,
          serviceStart,
          serviceEnd,
          requestedAmountKes: amountValue,
          diagnoses: [diagnosisInput(diagnosis)],
          doctor: doctorInput(doctor),
          notificationEmail: email.trim(),
          ...(notes.trim() === '' ? {} : { clinicalNotes: notes.trim() }),
          ...(papers.length === 0 ? {} : { documents: papers }),
        });
      }}
    >
      <h2>{t('elective.form.title')}</h2>
      <p className="muted">{view.verification?.stage === 'verified' ? t('elective.form.afterConsent') : t('elective.form.beforeConsent')}</p>
      <div className="row">
        <DateField label={t('elective.form.serviceStart')} value={serviceStart} onChange={setServiceStart} />
        <DateField
          label={t('elective.form.serviceEnd')}
          value={serviceEnd}
          min={serviceStart === '' ? undefined : serviceStart}
          onChange={setServiceEnd}
          error={tried && !datesOk ? t('elective.form.datesNeeded') : undefined}
        />
      </div>
      <div className="row">
        <TextField
          label={t('elective.form.amount')}
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
          inputMode="decimal"
          error={tried && !amountOk ? t('elective.form.amountNeeded') : undefined}
        />
        <DiagnosisSearch value={diagnosis} onChange={setDiagnosis} error={tried && !diagnosisOk ? t('visit.lines.diagnosisNeeded') : undefined} />
      </div>
      <DoctorFields value={doctor} onChange={setDoctor} error={tried && !doctorOk ? t('doctor.numberNeeded') : undefined} />
      <TextField
        label={t('elective.form.email')}
        type="email"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        hint={t('elective.form.emailHint')}
        autoComplete="email"
        error={tried && !emailOk ? t('elective.form.emailNeeded') : undefined}
      />
      <TextArea label={t('elective.form.notes')} value={notes} onChange={(event) => setNotes(event.target.value)} maxLength={2000} />
      <PreauthPapers view={view} papers={papers} onChange={setPapers} />
      {/* Before consent the request may be sent ahead (it goes once the patient has consented); after, it is the bar's next step. */}
      {!inBar && (
        <Button type="submit" busy={pending}>
          {t('elective.form.send')}
        </Button>
      )}
    </form>
  );
}

function PreauthProgress({ view, cancelling, onCancelled }: { readonly view: ElectiveView; readonly cancelling: boolean; readonly onCancelled: () => void }) {
  const { t } = useTranslation();
  const format = useFormat();
  const workflowId = view.workflowId;
  const pending = useWorkflows((s) => s.pending[workflowId]);
  const [cancelReason, setCancelReason] = useState('');
  const preauth = view.preauth;
  if (preauth === null) return null;
  return (
    <section className="panel" aria-labelledby="preauth-title">
      <h2 id="preauth-title">{t('elective.progress.title')}</h2>
      <PreauthSteps view={view} />
      <dl className="facts">
        <div>
          <dt>{t('elective.progress.status')}</dt>
          <dd className="big">{t(`preauthStatus.${preauth.status}`)}</dd>
        </div>
        <div>
          <dt>{t('elective.progress.doctor')}</dt>
          <dd>{t(`elective.doctorStep.${preauth.doctorStep}`)}</dd>
        </div>
        <div>
          <dt>{t('elective.progress.payer')}</dt>
          <dd>{t(`elective.payerStep.${preauth.payerStep}`)}</dd>
        </div>
        <div>
          <dt>{t('elective.progress.amount')}</dt>
          <dd>{format.kes(preauth.requestedAmountKes)}</dd>
        </div>
        <div>
          <dt>{t('elective.progress.reference')}</dt>
          <dd>{preauth.reference ?? t('common.notYet')}</dd>
        </div>
        <div>
          <dt>{t('elective.progress.checked')}</dt>
          <dd>{preauth.checkedAt === null ? t('common.notYet') : format.dateTime(preauth.checkedAt)}</dd>
        </div>
      </dl>
      {view.preauthDocuments.attached.length > 0 && (
        <p>{t('preauthPapers.sent', { names: paperTitles(view, format.locale) })}</p>
      )}
      {(view.state === 'awaiting-doctor' || view.state === 'awaiting-payer') && <p className="progress">{t('elective.progress.watching')}</p>}
      {view.next.includes('elective.resendDoctorRequest') && (
        <div className="actions">
          <Button busy={pending === 'elective.resendDoctorRequest'} onClick={() => void run(workflowId, 'elective.resendDoctorRequest', { workflowId })}>
            {t('elective.progress.resendDoctor')}
          </Button>
        </div>
      )}
      {cancelling && view.next.includes('elective.cancelPreauth') && (
        <form
          className="cancel-form"
          onSubmit={(event) => {
            event.preventDefault();
            if (cancelReason.trim() === '') return;
            void run(workflowId, 'elective.cancelPreauth', { workflowId, reason: cancelReason.trim() }).then((answer) => answer.ok && onCancelled());
          }}
        >
          <TextArea label={t('elective.progress.cancelReason')} value={cancelReason} onChange={(event) => setCancelReason(event.target.value)} required maxLength={2000} autoFocus />
          <div className="actions">
            <Button type="submit" tone="danger" busy={pending === 'elective.cancelPreauth'} disabled={cancelReason.trim() === ''}>
              {t('elective.progress.cancelConfirm')}
            </Button>
            <Button onClick={onCancelled}>{t('elective.progress.keep')}</Button>
          </div>
        </form>
      )}
    </section>
  );
}
