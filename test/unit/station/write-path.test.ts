// The station's writes go one way (Engine.send), which acts on each operation's declared reconcile
// policy when an answer is lost: no call site decides an unknown outcome again. Held by counting
// the source, as a lint rule would: the modules of electron/station that know OutcomeUnknown, the
// catches of it, and the double casts the kinds table replaced.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { journal } from '../../../electron/station/workflows/journal';
import { workflowKinds } from '../../../electron/station/workflows/kinds';
import { machines } from '../../../electron/station/machines';

const root = resolve(import.meta.dirname, '../../../electron/station');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const files = sources(root).map((path) => ({ name: relative(root, path), text: readFileSync(path, 'utf8') }));
const mentioning = (pattern: RegExp) => files.filter((f) => pattern.test(f.text)).map((f) => f.name);

describe('one write path', () => {
  it('reads the station core’s sources (the count below is over something)', () => {
    expect(files.length).toBeGreaterThan(40);
    expect(mentioning(/\bengine\.send\(/).length).toBeGreaterThan(5);
  });

  it('at most two modules of electron/station know OutcomeUnknown, the engine among them', () => {
    const knowing = mentioning(/\bOutcomeUnknown\b/);
    expect(knowing).toContain(join('workflows', 'engine.ts'));
    expect(knowing.length).toBeLessThanOrEqual(2);
  });

  it('no call site catches an unknown outcome itself', () => {
    expect(mentioning(/instanceof\s+OutcomeUnknown/)).toEqual([]);
  });

  it('every write goes through Engine.send: the old per-call journaling is gone', () => {
    expect(mentioning(/\bengine\.call\(/)).toEqual([]);
  });

  it('no double cast (`as unknown as`) is left in the station core', () => {
    expect(mentioning(/\bas unknown as\b/)).toEqual([]);
  });

  it('every journaled operation declares one of the four policies the engine acts on', () => {
    for (const entry of Object.values(journal)) expect(['look-up', 'post-again', 'send-again', 'cannot-look-up']).toContain(entry.reconcile);
    // A fingerprint request is found in the facility's authorizations list: it is looked up, not left.
    expect(journal.authorizeBiometric.reconcile).toBe('look-up');
    expect(journal.authorizeDischarge.reconcile).toBe('look-up');
  });
});

describe('one module per kind of workflow', () => {
  it('the table has every kind, each module its own kind and machine', () => {
    expect(Object.keys(workflowKinds).sort()).toEqual(Object.keys(machines).sort());
    for (const [kind, module] of Object.entries(workflowKinds)) {
      expect(module.kind).toBe(kind);
      expect(module.machine).toBe(machines[module.kind]);
    }
  });

  it('the kinds that take consent carry their verification host; a visit takes none', () => {
    expect(Object.entries(workflowKinds).filter(([, m]) => m.verification !== null).map(([k]) => k).sort()).toEqual(['consent', 'discharge', 'elective', 'emergency']);
  });

  it('nothing outside the kinds table switches on a workflow kind to find its view or host', () => {
    // The station composed its views and links through a switch, recovery its hosts through casts.
    expect(mentioning(/case 'consent':[\s\S]{0,200}case 'visit':/)).toEqual([]);
  });
});
