// The reader CLI as a user runs it (`npx tsx native-bridge/cli.ts ...`, what `npm run reader --`
// runs), against emulated modules behind socat PTYs.

import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerTemplate } from '../../../native-bridge/emulators/faults';
import { startEmulatedDevice, type EmulatedDevice } from '../../../native-bridge/emulators/harness';

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function reader(...args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['tsx', 'native-bridge/cli.ts', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (t: string) => (stdout += t));
    child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function json(run: Run): Record<string, unknown> {
  const lines = run.stdout.trim().split('\n');
  expect(lines, run.stderr).toHaveLength(1);
  return JSON.parse(lines[0] ?? '') as Record<string, unknown>;
}

describe('npm run reader -- probe|capture', () => {
  let zfm: EmulatedDevice;
  let gt521: EmulatedDevice;

  beforeAll(async () => {
    [zfm, gt521] = await Promise.all([
      startEmulatedDevice({ protocol: 'zfm', config: { model: 'r503', packetSize: 64 } }),
      startEmulatedDevice({ protocol: 'gt521' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([zfm?.stop(), gt521?.stop()]);
  });

  it('probe --json prints the handshake and device info as one object (ZFM)', async () => {
    const run = await reader('probe', '--port', zfm.hostPath, '--protocol', 'zfm', '--json');
    expect(run.code).toBe(0);
    expect(json(run)).toMatchObject({
      port: zfm.hostPath,
      protocol: 'zfm',
      handshake: 'HandShake',
      baudRate: 57600,
      packetSize: 64,
      capacity: 200,
      deviceAddress: 'FFFFFFFF',
    });
  });

  it('capture --json returns the template bytes as read, base64 (ZFM, finger after polls)', async () => {
    await zfm.control.finger({ id: 40, afterPolls: 3 });
    const run = await reader('capture', '--port', zfm.hostPath, '--protocol', 'zfm', '--timeout-ms', '5000', '--json');
    expect(run.code).toBe(0);
    const out = json(run);
    expect(out).toMatchObject({ protocol: 'zfm', templateBytes: 512, port: zfm.hostPath });
    expect(out.template).toBe(Buffer.from(fingerTemplate(40, 512)).toString('base64'));
  });

  it('probe and capture a GT-521 at --baud 57600', async () => {
    const probe = await reader('probe', '--port', gt521.hostPath, '--protocol', 'gt521', '--baud', '57600', '--json');
    expect(probe.code).toBe(0);
    expect(json(probe)).toMatchObject({ protocol: 'gt521', baudRate: 57600, firmware: '20120521', handshake: 'Open' });
    expect((await gt521.control.state()).baudRate).toBe(9600); // the CLI closed the reader: back to 9600
    await gt521.control.finger({ id: 41, afterPolls: 2 });
    const capture = await reader('capture', '--port', gt521.hostPath, '--protocol', 'gt521', '--baud', '57600', '--json');
    expect(capture.code).toBe(0);
    const out = json(capture);
    expect(out).toMatchObject({ protocol: 'gt521', templateBytes: 498, baudRate: 57600 });
    expect(out.template).toBe(Buffer.from(fingerTemplate(41, 498)).toString('base64'));
  });

  it('errors: a typed code and message on stdout with --json and a non-zero exit', async () => {
    await zfm.control.request('lift');
    const [noFinger, usage, missing] = await Promise.all([
      reader('capture', '--port', zfm.hostPath, '--protocol', 'zfm', '--timeout-ms', '200', '--json'),
      reader('capture', '--port', zfm.hostPath, '--protocol', 'fpc', '--json'),
      reader('probe', '--port', `${zfm.hostPath}-missing`, '--protocol', 'zfm', '--json'),
    ]);
    expect(noFinger.code).toBe(1);
    expect(json(noFinger)).toEqual({ error: { code: 'no-finger', message: 'no finger on the sensor within 200 ms' } });
    expect(usage.code).toBe(2);
    expect(json(usage)).toEqual({ error: { code: 'usage', message: "--protocol must be zfm or gt521, got 'fpc'" } });
    expect(missing.code).toBe(1);
    expect(json(missing)).toMatchObject({ error: { code: 'open-failed' } });
  });
});
