// The exchange's contract documents, read from the steering repository's shared/ (a sibling of this
// checkout) when it is there, else from the committed copy, so the path-coverage tests run on a
// machine that cloned only this repository. test/unit/shared-spec.test.ts keeps the copy honest.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export type SharedSpec = 'service-interface.md' | 'field-notes.md' | 'wire-evidence.md';

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const siblingSpecDir = resolve(repositoryRoot, '../shared/spec');
export const committedSpecDir = resolve(repositoryRoot, 'test/fixtures/shared-spec');

export function readSharedSpec(name: SharedSpec): string {
  const sibling = resolve(siblingSpecDir, name);
  return readFileSync(existsSync(sibling) ? sibling : resolve(committedSpecDir, name), 'utf8');
}
