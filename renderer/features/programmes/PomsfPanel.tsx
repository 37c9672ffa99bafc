// A POMSF member's cover for this policy year (policy years turn on 1 July): each benefit's limit
// and what is left, the family's when the pot is shared; and the POMSF tariff of an intervention at
// this facility for a doctor. Asked for on demand, beside the consent path, never in its way.
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CommandOutput, StationError } from '../../bridge/types';
import { useFormat } from '../../i18n/format';
import { call } from '../../state/bridge';
import { Button } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';
import { Badge, ErrorNotice } from '../../ui/Notice';

type Balance = CommandOutput<'pomsf.balance'>;
type Tariffs = CommandOutput<'pomsf.tariffs'>;
const regulators = ['KMPDC', 'COC', 'NCK'] as const;
type Regulator = (typeof regulators)[number];

/** SHA's OUTPATIENT / INPATIENT in the nurse's words; another value as SHA wrote it. */
function careSetting(t: TFunction, type: string): string {
  return type === 'INPATIENT' || type === 'OUTPATIENT' ? t(`programmes.pomsf.types.${type}`) : type;
}

/** POMSF applies to a member covered under it: the Public Officers Medical Scheme Fund, by its name. */
export function coveredByPomsf(schemes: readonly { readonly schemeId: string; readonly name: string; readonly covered: boolean }[]): boolean {
  return schemes.some((s) => s.covered && /\bPOMSF\b|PUBLIC OFFICERS MEDICAL SCHEME/i.test(`${s.schemeId} ${s.name}`));
}

export function PomsfPanel({ patientRef }: { readonly patientRef: string }) {
  const { t } = useTranslation();
  const format = useFormat();
  const [balance, setBalance] = useState<Balance | null>(null);
  const [error, setError] = useState<StationError | null>(null);
  const [busy, setBusy] = useState(false);

  const load = async () => {
    setBusy(true);
    const answer = await call('pomsf.balance', { patientRef });
    setBusy(false);
    if (answer.ok) {
      setBalance(answer.value);
      setError(null);
    } else setError(answer.error);
  };
  const kes = (value: number | null) => (value === null ? t('programmes.pomsf.notSaid') : format.kes(value));

  return (
    <section className="panel" aria-labelledby="pomsf-title">
      <h2 id="pomsf-title">{t('programmes.pomsf.title')}</h2>
      <Button busy={busy} onClick={() => void load()}>
        {balance === null ? t('programmes.pomsf.show') : t('programmes.pomsf.refresh')}
      </Button>
      {error !== null && <ErrorNotice error={error} onRetry={() => void load()} />}
      {balance !== null && (
        <>
          <p>{t('programmes.pomsf.policyYear', { from: balance.policyYear, to: Number(balance.policyYear) + 1 })}</p>
          {balance.policies.length === 0 && <p className="muted">{t('programmes.pomsf.noPolicy')}</p>}
          {balance.policies.map((policy, index) => (
            <table key={`${policy.name ?? ''}-${index}`} className="table pomsf">
              <caption>
                {policy.name ?? policy.schemeName ?? t('programmes.pomsf.title')}
                {policy.status !== null && <> · {policy.status}</>}
              </caption>
              <thead>
                <tr>
                  <th scope="col">{t('programmes.pomsf.benefit')}</th>
                  <th scope="col" className="num">
                    {t('programmes.pomsf.limit')}
                  </th>
                  <th scope="col" className="num">
                    {t('programmes.pomsf.left')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {policy.benefits.map((b, i) => (
                  <tr key={`${b.code ?? ''}-${i}`}>
                    <th scope="row">
                      {b.name ?? b.code ?? '—'}
                      {b.type !== null && <span className="field-hint">{careSetting(t, b.type)}</span>}
                      {b.familyShared && <Badge tone="info">{t('programmes.pomsf.shared')}</Badge>}
                    </th>
                    <td className="num">{kes(b.limitKes)}</td>
                    <td className="num">
                      {b.balanceKes === 0 ? <Badge tone="bad">{t('programmes.pomsf.spent')}</Badge> : kes(b.balanceKes)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ))}
          <TariffForm />
        </>
      )}
    </section>
  );
}

function TariffForm() {
  const { t } = useTranslation();
  const format = useFormat();
  const [code, setCode] = useState('');
  const [registration, setRegistration] = useState('');
  const [regulator, setRegulator] = useState<Regulator | ''>('');
  const [tried, setTried] = useState(false);
  const [tariffs, setTariffs] = useState<Tariffs | null>(null);
  const [error, setError] = useState<StationError | null>(null);
  const [busy, setBusy] = useState(false);
  // As the contract's interventionCode, checked here so the field itself can say what is wrong.
  const codeOk = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(code.trim());
  const registrationOk = registration.trim().length >= 2;

  const ask = async () => {
    setTried(true);
    if (!codeOk || !registrationOk || regulator === '') return;
    setBusy(true);
    const answer = await call('pomsf.tariffs', { interventionCodes: [code.trim()], doctor: { registrationNumber: registration.trim(), regulationBody: regulator } });
    setBusy(false);
    if (answer.ok) {
      setTariffs(answer.value);
      setError(null);
    } else setError(answer.error);
  };

  return (
    <form
      className="stack"
      aria-labelledby="pomsf-tariff-title"
      onSubmit={(event) => {
        event.preventDefault();
        void ask();
      }}
    >
      <h3 id="pomsf-tariff-title">{t('programmes.pomsf.tariffTitle')}</h3>
      <div className="row">
        <TextField
          label={t('programmes.pomsf.intervention')}
          value={code}
          autoComplete="off"
          onChange={(event) => setCode(event.target.value)}
          error={tried && !codeOk ? t('programmes.pomsf.interventionNeeded') : undefined}
        />
        <TextField
          label={t('programmes.pomsf.registration')}
          value={registration}
          autoComplete="off"
          onChange={(event) => setRegistration(event.target.value)}
          error={tried && !registrationOk ? t('programmes.pomsf.registrationNeeded') : undefined}
        />
        <SelectField
          label={t('programmes.pomsf.regulator')}
          value={regulator}
          onChange={(event) => setRegulator(event.target.value as Regulator | '')}
          choices={[{ value: '', label: t('programmes.pomsf.chooseRegulator') }, ...regulators.map((value) => ({ value, label: value }))]}
          error={tried && regulator === '' ? t('programmes.pomsf.regulatorNeeded') : undefined}
        />
      </div>
      <div className="actions">
        <Button type="submit" busy={busy}>
          {t('programmes.pomsf.findTariff')}
        </Button>
      </div>
      {error !== null && <ErrorNotice error={error} onRetry={() => void ask()} />}
      {tariffs !== null && (
        <ul className="tariffs">
          {tariffs.items.length === 0 && <li className="muted">{t('programmes.pomsf.noTariff')}</li>}
          {tariffs.items.map((item) => (
            <li key={item.interventionCode}>
              {t('programmes.pomsf.tariffLine', {
                code: item.interventionCode,
                name: item.name ?? '',
                tariff: item.tariffKes === null ? t('programmes.pomsf.notSaid') : format.kes(item.tariffKes),
              })}
            </li>
          ))}
        </ul>
      )}
    </form>
  );
}
