// npm start [-- --port N]: the station in training mode on its built-in sandbox with the virtual
// reader. Builds what it needs (the renderer with vite; for Electron, the preload and main bundles
// with esbuild), then runs the Electron app when its binary is installed, else browser mode — saying
// which and why: the browser host, opened in Chromium in app mode with a fresh profile when there is
// one and a display to show it on, else its URL printed. Runs until the window closes or Ctrl+C.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bundleShell } from '../build/bundle-shell';
import { startSandbox } from '../electron/sandbox';
import { ensureRendererBuilt, findChromium, findElectronBinary, hasDisplay, parseOptions, portOption, type ElectronBinary } from './start-support';
import { freePort, startTrainingStation } from './station-web-runtime';

export type LaunchPlan =
  | { mode: 'electron'; binary: string; why: string }
  | { mode: 'browser-app'; chromium: string; why: string }
  | { mode: 'browser-url'; why: string };

/** Which way the station starts here, and the sentence that says why. */
export function planLaunch(electron: ElectronBinary, chromium: string | null, display: boolean): LaunchPlan {
  if (electron.available) return { mode: 'electron', binary: electron.path, why: `Electron is installed (${electron.path}): starting the desktop app.` };
  const noElectron = `Electron is not available (${electron.reason}), so the station starts in browser mode`;
  if (chromium === null) return { mode: 'browser-url', why: `${noElectron}; no Chromium was found to open it in.` };
  if (!display) return { mode: 'browser-url', why: `${noElectron}; there is no display to open ${path.basename(chromium)} on.` };
  return { mode: 'browser-app', chromium, why: `${noElectron}, opened in ${path.basename(chromium)} in app mode.` };
}

const say = (line: string) => process.stdout.write(`${line}\n`);

async function runElectron(binary: string): Promise<number> {
  // The main and preload bundles only the Electron app loads; browser mode needs neither.
  const { main: mainBundle } = await bundleShell();
  const devicePort = await freePort();
  const sandbox = await startSandbox({ port: 0, deviceServiceUrl: `http://127.0.0.1:${devicePort}` });
  say(`Sandbox (training): ${sandbox.url}`);
  const app = spawn(binary, [mainBundle, '--training-sandbox-url', sandbox.url, '--device-service-port', String(devicePort)], { stdio: 'inherit' });
  const code = await new Promise<number>((resolve) => app.once('exit', (exitCode) => resolve(exitCode ?? 0)));
  await sandbox.close();
  return code;
}

/**
 * The station's browser window gets a one-time launch code, never the per-launch secret: the code is
 * spent by the window as it opens, so what Chromium's command line and this terminal show opens
 * nothing afterwards. Without a window to open, a code is printed for the nurse to open (once, within
 * two minutes).
 */
async function runBrowser(plan: Exclude<LaunchPlan, { mode: 'electron' }>, port: number): Promise<number> {
  const running = await startTrainingStation({ port, sandboxPort: 0 });
  say(`Station (browser mode, training): ${running.host.url}`);
  say(`Sandbox (training): ${running.sandbox.url}`);
  say(`Logs: ${path.join(running.dataDir, 'station.log')}`);
  let finish: (code: number) => void = () => undefined;
  const finished = new Promise<number>((resolve) => (finish = resolve));
  process.once('SIGINT', () => finish(0));
  process.once('SIGTERM', () => finish(0));
  let profile: string | null = null;
  if (plan.mode === 'browser-app') {
    profile = await mkdtemp(path.join(tmpdir(), 'idhini-chromium-'));
    const browser = spawn(
      plan.chromium,
      [`--app=${running.host.issueLaunchUrl()}`, `--user-data-dir=${profile}`, '--no-first-run', '--no-default-browser-check', '--disable-sync', '--window-size=1280,860'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let complaint = '';
    browser.stderr?.on('data', (chunk: Buffer) => (complaint = (complaint + chunk.toString()).slice(-2000)));
    const startedAt = Date.now();
    const fallBack = (why: string) =>
      say(`${path.basename(plan.chromium)} ${why}: open ${running.host.issueLaunchUrl()} in a browser (the link works once, within two minutes). Press Ctrl+C to stop.`);
    browser.once('error', (error) => fallBack(`could not start (${error.message})`));
    browser.once('exit', (code) => {
      // A browser that stops at once (no display it can use, run as root without its sandbox …) is
      // not the nurse closing the window: keep the station up and say why.
      if (code !== 0 && Date.now() - startedAt < 10_000) {
        const reason = complaint.split('\n').find((line) => /error|not supported|cannot|failed/i.test(line))?.trim().slice(0, 200) ?? `exit code ${code}`;
        fallBack(`stopped at once (${reason})`);
      } else {
        finish(0);
      }
    });
    say('Close the window (or press Ctrl+C) to stop the station.');
  } else {
    say(`Open ${running.host.issueLaunchUrl()} in a browser (Chromium, Chrome or Edge): the link works once, within two minutes. Press Ctrl+C to stop.`);
  }
  const code = await finished;
  await running.close();
  if (profile !== null) await rm(profile, { recursive: true, force: true });
  return code;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2), ['port']);
  const port = portOption(options, 'port') ?? 0;
  say('Idhini: TRAINING MODE on the built-in sandbox (demo patients, virtual fingerprint reader; nothing reaches SHA).');
  await ensureRendererBuilt(say);
  const plan = planLaunch(findElectronBinary(), findChromium(), hasDisplay());
  say(plan.why);
  process.exitCode = plan.mode === 'electron' ? await runElectron(plan.binary) : await runBrowser(plan, port);
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main().catch((error: unknown) => {
    process.stderr.write(`npm start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
