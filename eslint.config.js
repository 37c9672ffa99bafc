// Lint with the import boundaries of docs in ../shared/design/architecture.md: which folder may
// import what. Each folder's README repeats its own row. The boundary rules match import
// specifiers by regex, so they cover relative paths ('../station/x') as well as package names.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** A restricted-import pattern that forbids reaching into one of the project's folders. */
const folder = (name, why) => ({ regex: `(^|/)${name}(/|$)`, message: why });
const pkg = (name, why) => ({ regex: `^${name}(/.*)?$`, message: why });

const noElectron = pkg('electron', "'electron' may be imported only in electron/main and electron/preload.");
const nodeBuiltins = {
  regex: '^node:',
  message: 'The renderer runs in a sandboxed page: no Node built-ins. Ask the station contract instead.',
};

/** [files, forbidden patterns] — one row per folder of the architecture. */
const boundaries = [
  [
    ['electron/contract/**'],
    [
      noElectron,
      ...['payer', 'sandbox', 'station', 'main', 'preload', 'browser-host', 'native-bridge', 'renderer'].map((f) =>
        folder(f, 'electron/contract depends on zod and electron/vocabulary only; everything else depends on it.'),
      ),
    ],
  ],
  [
    ['electron/vocabulary/**'],
    [
      noElectron,
      ...['contract', 'payer', 'sandbox', 'station', 'main', 'preload', 'browser-host', 'native-bridge', 'renderer'].map((f) =>
        folder(f, 'electron/vocabulary is values only: everything may import it, it imports nothing.'),
      ),
    ],
  ],
  [
    ['electron/payer/**'],
    [
      noElectron,
      ...['sandbox', 'station', 'main', 'preload', 'browser-host', 'native-bridge', 'renderer', 'contract'].map((f) =>
        folder(f, 'electron/payer is the exchange client: undici, zod and electron/vocabulary only.'),
      ),
      pkg('fastify', 'electron/payer is a client; servers live in electron/sandbox.'),
    ],
  ],
  [
    ['electron/sandbox/**'],
    [
      noElectron,
      ...['payer', 'station', 'main', 'preload', 'browser-host', 'native-bridge', 'renderer', 'contract'].map((f) =>
        folder(f, 'electron/sandbox stands in for the exchange: its own schemas on SHA\'s closed lists (electron/vocabulary), nothing of the client or the station.'),
      ),
    ],
  ],
  [
    ['electron/station/**'],
    [
      noElectron,
      ...['sandbox', 'main', 'preload', 'browser-host', 'renderer'].map((f) =>
        folder(f, 'electron/station is the core both shells host: it must not know either shell.'),
      ),
    ],
  ],
  [
    ['electron/browser-host/**'],
    [noElectron, ...['main', 'preload', 'renderer'].map((f) => folder(f, 'electron/browser-host hosts the station core; it knows no Electron shell.'))],
  ],
  [
    ['electron/main/**'],
    [...['browser-host', 'sandbox', 'renderer', 'preload'].map((f) => folder(f, 'electron/main hosts the station core through the contract.'))],
  ],
  [
    ['electron/preload/**'],
    [...['payer', 'sandbox', 'station', 'main', 'browser-host', 'native-bridge', 'renderer'].map((f) => folder(f, 'The preload exposes the contract and nothing else.'))],
  ],
  [
    ['native-bridge/**'],
    [noElectron, ...['electron', 'renderer'].map((f) => folder(f, 'native-bridge is the reader layer: it knows nothing of the station, the exchange or the UI.'))],
  ],
  [
    ['renderer/**'],
    [
      noElectron,
      nodeBuiltins,
      ...['payer', 'sandbox', 'station', 'main', 'preload', 'browser-host', 'native-bridge'].map((f) =>
        folder(f, 'The renderer talks only to the station contract (electron/contract).'),
      ),
      pkg('undici', 'The renderer never calls the exchange: the station core does.'),
    ],
  ],
];

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
  ...boundaries.map(([files, patterns]) => ({ files, rules: { 'no-restricted-imports': ['error', { patterns }] } })),
  {
    // Everything outside the shell: 'electron' is off limits (the folders above repeat it with context).
    files: ['**/*.{ts,tsx,js,mjs}'],
    ignores: ['electron/main/**', 'electron/preload/**', ...boundaries.flatMap(([files]) => files)],
    rules: { 'no-restricted-imports': ['error', { patterns: [noElectron] }] },
  },
);
