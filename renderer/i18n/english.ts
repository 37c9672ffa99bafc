// Every English string, gathered from the shared part and each feature's: bundled with the first
// screen, so no screen waits for its words.
import { mergeCatalogues } from './catalogue';
import type { Catalogue } from './catalogue';

export const english = mergeCatalogues(import.meta.glob<Catalogue>(['./en.json', '../features/*/en.json'], { eager: true, import: 'default' }));
