// The station's reader stack end to end over real serial I/O: the ZFM emulator behind a socat PTY,
// found by the ReaderManager with the real reader factory (ZfmReader over SerialTransport), served
// by the local device service's POST /capture; then the emulator dies (the port vanishes, as when
// a USB adapter is pulled) and comes back, and the manager finds the reader again.
//
// SerialPort.list() does not list PTYs, so the listing is injected: a stable port path (a symlink
// in a temp dir, repointed to each new PTY) that is listed while its PTY exists, with the USB id
// of a CH340 so the known-bridge gate lets the manager probe it.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, symlink, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerTemplate } from '../../native-bridge/emulators/faults';
import { startEmulatedDevice, type EmulatedDevice } from '../../native-bridge/emulators/harness';
import { ReaderManager, type ReaderManagerEvent } from '../../native-bridge/manager/manager';
import { createReaderFactory } from '../../native-bridge/manager/reader-factory';
import { startLocalDeviceService, type LocalDeviceService } from '../../native-bridge/service/server';

const ORIGIN = 'http://127.0.0.1:4010';
const fast = { genImgMs: 15, genImgNoFingerMs: 3, img2TzMs: 15, searchMs: 10, matchMs: 5, commandMs: 1 };

describe('reader manager + local device service over a PTY', () => {
  let dir: string;
  let port: string;
  let device: EmulatedDevice | undefined;
  let manager: ReaderManager;
  let service: LocalDeviceService;
  const events: ReaderManagerEvent[] = [];

  async function plugIn(): Promise<EmulatedDevice> {
    const started = await startEmulatedDevice({ protocol: 'zfm', config: { model: 'r503', delays: fast } });
    await unlink(port).catch(() => undefined);
    await symlink(started.hostPath, port);
    device = started;
    return started;
  }

  function next(type: ReaderManagerEvent['type'], withinMs = 10_000): Promise<ReaderManagerEvent> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${type} within ${withinMs} ms; saw ${events.map((e) => e.type).join(', ')}`)), withinMs);
      const stop = manager.onEvent((event) => {
        if (event.type !== type) return;
        clearTimeout(timer);
        stop();
        resolve(event);
      });
    });
  }

  const capture = () =>
    fetch(`${service.url}/capture`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ORIGIN },
      body: JSON.stringify({ hint: { patient_id: 'CR5284739102216-4' }, timeout_ms: 5000 }),
    });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'idhini-station-pty-'));
    port = join(dir, 'ttyFP0');
    manager = new ReaderManager({
      listSerialPorts: async () => (existsSync(port) ? [{ path: port, vendorId: '1a86', productId: '7523', serialNumber: 'PTY-FP0' }] : []),
      listHidDevices: async () => ({ availability: { available: false, reason: 'not used in this test' }, devices: [] }),
      openReader: createReaderFactory({ gt521: false }),
      pollIntervalMs: 100,
    });
    manager.onEvent((event) => events.push(event));
    service = await startLocalDeviceService({ devices: manager.deviceSource(), allowedOrigins: [ORIGIN], port: 0 });
  });

  afterAll(async () => {
    await service?.close();
    await manager?.stop();
    await device?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves a capture from the emulated module, loses the reader when the port goes, finds it when it returns', async () => {
    const first = await plugIn();
    const found = next('reader-found');
    manager.start();
    expect(await found).toMatchObject({ type: 'reader-found', info: { protocol: 'zfm', transport: 'serial', path: port, packetSize: 128 } });

    const status = (await (await fetch(`${service.url}/status`, { headers: { origin: ORIGIN } })).json()) as { devices: unknown[] };
    expect(status.devices).toEqual([expect.objectContaining({ deviceId: `zfm:${port}`, status: 'connected', protocol: 'zfm', transport: 'serial' })]);

    await first.control.finger({ id: 7, afterPolls: 3 });
    const served = await capture();
    expect(served.status).toBe(200);
    const body = (await served.json()) as { template: string; templateBytes: number; deviceId: string; protocol: string };
    expect(body).toMatchObject({ templateBytes: 512, deviceId: `zfm:${port}`, protocol: 'zfm' });
    expect(Buffer.from(body.template, 'base64').equals(Buffer.from(fingerTemplate(7, 512)))).toBe(true);

    // Pulled: the emulator and its PTY go away.
    const absent = next('reader-absent');
    first.kill('SIGKILL');
    await first.ended;
    expect(await absent).toMatchObject({ readerId: `zfm:${port}` });
    expect(manager.chosen).toBeUndefined();
    expect((await capture()).status).toBe(503);
    await first.stop();

    // Back on the same port: probed again, the station's reader again, capturing again.
    const again = next('reader-found');
    const second = await plugIn();
    expect(await again).toMatchObject({ readerId: `zfm:${port}` });
    expect(manager.chosen?.candidate.path).toBe(port);
    await second.control.finger({ id: 9, afterPolls: 1 });
    const servedAgain = await capture();
    expect(servedAgain.status).toBe(200);
    const bodyAgain = (await servedAgain.json()) as { template: string };
    expect(Buffer.from(bodyAgain.template, 'base64').equals(Buffer.from(fingerTemplate(9, 512)))).toBe(true);
  });
});
