// The English words: the shared ones (./en.json) from the start, and each feature folder's as the
// code that names them is loaded — the first screen's with the first bundle, a lazy screen's with
// its chunk (the build adds the imports: build/renderer-words.ts). A namespace in two
// parts is refused, as ever (catalogue.ts).
import i18next from 'i18next';
import { mergeCatalogues } from './catalogue';
import type { Catalogue } from './catalogue';
import shared from './en.json';

const parts: Record<string, Catalogue> = { './en.json': shared };

/** A feature folder's words, registered as its first module that names them is evaluated. */
export function addFeatureWords(folder: string, words: Catalogue): void {
  const where = `../features/${folder}/en.json`;
  if (where in parts) return;
  parts[where] = words;
  mergeCatalogues(parts);
  if (i18next.isInitialized) i18next.addResourceBundle('en', 'translation', words, true, false);
}

/** The English words registered so far (i18next's first resources). */
export function englishSoFar(): Catalogue {
  return mergeCatalogues(parts);
}
