// Lint with the import boundaries: each folder (a layer) may import what its allow-list names and
// nothing else (scripts/lint/layers.mjs, after VS Code's code-layering); each folder's README says
// the same in its "May import" row, held equal by test/unit/layers.test.ts.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { layers, layersPlugin, tooling } from './scripts/lint/layers.mjs';

const noElectron = { regex: '^electron(/.*)?$', message: "'electron' may be imported only in electron/main and electron/preload." };

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'out/**', 'release/**', 'coverage/**', 'test/fixtures/lint/**', 'docs/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Type-aware: a promise nobody waits for or catches, or one handed where a plain callback is
    // expected (an event handler, a timer), is an error. Each file is checked against its own
    // tsconfig (the renderer's, or the root one).
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: { allowDefaultProject: ['renderer/vite.config.ts'] }, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  { files: ['renderer/**'], languageOptions: { globals: { ...globals.browser } } },
  {
    // Hooks called by the rules, and every value an effect or a callback reads named in its
    // dependencies, so a stale answer cannot overwrite a newer one.
    files: ['renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // Each layer's allow-list (scripts/lint/layers.mjs; each folder's README says the same).
    files: Object.keys(layers).map((layer) => `${layer}/**/*.{ts,tsx,js,mjs}`),
    ignores: tooling,
    plugins: { idhini: layersPlugin },
    rules: { 'idhini/allowed-imports': 'error' },
  },
  {
    // The renderer takes the contract's types, and its plain values from contract/plain: a schema
    // imported at run time would bring zod and every schema's construction into the first screen.
    files: ['renderer/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)electron/contract(/(?!plain$)[^/]+)?$',
              allowTypeImports: true,
              message: "The renderer imports the contract's types only; plain values come from electron/contract/plain (a schema would bring zod into the first screen).",
            },
          ],
        },
      ],
    },
  },
  {
    // Outside the layers (tests, scripts, benches, packaging): anything but 'electron', which only the shell may load.
    files: ['**/*.{ts,tsx,js,mjs}'],
    ignores: Object.keys(layers).map((layer) => `${layer}/**`),
    rules: { 'no-restricted-imports': ['error', { patterns: [noElectron] }] },
  },
);
