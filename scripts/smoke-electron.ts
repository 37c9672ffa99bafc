// npm run smoke:electron [-- --app PATH]: drives the real Electron app with Playwright's _electron, in
// training mode on a sandbox it starts, and checks at runtime what the unit tests prove with fakes:
// no Node in the station window (only invoke/subscribe on window.idhini), sandboxed and isolated
// web preferences, the authorization view reaching the device service's port and no other port of
// this machine, and a training fingerprint flow to an open visit. By default it runs the unpacked app
// (node_modules' Electron binary with this checkout's bundles); --app names an Electron-based build to
// run instead. A packaged Idhini has the Node inspector fuse off, which Playwright's _electron needs:
// that is refused by the build on purpose, and the script says so. Without an Electron binary it
// stops, saying the binary is absent, and exits 2. Not part of `npm test`.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { bundleShell } from '../build/bundle-shell';
import { startSandbox } from '../electron/sandbox';
import { ensureRendererBuilt, findElectronBinary, parseOptions, UsageError } from './start-support';
import { freePort } from './station-web-runtime';

interface Check {
  readonly name: string;
  run(): Promise<void>;
}

const say = (line: string) => process.stdout.write(`${line}\n`);

/** Which Electron to run, or why there is none. */
export function smokeTarget(appOption: string | undefined, found = findElectronBinary()): { executable: string; unpacked: boolean } | { absent: string } {
  if (appOption !== undefined) return existsSync(appOption) ? { executable: path.resolve(appOption), unpacked: false } : { absent: `--app ${appOption} does not exist` };
  if (!found.available) return { absent: found.reason };
  return { executable: found.path, unpacked: true };
}

function expectThat(condition: boolean, what: string): void {
  if (!condition) throw new Error(what);
}

async function launch(target: { executable: string; unpacked: boolean }, sandboxUrl: string, devicePort: number): Promise<ElectronApplication> {
  const training = ['--training-sandbox-url', sandboxUrl, '--device-service-port', String(devicePort)];
  const args = target.unpacked ? [(await bundleShell()).main, ...training] : training;
  try {
    return await _electron.launch({ executablePath: target.executable, args, timeout: 60_000 });
  } catch (error) {
    if (!target.unpacked) {
      throw new Error(`could not attach to ${target.executable}: a packaged Idhini keeps the Node inspector fuse off, and Playwright needs it (${(error as Error).message.split('\n')[0]})`, { cause: error });
    }
    throw error;
  }
}

/** The page of the authorization view (a WebContentsView over the station window), once it loads the sandbox's page. */
async function linkPage(app: ElectronApplication, sandboxUrl: string): Promise<Page> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const page = app.context().pages().find((p) => p.url().startsWith(sandboxUrl));
    if (page !== undefined) return page;
    if (Date.now() > deadline) throw new Error('the authorization view never opened the payer page');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function checks(app: ElectronApplication, station: Page, sandboxUrl: string, devicePort: number, otherPort: number): Check[] {
  return [
    {
      name: 'no Node in the station window, only invoke and subscribe on window.idhini',
      run: async () => {
        const seen = await station.evaluate(() => {
          const scope = globalThis as unknown as Record<string, unknown>;
          const bridge = scope.idhini as Record<string, unknown> | undefined;
          return { require: typeof scope.require, process: typeof scope.process, module: typeof scope.module, bridge: bridge === undefined ? null : Object.keys(bridge).sort() };
        });
        expectThat(seen.require === 'undefined' && seen.process === 'undefined' && seen.module === 'undefined', `Node globals in the window: ${JSON.stringify(seen)}`);
        expectThat(JSON.stringify(seen.bridge) === JSON.stringify(['invoke', 'subscribe']), `window.idhini exposes ${JSON.stringify(seen.bridge)}`);
      },
    },
    {
      name: 'the station window runs in a sandboxed renderer process (where the OS reports it: Windows, macOS)',
      run: async () => {
        const seen = await app.evaluate(({ app: electronApp, BrowserWindow }) => {
          const pid = BrowserWindow.getAllWindows()[0]?.webContents.getOSProcessId();
          const metric = electronApp.getAppMetrics().find((m) => m.pid === pid);
          return { found: metric !== undefined, type: metric?.type ?? null, sandboxed: metric?.sandboxed ?? null };
        });
        expectThat(seen.found && seen.type === 'Tab' && seen.sandboxed !== false, `renderer process ${JSON.stringify(seen)}`);
      },
    },
    {
      name: 'a training fingerprint flow: the link in its own view, the device service reached, no other port, the visit open',
      run: async () => {
        const setUp = station.getByRole('button', { name: 'Save and sign in' });
        if (await setUp.isVisible().catch(() => false)) await setUp.click();
        const idNumber = station.getByRole('textbox', { name: 'ID number' });
        await idNumber.fill('30000001');
        await idNumber.press('Enter');
        await station.getByRole('button', { name: 'Verify by fingerprint' }).click();
        const page = await linkPage(app, sandboxUrl);
        const reach = async (url: string) =>
          page.evaluate(async (target) => {
            try {
              await fetch(target, { mode: 'no-cors', signal: AbortSignal.timeout(5000) });
              return true;
            } catch {
              return false;
            }
          }, url);
        expectThat(await reach(`http://127.0.0.1:${devicePort}/status`), 'the payer page could not reach the device service');
        expectThat(!(await reach(`http://127.0.0.1:${otherPort}/`)), `the payer page reached loopback port ${otherPort}`);
        expectThat(!(await station.content()).includes('?t='), 'the station window holds the link embed token');
        await station.getByRole('button', { name: 'Open visit' }).click({ timeout: 60_000 });
        await station.getByText('Visit open', { exact: true }).waitFor({ timeout: 30_000 });
      },
    },
  ];
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2), ['app']);
  const target = smokeTarget(options.get('app'));
  if ('absent' in target) {
    say(`smoke:electron: the Electron binary is absent (${target.absent}).`);
    say('Install it (node node_modules/electron/install.js on a machine that can reach its download), or give --app PATH of an Electron build; then run npm run smoke:electron again.');
    return 2;
  }
  await ensureRendererBuilt(say);
  const devicePort = await freePort();
  const otherPort = await freePort();
  const sandbox = await startSandbox({ port: 0, deviceServiceUrl: `http://127.0.0.1:${devicePort}` });
  let app: ElectronApplication | undefined;
  let failed = 0;
  try {
    app = await launch(target, sandbox.url, devicePort);
    const station = await app.firstWindow();
    await station.getByRole('heading').first().waitFor({ timeout: 30_000 });
    for (const check of checks(app, station, sandbox.url, devicePort, otherPort)) {
      try {
        await check.run();
        say(`ok      ${check.name}`);
      } catch (error) {
        failed += 1;
        say(`FAILED  ${check.name}: ${(error as Error).message}`);
      }
    }
  } finally {
    await app?.close().catch(() => undefined);
    await sandbox.close();
  }
  say(failed === 0 ? 'smoke:electron: every check passed' : `smoke:electron: ${failed} check(s) failed`);
  return failed === 0 ? 0 : 1;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`smoke:electron: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(error instanceof UsageError ? 2 : 1);
    },
  );
}
