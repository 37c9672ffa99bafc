// An emulated fingerprint module as its own process, on the device side of a PTY pair:
//
//   socat -d -d pty,raw,echo=0,link=$DIR/host pty,raw,echo=0,link=$DIR/dev &
//   npx tsx native-bridge/emulators/device.ts --protocol zfm --device $DIR/dev [--host-link $DIR/host]
//       [--config '{"model":"r503","packetSize":128}'] [--chunk-bytes 32]
//
// Prints one JSON line when ready: {"ready":true,"protocol","device","control":{"host","port"}}.
// The control channel is JSON lines over TCP on 127.0.0.1 (see control.ts for the operations).
// With --host-link, the module ignores commands while the host side's line speed differs from its
// own (read with stty, Linux), as a real module hears only noise at the wrong baud rate.

import { execFile } from 'node:child_process';
import { createServer, type Socket } from 'node:net';
import { parseArgs } from 'node:util';
import { SerialPort } from 'serialport';
import { FaultPlan, corruptLastByte, type Fault } from './faults';
import { Gt521Module, type Gt521ModuleConfig } from './gt521-module';
import type { ControlRequest, EmulatedModule, ModuleReply } from './module';
import { PacedLine } from './paced-line';
import { ZfmModule, type ZfmModuleConfig } from './zfm-module';

const { values } = parseArgs({
  options: {
    protocol: { type: 'string' },
    device: { type: 'string' },
    'host-link': { type: 'string' },
    config: { type: 'string', default: '{}' },
    'chunk-bytes': { type: 'string', default: '32' },
  },
  strict: true,
});

if ((values.protocol !== 'zfm' && values.protocol !== 'gt521') || !values.device) {
  process.stderr.write('usage: device.ts --protocol zfm|gt521 --device PATH [--host-link PATH] [--config JSON] [--chunk-bytes N]\n');
  process.exit(2);
}

const devicePath = values.device;
const hostLink = values['host-link'];
const chunkBytes = Number(values['chunk-bytes']);
const config = JSON.parse(values.config) as ZfmModuleConfig & Gt521ModuleConfig;
const module: EmulatedModule = values.protocol === 'zfm' ? new ZfmModule(config) : new Gt521Module(config);
const faults = new FaultPlan();
let baudMismatches = 0;

const port = new SerialPort({ path: devicePath, baudRate: module.baudRate, autoOpen: false });
const line = new PacedLine((bytes) => port.write(Buffer.from(bytes)), module.baudRate, chunkBytes);
let chain: Promise<void> = Promise.resolve();

function die(): void {
  // Let what was written reach the PTY, then vanish the way an unplugged adapter does.
  port.drain(() => process.kill(process.pid, 'SIGKILL'));
}

function send(readyAt: number, reply: ModuleReply): void {
  const applied = faults.take(reply.command);
  if (applied.some((f) => f.type === 'silence')) return;
  let frames = reply.frames;
  let delayMs = reply.delayMs;
  let prefix: number[] = [];
  let cut: { bytes: number; action: () => void } | undefined;
  for (const fault of applied) {
    switch (fault.type) {
      case 'bad-checksum': {
        const at = fault.frame ?? 0;
        frames = frames.map((frame, i) => (i === at ? corruptLastByte(frame) : frame));
        break;
      }
      case 'garbage':
        prefix = [...prefix, ...(fault.bytes ?? [0x55, 0x00, 0xef, 0x13])];
        break;
      case 'delay':
        delayMs += fault.ms;
        break;
      case 'reply-address':
        frames = frames.map((frame) => (module.readdress ? module.readdress(frame, fault.address) : frame));
        break;
      case 'truncate':
        cut = { bytes: fault.bytes, action: () => undefined };
        break;
      case 'exit':
        cut = { bytes: fault.afterBytes, action: die };
        break;
    }
  }
  const bytes = Uint8Array.from([...prefix, ...frames.flatMap((frame) => [...frame])]);
  const after = reply.after;
  line.transmit(readyAt, {
    bytes,
    delayMs,
    after: () => {
      after?.();
      line.baudRate = module.baudRate;
    },
    ...(cut ? { cutAfterBytes: prefix.length + cut.bytes, cut: cut.action } : {}),
  });
}

function hostSpeed(): Promise<number | undefined> {
  if (!hostLink) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    execFile('stty', ['-F', hostLink, 'speed'], (error, stdout) => resolve(error ? undefined : Number(stdout.trim())));
  });
}

port.on('data', (chunk: Buffer) => {
  for (const input of module.receive(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))) {
    const arrivedAt = line.commandArrived(input.bytes);
    const heardAt = module.baudRate;
    chain = chain.then(async () => {
      const speed = await hostSpeed();
      if (speed !== undefined && speed !== heardAt) {
        baudMismatches += 1;
        return;
      }
      const reply = input.handle();
      if (reply) send(arrivedAt, reply);
    });
  }
});

function powerOn(): void {
  line.clear();
  const unasked = module.powerOn();
  line.baudRate = module.baudRate;
  // R503: about 50 ms of start-up, then a lone 0x55.
  if (unasked) line.transmit(performance.now(), { bytes: unasked, delayMs: 50 });
}

function control(request: ControlRequest): unknown {
  switch (request.op) {
    case 'fault':
      faults.add(request.fault as Fault);
      return { pending: faults.pending.length };
    case 'clear-faults':
      faults.clear();
      return {};
    case 'power-cycle':
      powerOn();
      return module.snapshot();
    case 'state':
      return { ...module.snapshot(), stats: { ...line.stats, baudMismatches }, faults: faults.pending };
    case 'reset-stats':
      Object.assign(line.stats, { rxBytes: 0, txBytes: 0, processingMs: 0, commands: 0 });
      baudMismatches = 0;
      return {};
    case 'exit':
      setImmediate(() => process.exit(0));
      return {};
    default:
      return module.control(request);
  }
}

function serve(socket: Socket): void {
  let buffered = '';
  socket.setEncoding('utf8');
  socket.on('data', (text: string) => {
    buffered += text;
    for (let newline = buffered.indexOf('\n'); newline >= 0; newline = buffered.indexOf('\n')) {
      const lineText = buffered.slice(0, newline).trim();
      buffered = buffered.slice(newline + 1);
      if (!lineText) continue;
      let seq: unknown = null;
      try {
        const request = JSON.parse(lineText) as ControlRequest & { seq?: unknown };
        seq = request.seq ?? null;
        socket.write(`${JSON.stringify({ seq, ok: true, result: control(request) ?? {} })}\n`);
      } catch (error) {
        socket.write(`${JSON.stringify({ seq, ok: false, error: (error as Error).message })}\n`);
      }
    }
  });
  socket.on('error', () => undefined);
}

port.open((error) => {
  if (error) {
    process.stderr.write(`cannot open ${devicePath}: ${error.message}\n`);
    process.exit(1);
  }
  powerOn();
  const server = createServer(serve);
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    const controlPort = typeof address === 'object' && address ? address.port : 0;
    process.stdout.write(
      `${JSON.stringify({ ready: true, protocol: module.protocol, device: devicePath, control: { host: '127.0.0.1', port: controlPort } })}\n`,
    );
  });
});

port.on('close', () => process.exit(0));
