// npm run station:web -- --port N [--sandbox-port M] [--data-dir DIR]
// The station in browser mode on http://127.0.0.1:N with its own sandbox on http://127.0.0.1:M
// (default N+1) and the virtual reader (training mode). Prints one line with each URL once both
// answer (the station's carries the per-launch secret in its fragment), never opens a browser, and
// runs until killed. Logs go to station.log in the data folder, so stdout stays those two lines.
import { ensureRendererBuilt, parseOptions, portOption, UsageError } from './start-support';
import { startTrainingStation, type TrainingStation } from './station-web-runtime';

async function main(): Promise<void> {
  let port: number;
  let sandboxPort: number;
  let dataDir: string | undefined;
  try {
    const options = parseOptions(process.argv.slice(2), ['port', 'sandbox-port', 'data-dir']);
    const given = portOption(options, 'port');
    if (given === undefined) throw new UsageError('--port N is required');
    port = given;
    sandboxPort = portOption(options, 'sandbox-port') ?? (port === 0 ? 0 : port + 1);
    if (sandboxPort !== 0 && sandboxPort === port) throw new UsageError('--sandbox-port must differ from --port');
    if (sandboxPort > 65535) throw new UsageError(`the sandbox port ${sandboxPort} is out of range: give --sandbox-port`);
    dataDir = options.get('data-dir');
  } catch (error) {
    process.stderr.write(`station:web: ${(error as Error).message}\nusage: npm run station:web -- --port N [--sandbox-port M] [--data-dir DIR]\n`);
    process.exit(2);
  }

  let running: TrainingStation;
  try {
    await ensureRendererBuilt((line) => process.stderr.write(`station:web: ${line}\n`));
    running = await startTrainingStation({ port, sandboxPort, ...(dataDir === undefined ? {} : { dataDir }) });
  } catch (error) {
    const err = error as NodeJS.ErrnoException;
    process.stderr.write(`station:web: ${err.code === 'EADDRINUSE' ? 'a port is already in use' : err.message}\n`);
    process.exit(1);
  }

  process.stdout.write(`Idhini station (browser mode, training) ready at ${running.launchUrl}\n`);
  process.stdout.write(`Idhini sandbox (training mode) listening on ${running.sandbox.url}\n`);

  let stopping = false;
  const stop = (reason: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`station:web: ${reason}, closing\n`);
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('interrupted'));
  process.on('SIGTERM', () => stop('terminated'));
  // Killing `npm run station:web` may kill npm's shell without passing the signal on: the station
  // is then re-parented. Treat that as a signal so no orphan keeps holding the ports.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) stop('parent process exited');
  }, 500).unref();
}

void main();
