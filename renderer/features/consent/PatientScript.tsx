// The words the nurse reads to the patient: what is about to happen (an SMS code, or the finger on
// the reader), what it is for, in words a patient with little schooling follows, and, for a code,
// that reading it to the nurse is safe (patients are taught never to share a PIN or a code).
import { useTranslation } from 'react-i18next';
import type { VerificationStep } from '../../../electron/contract';

/** What the patient agrees to: the step's purpose, an outpatient's discharge being the end of the visit. */
export type ScriptPurpose = VerificationStep['purpose'] | 'visit-end';

const sentences = {
  code: ['consent.script.code', 'consent.script.readCode'],
  fallback: ['consent.script.fallback', 'consent.script.readCode'],
  finger: ['consent.script.finger', 'consent.script.fingerChecked'],
} as const;

export function PatientScript({ purpose, about }: { readonly purpose: ScriptPurpose; readonly about: keyof typeof sentences }) {
  const { t } = useTranslation();
  const [opening, closing] = sentences[about];
  return (
    <p className="patient-words">
      {t('consent.script.tell')} “{t(opening)} {t(`consent.script.purpose.${purpose}`)} {t(closing)}”
    </p>
  );
}
