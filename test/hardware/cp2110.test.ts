// The node-hid path end to end on a machine without USB: umockdev fakes the sysfs chain and
// /dev/hidraw0 of a CP2110 bridge (test/fixtures/umockdev), answers hidapi's ioctl()s from the
// .ioctl file and replays the .script byte for byte, aborting on any write it did not expect.
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FIXTURE_FILES, HIDRAW_NODE, ZFM_EXCHANGE } from '../fixtures/umockdev/cp2110';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCRIPT = fileURLToPath(new URL('./cp2110-under-umockdev.ts', import.meta.url));

function requireUmockdev(): void {
  const probe = spawnSync('umockdev-run', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      `umockdev-run is required for this test and is not usable (${probe.error?.message ?? probe.stderr}). ` +
        'Install the Debian package umockdev (npm test installs it through scripts/ensure-system-packages.mjs).',
    );
  }
}

function runUnderUmockdev(command: string[] = [SCRIPT]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const args = [
    '-d', FIXTURE_FILES.umockdev,
    '-i', `${HIDRAW_NODE}=${FIXTURE_FILES.ioctl}`,
    '-s', `${HIDRAW_NODE}=${FIXTURE_FILES.script}`,
    '--', process.execPath, '--import', 'tsx', ...command,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn('umockdev-run', args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('CP2110 bridge through node-hid under umockdev', () => {
  it('enumerates by VID/PID, configures the UART and carries a ZfmReader probe (VfyPwd, ReadSysPara, HandShake)', async () => {
    requireUmockdev();
    const run = await runUnderUmockdev();
    expect(run.code, `umockdev-run failed:\n${run.stderr}\n${run.stdout}`).toBe(0);
    const seen = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;

    expect(seen.availability).toMatchObject({ available: true });
    expect(seen.bridges).toEqual([
      {
        path: HIDRAW_NODE,
        serialNumber: '0001A2B3',
        manufacturer: 'Silicon Laboratories',
        product: 'CP2110 HID USB-to-UART Bridge',
        release: 0x0100,
      },
    ]);
    // Read back from the chip with Get Feature 0x50 after Set Feature 0x50.
    expect(seen.uart).toEqual({ baudRate: 57_600, parity: 'none', flowControl: 'none', dataBits: 8, stopBits: 'short' });
    // What ReadSysPara said (packet size code 2, capacity 200, level 3), checksums verified by the driver.
    expect(seen.info).toMatchObject({
      protocol: 'zfm',
      transport: 'hid-cp2110',
      path: HIDRAW_NODE,
      baudRate: 57_600,
      packetSize: 128,
      capacity: 200,
      securityLevel: 3,
      deviceAddress: 'FFFFFFFF',
      handshake: 'HandShake',
    });
    expect(seen.state).toBe('idle');
    // The three answers, the ReadSysPara one in two interrupt reports (20 + 8 bytes) reassembled.
    expect(seen.reports).toEqual([
      ZFM_EXCHANGE.vfyPwdAck.length,
      20,
      ZFM_EXCHANGE.readSysParaAck.length - 20,
      ZFM_EXCHANGE.handShakeAck.length,
    ]);
  });

  it('is what `reader list --json` finds on the HID side, without opening it', async () => {
    requireUmockdev();
    const cli = fileURLToPath(new URL('../../native-bridge/cli.ts', import.meta.url));
    // A port where no hardware service answers, so the listing does not depend on this machine.
    const run = await runUnderUmockdev([cli, 'list', '--json', '--service-url', 'http://127.0.0.1:9']);
    expect(run.code, `reader list failed:\n${run.stderr}\n${run.stdout}`).toBe(0);
    const listed = JSON.parse(run.stdout) as { readers: unknown[]; hid: unknown; hardwareService: { state: string } };
    expect(listed.hid).toEqual({
      available: true,
      hidapiVersion: expect.any(String),
      bridges: [
        {
          path: HIDRAW_NODE,
          vendorId: '10c4',
          productId: 'ea80',
          manufacturer: 'Silicon Laboratories',
          serialNumber: '0001A2B3',
          bridge: 'Silicon Labs CP2110',
        },
      ],
    });
    expect(listed.readers).toContainEqual(expect.objectContaining({ source: 'hid-cp2110', path: HIDRAW_NODE }));
    expect(listed.hardwareService.state).toBe('not-running');
  });
});
