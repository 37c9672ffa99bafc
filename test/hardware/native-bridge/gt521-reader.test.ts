// Gt521Reader through the real serialport stack, over a socat PTY pair, against the GT-521
// emulator process. The emulator checks the host side's line speed (stty) and ignores commands
// sent at the wrong rate, so switching the port after ChangeBaudrate is really exercised.

import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { Gt521Reader, type Gt521ReaderOptions } from '../../../native-bridge/drivers/gt521-reader';
import type { ReaderState } from '../../../native-bridge/drivers/reader';
import { fingerTemplate } from '../../../native-bridge/emulators/faults';
import { startEmulatedDevice } from '../../../native-bridge/emulators/harness';
import { SerialTransport } from '../../../native-bridge/transports/serial';
import { failure, kinds, useEmulatedReader } from './emulated-reader';

const fast = { captureMs: 15, makeTemplateMs: 10, identifyMs: 10, commandMs: 1 };
/**
 * The finger deadline of operations that must succeed: a wait only a broken driver would reach,
 * so a loaded machine never turns a capture into no-finger.
 */
const FINGER_MS = 10_000;

function hostLineSpeed(path: string): number {
  return Number(execFileSync('stty', ['-F', path, 'speed'], { encoding: 'utf8' }).trim());
}

describe('Gt521Reader over a PTY against the GT-521 emulator', () => {
  const { device, reader } = useEmulatedReader(
    { protocol: 'gt521', config: { delays: fast } },
    9600,
    // Budgets generous enough for a loaded CI machine: the emulator answers in a few ms plus wire
    // time, after asking stty for the host's line speed (a process per command). The tests that
    // expect a timeout set their own.
    (transport, options: Gt521ReaderOptions | undefined) => new Gt521Reader(transport, { commandTimeoutMs: 2000, processingTimeoutMs: 3000, ...options }),
  );

  it('probes at 9600 (Open with its info), switches both sides to 115200, and goes back to 9600 on close', async () => {
    const { reader: r, transport, states } = await reader();
    expect(hostLineSpeed(device.hostPath)).toBe(9600);
    const info = await r.probe();
    expect(info).toMatchObject({
      protocol: 'gt521',
      transport: 'serial',
      firmware: '20120521',
      serialNumber: '0123456789ABCDEF0123456789ABCDEF',
      baudRate: 115200,
      templateBytes: 498,
      handshake: 'Open',
      capabilities: { identify: true, verify: true, led: true },
    });
    expect(transport.baudRate).toBe(115200);
    expect(hostLineSpeed(device.hostPath)).toBe(115200);
    const state = await device.control.state();
    expect(state.baudRate).toBe(115200);
    expect(state.stats.baudMismatches).toBe(0);
    expect(kinds(states)).toEqual(['idle']);
    await r.close();
    expect((await device.control.state()).baudRate).toBe(9600);
    expect(kinds(states)).toEqual(['idle', 'absent']);
  });

  it('captures at 115200 after several IsPressFinger polls: CaptureFinger, MakeTemplate → 498 bytes', async () => {
    const { reader: r, transport, states } = await reader();
    await r.probe();
    const before = (await device.control.state()).polls;
    await device.control.finger({ id: 12, afterPolls: 4 });
    const capture = await r.capture({ timeoutMs: FINGER_MS });
    expect(transport.baudRate).toBe(115200);
    expect((await device.control.state()).polls - before).toBe(5);
    expect(capture).toMatchObject({ protocol: 'gt521', templateBytes: 498 });
    expect(Buffer.from(capture.template).equals(Buffer.from(fingerTemplate(12, 498)))).toBe(true);
    expect((await device.control.state()).backlight).toBe(false);
    expect(kinds(states)).toEqual(['idle', 'waiting-for-finger', 'capturing', 'idle']);
  });

  it('finds a module a crashed session left at the working rate', async () => {
    const { reader: first, transport } = await reader();
    await first.probe();
    // No close(): the module stays at 115200, as after a crash.
    await transport.close();
    const { reader: second } = await reader();
    expect((await second.probe()).baudRate).toBe(115200);
    expect((await device.control.state()).stats.baudMismatches).toBeGreaterThan(0);
  });

  it('identifies (Identify1_N) and verifies (Verify1_1) against the database', async () => {
    const { reader: r } = await reader();
    await device.control.request('enroll', { slot: 3, id: 30 });
    await device.control.finger({ id: 30 });
    expect(await r.identify({ timeoutMs: FINGER_MS })).toEqual({ matched: true, id: 3 });
    expect(await r.verify(3, { timeoutMs: FINGER_MS })).toEqual({ matched: true, id: 3 });
    await device.control.finger({ id: 31 });
    expect(await r.identify({ timeoutMs: FINGER_MS })).toEqual({ matched: false });
    expect(await r.verify(3, { timeoutMs: FINGER_MS })).toEqual({ matched: false, id: 3 });
    const unused = await failure(r.verify(4, { timeoutMs: FINGER_MS }));
    expect(unused).toMatchObject({ code: 'device', deviceCode: 0x1004, message: 'Verify1_1 failed: the ID is not used' });
  });

  it('refuses a template data packet with a bad checksum, then recovers', async () => {
    const { reader: r, states } = await reader();
    await r.probe();
    await device.control.finger({ id: 13 });
    await device.control.fault({ type: 'bad-checksum', on: 'MakeTemplate', frame: 1 });
    const error = await failure(r.capture({ timeoutMs: FINGER_MS }));
    expect(error.code).toBe('checksum');
    expect(error.message).toMatch(/a data packet from the module failed its checksum/);
    expect(r.state).toMatchObject({ kind: 'error', code: 'checksum' });
    expect((await r.capture({ timeoutMs: FINGER_MS })).templateBytes).toBe(498);
    expect(kinds(states)).toEqual(['idle', 'waiting-for-finger', 'capturing', 'error:checksum', 'waiting-for-finger', 'capturing', 'idle']);
  });

  it('resyncs over garbage before a response', async () => {
    const { reader: r, states } = await reader();
    await r.probe();
    await device.control.finger({ id: 14, afterPolls: 1 });
    await device.control.fault({ type: 'garbage', bytes: [0x55, 0x00, 0x5a, 0x55, 0x13], on: 'IsPressFinger', count: 2 });
    await device.control.fault({ type: 'garbage', bytes: [0xff, 0x5a], on: 'MakeTemplate' });
    const capture = await r.capture({ timeoutMs: FINGER_MS });
    expect(Buffer.from(capture.template).equals(Buffer.from(fingerTemplate(14, 498)))).toBe(true);
    expect(kinds(states)).toEqual(['idle', 'waiting-for-finger', 'capturing', 'idle']);
  });

  it('times out when the module falls silent', async () => {
    const { reader: r, states } = await reader({ processingTimeoutMs: 400 });
    await r.probe();
    await device.control.finger({ id: 15 });
    await device.control.fault({ type: 'silence', on: 'CaptureFinger' });
    const error = await failure(r.capture({ timeoutMs: FINGER_MS }));
    expect(error.code).toBe('timeout');
    expect(error.message).toMatch(/^CaptureFinger: no reply within \d+ ms/);
    expect(kinds(states)).toEqual(['idle', 'waiting-for-finger', 'capturing', 'error:timeout']);
  });

  it('reports a NACK with the module error code', async () => {
    const { reader: r } = await reader();
    await device.control.finger({ id: 16, quality: 'bad' });
    const error = await failure(r.capture({ timeoutMs: FINGER_MS }));
    expect(error).toMatchObject({ code: 'device', deviceCode: 0x100c, message: 'MakeTemplate failed: too bad a fingerprint' });
  });

  it('times out at both rates when nothing answers', async () => {
    await device.control.fault({ type: 'silence', count: 100 });
    const { reader: r, states } = await reader({ commandTimeoutMs: 200 });
    const error = await failure(r.probe());
    expect(error.code).toBe('timeout');
    expect(error.message).toMatch(/no reply to Open .* at 9600 or 115200 baud/);
    expect(kinds(states)).toEqual(['error:timeout']);
  });
});

describe('Gt521Reader when the module goes away mid-stream', () => {
  it('gives disconnected and moves to absent when the emulator dies during the template packet', async () => {
    const device = await startEmulatedDevice({ protocol: 'gt521', config: { delays: fast } });
    try {
      const transport = await SerialTransport.open(device.hostPath, { baudRate: 9600 });
      // Budgets far beyond the time the harness takes to end socat after the emulator dies, so
      // only the port going away can end the template packet, never a timeout.
      const r = new Gt521Reader(transport, { commandTimeoutMs: 10_000, processingTimeoutMs: 10_000 });
      const states: ReaderState[] = [];
      r.onStateChange((s) => states.push(s));
      await r.probe();
      await device.control.finger({ id: 17, afterPolls: 1 });
      await device.control.fault({ type: 'exit', on: 'MakeTemplate', afterBytes: 12 + 100 });
      const error = await failure(r.capture({ timeoutMs: FINGER_MS }));
      expect(error.code).toBe('disconnected');
      await r.close();
      expect(kinds(states)).toEqual(['idle', 'waiting-for-finger', 'capturing', 'absent']);
    } finally {
      await device.stop();
    }
  });
});
