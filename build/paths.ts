// Where the shell's bundles go; the bundler, the packaging config and the launchers agree on these.
export const MAIN_BUNDLE = 'dist/electron/main.cjs';
export const PRELOAD_BUNDLE = 'dist/electron/preload.cjs';
export const RENDERER_DIR = 'dist/renderer';
