// The visit's end. An inpatient is discharged: the patient authorizes the discharge, then the nurse
// discharges (whole or partial) with the invoice number and a reason. An outpatient visit is ended:
// the patient authorizes (SHA calls it the discharge authorization too), then the claim is submitted.
// Nothing is chosen for the nurse: the reason is hers to give. DECEASED is never offered on submit
// (the station core leaves it out of `reasons` when the claim closes by submit); the form says where
// a death is recorded instead. Cancel stops the visit's end and goes back to the visit.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../i18n/format';
import { go } from '../../state/navigation';
import { run, useWorkflows } from '../../state/workflows';
import type { ViewOf } from '../../state/workflows';
import { ActionBar } from '../../ui/ActionBar';
import type { CancelAction } from '../../ui/ActionBar';
import { Button } from '../../ui/Button';
import { Checkbox, SelectField, TextArea, TextField } from '../../ui/Field';
import { Notice } from '../../ui/Notice';
import { Screen } from '../../ui/Screen';
import { cancelVerification } from '../consent/verification-state';
import { VerificationBar } from '../consent/VerificationBar';
import { VerificationPanel } from '../consent/VerificationPanel';
import { isInvoiceNumber } from '../shared/formats';
import { PatientSteps, viewPosition } from '../shared/PatientSteps';
import { WhoAndWhat } from '../shared/WhoAndWhat';
import { WorkflowError } from '../shared/WorkflowError';
import { FacilityPicker, type Facility } from '../programmes/FacilityPicker';
import { ClaimDocumentsNotice } from '../shared/ClaimDocumentsNotice';
import { MadeInvoice } from './MadeInvoice';

type DischargeView = ViewOf<'discharge'>;
type Reason = DischargeView['reasons'][number];
type SubmitReason = Exclude<Reason, 'DECEASED'>;

const isSubmitReason = (reason: Reason): reason is SubmitReason => reason !== 'DECEASED';

export default function DischargeScreen({ view }: { readonly view: DischargeView }) {
  const { t } = useTranslation();
  const format = useFormat();
  const pending = useWorkflows((s) => s.pending[view.workflowId]);
  const inpatient = view.closeBy === 'discharge';
  const verifying = view.state === 'verifying' && view.verification !== null;
  const closing = view.next.includes('discharge.dischargeInpatient') || view.next.includes('discharge.submit');
  const backToVisit = () => go({ name: 'workflow', workflowId: view.visitWorkflowId });
  const cancel: CancelAction | undefined = view.next.includes('consent.cancel')
    ? {
        describes: t('discharge.cancelWhat'),
        busy: pending === 'consent.cancel',
        onClick: () => void cancelVerification(view.workflowId).then((done) => done && backToVisit()),
      }
    : undefined;

  return (
    <Screen
      title={inpatient ? t('discharge.titleDischarge') : t('discharge.titleEnd')}
      steps={<PatientSteps position={viewPosition(view)} />}
      banner={<WhoAndWhat workflowId={view.workflowId} patient={view.patient} intervention={view.intervention} serviceType={view.serviceType} />}
    >
      <p>{inpatient ? t('discharge.explainDischarge') : t('discharge.explainSubmit')}</p>
      {verifying && view.verification !== null && <VerificationPanel view={view} step={view.verification} />}
      {!verifying && <WorkflowError view={view} />}

      {view.partialDischarges.length > 0 && (
        <Notice tone="info" title={t('discharge.partialDone')}>
          <ul>
            {view.partialDischarges.map((at) => (
              <li key={at}>{format.dateTime(at)}</li>
            ))}
          </ul>
        </Notice>
      )}

      {closing && <MadeInvoice workflowId={view.workflowId} visitWorkflowId={view.visitWorkflowId} inpatient={inpatient} />}
      {closing && <ClaimDocumentsNotice workflowId={view.visitWorkflowId} />}
      {closing && <CloseForm view={view} cancel={cancel} />}

      {view.state === 'sending' && <p className="progress">{t('discharge.sending')}</p>}
      {view.state === 'reconciling' && <Notice tone="info">{t('discharge.reconciling')}</Notice>}
      {(view.state === 'discharged' || view.state === 'submitted') && (
        <Notice tone="ok" title={t(`discharge.done.${view.state}`)}>
          <p>
            {view.claimStatus !== null && (
              <>
                {t('visit.claimStatus')}: {t(`claimStatus.${view.claimStatus}`)} ·{' '}
              </>
            )}
            {view.invoiceNumber !== null && (
              <>
                {t('visit.invoice')}: {view.invoiceNumber} ·{' '}
              </>
            )}
            {view.closedAt !== null && format.dateTime(view.closedAt)}
          </p>
          {view.referredTo !== null && <p>{t('programmes.referral.referredTo', { name: view.referredTo.name, code: view.referredTo.code })}</p>}
        </Notice>
      )}
      {view.state === 'cancelled' && <Notice tone="warn" title={inpatient ? t('discharge.cancelledDischarge') : t('discharge.cancelledEnd')} />}

      {verifying && view.verification !== null && <VerificationBar view={view} step={view.verification} cancel={cancel} />}
      {(view.state === 'discharged' || view.state === 'submitted') && (
        <ActionBar>
          <Button tone="primary" onClick={() => go({ name: 'lookup' })}>
            {t('discharge.nextPatient')}
          </Button>
        </ActionBar>
      )}
      {view.state === 'cancelled' && (
        <ActionBar>
          <Button tone="primary" onClick={backToVisit}>
            {t('discharge.backToVisit')}
          </Button>
        </ActionBar>
      )}
    </Screen>
  );
}

function CloseForm({ view, cancel }: { readonly view: DischargeView; readonly cancel: CancelAction | undefined }) {
  const { t } = useTranslation();
  const workflowId = view.workflowId;
  const pending = useWorkflows((s) => s.pending[workflowId]);
  const canDischarge = view.next.includes('discharge.dischargeInpatient');
  const canSubmit = view.next.includes('discharge.submit');
  const [reason, setReason] = useState<Reason | ''>('');
  const [invoice, setInvoice] = useState(view.invoiceNumber ?? '');
  const [notes, setNotes] = useState('');
  const [partial, setPartial] = useState(false);
  const [destination, setDestination] = useState<Facility | null>(null);
  const [tried, setTried] = useState(false);
  const invoiceOk = isInvoiceNumber(invoice.trim());
  const reasonGiven = reason !== '';
  // A referral names where the patient goes: the facility found in the registry.
  const referred = reason === 'REFERRED';
  const destinationOk = !referred || destination !== null;
  // After a partial discharge both are offered with the discharge reasons: DECEASED may only go
  // with the discharge, so Submit waits for another reason.
  const submittable = reason === '' || isSubmitReason(reason);

  const common = () => ({
    workflowId,
    ...(invoice.trim() === '' ? {} : { invoiceNumber: invoice.trim() }),
    ...(notes.trim() === '' ? {} : { notes: notes.trim() }),
    ...(referred && destination !== null ? { referredTo: destination.code } : {}),
  });
  const ready = () => {
    setTried(true);
    return invoiceOk && reason !== '' && destinationOk;
  };

  return (
    <form className="panel close-form" onSubmit={(event) => event.preventDefault()}>
      <h2>{canDischarge ? t('discharge.formTitleDischarge') : t('discharge.formTitleSubmit')}</h2>
      <div className="row">
        <SelectField
          label={t('discharge.reason')}
          value={reason}
          onChange={(event) => setReason(event.target.value as Reason | '')}
          choices={[{ value: '', label: t('discharge.chooseReason') }, ...view.reasons.map((value) => ({ value, label: t(`discharge.reasons.${value}`) }))]}
          error={tried && !reasonGiven ? t('discharge.reasonNeeded') : undefined}
        />
        <TextField
          label={t('discharge.invoice')}
          value={invoice}
          onChange={(event) => setInvoice(event.target.value)}
          autoComplete="off"
          error={tried && !invoiceOk ? t('discharge.invoiceNeeded') : undefined}
        />
      </div>
      {/* Where a death goes at SHA: only the inpatient discharge takes DECEASED (docs/exchange-wire.md, claims.submit). */}
      <p className="muted small">
        {canDischarge ? t('discharge.deathInpatient', { died: t('discharge.reasons.DECEASED') }) : t('discharge.deathOutpatient', { other: t('discharge.reasons.OTHER') })}
      </p>
      {referred && <FacilityPicker chosen={destination} onChoose={setDestination} error={tried && !destinationOk ? t('programmes.referral.needed') : undefined} />}
      <TextArea label={t('discharge.notes')} value={notes} onChange={(event) => setNotes(event.target.value)} maxLength={2000} />
      {canDischarge && <Checkbox label={t('discharge.partial')} hint={t('discharge.partialHint')} checked={partial} onChange={(event) => setPartial(event.target.checked)} />}
      {canSubmit && !submittable && <p className="muted small">{t('discharge.deceasedOnlyDischarge')}</p>}
      <ActionBar cancel={cancel}>
        {canSubmit && (
          <Button
            tone={canDischarge ? 'secondary' : 'primary'}
            busy={pending === 'discharge.submit'}
            disabled={!submittable}
            onClick={() => {
              if (!ready() || reason === '' || !isSubmitReason(reason)) return;
              void run(workflowId, 'discharge.submit', { ...common(), reason });
            }}
          >
            {t('discharge.submitButton')}
          </Button>
        )}
        {canDischarge && (
          <Button
            tone="primary"
            busy={pending === 'discharge.dischargeInpatient'}
            onClick={() => {
              if (!ready() || reason === '') return;
              void run(workflowId, 'discharge.dischargeInpatient', { ...common(), reason, ...(partial ? { partial: true } : {}) });
            }}
          >
            {t('discharge.dischargeButton')}
          </Button>
        )}
      </ActionBar>
    </form>
  );
}
