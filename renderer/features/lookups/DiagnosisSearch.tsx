// The diagnosis field: an ICD-11 code typed whole, or found by a few letters through the
// terminology search (ConceptSearch).
import { useTranslation } from 'react-i18next';
import { isDiagnosisCode } from '../shared/formats';
import { ConceptSearch, type ConceptDraft } from './ConceptSearch';

export type DiagnosisDraft = ConceptDraft;

export const emptyDiagnosis: DiagnosisDraft = { text: '', title: null };

/** The diagnosis as the contract takes it: the code, with its title when it was picked. */
export function diagnosisInput(draft: DiagnosisDraft): { code: string; name?: string } {
  const code = draft.text.trim();
  return draft.title === null ? { code } : { code, name: draft.title };
}

export const isDiagnosisGiven = (draft: DiagnosisDraft): boolean => isDiagnosisCode(draft.text.trim());

export function DiagnosisSearch({
  label,
  ...field
}: {
  readonly value: DiagnosisDraft;
  readonly onChange: (next: DiagnosisDraft) => void;
  readonly error?: string | undefined;
  /** Where a screen has two diagnosis fields (a line's, the claim's), each is named for its own. */
  readonly label?: string;
}) {
  const { t } = useTranslation();
  return <ConceptSearch kind="diagnosis" label={label ?? t('visit.lines.diagnosis')} {...field} />;
}
