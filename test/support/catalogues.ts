// The renderer's strings as the renderer gathers them (renderer/i18n/english.ts, swahili.ts): the
// shared part and each feature folder's, merged by the renderer's own mergeCatalogues. Read from
// disk, since the renderer's import.meta.glob is the bundler's.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { mergeCatalogues } from '../../renderer/i18n/catalogue';
import type { Catalogue } from '../../renderer/i18n/catalogue';

export type { Catalogue };
export type Language = 'en' | 'sw';

const rendererDir = join(import.meta.dirname, '../../renderer');

/** Each part of one language's strings, by its path under renderer/ (`i18n/en.json`, `features/claims/en.json` …). */
export function catalogueParts(language: Language): Record<string, Catalogue> {
  const files = [join(rendererDir, 'i18n', `${language}.json`)];
  for (const folder of readdirSync(join(rendererDir, 'features'), { withFileTypes: true })) {
    const file = join(rendererDir, 'features', folder.name, `${language}.json`);
    if (folder.isDirectory() && existsSync(file)) files.push(file);
  }
  return Object.fromEntries(files.map((file) => [relative(rendererDir, file), JSON.parse(readFileSync(file, 'utf8')) as Catalogue]));
}

/** One language's strings, every part merged. */
export function catalogue(language: Language): Catalogue {
  return mergeCatalogues(catalogueParts(language));
}

/** Every string of a catalogue by its full key (`claims.status.PAID`). */
export function flatten(tree: Catalogue, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === 'string') out.set(`${prefix}${key}`, value);
    else for (const [k, v] of flatten(value, `${prefix}${key}.`)) out.set(k, v);
  }
  return out;
}
