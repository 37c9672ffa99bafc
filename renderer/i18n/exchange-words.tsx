// Words that come from SHA rather than from the station: member types (PRINCIPAL, BENEFICIARY …) and
// the reasons and solutions eligibility gives when a patient is not covered. The ones the station
// knows are said in the nurse's language; any other text SHA sends is shown as SHA wrote it, marked
// as SHA's own words and as English, so a Swahili screen never passes it off as its own.
import { useTranslation } from 'react-i18next';

/** SHA's phrases the station has words for, by their text (case and spacing ignored). */
const knownPhrases: Readonly<Record<string, string>> = {
  'contributions are not up to date': 'contributionsNotUpToDate',
  'pay the outstanding shif contributions through the member portal or *147#, then check again': 'payShifContributions',
  'pay the outstanding contributions, then check again': 'payContributions',
  'member is covered': 'memberCovered',
  'member is not covered': 'memberNotCovered',
};

const normalized = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();

export function useExchangeWords() {
  const { t } = useTranslation();
  return {
    memberType: (value: string | null): string => (value === null ? t('common.notGiven') : t(`exchange.memberType.${value.trim().toUpperCase()}`, { defaultValue: value })),
    /** A phrase SHA sent, in the nurse's words when known (`known`), else as SHA wrote it. */
    phrase: (value: string): { readonly text: string; readonly known: boolean } => {
      const key = knownPhrases[normalized(value)];
      return key === undefined ? { text: value, known: false } : { text: t(`exchange.phrase.${key}`), known: true };
    },
  };
}

/** SHA's phrase in the nurse's words, or marked as SHA's own English. */
export function ExchangeText({ value }: { readonly value: string }) {
  const { t } = useTranslation();
  const phrase = useExchangeWords().phrase(value);
  if (phrase.known) return <>{phrase.text}</>;
  return (
    <>
      <span lang="en">{phrase.text}</span> <span className="muted small">{t('exchange.shaWords')}</span>
    </>
  );
}
