// Document types as the screens name them: the contract's list, in its order, and several in one sentence.
import type { TFunction } from 'i18next';
import { CLAIM_DOCUMENT_TYPES } from '../../../electron/contract/plain';

export const documentTypes = CLAIM_DOCUMENT_TYPES;

/** Document types as the nurse reads them, in one sentence. */
export function typesWords(t: TFunction, types: readonly string[], locale: string): string {
  const known = new Set<string>(documentTypes);
  return new Intl.ListFormat(locale, { type: 'conjunction' }).format(types.map((d) => (known.has(d) ? t(`claims.documentType.${d}`) : d)));
}
