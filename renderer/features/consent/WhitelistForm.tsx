// For a patient with no phone or no usable fingerprints: ask the payer to allow SMS codes, with the
// reason from the exchange's list and, if the nurse has one, the one supporting document SHA takes.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { VerificationStep } from '../../../electron/contract';
import type { CommandInput } from '../../bridge/types';
import { useFormat } from '../../i18n/format';
import { run, useWorkflows } from '../../state/workflows';
import { Button } from '../../ui/Button';
import { SelectField, TextArea } from '../../ui/Field';
import { Notice } from '../../ui/Notice';
import { DocumentPicker, type UntypedDocument } from '../claims/DocumentPicker';
import { ChosenPapers } from '../shared/ChosenPapers';

type Reason = CommandInput<'consent.requestWhitelist'>['reasonType'];

/**
 * The contract's reasons in the order offered (the commonest first; none chosen for the nurse). Keyed by the contract's type
 * so the compiler refuses a reason missing or unknown; the renderer cannot import the enum itself
 * without bundling zod.
 */
const offeredReasons = Object.keys({
  BIOMETRIC_FAILURE: true,
  OLD: true,
  AMPUTEE: true,
  MEDICAL_CONDITION: true,
  MENTALLY_UNSTABLE: true,
  ONCOLOGY_TREATMENT: true,
  DIALYSIS_TREATMENT: true,
  CONSTRUCTION_WORKER: true,
  CHILD_BELOW_7_YEARS: true,
  PRIVACY_CONCERNS: true,
  TECHNICAL_ISSUES: true,
  EXPIRED: true,
  OTHER: true,
} satisfies Record<Reason, true>) as Reason[];

export function WhitelistForm({ workflowId, whitelist }: { readonly workflowId: string; readonly whitelist: VerificationStep['whitelist'] }) {
  const { t } = useTranslation();
  const format = useFormat();
  const pending = useWorkflows((s) => s.pending[workflowId]) === 'consent.requestWhitelist';
  const [reason, setReason] = useState<Reason | ''>('');
  const [text, setText] = useState('');
  const [paper, setPaper] = useState<UntypedDocument | null>(null);
  const [tried, setTried] = useState(false);

  if (whitelist !== null) {
    return (
      <Notice tone={whitelist.status === 'approved' ? 'ok' : whitelist.status === 'rejected' ? 'bad' : 'info'} title={t(`whitelist.status.${whitelist.status}`)}>
        <p>
          {t('whitelist.requested', { reason: t(`whitelist.reason.${whitelist.reasonType}`), time: format.dateTime(whitelist.requestedAt) })}
        </p>
      </Notice>
    );
  }
  const textNeeded = reason === 'OTHER' && text.trim() === '';
  const reasonMissing = reason === '';
  return (
    <form
      className="whitelist"
      onSubmit={(event) => {
        event.preventDefault();
        setTried(true);
        if (textNeeded || reason === '') return;
        void run(workflowId, 'consent.requestWhitelist', {
          workflowId,
          reasonType: reason,
          ...(text.trim() === '' ? {} : { reasonText: text.trim() }),
          ...(paper === null ? {} : { document: paper }),
        });
      }}
    >
      <h3>{t('whitelist.title')}</h3>
      <p>{t('whitelist.explain')}</p>
      <SelectField
        label={t('whitelist.reasonLabel')}
        value={reason}
        onChange={(event) => setReason(event.target.value as Reason | '')}
        choices={[{ value: '', label: t('discharge.chooseReason') }, ...offeredReasons.map((value) => ({ value, label: t(`whitelist.reason.${value}`) }))]}
        error={tried && reasonMissing ? t('whitelist.reasonNeeded') : undefined}
      />
      <TextArea label={t('whitelist.textLabel')} value={text} onChange={(event) => setText(event.target.value)} maxLength={2000} error={tried && textNeeded ? t('whitelist.textNeeded') : undefined} />
      <h4>{t('preauthPapers.whitelist.title')}</h4>
      <p className="muted">{t('preauthPapers.whitelist.explain')}</p>
      <ChosenPapers papers={paper === null ? [] : [paper]} onRemove={() => setPaper(null)} />
      {/* SHA takes one document with the request: once chosen, the picker gives way to it. */}
      {paper === null && (
        <DocumentPicker
          listed="untyped"
          busy={false}
          attachLabel={t('preauthPapers.add')}
          onAttach={(chosen) => {
            setPaper(chosen);
            return Promise.resolve(true);
          }}
        />
      )}
      <Button type="submit" tone="primary" busy={pending}>
        {t('whitelist.send')}
      </Button>
    </form>
  );
}
