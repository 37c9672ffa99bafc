// Flow C after creation: the time left to submit (24 hours from the emergency) always in view; the
// protocol on the claim and the doctor's approval asked for; a creation SHA did not answer, sent
// again only once the nurse has checked; identifying the patient later by their own SMS code; submit.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PatientSummary } from '../../../electron/contract';
import type { CommandInput, StationError } from '../../bridge/types';
import { useFormat } from '../../i18n/format';
import { call } from '../../state/bridge';
import { go } from '../../state/navigation';
import { run, useWorkflows } from '../../state/workflows';
import type { ViewOf } from '../../state/workflows';
import { ActionBar } from '../../ui/ActionBar';
import { Button } from '../../ui/Button';
import { Countdown } from '../../ui/Countdown';
import { SelectField, TextArea, TextField } from '../../ui/Field';
import { ErrorNotice, Notice } from '../../ui/Notice';
import { Screen } from '../../ui/Screen';
import { cancelVerification } from '../consent/verification-state';
import { VerificationBar } from '../consent/VerificationBar';
import { VerificationPanel } from '../consent/VerificationPanel';
import { idTypes } from '../lookup/idTypes';
import type { IdType } from '../lookup/store';
import { isInvoiceNumber } from '../shared/formats';
import { PatientSteps, viewPosition } from '../shared/PatientSteps';
import { WhoAndWhat } from '../shared/WhoAndWhat';
import { PatientInFull } from '../patient/PatientCard';
import { WorkflowError } from '../shared/WorkflowError';
import { EmergencyCorrections, SubmitByLine } from '../corrections/EmergencyCorrections';
import { useEmergencyDraft } from './draft';

type EmergencyView = ViewOf<'emergency'>;
type Submit = CommandInput<'emergency.submit'>;
const submitReasons = ['RECOVERED', 'REFERRED', 'ABSCONDED', 'OTHER'] as const satisfies readonly Submit['reason'][];
const unknownReasons = ['SHA_UNREGISTERED', 'DECEASED'] as const satisfies readonly NonNullable<Submit['unknownPatientReason']>[];

export default function EmergencyScreen({ view }: { readonly view: EmergencyView }) {
  const { t } = useTranslation();
  const format = useFormat();
  const verifying = view.verification !== null && view.state === 'identifying';
  const pending = useWorkflows((s) => s.pending[view.workflowId]);

  return (
    <Screen
      title={t('emergency.title')}
      steps={<PatientSteps position={viewPosition(view)} />}
      aside={
        view.submitBy !== null && view.state !== 'submitted' ? (
          <Countdown to={view.submitBy} label={t('emergency.timeLeft')} urgentBelowMs={2 * 3600_000} expired={t('emergency.windowOver')} />
        ) : undefined
      }
      banner={<WhoAndWhat workflowId={view.workflowId} patient={view.patient} intervention={view.intervention} />}
    >
      <p className="muted">
        {t('emergency.protocolLine', { code: view.protocol.protocolCode, name: view.protocol.name, tariff: format.kes(view.protocol.tariffKes) })}
        {' · '}
        {t('emergency.referenceLine', { reference: view.referenceNumber })}
        {view.emergencyAt !== null && <> · {t('emergency.at', { time: format.dateTime(view.emergencyAt) })}</>}
      </p>
      <SubmitByLine view={view} />

      {verifying && view.verification !== null && <VerificationPanel view={view} step={view.verification} />}
      {!verifying && <WorkflowError view={view} />}
      {(view.state === 'creating' || view.state === 'submitting') && <p className="progress">{t(`state.emergency.${view.state}`)}</p>}
      {view.state === 'reconciling' && <Notice tone="info">{t('emergency.reconciling')}</Notice>}
      {view.state === 'unconfirmed' && <UnconfirmedPanel view={view} />}
      {view.state === 'not-created' && (
        <Notice tone="bad" title={t('emergency.notCreated.title')}>
          <p>{t('emergency.notCreated.body')}</p>
        </Notice>
      )}
      {(view.state === 'open-unidentified' || view.state === 'open-identified' || view.state === 'identifying') && <ClaimPanel view={view} />}
      <EmergencyCorrections view={view} />

      {view.next.includes('emergency.identify') && <IdentifyPanel view={view} />}
      {view.state === 'open-identified' && <Notice tone="ok" title={t('emergency.identified')} />}
      {view.next.includes('emergency.submit') && <SubmitPanel view={view} />}

      {view.state === 'submitted' && (
        <Notice tone="ok" title={t('emergency.submitted')}>
          <p>
            {view.claimStatus !== null && (
              <>
                {t('visit.claimStatus')}: {t(`claimStatus.${view.claimStatus}`)} ·{' '}
              </>
            )}
            {view.submittedAt !== null && format.dateTime(view.submittedAt)}
          </p>
        </Notice>
      )}
      {view.state === 'window-expired' && (
        <Notice tone="bad" title={t('emergency.expired.title')}>
          <p>{t('emergency.expired.body')}</p>
        </Notice>
      )}

      {verifying && view.verification !== null ? (
        <VerificationBar
          view={view}
          step={view.verification}
          cancel={{ describes: t('emergency.identify.cancelWhat'), busy: pending === 'consent.cancel', onClick: () => void cancelVerification(view.workflowId) }}
        />
      ) : (
        <ActionBar>
          {view.next.includes('emergency.submit') && (
            <Button type="submit" form={submitForm(view.workflowId)} tone="primary" busy={pending === 'emergency.submit'}>
              {t('discharge.submitButton')}
            </Button>
          )}
          {view.state === 'not-created' && (
            <Button tone="primary" onClick={() => go({ name: 'emergency-new' })}>
              {t('emergency.notCreated.again')}
            </Button>
          )}
          {(view.state === 'submitted' || view.state === 'window-expired') && (
            <Button tone="primary" onClick={() => go({ name: 'lookup' })}>
              {t('discharge.nextPatient')}
            </Button>
          )}
        </ActionBar>
      )}
    </Screen>
  );
}

function UnconfirmedPanel({ view }: { readonly view: EmergencyView }) {
  const { t } = useTranslation();
  const workflowId = view.workflowId;
  const pending = useWorkflows((s) => s.pending[workflowId]) === 'emergency.resendClaim';
  return (
    <Notice tone="warn" title={t('emergency.unconfirmed.title')}>
      <p>{t('emergency.unconfirmed.body', { reference: view.referenceNumber })}</p>
      {view.next.includes('emergency.resendClaim') && (
        <Button busy={pending} onClick={() => void run(workflowId, 'emergency.resendClaim', { workflowId })}>
          {t('emergency.unconfirmed.resend')}
        </Button>
      )}
    </Notice>
  );
}

/** What SHA has of the claim: the protocol on it, and the doctor's approval asked for. */
function ClaimPanel({ view }: { readonly view: EmergencyView }) {
  const { t } = useTranslation();
  const workflowId = view.workflowId;
  const pending = useWorkflows((s) => s.pending[workflowId]);
  return (
    <section className="panel" aria-labelledby="claim-title">
      <h2 id="claim-title">{t('emergency.claim.title')}</h2>
      <dl className="facts">
        <div>
          <dt>{t('emergency.claim.protocol')}</dt>
          <dd>{view.protocolAdded ? t('emergency.claim.protocolAdded') : t('emergency.claim.protocolMissing')}</dd>
        </div>
        <div>
          <dt>{t('emergency.claim.doctor')}</dt>
          <dd>{t(`emergency.claim.doctorApproval.${view.doctorApproval}`)}</dd>
        </div>
      </dl>
      <div className="actions">
        {view.next.includes('emergency.addProtocol') && (
          <Button tone="primary" busy={pending === 'emergency.addProtocol'} onClick={() => void run(workflowId, 'emergency.addProtocol', { workflowId })}>
            {t('emergency.claim.addProtocol')}
          </Button>
        )}
        {view.next.includes('emergency.requestDoctorApproval') && (
          <Button busy={pending === 'emergency.requestDoctorApproval'} onClick={() => void run(workflowId, 'emergency.requestDoctorApproval', { workflowId })}>
            {view.doctorApproval === 'requested' ? t('emergency.claim.askDoctorAgain') : t('emergency.claim.askDoctor')}
          </Button>
        )}
      </div>
    </section>
  );
}

function IdentifyPanel({ view }: { readonly view: EmergencyView }) {
  const { t } = useTranslation();
  const workflowId = view.workflowId;
  const knownRef = useEmergencyDraft((s) => s.patientRef);
  const pending = useWorkflows((s) => s.pending[workflowId]) === 'emergency.identify';
  const [idType, setIdType] = useState<IdType>('National ID');
  const [idNumber, setIdNumber] = useState('');
  const [found, setFound] = useState<PatientSummary | null>(null);
  const [error, setError] = useState<StationError | null>(null);
  const [busy, setBusy] = useState(false);

  const identify = (patientRef: string) => void run(workflowId, 'emergency.identify', { workflowId, patientRef });

  return (
    <section className="panel" aria-labelledby="identify-title">
      <h2 id="identify-title">{t('emergency.identify.title')}</h2>
      <p className="muted">{t('emergency.identify.explain')}</p>
      {knownRef !== null && found === null && (
        <Button tone="primary" busy={pending} onClick={() => identify(knownRef)}>
          {t('emergency.identify.asLookedUp')}
        </Button>
      )}
      <form
        className="lookup-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (idNumber.trim() === '') return;
          setBusy(true);
          void call('patient.lookUp', { idType, idNumber: idNumber.trim() }).then((answer) => {
            setBusy(false);
            if (answer.ok) {
              setFound(answer.value);
              setError(null);
            } else {
              setFound(null);
              setError(answer.error);
            }
          });
        }}
      >
        <SelectField
          label={t('lookup.idType')}
          value={idType}
          onChange={(event) => setIdType(event.target.value as IdType)}
          choices={idTypes.map((type) => ({ value: type, label: t(`idTypes.${type}`) }))}
        />
        <TextField label={t('lookup.idNumber')} value={idNumber} onChange={(event) => setIdNumber(event.target.value)} autoComplete="off" spellCheck={false} />
        <Button type="submit" busy={busy} disabled={idNumber.trim() === ''}>
          {t('lookup.lookUp')}
        </Button>
      </form>
      {error !== null && (error.code === 'NOT_FOUND' ? <Notice tone="warn" title={t('lookup.notFound.title')} alert /> : <ErrorNotice error={error} />)}
      {found !== null && (
        <div className="found">
          <PatientInFull summary={found} />
          {!found.hasPhone && <Notice tone="warn">{t('emergency.identify.noPhone')}</Notice>}
          <Button tone="primary" busy={pending} disabled={!found.hasPhone} onClick={() => identify(found.patientRef)}>
            {t('emergency.identify.send')}
          </Button>
        </div>
      )}
    </section>
  );
}

const submitForm = (workflowId: string) => `emergency-submit-${workflowId}`;

/** The claim's closing details: nothing chosen for the nurse (the reason, why unidentified); "Submit claim" is the bar's. */
function SubmitPanel({ view }: { readonly view: EmergencyView }) {
  const { t } = useTranslation();
  const workflowId = view.workflowId;
  const [reason, setReason] = useState<Submit['reason'] | ''>('');
  const [unknownReason, setUnknownReason] = useState<(typeof unknownReasons)[number] | ''>('');
  const [invoice, setInvoice] = useState('');
  const [notes, setNotes] = useState('');
  const [tried, setTried] = useState(false);
  const unidentified = view.patient === null;
  const invoiceOk = invoice.trim() === '' || isInvoiceNumber(invoice.trim());
  return (
    <form
      id={submitForm(workflowId)}
      className="panel"
      onSubmit={(event) => {
        event.preventDefault();
        setTried(true);
        if (!invoiceOk || reason === '' || (unidentified && unknownReason === '')) return;
        void run(workflowId, 'emergency.submit', {
          workflowId,
          reason,
          ...(invoice.trim() === '' ? {} : { invoiceNumber: invoice.trim() }),
          ...(unidentified && unknownReason !== '' ? { unknownPatientReason: unknownReason } : {}),
          ...(notes.trim() === '' ? {} : { notes: notes.trim() }),
        });
      }}
    >
      <h2>{t('emergency.submitTitle')}</h2>
      {unidentified && <Notice tone="warn">{t('emergency.submitUnidentified')}</Notice>}
      <div className="row">
        <SelectField
          label={t('discharge.reason')}
          value={reason}
          onChange={(event) => setReason(event.target.value as Submit['reason'] | '')}
          choices={[{ value: '', label: t('discharge.chooseReason') }, ...submitReasons.map((value) => ({ value, label: t(`discharge.reasons.${value}`) }))]}
          error={tried && reason === '' ? t('discharge.reasonNeeded') : undefined}
        />
        {unidentified && (
          <SelectField
            label={t('emergency.unknownReason')}
            value={unknownReason}
            onChange={(event) => setUnknownReason(event.target.value as (typeof unknownReasons)[number] | '')}
            choices={[{ value: '', label: t('discharge.chooseReason') }, ...unknownReasons.map((value) => ({ value, label: t(`emergency.unknownReasons.${value}`) }))]}
            error={tried && unknownReason === '' ? t('emergency.unknownReasonNeeded') : undefined}
          />
        )}
        <TextField
          label={t('discharge.invoice')}
          value={invoice}
          onChange={(event) => setInvoice(event.target.value)}
          autoComplete="off"
          error={invoiceOk ? undefined : t('discharge.invoiceNeeded')}
        />
      </div>
      <TextArea label={t('discharge.notes')} value={notes} onChange={(event) => setNotes(event.target.value)} maxLength={2000} />
    </form>
  );
}
