// The reader CLI: `npm run reader -- <command> [options] [--json]`.
//
//   probe    --port PATH --protocol zfm|gt521 [--baud B]                   handshake + device info
//   capture  --port PATH --protocol zfm|gt521 [--baud B] [--timeout-ms T]  a finger's template
//   list     [--probe] [--service-url URL] [--timeout-ms T]                 readers found (serial, HID, hardware service)
//
// With --json the result is one JSON object on stdout; an error is {"error":{"code","message"}} on
// stdout and a non-zero exit (2 for a bad command line, 1 otherwise). Without --json the same
// object is printed indented, and errors go to stderr.

import { parseArgs } from 'node:util';
import { captureCommand } from './cli/capture';
import { CliUsageError, type CliCommand } from './cli/command';
import { probeCommand } from './cli/probe';
import { listCommand } from './manager/list-command';
import { ReaderError } from './drivers/reader';
import { SerialTransportError } from './transports/serial';

const commands: Readonly<Record<string, CliCommand>> = {
  probe: probeCommand,
  capture: captureCommand,
  list: listCommand,
};

function usage(): string {
  const lines = Object.entries(commands).map(([name, c]) => `  ${name} ${c.usage} [--json]\n      ${c.summary}`);
  return `usage: npm run reader -- <command> [options]\n${lines.join('\n')}`;
}

function errorOf(error: unknown): { code: string; message: string } {
  if (error instanceof CliUsageError) return { code: 'usage', message: error.message };
  if (error instanceof ReaderError || error instanceof SerialTransportError) return { code: error.code, message: error.message };
  if (error instanceof Error && 'code' in error && typeof error.code === 'string' && error.code.startsWith('ERR_PARSE_ARGS')) {
    return { code: 'usage', message: error.message };
  }
  return { code: 'internal', message: error instanceof Error ? error.message : String(error) };
}

async function main(argv: string[]): Promise<number> {
  const json = argv.includes('--json');
  const [name, ...rest] = argv;
  const abort = new AbortController();
  process.once('SIGINT', () => abort.abort());
  try {
    const command = name === undefined ? undefined : commands[name];
    if (!command) throw new CliUsageError(name === undefined ? 'no command given' : `unknown command '${name}'`);
    const { values } = parseArgs({
      args: rest,
      options: { ...command.options, json: { type: 'boolean' } },
      strict: true,
      allowPositionals: false,
    });
    const result = await command.run(values, abort.signal);
    process.stdout.write(json ? `${JSON.stringify(result)}\n` : `${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } catch (error) {
    const failure = errorOf(error);
    if (json) process.stdout.write(`${JSON.stringify({ error: failure })}\n`);
    else process.stderr.write(`${failure.code}: ${failure.message}\n${failure.code === 'usage' ? `${usage()}\n` : ''}`);
    return failure.code === 'usage' ? 2 : 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
