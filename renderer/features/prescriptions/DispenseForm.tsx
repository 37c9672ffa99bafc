// The dispense form of the pharmacy window: the dispenser named by an identity document, the actual
// products with price and quantity, and whether the fill is complete. What it dispenses against (a
// prescription of this station, or a visit reached at the window) is the caller's `send`.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CommandInput, StationError } from '../../bridge/types';
import { Button } from '../../ui/Button';
import { RadioGroup, SelectField, TextField } from '../../ui/Field';
import { ErrorNotice } from '../../ui/Notice';

export type DispenseInput = Omit<CommandInput<'prescription.dispense'>, 'prescriptionRef'>;

interface DispenseFormProps {
  /** Unique on the screen: names the form's radio group. */
  readonly name: string;
  readonly label: string;
  readonly title: string;
  /** Sends the dispense; the refusal, or null once SHA has it (the caller shows the new state). */
  readonly send: (input: DispenseInput) => Promise<StationError | null>;
}

type Input = DispenseInput;
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

export function DispenseForm({ name, label, title, send }: DispenseFormProps) {
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

  const submit = async () => {
    setTried(true);
    if (ready === null || !isIdType(idType) || !idOk || completes === null) return;
    setBusy(true);
    setError(null);
    const refusal = await send({ dispenser: { identificationType: idType, identificationNumber: idNumber.trim() }, products: ready, completesFill: completes === 'rest' });
    setBusy(false);
    if (refusal !== null) {
      setError(refusal);
      return;
    }
    setTried(false);
    setProducts([emptyProduct]);
    setCompletes(null);
  };

  return (
    <form
      className="prescription-form"
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h3>{title}</h3>
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
        name={`completes-${name}`}
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
