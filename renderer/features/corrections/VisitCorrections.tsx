// Corrections to an open visit's claim (issue 14), below the lines: a line's quantity or price
// corrected, a diagnosis removed, the intervention switched (a ward transfer), the visit closed with
// its reason when SHA must never pay it. Each is offered only when the core's view lists it, each
// is a secondary action (the visit's end stays the one primary action), and closing asks twice.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CommandInput } from '../../bridge/types';
import { useFormat } from '../../i18n/format';
import { run, useWorkflows } from '../../state/workflows';
import type { ViewOf } from '../../state/workflows';
import { Button } from '../../ui/Button';
import { Checkbox, RadioGroup, SelectField, TextArea, TextField } from '../../ui/Field';
import { DiagnosisSearch, diagnosisInput, emptyDiagnosis, isDiagnosisGiven, type DiagnosisDraft } from '../lookups/DiagnosisSearch';
import { Notice } from '../../ui/Notice';
import { DateField } from '../../ui/DateField';

type VisitView = ViewOf<'visit'>;
type CloseReason = CommandInput<'visit.close'>['reason'];

const closeReasons = ['WRONG_PATIENT', 'NO_SERVICE_GIVEN', 'WRONG_BENEFIT', 'EXPIRED_VISIT', 'EXHAUSTED_BENEFIT', 'TIME_BARRED', 'OTHER_REASONS'] as const satisfies readonly CloseReason[];
const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);
const isInterventionCode = (value: string) => /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(value);

/** What a closed claim means, on the visit that was closed (not ended by a discharge). */
export function VisitClosedNotice({ view }: { readonly view: VisitView }) {
  const { t } = useTranslation();
  if (view.state !== 'closed' || view.claimStatus !== 'CLOSED' || view.dischargeWorkflowId !== null) return null;
  return (
    <Notice tone="warn" title={t('corrections.close.closedTitle')}>
      <p>{t('corrections.close.closedBody')}</p>
    </Notice>
  );
}

export function VisitCorrections({ view }: { readonly view: VisitView }) {
  const offered = (['visit.editLine', 'visit.addDiagnosis', 'visit.removeDiagnosis', 'visit.switchIntervention', 'visit.close'] as const).some((name) => view.next.includes(name));
  if (!offered) return null;
  return (
    <>
      {view.next.includes('visit.editLine') && <EditLineForm view={view} />}
      {(view.next.includes('visit.addDiagnosis') || view.next.includes('visit.removeDiagnosis')) && <Diagnoses view={view} />}
      {view.next.includes('visit.switchIntervention') && <SwitchForm view={view} />}
      {view.next.includes('visit.close') && <CloseForm view={view} />}
    </>
  );
}

function EditLineForm({ view }: { readonly view: VisitView }) {
  const { t } = useTranslation();
  const format = useFormat();
  const pending = useWorkflows((s) => s.pending[view.workflowId]) === 'visit.editLine';
  const editable = view.lines.filter((l) => !l.automatic);
  const [lineId, setLineId] = useState('');
  const [quantity, setQuantity] = useState('');
  const [price, setPrice] = useState('');
  const [tried, setTried] = useState(false);
  const line = editable.find((l) => l.lineId === lineId);
  const quantityValue = Number(quantity);
  const priceValue = Number(price);
  const quantityOk = quantity.trim() === '' || (Number.isInteger(quantityValue) && quantityValue >= 1);
  const priceOk = price.trim() === '' || (Number.isFinite(priceValue) && priceValue >= 0);
  const changed = quantity.trim() !== '' || price.trim() !== '';
  return (
    <form
      className="panel"
      aria-labelledby="edit-line-title"
      onSubmit={(event) => {
        event.preventDefault();
        setTried(true);
        if (line === undefined || !quantityOk || !priceOk || !changed) return;
        void run(view.workflowId, 'visit.editLine', {
          workflowId: view.workflowId,
          lineId: line.lineId,
          ...(quantity.trim() === '' ? {} : { quantity: quantityValue }),
          ...(price.trim() === '' ? {} : { unitPriceKes: priceValue }),
        }).then((answer) => {
          if (!answer.ok) return;
          setTried(false);
          setQuantity('');
          setPrice('');
        });
      }}
    >
      <h2 id="edit-line-title">{t('corrections.editLine.title')}</h2>
      <div className="row">
        <SelectField
          label={t('corrections.editLine.line')}
          value={lineId}
          onChange={(event) => setLineId(event.target.value)}
          error={tried && line === undefined ? t('corrections.editLine.lineNeeded') : undefined}
          choices={[
            { value: '', label: t('corrections.choose') },
            ...editable.map((l) => ({ value: l.lineId, label: `${l.description ?? l.itemCode ?? l.interventionCode} · ${format.number(l.quantity)} × ${format.kes(l.unitPriceKes)}` })),
          ]}
        />
        <TextField
          label={t('corrections.editLine.quantity')}
          value={quantity}
          onChange={(event) => setQuantity(event.target.value)}
          inputMode="numeric"
          error={tried && !quantityOk ? t('visit.lines.quantityNeeded') : undefined}
        />
        <TextField
          label={t('corrections.editLine.unitPrice')}
          value={price}
          onChange={(event) => setPrice(event.target.value)}
          inputMode="decimal"
          error={tried && !priceOk ? t('visit.lines.priceNeeded') : tried && !changed ? t('corrections.editLine.changeNeeded') : undefined}
        />
      </div>
      <Button type="submit" busy={pending}>
        {t('corrections.editLine.save')}
      </Button>
    </form>
  );
}

function Diagnoses({ view }: { readonly view: VisitView }) {
  const { t } = useTranslation();
  const pending = useWorkflows((s) => s.pending[view.workflowId]);
  const [diagnosis, setDiagnosis] = useState<DiagnosisDraft>(emptyDiagnosis);
  const [tried, setTried] = useState(false);
  const codeOk = isDiagnosisGiven(diagnosis);
  // The exchange keeps diagnoses per intervention: each once, with the intervention it belongs to.
  const held = new Map<string, { code: string; interventionCode: string }>();
  for (const line of view.lines) for (const d of line.diagnoses) held.set(`${line.interventionCode} ${d.code}`, { code: d.code, interventionCode: line.interventionCode });
  return (
    <section className="panel" aria-labelledby="diagnoses-title">
      <h2 id="diagnoses-title">{t('corrections.diagnoses.title')}</h2>
      <p className="muted">{t('corrections.diagnoses.explain')}</p>
      {held.size > 0 && (
        <ul className="chips">
          {[...held.values()].map((d) => (
            <li key={`${d.interventionCode} ${d.code}`}>
              <span>{d.code}</span>{' '}
              {view.next.includes('visit.removeDiagnosis') && (
                <Button
                  tone="quiet"
                  busy={pending === 'visit.removeDiagnosis'}
                  aria-label={t('corrections.diagnoses.removeNamed', { code: d.code })}
                  onClick={() => void run(view.workflowId, 'visit.removeDiagnosis', { workflowId: view.workflowId, code: d.code, interventionCode: d.interventionCode })}
                >
                  {t('visit.lines.remove')}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {view.next.includes('visit.addDiagnosis') && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            setTried(true);
            if (!codeOk) return;
            void run(view.workflowId, 'visit.addDiagnosis', { workflowId: view.workflowId, code: diagnosisInput(diagnosis).code }).then((answer) => {
              if (!answer.ok) return;
              setDiagnosis(emptyDiagnosis);
              setTried(false);
            });
          }}
        >
          <div className="row">
            <DiagnosisSearch
              label={t('corrections.diagnoses.code')}
              value={diagnosis}
              onChange={setDiagnosis}
              error={tried && !codeOk ? t('visit.lines.diagnosisNeeded') : undefined}
            />
          </div>
          <Button type="submit" busy={pending === 'visit.addDiagnosis'}>
            {t('corrections.diagnoses.add')}
          </Button>
        </form>
      )}
    </section>
  );
}

function SwitchForm({ view }: { readonly view: VisitView }) {
  const { t } = useTranslation();
  const pending = useWorkflows((s) => s.pending[view.workflowId]) === 'visit.switchIntervention';
  const [open, setOpen] = useState(false);
  const [code, setCode] = useState('');
  const [keepLines, setKeepLines] = useState(false);
  const [billFrom, setBillFrom] = useState('');
  const [billTo, setBillTo] = useState('');
  const [tried, setTried] = useState(false);
  const codeOk = isInterventionCode(code.trim()) && code.trim() !== view.intervention.code;
  const datesOk = !keepLines || (isDay(billFrom) && isDay(billTo) && billTo >= billFrom);
  return (
    <section className="panel" aria-labelledby="switch-title">
      <h2 id="switch-title">{t('corrections.switch.title')}</h2>
      <p className="muted">{t('corrections.switch.explain', { code: view.intervention.code })}</p>
      {!open ? (
        <Button onClick={() => setOpen(true)}>{t('corrections.switch.open')}</Button>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            setTried(true);
            if (!codeOk || !datesOk) return;
            void run(view.workflowId, 'visit.switchIntervention', {
              workflowId: view.workflowId,
              interventionCode: code.trim(),
              keepLines,
              ...(keepLines ? { billFrom, billTo } : {}),
            }).then((answer) => {
              if (!answer.ok) return;
              setOpen(false);
              setTried(false);
              setCode('');
            });
          }}
        >
          <TextField
            label={t('corrections.switch.code')}
            value={code}
            onChange={(event) => setCode(event.target.value)}
            hint={t('corrections.switch.codeHint')}
            autoComplete="off"
            error={tried && !codeOk ? t('corrections.switch.codeNeeded') : undefined}
          />
          <Checkbox label={t('corrections.switch.keepLines')} hint={t('corrections.switch.keepLinesHint')} checked={keepLines} onChange={(event) => setKeepLines(event.target.checked)} />
          {keepLines && (
            <div className="row">
              <DateField label={t('corrections.switch.billFrom')} value={billFrom} onChange={setBillFrom} />
              <DateField
                label={t('corrections.switch.billTo')}
                value={billTo}
                min={billFrom === '' ? undefined : billFrom}
                onChange={setBillTo}
                error={tried && !datesOk ? t('corrections.switch.datesNeeded') : undefined}
              />
            </div>
          )}
          <div className="actions">
            <Button type="submit" busy={pending}>
              {t('corrections.switch.confirm')}
            </Button>
            <Button onClick={() => setOpen(false)}>{t('corrections.keep')}</Button>
          </div>
        </form>
      )}
    </section>
  );
}

function CloseForm({ view }: { readonly view: VisitView }) {
  const { t } = useTranslation();
  const pending = useWorkflows((s) => s.pending[view.workflowId]) === 'visit.close';
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState<CloseReason | null>(null);
  const [explanation, setExplanation] = useState('');
  const [tried, setTried] = useState(false);
  return (
    <section className="panel" aria-labelledby="close-title">
      <h2 id="close-title">{t('corrections.close.title')}</h2>
      <p className="muted">{t('corrections.close.explain')}</p>
      {!open ? (
        <Button tone="danger" onClick={() => setOpen(true)}>
          {t('corrections.close.open')}
        </Button>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            setTried(true);
            if (reason === null || explanation.trim() === '') return;
            void run(view.workflowId, 'visit.close', { workflowId: view.workflowId, reason, explanation: explanation.trim() });
          }}
        >
          <RadioGroup
            legend={t('corrections.close.reason')}
            name={`close-reason-${view.workflowId}`}
            value={reason}
            onChange={(value) => setReason(value as CloseReason)}
            choices={closeReasons.map((r) => ({ value: r, label: t(`corrections.close.reasons.${r}`) }))}
          />
          {tried && reason === null && <p className="field-error">{t('corrections.close.reasonNeeded')}</p>}
          <TextArea
            label={t('corrections.close.explanation')}
            value={explanation}
            onChange={(event) => setExplanation(event.target.value)}
            maxLength={2000}
            error={tried && explanation.trim() === '' ? t('corrections.close.explanationNeeded') : undefined}
          />
          <Notice tone="warn">{t('corrections.close.final')}</Notice>
          <div className="actions">
            <Button type="submit" tone="danger" busy={pending}>
              {t('corrections.close.confirm')}
            </Button>
            <Button onClick={() => setOpen(false)}>{t('corrections.keep')}</Button>
          </div>
        </form>
      )}
    </section>
  );
}
