// What the launchers (npm start, npm run station:web) share: building the renderer when its build is
// missing or older than its sources, finding the Electron binary, finding a Chromium to open the
// station in app mode. Development tooling: it may look at this machine, the product code may not.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { RENDERER_DIR } from '../build/paths';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const RENDERER_OUT = path.join(ROOT, RENDERER_DIR);
const RENDERER_SRC = path.join(ROOT, 'renderer');
const BUILD_LOCK = path.join(ROOT, 'dist', '.renderer-build.lock');

async function newestMtime(dir: string): Promise<number> {
  let newest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? await newestMtime(full) : (await stat(full)).mtimeMs);
  }
  return newest;
}

/** Whether dist/renderer is missing or older than anything under renderer/. */
async function rendererBuildIsStale(): Promise<boolean> {
  const index = path.join(RENDERER_OUT, 'index.html');
  if (!existsSync(index)) return true;
  if (!existsSync(RENDERER_SRC)) return false;
  return (await newestMtime(RENDERER_SRC)) > statSync(index).mtimeMs;
}

/**
 * Builds the renderer with vite when its build is stale. Launchers and test files started side by
 * side take turns through a lock folder, and each looks again once it holds it.
 */
export async function ensureRendererBuilt(say: (line: string) => void = () => undefined): Promise<void> {
  if (!(await rendererBuildIsStale())) return;
  await mkdir(path.dirname(BUILD_LOCK), { recursive: true });
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      await mkdir(BUILD_LOCK);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // A lock older than the longest build is left over from a killed launcher.
      const age = Date.now() - (await stat(BUILD_LOCK).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs;
      if (age > 180_000) await rm(BUILD_LOCK, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`Timed out waiting for another renderer build (${BUILD_LOCK}).`, { cause: error });
      await sleep(250);
    }
  }
  try {
    if (!(await rendererBuildIsStale())) return;
    say('building the renderer (vite)…');
    // In a child process, so a build started from inside a test runner is the same as a launcher's:
    // the runner's own vite and module graph stay out of it.
    const vite = path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
    await promisify(execFile)(process.execPath, [vite, 'build', '--config', path.join(RENDERER_SRC, 'vite.config.ts'), '--logLevel', 'warn'], {
      cwd: ROOT,
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: unknown) => {
      const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
      throw new Error(`renderer build failed:\n${stdout}\n${stderr}`, { cause: error });
    });
  } finally {
    await rm(BUILD_LOCK, { recursive: true, force: true });
  }
}

export type ElectronBinary = { available: true; path: string } | { available: false; reason: string };

/**
 * Where the electron package put its binary (node_modules/electron/path.txt names it under dist/),
 * or why there is none: its postinstall download is not run on these machines.
 */
export function findElectronBinary(root = ROOT): ElectronBinary {
  const pkg = path.join(root, 'node_modules', 'electron');
  if (!existsSync(path.join(pkg, 'package.json'))) return { available: false, reason: 'the electron package is not installed' };
  const pathFile = path.join(pkg, 'path.txt');
  if (!existsSync(pathFile)) return { available: false, reason: 'node_modules/electron has no binary (its download did not run: no path.txt, no dist/)' };
  const binary = path.join(pkg, 'dist', readFileSync(pathFile, 'utf8').trim());
  if (!existsSync(binary)) return { available: false, reason: `the Electron binary ${path.relative(root, binary)} is missing` };
  return { available: true, path: binary };
}

const CHROMIUM_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'microsoft-edge', 'msedge', 'chrome'];

/** A Chromium-family browser on PATH (or in the usual Windows install folders), or null. */
export function findChromium(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string | null {
  const extensions = platform === 'win32' ? (env.PATHEXT ?? '.EXE').split(';').map((e) => e.toLowerCase()) : [''];
  const dirs = (env.PATH ?? '').split(path.delimiter).filter(Boolean);
  for (const name of CHROMIUM_NAMES) {
    for (const dir of dirs) {
      for (const ext of extensions) {
        const candidate = path.join(dir, name + ext);
        if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
      }
    }
  }
  if (platform === 'win32') {
    const programFiles = [env['ProgramFiles'], env['ProgramFiles(x86)'], env.LOCALAPPDATA].filter((d): d is string => d !== undefined);
    for (const base of programFiles) {
      for (const relative of ['Google/Chrome/Application/chrome.exe', 'Microsoft/Edge/Application/msedge.exe', 'Chromium/Application/chrome.exe']) {
        const candidate = path.join(base, relative);
        if (existsSync(candidate)) return candidate;
      }
    }
  }
  return null;
}

/** Whether a browser window can be shown here at all (Linux without X or Wayland cannot). */
export function hasDisplay(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): boolean {
  return platform !== 'linux' || Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

/** Reads `--name value` options; flags it does not know are refused by name. A repeatable option keeps its last value here (see repeatedOption). */
export function parseOptions(argv: readonly string[], known: readonly string[]): Map<string, string> {
  const options = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const name = arg.replace(/^--/, '');
    if (!arg.startsWith('--') || !known.includes(name)) throw new UsageError(`unknown option ${arg}`);
    const value = argv[i + 1];
    if (value === undefined || value.startsWith('--')) throw new UsageError(`${arg} needs a value`);
    options.set(name, value);
    i++;
  }
  return options;
}

/** Every value of a repeatable option, in order (`--staff A:1 --staff B:2`). */
export function repeatedOption(argv: readonly string[], name: string): string[] {
  return argv.flatMap((arg, i) => (arg === `--${name}` && argv[i + 1] !== undefined ? [argv[i + 1]!] : []));
}

export function portOption(options: Map<string, string>, name: string): number | undefined {
  const raw = options.get(name);
  if (raw === undefined) return undefined;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--${name} must be a port number 0..65535, got ${raw}`);
  return port;
}

export class UsageError extends Error {
  override readonly name = 'UsageError';
}
