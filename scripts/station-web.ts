// npm run station:web -- --port N [--sandbox-port M] [--data-dir DIR] [--profile ward]
// npm run station:web -- --port N --exchange URL [--client-id ID --client-secret-file FILE] […]
// The station in browser mode on http://127.0.0.1:N, never opening a browser, running until killed.
// Training: its own sandbox on http://127.0.0.1:M (default N+1) and the virtual reader; prints one
// line with each URL once both answer. Another exchange (STATION_WEB_USAGE in station-web-options.ts
// says every option): no sandbox, training mode off, signed in as the facility; prints one line
// with the station's URL once it is ready. The station's URL carries the per-launch secret in its
// fragment. Logs go to station.log in the data folder, so stdout stays those lines.
import { ensureRendererBuilt, UsageError } from './start-support';
import { parseStationWebArgs, readClientSecret, STATION_WEB_USAGE, type ExchangePlan, type StationWebPlan } from './station-web-options';
import { startExchangeStation, startTrainingStation } from './station-web-runtime';

interface Running {
  readonly lines: readonly string[];
  readonly warnings: readonly string[];
  close(): Promise<void>;
}

async function startTraining(plan: Extract<StationWebPlan, { mode: 'training' }>): Promise<Running> {
  const running = await startTrainingStation({
    port: plan.port,
    sandboxPort: plan.sandboxPort,
    staff: plan.staff,
    ...(plan.dataDir === undefined ? {} : { dataDir: plan.dataDir }),
    ...(plan.profile === undefined ? {} : { profile: plan.profile }),
  });
  return {
    lines: [`Idhini station (browser mode, training) ready at ${running.launchUrl}`, `Idhini sandbox (training mode) listening on ${running.sandbox.url}`],
    warnings: [],
    close: () => running.close(),
  };
}

async function startAgainstExchange(plan: ExchangePlan): Promise<Running> {
  // Read here and handed straight to the core: the secret is in no option, line or log.
  const credentials = plan.clientId === undefined || plan.clientSecretFile === undefined ? undefined : { clientId: plan.clientId, clientSecret: readClientSecret(plan.clientSecretFile) };
  const running = await startExchangeStation({
    port: plan.port,
    exchangeUrl: plan.exchangeUrl,
    ...(credentials === undefined ? {} : { credentials }),
    facility: { code: plan.facilityCode, name: plan.facilityName, agentNationalId: plan.agentNationalId },
    ...(plan.linkOrigins === undefined ? {} : { linkOrigins: plan.linkOrigins }),
    ...(plan.reader === undefined ? {} : { reader: plan.reader }),
    ...(plan.deviceServicePort === undefined ? {} : { deviceServicePort: plan.deviceServicePort }),
    ...(plan.dataDir === undefined ? {} : { dataDir: plan.dataDir }),
    staff: plan.staff,
  });
  const warnings: string[] = [];
  if (plan.staff.length === 0) warnings.push('no --staff or --admin given: nobody can sign in at this station');
  if (!running.signedIn) warnings.push('not signed in: give --client-id and --client-secret-file, or sign in on the first-run screen');
  const missing = running.settings.missing.filter((m) => m !== 'clientId');
  if (missing.length > 0) warnings.push(`still to set: ${missing.join(', ')} (options --facility-code, --facility-name, --agent-id, or the first-run screen)`);
  const who = plan.clientId === undefined ? '' : ` as ${plan.clientId}`;
  return { lines: [`Idhini station (browser mode, exchange ${plan.exchangeUrl}${who}) ready at ${running.launchUrl}`], warnings, close: () => running.close() };
}

async function main(): Promise<void> {
  let plan: StationWebPlan;
  try {
    plan = parseStationWebArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`station:web: ${(error as Error).message}\n${STATION_WEB_USAGE}\n`);
    process.exit(2);
  }

  let running: Running;
  try {
    await ensureRendererBuilt((line) => process.stderr.write(`station:web: ${line}\n`));
    running = plan.mode === 'training' ? await startTraining(plan) : await startAgainstExchange(plan);
  } catch (error) {
    const err = error as NodeJS.ErrnoException;
    process.stderr.write(`station:web: ${err.code === 'EADDRINUSE' ? 'a port is already in use' : err.message}\n`);
    process.exit(error instanceof UsageError ? 2 : 1);
  }

  for (const warning of running.warnings) process.stderr.write(`station:web: ${warning}\n`);
  for (const line of running.lines) process.stdout.write(`${line}\n`);

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
