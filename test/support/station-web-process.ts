// `npm run station:web` as a child process in its own process group, read line by line: the tests
// of its command line, the end-to-end flows and the recorder test start the station this way, as an
// IT officer would.
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface StationWebProcess {
  readonly child: ChildProcess;
  /** Non-empty stdout lines so far. */
  readonly lines: string[];
  /** Everything it wrote to stderr so far. */
  stderr(): string;
  /** SIGTERM to the whole group (npm, its shell, the station), SIGKILL 10 s later; resolves once it exited. */
  stop(): Promise<void>;
}

/**
 * Starts `npm run station:web -- …args` and waits until it printed `readyLines` lines; rejects with
 * its stderr when it exits first or stays silent past the timeout.
 */
export async function startStationWeb(args: readonly string[], readyLines: number, timeoutMs = 120_000): Promise<StationWebProcess> {
  // Its own process group, so stop() ends npm, its shell and the station together.
  const child = spawn('npm', ['run', '--silent', 'station:web', '--', ...args], { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let stderr = '';
  let buffer = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    lines.splice(0, lines.length, ...buffer.split('\n').filter((line) => line.trim() !== ''));
  });
  const running: StationWebProcess = {
    child,
    lines,
    stderr: () => stderr,
    async stop() {
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
      const group = -child.pid;
      const exited = new Promise((done) => child.once('exit', done));
      process.kill(group, 'SIGTERM');
      const kill = setTimeout(() => child.exitCode === null && child.signalCode === null && process.kill(group, 'SIGKILL'), 10_000);
      await exited;
      clearTimeout(kill);
    },
  };
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`station:web printed ${lines.length} of ${readyLines} lines within ${timeoutMs} ms; stderr: ${stderr}`)), timeoutMs);
      const check = () => {
        if (lines.length < readyLines) return;
        clearTimeout(timer);
        resolve();
      };
      child.stdout?.on('data', check);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`station:web exited (${code}) after ${lines.length} lines:\n${lines.join('\n')}\n${stderr}`));
      });
    });
  } catch (error) {
    await running.stop();
    throw error;
  }
  return running;
}

/** The last http URL in a line: the one a ready line ends with. */
export function urlIn(line: string | undefined): string {
  const found = [...(line ?? '').matchAll(/(https?:\/\/\S+)/g)].at(-1)?.[1];
  if (found === undefined) throw new Error(`no URL in ${JSON.stringify(line)}`);
  return found;
}
