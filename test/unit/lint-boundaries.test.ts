import { readFileSync } from 'node:fs';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

/** Lints a fixture as though it lived at `pretendPath`, and returns the boundary violations. */
async function boundaryMessages(fixture: string, pretendPath: string): Promise<string[]> {
  const code = readFileSync(`test/fixtures/lint/${fixture}`, 'utf8');
  const [result] = await eslint.lintText(code, { filePath: pretendPath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('import boundaries', () => {
  it("refuses 'electron' in the station core", async () => {
    const messages = await boundaryMessages('electron-in-station.ts', 'electron/station/uses-electron.ts');
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/only in electron\/main and electron\/preload/);
  });

  it("allows 'electron' in the Electron shell", async () => {
    expect(await boundaryMessages('electron-in-station.ts', 'electron/main/uses-electron.ts')).toEqual([]);
  });

  it('refuses Node built-ins and the station core in the renderer', async () => {
    const messages = await boundaryMessages('node-in-renderer.ts', 'renderer/features/lookup/bad.ts');
    expect(messages).toHaveLength(2);
    expect(messages.join('\n')).toMatch(/no Node built-ins/);
    expect(messages.join('\n')).toMatch(/only to the station contract/);
  });

  it('lets the exchange client use undici, zod and its own modules', async () => {
    expect(await boundaryMessages('payer-clean.ts', 'electron/payer/clean.ts')).toEqual([]);
  });

  it('refuses the station core in the exchange client', async () => {
    const code = "import { x } from '../station/core';\nexport const y = x;\n";
    const [result] = await eslint.lintText(code, { filePath: 'electron/payer/reaches-up.ts' });
    expect(result?.messages.map((m) => m.ruleId)).toContain('no-restricted-imports');
  });
});
