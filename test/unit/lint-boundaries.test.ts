import { readFileSync } from 'node:fs';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

// The fixtures are linted as though they lived where they would break a boundary; no tsconfig
// holds those paths, so the type-aware rules (which need one) are left out here.
const eslint = new ESLint({ cwd: process.cwd(), overrideConfig: tseslint.configs.disableTypeChecked });

/** Lints a fixture as though it lived at `pretendPath`, and returns the boundary violations. */
async function boundaryMessages(fixture: string, pretendPath: string): Promise<string[]> {
  const code = readFileSync(`test/fixtures/lint/${fixture}`, 'utf8');
  const [result] = await eslint.lintText(code, { filePath: pretendPath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'idhini/allowed-imports' || m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('import boundaries', () => {
  it("refuses 'electron' in the station core", async () => {
    const messages = await boundaryMessages('electron-in-station.ts', 'electron/station/uses-electron.ts');
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/^electron\/station may not import electron \(electron\)/);
  });

  it("allows 'electron' in the Electron shell", async () => {
    expect(await boundaryMessages('electron-in-station.ts', 'electron/main/uses-electron.ts')).toEqual([]);
  });

  it("refuses 'electron' outside the layers too (tests, scripts)", async () => {
    expect(await boundaryMessages('electron-in-station.ts', 'scripts/uses-electron.ts')).toEqual([expect.stringMatching(/only in electron\/main and electron\/preload/)]);
  });

  it('refuses Node built-ins and the station core in the renderer', async () => {
    const messages = await boundaryMessages('node-in-renderer.ts', 'renderer/features/lookup/bad.ts');
    expect(messages).toHaveLength(2);
    expect(messages.join('\n')).toMatch(/renderer may not import node:\* \(node:fs\)/);
    expect(messages.join('\n')).toMatch(/renderer may not import electron\/station .*talks only to the station contract/);
  });

  it("takes the contract's types into the renderer, and its plain values, but no schema at run time", async () => {
    const lint = async (code: string) =>
      ((await eslint.lintText(code, { filePath: 'renderer/features/claims/bad.ts' }))[0]?.messages ?? [])
        .filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports')
        .map((m) => m.message);
    const schema = await lint("import { claimDocumentType } from '../../../electron/contract/visit';\nexport const t = claimDocumentType.options;\n");
    expect(schema).toHaveLength(1);
    expect(schema[0]).toMatch(/types only; plain values come from electron\/contract\/plain/);
    expect(await lint("import { patientSummary } from '../../../electron/contract';\nexport const s = patientSummary;\n")).toHaveLength(1);
    expect(await lint("import type { PatientSummary } from '../../../electron/contract';\nexport type S = PatientSummary;\n")).toEqual([]);
    expect(await lint("import { MAX_LINE_FILES_BASE64 } from '../../../electron/contract/plain';\nexport const m = MAX_LINE_FILES_BASE64;\n")).toEqual([]);
  });

  it('lets the exchange client use undici, zod and its own modules', async () => {
    expect(await boundaryMessages('payer-clean.ts', 'electron/payer/clean.ts')).toEqual([]);
  });

  it('refuses the station core in the exchange client', async () => {
    const code = "import { x } from '../station/core';\nexport const y = x;\n";
    const [result] = await eslint.lintText(code, { filePath: 'electron/payer/reaches-up.ts' });
    expect(result?.messages.map((m) => m.ruleId)).toContain('idhini/allowed-imports');
  });

  it("refuses the exchange client in the sandbox, and lets it use SHA's closed lists", async () => {
    const lint = async (code: string) => ((await eslint.lintText(code, { filePath: 'electron/sandbox/routes/uses.ts' }))[0]?.messages ?? []).filter((m) => m.ruleId === 'idhini/allowed-imports');
    expect(await lint("import { serviceTypes } from '../../payer/wire';\nexport const s = serviceTypes;\n")).toHaveLength(1);
    expect(await lint("import { serviceTypes } from '../../vocabulary';\nexport const s = serviceTypes;\n")).toEqual([]);
  });
});

describe('type-aware and hooks rules', () => {
  // Linted as the text of files that exist, so each is checked against its own tsconfig.
  const lintAs = async (code: string, filePath: string) => ((await new ESLint({ cwd: process.cwd() }).lintText(code, { filePath }))[0]?.messages ?? []).map((m) => m.ruleId);

  it('refuses a promise nobody waits for, and one handed where a plain callback is expected', async () => {
    const floating = 'export async function f(): Promise<void> {}\nexport function g(): void {\n  f();\n}\n';
    expect(await lintAs(floating, 'electron/station/deps.ts')).toContain('@typescript-eslint/no-floating-promises');
    const misused = 'export async function f(): Promise<void> {}\nexport const t = setTimeout(f, 1);\n[1].forEach(async () => f());\n';
    expect(await lintAs(misused, 'electron/station/deps.ts')).toContain('@typescript-eslint/no-misused-promises');
  });

  it('refuses an effect that reads a value it does not name', { timeout: 30_000 }, async () => {
    const stale = "import { useEffect, useState } from 'react';\nexport function C({ a }: { a: number }) {\n  const [b, setB] = useState(0);\n  useEffect(() => {\n    setB(a);\n  }, []);\n  return b;\n}\n";
    expect(await lintAs(stale, 'renderer/App.tsx')).toContain('react-hooks/exhaustive-deps');
  });
});
