// Visit end: discharge authorization (fingerprint or the discharge SMS code), then discharge for an
// inpatient claim (whole or partial) or submit for an outpatient one, with the invoice number and a
// reason. DECEASED is never offered on submit: the station core leaves it out of `reasons` when the
// claim closes by submit, and the contract's submit reasons exclude it.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../i18n/format';
import { go } from '../../state/navigation';
import { run, useWorkflows } from '../../state/workflows';
import type { ViewOf } from '../../state/workflows';
import { Button } from '../../ui/Button';
import { Checkbox, SelectField, TextArea, TextField } from '../../ui/Field';
import { Notice } from '../../ui/Notice';
import { Screen } from '../../ui/Screen';
import { VerificationPanel } from '../consent/VerificationPanel';
import { isInvoiceNumber } from '../shared/formats';
import { WhoAndWhat } from '../shared/WhoAndWhat';
import { WorkflowError } from '../shared/WorkflowError';

type DischargeView = ViewOf<'discharge'>;
type Reason = DischargeView['reasons'][number];
type SubmitReason = Exclude<Reason, 'DECEASED'>;

const isSubmitReason = (reason: Reason): reason is SubmitReason => reason !== 'DECEASED';

export default function DischargeScreen({ view }: { readonly view: DischargeView }) {
  const { t } = useTranslation();
  const format = useFormat();
  const verifying = view.state === 'verifying' && view.verification !== null;
  const closing = view.next.includes('discharge.dischargeInpatient') || view.next.includes('discharge.submit');

  return (
    <Screen title={t('discharge.title')}>
      <WhoAndWhat patient={view.patient} intervention={view.intervention} serviceType={view.serviceType} />
      <p>{view.closeBy === 'discharge' ? t('discharge.explainDischarge') : t('discharge.explainSubmit')}</p>
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

      {closing && <CloseForm view={view} />}

      {view.state === 'sending' && <p className="progress">{t('discharge.sending')}</p>}
      {view.state === 'reconciling' && <Notice tone="info">{t('discharge.reconciling')}</Notice>}
      {(view.state === 'discharged' || view.state === 'submitted') && (
        <Notice tone="ok" title={t(`discharge.done.${view.state}`)}>
          <p>
            {view.claimStatus !== null && <>{t('visit.claimStatus')}: {t(`claimStatus.${view.claimStatus}`)} · </>}
            {view.invoiceNumber !== null && <>{t('visit.invoice')}: {view.invoiceNumber} · </>}
            {view.closedAt !== null && format.dateTime(view.closedAt)}
          </p>
          <Button tone="primary" onClick={() => go({ name: 'lookup' })}>
            {t('discharge.nextPatient')}
          </Button>
        </Notice>
      )}
      {view.state === 'cancelled' && (
        <Notice tone="warn" title={t('discharge.cancelled')}>
          <Button onClick={() => go({ name: 'workflow', workflowId: view.visitWorkflowId })}>{t('discharge.backToVisit')}</Button>
        </Notice>
      )}
    </Screen>
  );
}

function CloseForm({ view }: { readonly view: DischargeView }) {
  const { t } = useTranslation();
  const workflowId = view.workflowId;
  const pending = useWorkflows((s) => s.pending[workflowId]);
  const canDischarge = view.next.includes('discharge.dischargeInpatient');
  const canSubmit = view.next.includes('discharge.submit');
  const [reason, setReason] = useState<Reason>(view.reasons[0] ?? 'RECOVERED');
  const [invoice, setInvoice] = useState(view.invoiceNumber ?? '');
  const [notes, setNotes] = useState('');
  const [partial, setPartial] = useState(false);
  const [tried, setTried] = useState(false);
  const invoiceOk = isInvoiceNumber(invoice.trim());
  // After a partial discharge both buttons are offered with the discharge reasons: DECEASED may
  // only go with the discharge, so Submit waits for another reason.
  const submittable = isSubmitReason(reason);

  const common = () => ({
    workflowId,
    ...(invoice.trim() === '' ? {} : { invoiceNumber: invoice.trim() }),
    ...(notes.trim() === '' ? {} : { notes: notes.trim() }),
  });

  return (
    <form
      className="panel close-form"
      onSubmit={(event) => {
        event.preventDefault();
      }}
    >
      <h2>{canDischarge ? t('discharge.formTitleDischarge') : t('discharge.formTitleSubmit')}</h2>
      <div className="row">
        <SelectField
          label={t('discharge.reason')}
          value={reason}
          onChange={(event) => setReason(event.target.value as Reason)}
          choices={view.reasons.map((value) => ({ value, label: t(`discharge.reasons.${value}`) }))}
        />
        <TextField
          label={t('discharge.invoice')}
          value={invoice}
          onChange={(event) => setInvoice(event.target.value)}
          autoComplete="off"
          error={tried && !invoiceOk ? t('discharge.invoiceNeeded') : undefined}
        />
      </div>
      <TextArea label={t('discharge.notes')} value={notes} onChange={(event) => setNotes(event.target.value)} maxLength={2000} />
      {canDischarge && <Checkbox label={t('discharge.partial')} hint={t('discharge.partialHint')} checked={partial} onChange={(event) => setPartial(event.target.checked)} />}
      <div className="actions">
        {canDischarge && (
          <Button
            tone="primary"
            busy={pending === 'discharge.dischargeInpatient'}
            onClick={() => {
              setTried(true);
              if (!invoiceOk) return;
              void run(workflowId, 'discharge.dischargeInpatient', { ...common(), reason, ...(partial ? { partial: true } : {}) });
            }}
          >
            {t('discharge.dischargeButton')}
          </Button>
        )}
        {canSubmit && (
          <Button
            tone={canDischarge ? 'secondary' : 'primary'}
            busy={pending === 'discharge.submit'}
            disabled={!submittable}
            aria-describedby={submittable ? undefined : 'submit-not-deceased'}
            onClick={() => {
              setTried(true);
              if (!invoiceOk || !isSubmitReason(reason)) return;
              void run(workflowId, 'discharge.submit', { ...common(), reason });
            }}
          >
            {t('discharge.submitButton')}
          </Button>
        )}
      </div>
      {canSubmit && !submittable && (
        <p id="submit-not-deceased" className="muted small">
          {t('discharge.deceasedOnlyDischarge')}
        </p>
      )}
    </form>
  );
}
