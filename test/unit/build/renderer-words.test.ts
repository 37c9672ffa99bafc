// The renderer build gives each module that names a feature folder's words an import of them, so a
// feature's English ships with the first screen that shows it (build/renderer-words.ts). Here: what
// it counts as naming, and that it sees every key the renderer's own strings test sees, in every
// file of the renderer — a key it missed would be a screen without its words.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { foldersNamed, namespaces } from '../../../build/renderer-words';

const renderer = join(import.meta.dirname, '../../../renderer');
const known = namespaces(join(renderer, 'features'));

describe('which feature folders a module names', () => {
  it('takes a literal that is one of their keys, a plural’s base, and a template that starts with a namespace', () => {
    expect(known.get('claims')?.folder).toBe('claims');
    expect(foldersNamed("t('claims.documents.needFile')", known)).toEqual(['claims']);
    expect(foldersNamed('t("nav.claimsNeed", { count })', known)).toEqual(['status']);
    expect(foldersNamed('t(`scenario.${s}.name`)', known)).toEqual([known.get('scenario')!.folder]);
    expect(foldersNamed("const places = [{ key: 'nav.work' }, { key: 'nav.beds' }];", known)).toEqual(['status']);
  });

  it('leaves out command names and other dotted strings that are no key', () => {
    expect(foldersNamed("call('claims.list', {}); call('settings.get', {}); const f = 'report.pdf';", known)).toEqual([]);
  });

  it('sees, in every file of the renderer, every feature key the strings test finds there', () => {
    const files = (function walk(dir: string): string[] {
      return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : []));
    })(renderer);
    const missed: string[] = [];
    let keys = 0;
    for (const file of files) {
      const source = readFileSync(file, 'utf8');
      const seen = new Set(foldersNamed(source, known));
      const used = [...source.matchAll(/\bt\(\s*'([a-zA-Z][\w.-]*)'/g), ...source.matchAll(/key: '([a-z]+\.[\w.-]+)'/g)].map((m) => m[1] as string);
      for (const key of used) {
        const namespace = known.get(key.split('.')[0] as string);
        if (namespace === undefined) continue;
        keys += 1;
        if (!seen.has(namespace.folder)) missed.push(`${relative(renderer, file)}: ${key}`);
      }
    }
    expect(keys).toBeGreaterThan(300);
    expect(missed).toEqual([]);
  });
});
