// Starts an emulated module behind a socat PTY pair, for tests, benchmarks and development:
// socat links $DIR/host (open it with the driver) to $DIR/dev, where the emulator process sits.
// When the emulator process ends — asked to, killed, or by an 'exit' fault — the harness ends
// socat too, so the host side vanishes the way a USB-serial port does when it is unplugged.
// Linux/macOS only (socat, PTYs); test and development use, never imported by the product.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { EmulatorControl } from './control';
import type { Gt521ModuleConfig } from './gt521-module';
import type { ZfmModuleConfig } from './zfm-module';

const here = dirname(fileURLToPath(import.meta.url));
const repositoryRoot = resolve(here, '../..');
const deviceEntry = join(here, 'device.ts');

export type EmulatorLaunch =
  | { readonly protocol: 'zfm'; readonly config?: ZfmModuleConfig; readonly checkHostBaud?: boolean; readonly chunkBytes?: number }
  | { readonly protocol: 'gt521'; readonly config?: Gt521ModuleConfig; readonly checkHostBaud?: boolean; readonly chunkBytes?: number };

export interface EmulatedDevice {
  /** The host side of the PTY pair: give this path to the driver. */
  readonly hostPath: string;
  readonly devicePath: string;
  readonly emulatorPid: number;
  readonly control: EmulatorControl;
  /** Resolves when the emulator process has ended (and socat with it). */
  readonly ended: Promise<void>;
  /** Kills the emulator process (the port then goes away). */
  kill(signal?: NodeJS.Signals): void;
  /** Ends everything and removes the temp dir. Safe to call twice. */
  stop(): Promise<void>;
}

export async function startEmulatedDevice(launch: EmulatorLaunch): Promise<EmulatedDevice> {
  const dir = await mkdtemp(join(tmpdir(), `idhini-${launch.protocol}-`));
  const hostPath = join(dir, 'host');
  const devicePath = join(dir, 'dev');
  const socat = await startSocat(hostPath, devicePath).catch(async (error: unknown) => {
    await rm(dir, { recursive: true, force: true });
    throw error;
  });

  const checkHostBaud = launch.checkHostBaud ?? launch.protocol === 'gt521';
  const args = [
    '--import',
    'tsx',
    deviceEntry,
    '--protocol',
    launch.protocol,
    '--device',
    devicePath,
    '--config',
    JSON.stringify(launch.config ?? {}),
    '--chunk-bytes',
    String(launch.chunkBytes ?? 32),
    ...(checkHostBaud ? ['--host-link', hostPath] : []),
  ];
  const emulator = spawn(process.execPath, args, { cwd: repositoryRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  emulator.stderr?.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const ended = new Promise<void>((resolveEnded) => {
    emulator.once('exit', () => {
      socat.kill('SIGTERM');
      resolveEnded();
    });
  });

  const stopAll = async (): Promise<void> => {
    if (emulator.exitCode === null && emulator.signalCode === null) emulator.kill('SIGKILL');
    await ended;
    if (socat.exitCode === null && socat.signalCode === null) {
      socat.kill('SIGKILL');
      await new Promise((r) => socat.once('exit', r));
    }
    await rm(dir, { recursive: true, force: true });
  };

  try {
    const ready = await readyLine(emulator, () => stderr);
    const control = await EmulatorControl.connect(ready.control.host, ready.control.port);
    let stopped: Promise<void> | undefined;
    return {
      hostPath,
      devicePath,
      emulatorPid: emulator.pid ?? -1,
      control,
      ended,
      kill: (signal = 'SIGKILL') => emulator.kill(signal),
      stop: () => {
        stopped ??= (async () => {
          control.close();
          await stopAll();
        })();
        return stopped;
      },
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

function startSocat(hostPath: string, devicePath: string): Promise<ChildProcess> {
  return new Promise((resolveStarted, reject) => {
    const socat = spawn('socat', ['-d', '-d', `pty,raw,echo=0,link=${hostPath}`, `pty,raw,echo=0,link=${devicePath}`], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let log = '';
    socat.stderr?.setEncoding('utf8').on('data', (text: string) => {
      log += text;
      if (log.includes('starting data transfer loop') && existsSync(hostPath) && existsSync(devicePath)) {
        resolveStarted(socat);
      }
    });
    socat.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'ENOENT'
          ? new Error('socat is not installed: the serial emulators need it (Debian: apt-get install socat)')
          : error,
      );
    });
    socat.once('exit', (code) => reject(new Error(`socat exited (${code}) before linking the PTYs: ${log.trim()}`)));
  });
}

interface ReadyLine {
  readonly ready: true;
  readonly control: { readonly host: string; readonly port: number };
}

function readyLine(emulator: ChildProcess, stderr: () => string): Promise<ReadyLine> {
  return new Promise((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error(`the emulator did not start within 20 s: ${stderr()}`)), 20_000);
    const lines = createInterface({ input: emulator.stdout as NodeJS.ReadableStream });
    lines.once('line', (text) => {
      clearTimeout(timer);
      try {
        resolveReady(JSON.parse(text) as ReadyLine);
      } catch {
        reject(new Error(`the emulator said ${text}; ${stderr()}`));
      }
    });
    emulator.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the emulator exited (${code}) before it was ready: ${stderr()}`));
    });
  });
}
