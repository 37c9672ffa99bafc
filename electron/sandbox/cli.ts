// `npm run sandbox -- --port N [--latency-ms L] [--fail-rate P] [--profile ward]`: the conformance sandbox on
// http://127.0.0.1:N. Prints one line with the URL once it accepts requests; runs until killed.
import { parseArgs } from 'node:util';
import { FAULT_PROFILES, startSandbox, type FaultProfileName, type SandboxOptions } from './index';

const USAGE = `Usage: npm run sandbox -- [--port N] [--latency-ms L] [--fail-rate P] [--profile ward] [--seed S]
                           [--device-service-url URL] [--callback-retry-base-ms B] [--json]

  --port N                   listen on http://127.0.0.1:N (0 or omitted: a free port)
  --latency-ms L             add L ms to every exchange call (0..120000)
  --fail-rate P              answer a share P of exchange calls with 503 (0..1)
  --profile ward             a ward's network instead: each route's own latency band
                             (eligibility 0.5-1.5 s, each sub-benefit's interventions 1-4 s,
                             writes 0.5-2 s), slow tails and the odd 503, seeded so runs repeat
  --seed S                   reproducible tokens, ids, OTPs and fault decisions
  --device-service-url URL   the device service the authorization page captures from
                             (default http://127.0.0.1:18065)
  --callback-retry-base-ms B first retry delay of a failed status callback (default 1000)
  --json                     print the URL line and errors as JSON`;

class UsageError extends Error {}

function number(name: string, raw: string | undefined, min: number, max: number, integer: boolean): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || (integer && !Number.isInteger(value)) || value < min || value > max) {
    throw new UsageError(`--${name} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}, got '${raw}'`);
  }
  return value;
}

function parse(argv: readonly string[]): { options: SandboxOptions; json: boolean; help: boolean } {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        'latency-ms': { type: 'string' },
        'fail-rate': { type: 'string' },
        profile: { type: 'string' },
        seed: { type: 'string' },
        'device-service-url': { type: 'string' },
        'callback-retry-base-ms': { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const profile = values.profile;
  if (profile !== undefined && !(FAULT_PROFILES as readonly string[]).includes(profile)) throw new UsageError(`--profile must be one of ${FAULT_PROFILES.join(', ')}, got '${profile}'`);
  if (profile !== undefined && (values['latency-ms'] !== undefined || values['fail-rate'] !== undefined)) {
    throw new UsageError('--profile sets its own latencies and failures: give it without --latency-ms or --fail-rate');
  }
  const options: SandboxOptions = {
    port: number('port', values.port, 0, 65535, true) ?? 0,
    latencyMs: number('latency-ms', values['latency-ms'], 0, 120_000, true) ?? 0,
    failRate: number('fail-rate', values['fail-rate'], 0, 1, false) ?? 0,
    callbackRetryBaseMs: number('callback-retry-base-ms', values['callback-retry-base-ms'], 1, 600_000, true) ?? 1000,
    ...(profile === undefined ? {} : { profile: profile as FaultProfileName }),
    ...(values.seed === undefined ? {} : { seed: values.seed }),
    ...(values['device-service-url'] === undefined ? {} : { deviceServiceUrl: values['device-service-url'] }),
  };
  return { options, json: values.json === true, help: values.help === true };
}

async function main(): Promise<void> {
  const json = process.argv.includes('--json');
  const fail = (code: string, message: string, exitCode: number): never => {
    if (json) process.stdout.write(`${JSON.stringify({ error: { code, message } })}\n`);
    else process.stderr.write(`idhini sandbox: ${message}\n${code === 'USAGE' ? `\n${USAGE}\n` : ''}`);
    process.exit(exitCode);
  };
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(process.argv.slice(2));
  } catch (e) {
    return fail('USAGE', (e as Error).message, 2);
  }
  if (parsed.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  try {
    sandbox = await startSandbox(parsed.options);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const message = err.code === 'EADDRINUSE' ? `port ${parsed.options.port ?? 0} is already in use` : err.message;
    return fail(err.code === 'EADDRINUSE' ? 'PORT_IN_USE' : 'START_FAILED', message, 1);
  }
  if (parsed.json) process.stdout.write(`${JSON.stringify({ url: sandbox.url })}\n`);
  else process.stdout.write(`Idhini sandbox (training mode) listening on ${sandbox.url}\n`);
  let stopping = false;
  const stop = (reason: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`idhini sandbox: ${reason}, closing\n`);
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // Killing `npm run sandbox` signals npm, whose shell dies without passing the signal on; the
  // sandbox is then re-parented. Treat that like a signal so no orphan keeps holding the port.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) stop('parent process exited');
  }, 500).unref();
}

void main();
