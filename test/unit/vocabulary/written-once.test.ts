// SHA's closed lists are written once, in electron/vocabulary, and everything on the main side
// builds from it. A bracketed list anywhere else in electron/ holding (nearly) all the values of one
// of them is that list written again: the contract, the exchange client and the sandbox would then
// drift apart one edit at a time, as they did before. A few values of a list together (the claim
// states a nurse may attach papers in) are a decision, not a copy, and pass.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as vocabulary from '../../../electron/vocabulary';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const lists = Object.entries<unknown>(vocabulary).filter((entry): entry is [string, readonly string[]] => Array.isArray(entry[1]));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return full === path.join(ROOT, 'electron/vocabulary') ? [] : sources(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The lists of `text` that repeat a vocabulary list: a bracket holding at least three quarters of its values (all of a short one). */
export function copiesIn(text: string): { list: string; values: string[] }[] {
  const found: { list: string; values: string[] }[] = [];
  for (const bracket of text.matchAll(/\[([^[\]]*)\]/g)) {
    // Only a list of words: string literals, spreads, commas and comments (not data, not code).
    if (bracket[1]!.replace(/'[^'\\]*'|"[^"\\]*"|\/\/[^\n]*|\.\.\.[\w.]+|[\s,]/g, '') !== '') continue;
    const strings = new Set([...bracket[1]!.matchAll(/'([^'\\]*)'|"([^"\\]*)"/g)].map((m) => m[1] ?? m[2] ?? ''));
    for (const [name, values] of lists) {
      const shared = values.filter((v) => strings.has(v));
      if (shared.length >= Math.max(2, Math.ceil(values.length * 0.75))) found.push({ list: name, values: shared });
    }
  }
  return found;
}

describe('SHA’s closed lists, written once', () => {
  it('finds a list written again, and lets a few of its values together pass', () => {
    expect(copiesIn("const r = z.enum(['AMBULANCE', 'WALK-IN', 'OTHER']);")).toEqual([{ list: 'modesOfArrival', values: ['AMBULANCE', 'WALK-IN', 'OTHER'] }]);
    expect(copiesIn("z.enum(['PARTIAL', 'FULL'])")).toEqual([{ list: 'dischargeStatuses', values: ['PARTIAL', 'FULL'] }]);
    expect(copiesIn("const editable = ['DRAFT', 'DRAFT_RESUBMIT', 'DRAFT_RESUBMIT_DOCUMENTS'];")).toEqual([]);
    // Data that happens to hold the values is not a list of them.
    expect(copiesIn("const staff = [{ regulator: 'KMPDC' }, { regulator: 'COC' }, { regulator: 'NCK' }];")).toEqual([]);
  });

  it('is not written again anywhere in electron/ (contract, exchange client, sandbox, station, shells)', () => {
    const copies = sources(path.join(ROOT, 'electron')).flatMap((file) =>
      copiesIn(readFileSync(file, 'utf8')).map((copy) => `${path.relative(ROOT, file)}: ${copy.list} (${copy.values.join(', ')})`),
    );
    expect(copies).toEqual([]);
  });
});
