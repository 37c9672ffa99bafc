// The pharmacy window: the patient looked up (the look-up every consent starts with), their visits
// open at SHA for the facility (opened at any station: the patient's consent here reaches one),
// their prescriptions on the visits this station holds, and dispensing against one — the actual
// products with price and quantity, the dispenser named by an identity document, part of a fill or
// the rest of it. The dispense is made under the consent of the visit the prescription was written on.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CommandInput, StationError } from '../../bridge/types';
import { call } from '../../state/bridge';
import { go } from '../../state/navigation';
import { Button } from '../../ui/Button';
import { RadioGroup, SelectField, TextField } from '../../ui/Field';
import { ErrorNotice, Notice } from '../../ui/Notice';
import { Screen } from '../../ui/Screen';
import { usePatient } from '../lookup/store';
import { PatientCard } from '../patient/PatientCard';
import { OpenVisitsPanel } from './OpenVisitsPanel';
import { PrescriptionCard, type Prescription } from './PrescriptionList';

type Input = CommandInput<'prescription.dispense'>;
type IdType = Input['dispenser']['identificationType'];
const idTypes: readonly IdType[] = ['National ID', 'Alien ID', 'Refugee ID'];
const isIdType = (value: string): value is IdType => (idTypes as readonly string[]).includes(value);

interface ProductDraft {
  readonly productCode: string;
  readonly price: string;
  readonly quantity: string;
}
const emptyProduct: ProductDraft = { productCode: '', price: '', quantity: '' };

/** The products as the contract takes them, or null while one is incomplete. */
function productsOf(drafts: readonly ProductDraft[]): Input['products'] | null {
  const products = drafts.map((d) => ({ productCode: d.productCode.trim(), priceKes: Number(d.price), quantity: Number(d.quantity) }));
  const fine = products.every(
    (p, i) => /^[A-Za-z0-9][A-Za-z0-9._/-]{0,63}$/.test(p.productCode) && drafts[i]!.price.trim() !== '' && Number.isFinite(p.priceKes) && p.priceKes >= 0 && Number.isFinite(p.quantity) && p.quantity > 0,
  );
  return fine ? products : null;
}

export default function PharmacyScreen() {
  const { t } = useTranslation();
  const summary = usePatient((s) => s.summary);
  const [items, setItems] = useState<Prescription[] | null>(null);
  const patientRef = summary?.patientRef ?? null;

  useEffect(() => {
    if (patientRef === null) return undefined;
    let current = true;
    void call('prescription.list', { patientRef }).then((answer) => {
      if (current) setItems(answer.ok ? answer.value.items : []);
    });
    return () => {
      current = false;
    };
  }, [patientRef]);

  if (summary === null) {
    return (
      <Screen title={t('pharmacy.title')}>
        <Notice tone="info" title={t('pharmacy.lookUpFirst')}>
          <p>{t('pharmacy.lookUpWhy')}</p>
        </Notice>
        <Button onClick={() => go({ name: 'lookup' })}>{t('pharmacy.toLookUp')}</Button>
      </Screen>
    );
  }
  const replace = (rx: Prescription) => setItems((list) => (list ?? []).map((other) => (other.prescriptionRef === rx.prescriptionRef ? rx : other)));
  return (
    <Screen title={t('pharmacy.title')}>
      <PatientCard summary={summary} />
      <OpenVisitsPanel patientRef={summary.patientRef} primary={items !== null && !items.some((rx) => rx.dispensable)} />
      <section className="panel" aria-labelledby="pharmacy-prescriptions">
        <h2 id="pharmacy-prescriptions">{t('prescriptions.title')}</h2>
        {items === null && <p className="muted">{t('common.loading')}</p>}
        {items !== null && items.length === 0 && <p className="muted">{t('pharmacy.none')}</p>}
        {items?.map((rx) => (
          <PrescriptionCard key={rx.prescriptionRef} rx={rx}>
            {rx.dispensable ? <DispenseForm rx={rx} onDispensed={replace} /> : rx.state === 'written' && <p className="muted">{t('pharmacy.allGiven')}</p>}
          </PrescriptionCard>
        ))}
      </section>
    </Screen>
  );
}

function DispenseForm({ rx, onDispensed }: { readonly rx: Prescription; readonly onDispensed: (rx: Prescription) => void }) {
  const { t } = useTranslation();
  const [idType, setIdType] = useState('');
  const [idNumber, setIdNumber] = useState('');
  const [products, setProducts] = useState<ProductDraft[]>([emptyProduct]);
  const [completes, setCompletes] = useState<'part' | 'rest' | null>(null);
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<StationError | null>(null);
  const ready = productsOf(products);
  const idOk = isIdType(idType) && /^[A-Za-z0-9/-]{3,30}$/.test(idNumber.trim());
  const code = rx.exchangeCode ?? rx.prescriptionRef;

  const submit = async () => {
    setTried(true);
    if (ready === null || !isIdType(idType) || !idOk || completes === null) return;
    setBusy(true);
    setError(null);
    const answer = await call('prescription.dispense', {
      prescriptionRef: rx.prescriptionRef,
      dispenser: { identificationType: idType, identificationNumber: idNumber.trim() },
      products: ready,
      completesFill: completes === 'rest',
    });
    setBusy(false);
    if (!answer.ok) {
      setError(answer.error);
      return;
    }
    setTried(false);
    setProducts([emptyProduct]);
    setCompletes(null);
    onDispensed(answer.value);
  };

  return (
    <form
      className="prescription-form"
      aria-label={t('pharmacy.dispenseFor', { code })}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h3>{rx.fillInProgress ? t('pharmacy.restTitle') : rx.fillsCompleted > 0 ? t('pharmacy.refillTitle') : t('pharmacy.dispenseTitle')}</h3>
      <div className="row">
        <SelectField
          label={t('pharmacy.dispenserIdType')}
          value={idType}
          onChange={(e) => setIdType(e.target.value)}
          error={tried && !isIdType(idType) ? t('pharmacy.wrong.idType') : undefined}
          choices={[{ value: '', label: t('prescriptions.choose') }, ...idTypes.map((type) => ({ value: type, label: t(`idTypes.${type}`) }))]}
        />
        <TextField
          label={t('pharmacy.dispenserId')}
          hint={t('pharmacy.dispenserHint')}
          value={idNumber}
          onChange={(e) => setIdNumber(e.target.value)}
          autoComplete="off"
          error={tried && !/^[A-Za-z0-9/-]{3,30}$/.test(idNumber.trim()) ? t('pharmacy.wrong.idNumber') : undefined}
        />
      </div>
      {products.map((product, index) => {
        const set = (field: keyof ProductDraft, value: string) => setProducts((all) => all.map((p, i) => (i === index ? { ...p, [field]: value } : p)));
        return (
          <fieldset key={index} className="row">
            <legend>{t('pharmacy.product', { n: index + 1 })}</legend>
            <TextField label={t('pharmacy.productCode')} value={product.productCode} onChange={(e) => set('productCode', e.target.value)} autoComplete="off" />
            <TextField label={t('pharmacy.price')} value={product.price} onChange={(e) => set('price', e.target.value)} inputMode="decimal" />
            <TextField label={t('pharmacy.quantity')} value={product.quantity} onChange={(e) => set('quantity', e.target.value)} inputMode="decimal" />
          </fieldset>
        );
      })}
      {tried && ready === null && <p className="field-error">{t('pharmacy.wrong.products')}</p>}
      <RadioGroup
        legend={t('pharmacy.howMuch')}
        name={`completes-${rx.prescriptionRef}`}
        value={completes}
        onChange={(value) => setCompletes(value === 'rest' ? 'rest' : 'part')}
        choices={(['part', 'rest'] as const).map((value) => ({ value, label: t(`pharmacy.${value}`) }))}
      />
      {tried && completes === null && <p className="field-error">{t('pharmacy.wrong.howMuch')}</p>}
      {error !== null && <ErrorNotice error={error} />}
      <div className="actions">
        <Button onClick={() => setProducts((all) => [...all, emptyProduct])}>{t('pharmacy.addProduct')}</Button>
        <Button type="submit" tone="primary" busy={busy}>
          {t('pharmacy.record')}
        </Button>
      </div>
    </form>
  );
}
