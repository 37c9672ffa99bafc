// The attending doctor's three fields, which the exchange wants together or not at all.
import { useTranslation } from 'react-i18next';
import { SelectField, TextField } from '../../ui/Field';
import { DoctorLookup } from '../lookups/DoctorLookup';

export interface DoctorDraft {
  readonly identificationType: string;
  readonly identificationNumber: string;
  readonly regulationBody: string;
}

export const emptyDoctor: DoctorDraft = { identificationType: 'Registration Number', identificationNumber: '', regulationBody: 'KMPDC' };

/** The regulator's registration number is what a ward has at hand; the registry also accepts the national ID. */
const doctorIdTypes = ['Registration Number', 'National ID', 'Passport', 'Alien ID'] as const;
const regulators = ['KMPDC', 'COC', 'NCK', 'PPB', 'KMLTTB', 'CPB'] as const;

export function isDoctorComplete(doctor: DoctorDraft): boolean {
  return /^[A-Za-z0-9/-]{2,30}$/.test(doctor.identificationNumber.trim());
}

export function doctorInput(doctor: DoctorDraft) {
  return { identificationType: doctor.identificationType, identificationNumber: doctor.identificationNumber.trim(), regulationBody: doctor.regulationBody };
}

export function DoctorFields({ value, onChange, error }: { readonly value: DoctorDraft; readonly onChange: (next: DoctorDraft) => void; readonly error?: string }) {
  const { t } = useTranslation();
  return (
    <fieldset className="doctor">
      <legend>{t('doctor.legend')}</legend>
      <div className="row">
        <SelectField
          label={t('doctor.idType')}
          value={value.identificationType}
          onChange={(event) => onChange({ ...value, identificationType: event.target.value })}
          choices={doctorIdTypes.map((type) => ({ value: type, label: t(`doctor.idTypes.${type}`) }))}
        />
        <TextField
          label={t('doctor.idNumber')}
          value={value.identificationNumber}
          onChange={(event) => onChange({ ...value, identificationNumber: event.target.value })}
          autoComplete="off"
          error={error}
        />
        <SelectField
          label={t('doctor.regulator')}
          value={value.regulationBody}
          onChange={(event) => onChange({ ...value, regulationBody: event.target.value })}
          choices={regulators.map((body) => ({ value: body, label: t(`doctor.regulators.${body}`) }))}
        />
      </div>
      <DoctorLookup doctor={isDoctorComplete(value) ? doctorInput(value) : null} onPick={onChange} />
    </fieldset>
  );
}
