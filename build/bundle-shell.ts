// Bundles the Electron shell with esbuild: the main process into one CommonJS file, and the
// preload into another (a sandboxed preload cannot load modules, so it must be a single file that
// requires only 'electron'). Native modules stay outside the main bundle and load from node_modules.
//   npx tsx build/bundle-shell.ts [--out dist/electron]
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { MAIN_BUNDLE, PRELOAD_BUNDLE } from './paths';

/** Loaded at run time from node_modules: native code, and Electron itself. */
const MAIN_EXTERNALS = ['electron', 'better-sqlite3', 'node-hid', 'serialport', '@serialport/*', 'bufferutil', 'utf-8-validate'];

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function bundleShell(options: { outDir?: string } = {}): Promise<{ main: string; preload: string }> {
  const outDir = path.resolve(root, options.outDir ?? path.dirname(MAIN_BUNDLE));
  const main = path.join(outDir, path.basename(MAIN_BUNDLE));
  const preload = path.join(outDir, path.basename(PRELOAD_BUNDLE));
  const common = { bundle: true, format: 'cjs', platform: 'node', target: 'node22', sourcemap: 'linked', logLevel: 'warning', absWorkingDir: root } as const;
  await Promise.all([
    build({ ...common, entryPoints: [path.join(root, 'electron/main/index.ts')], outfile: main, external: MAIN_EXTERNALS }),
    build({ ...common, entryPoints: [path.join(root, 'electron/preload/index.ts')], outfile: preload, external: ['electron'] }),
  ]);
  return { main, preload };
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outIndex = process.argv.indexOf('--out');
  const outDir = outIndex >= 0 ? process.argv[outIndex + 1] : undefined;
  bundleShell(outDir === undefined ? {} : { outDir }).then(
    (built) => process.stdout.write(`bundled ${path.relative(root, built.main)} and ${path.relative(root, built.preload)}\n`),
    (error: unknown) => {
      process.stderr.write(`bundle failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
