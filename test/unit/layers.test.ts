// The import boundaries are allow-lists (scripts/lint/layers.mjs), and what a reader finds in each
// folder's README ("May import") and in the root README's folder table must be those lists, word
// for word: a boundary changed in one place only fails here. The lint itself is run on imports
// that break and keep the lists.
import { readFileSync } from 'node:fs';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { layerOf, layers as allowLists, targetOf, topLayers } from '../../scripts/lint/layers.mjs';

const names = Object.keys(allowLists);
const sorted = (values: Iterable<string>) => [...values].sort();
const ticked = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

/** The names in a README's "May import": the backticked words up to the end of its first sentence. */
export function mayImportOf(readme: string): string[] | null {
  const at = readme.indexOf('**May import:**');
  if (at < 0) return null;
  const rest = readme.slice(at + '**May import:**'.length);
  const end = rest.search(/\.\s|\*\*/);
  return ticked(end < 0 ? rest : rest.slice(0, end));
}

/** The root README's folder table: each folder's row and the names in its "May import" cell. */
function rootTable(readme: string): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  for (const line of readme.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const folder = /^\[`([^`]+)`\]/.exec(cells[1] ?? '')?.[1]?.replace(/\/$/, '');
    if (folder !== undefined && cells.length >= 5) rows.set(folder, ticked(cells[3]!));
  }
  return rows;
}

describe('the import allow-lists and the READMEs say the same', () => {
  it('a README names what it may import, as its folder’s allow-list does', () => {
    expect(mayImportOf('**May import:** `zod`, `electron/vocabulary` (the lists). Not `x`. **Imported by:** `y`.')).toEqual(['zod', 'electron/vocabulary']);
    expect(mayImportOf('**May import:** nothing. **Imported by:** `y`.')).toEqual([]);
    const differing = names.filter((layer) => {
      const listed = mayImportOf(readFileSync(`${layer}/README.md`, 'utf8'));
      return listed === null || sorted(listed).join() !== sorted(allowLists[layer]!.may).join();
    });
    expect(differing.map((layer) => `${layer}: README ${JSON.stringify(mayImportOf(readFileSync(`${layer}/README.md`, 'utf8')))} ≠ lint ${JSON.stringify(allowLists[layer]!.may)}`)).toEqual([]);
  });

  it('the root README’s folder table has a row per layer with the same list', () => {
    const table = rootTable(readFileSync('README.md', 'utf8'));
    for (const layer of topLayers) expect([layer, sorted(table.get(layer) ?? ['(no row)'])]).toEqual([layer, sorted(allowLists[layer]!.may)]);
  });

  it('an inner layer asks for no package its folder does not allow', () => {
    const isPackage = (name: string) => !names.includes(name);
    const beyond = names.flatMap((layer) => {
      const top = topLayers.find((t) => layer.startsWith(`${t}/`));
      return top === undefined ? [] : allowLists[layer]!.may.filter((name) => isPackage(name) && !allowLists[top]!.may.includes(name)).map((name) => `${layer}: ${name}`);
    });
    expect(beyond).toEqual([]);
  });
});

describe('the allow-list rule', () => {
  it('knows a file’s layer and what an import names', () => {
    expect(layerOf('electron/station/patients/directory.ts')).toBe('electron/station');
    expect(layerOf('scripts/start.ts')).toBeNull();
    expect(targetOf('electron/station/patients/directory.ts', '../../payer')).toBe('electron/payer');
    expect(targetOf('electron/station/db.ts', '../../native-bridge/manager')).toBe('native-bridge/manager');
    expect(targetOf('electron/station/db.ts', './sealing')).toBe('electron/station');
    expect(targetOf('renderer/main.tsx', 'node:fs')).toBe('node:*');
    expect(targetOf('renderer/main.tsx', 'fs/promises')).toBe('node:*');
    expect(targetOf('electron/sandbox/server.ts', '@fastify/multipart/lib')).toBe('@fastify/multipart');
    expect(targetOf('renderer/main.tsx', '../test/support/x')).toBe('test');
  });

  // Linted as though the text lived at the path; no tsconfig holds those paths, so the type-aware
  // rules (which need one) are left out.
  const eslint = new ESLint({ cwd: process.cwd(), overrideConfig: tseslint.configs.disableTypeChecked });
  const refusals = async (code: string, filePath: string) =>
    ((await eslint.lintText(code, { filePath }))[0]?.messages ?? []).filter((m) => m.ruleId === 'idhini/allowed-imports').map((m) => m.message);

  it('refuses what a layer’s list does not name — a folder, a package, a built-in — in every form of import', async () => {
    expect(await refusals("import { a } from '../payer/wire';\nexport const b = a;\n", 'electron/sandbox/uses.ts')).toEqual([
      expect.stringMatching(/^electron\/sandbox may not import electron\/payer \(\.\.\/payer\/wire\): it may import electron\/vocabulary, fastify/),
    ]);
    expect(await refusals("export { a } from '../../renderer/x';\nexport * from 'undici';\n", 'electron/station/workflows/uses.ts')).toHaveLength(2);
    expect(await refusals("export const m = await import('node:fs');\n", 'renderer/features/x.ts')).toHaveLength(1);
    expect(await refusals("import { x } from '../vocabulary';\nexport const y = x;\n", 'electron/contract/uses.ts')).toEqual([]);
    expect(await refusals("import { x } from '../contract';\nexport const y = x;\n", 'electron/vocabulary/uses.ts')).toHaveLength(1);
  });

  it('keeps the reader layer’s own layers apart, and lets the station reach them by naming the folder', async () => {
    expect(await refusals("import { SerialTransport } from '../transports/serial';\nexport const t = SerialTransport;\n", 'native-bridge/drivers/uses.ts')).toEqual([
      expect.stringMatching(/^native-bridge\/drivers may not import native-bridge\/transports\/serial .*never a concrete transport/),
    ]);
    expect(await refusals("import type { ByteTransport } from '../transports/transport';\nexport type T = ByteTransport;\n", 'native-bridge/drivers/uses.ts')).toEqual([]);
    expect(await refusals("import { hex } from '../hex';\nimport { Buffer } from 'node:buffer';\nexport const h = [hex, Buffer];\n", 'native-bridge/protocols/zfm/uses.ts')).toHaveLength(1);
    expect(await refusals("import { ReaderManager } from '../../native-bridge/manager';\nexport const m = ReaderManager;\n", 'electron/station/uses.ts')).toEqual([]);
  });
});
