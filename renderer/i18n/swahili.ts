// Every Kiswahili string, gathered like the English (english.ts); this module is loaded only when
// Kiswahili is first shown, as one chunk.
import { mergeCatalogues } from './catalogue';
import type { Catalogue } from './catalogue';

export const swahili = mergeCatalogues(import.meta.glob<Catalogue>(['./sw.json', '../features/*/sw.json'], { eager: true, import: 'default' }));
