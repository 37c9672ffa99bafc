// The committed copy of the contract documents must match the steering repository's shared/ when
// this checkout sits beside it; otherwise the path-coverage tests would be checking an old contract.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { committedSpecDir, readSharedSpec, siblingSpecDir, type SharedSpec } from '../support/shared-spec';

const names: SharedSpec[] = ['service-interface.md', 'field-notes.md', 'wire-evidence.md'];

describe('contract documents', () => {
  it.each(names)('%s: the committed copy is the one in ../shared/spec when that is present', (name) => {
    const committed = readFileSync(resolve(committedSpecDir, name), 'utf8');
    const sibling = resolve(siblingSpecDir, name);
    // Without the sibling there is nothing to compare; the copy is then what every test reads.
    const expected = existsSync(sibling) ? readFileSync(sibling, 'utf8') : committed;
    expect(committed).toBe(expected);
    expect(readSharedSpec(name)).toBe(expected);
  });

  it('the contract names its /api/v1 paths', () => {
    expect(readSharedSpec('service-interface.md')).toMatch(/\/api\/v1\/claims\/submit/);
  });
});
