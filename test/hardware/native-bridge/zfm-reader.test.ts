// ZfmReader through the real serialport stack, over a socat PTY pair, against the ZFM emulator
// running as a separate process and paced to 57600 baud.

import { describe, expect, it } from 'vitest';
import type { ReaderState } from '../../../native-bridge/drivers/reader';
import { ZfmReader, type ZfmReaderOptions } from '../../../native-bridge/drivers/zfm-reader';
import { fingerTemplate } from '../../../native-bridge/emulators/faults';
import { startEmulatedDevice } from '../../../native-bridge/emulators/harness';
import { dataStreamWireBytes } from '../../../native-bridge/protocols/zfm';
import { SerialTransport } from '../../../native-bridge/transports/serial';
import { eventually, failure, kinds, useEmulatedReader } from './emulated-reader';

const fast = { genImgMs: 15, genImgNoFingerMs: 3, img2TzMs: 15, searchMs: 10, matchMs: 5, commandMs: 1 };
/**
 * The finger deadline of operations that must succeed: a wait only a broken driver would reach,
 * so a loaded machine never turns a capture into no-finger.
 */
const FINGER_MS = 10_000;
/**
 * Handshake budget: the emulators answer every handshake variant they do not know with an error
 * code, so no test waits it out, and a slow answer is never taken for no answer.
 */
const OPTIONAL_MS = 2000;

describe('ZfmReader over a PTY against the R503 emulator', () => {
  const { device, reader } = useEmulatedReader(
    { protocol: 'zfm', config: { model: 'r503', delays: fast } },
    57600,
    // Budgets generous enough for a loaded CI machine (the emulator answers within a few ms plus
    // wire time); the tests that expect a timeout set their own.
    (transport, options: ZfmReaderOptions | undefined) =>
      new ZfmReader(transport, { processingTimeoutMs: 1500, commandTimeoutMs: 1000, optionalTimeoutMs: OPTIONAL_MS, ...options }),
  );

  it('probes: VfyPwd, ReadSysPara (packet size, capacity, address), HandShake, Aura LED', async () => {
    const { reader: r, states } = await reader();
    const info = await r.probe();
    expect(info).toMatchObject({
      protocol: 'zfm',
      transport: 'serial',
      path: device.hostPath,
      baudRate: 57600,
      packetSize: 128,
      capacity: 200,
      handshake: 'HandShake',
      deviceAddress: 'FFFFFFFF',
      securityLevel: 3,
      capabilities: { identify: true, verify: true, led: true },
    });
    expect(r.systemParameters?.baudN).toBe(6);
    expect(kinds(states)).toEqual(['idle']);
    await r.led('ready');
    expect((await device.control.state()).led).toEqual({ mode: 1, speed: 0x50, colour: 2, count: 0 });
  });

  it('captures when the finger arrives only after several GenImg polls', async () => {
    const { reader: r, states } = await reader();
    await r.probe();
    const before = (await device.control.state()).polls;
    await device.control.finger({ id: 7, afterPolls: 5 });
    const capture = await r.capture({ timeoutMs: FINGER_MS });
    expect((await device.control.state()).polls - before).toBe(6);
    expect(capture.protocol).toBe('zfm');
    expect(capture.templateBytes).toBe(512);
    expect(Buffer.from(capture.template).equals(Buffer.from(fingerTemplate(7, 512)))).toBe(true);
    expect(kinds(states)).toEqual(['idle', 'waiting-for-finger', 'capturing', 'idle']);
  });

  it('uploads the template at every packet size the module reports (32, 64, 128, 256)', async () => {
    const template = Buffer.from(fingerTemplate(11, 512)).toString('base64');
    for (const packetSize of [32, 64, 128, 256] as const) {
      await device.control.request('configure', { packetSize });
      await device.control.request('power-cycle');
      const { reader: r } = await reader();
      expect((await r.probe()).packetSize).toBe(packetSize);
      await device.control.finger({ id: 11, template });
      await device.control.request('reset-stats');
      const capture = await r.capture({ timeoutMs: FINGER_MS });
      expect(Buffer.from(capture.template).toString('base64'), `packet size ${packetSize}`).toBe(template);
      // GenImg, Img2Tz and UpChar acknowledges, then the stream split at exactly this size.
      expect((await device.control.state()).stats.txBytes).toBe(3 * 12 + dataStreamWireBytes(512, packetSize));
      await r.close();
    }
    await device.control.request('configure', { packetSize: 128 });
    await device.control.request('power-cycle');
  });

  it("skips the R503's power-on 0x55 and probes right after a power cycle", async () => {
    const { reader: r } = await reader();
    await device.control.request('power-cycle');
    // The 0x55 comes about 50 ms after power-on; the probe's resync would flush it if it were still
    // in the port's buffer, so the test waits until the link has seen (and skipped) it.
    await eventually("the R503's power-on 0x55", () => r.linkStats.skippedBytes > 0);
    await r.probe();
    expect(r.linkStats.skippedBytes).toBe(1);
  });

  it('refuses a reply with a bad checksum, goes to error, then recovers on the next capture', async () => {
    const { reader: r, states } = await reader();
    await r.probe();
    await device.control.finger({ id: 3, afterPolls: 1 });
    await device.control.fault({ type: 'bad-checksum', on: 'GenImg' });
    const error = await failure(r.capture({ timeoutMs: FINGER_MS }));
    expect(error.code).toBe('checksum');
    expect(error.message).toMatch(/failed its checksum/);
    expect(r.state).toMatchObject({ kind: 'error', code: 'checksum' });
    const capture = await r.capture({ timeoutMs: FINGER_MS });
    expect(capture.templateBytes).toBe(512);
    expect(kinds(states)).toEqual(['idle', 'waiting-for-finger', 'error:checksum', 'waiting-for-finger', 'capturing', 'idle']);
  });

  it('refuses a corrupted data packet in the middle of the template stream', async () => {
    const { reader: r, states } = await reader();
    await r.probe();
    await device.control.finger({ id: 3 });
    await device.control.fault({ type: 'bad-checksum', on: 'UpChar', frame: 2 });
    expect((await failure(r.capture({ timeoutMs: FINGER_MS }))).code).toBe('checksum');
    expect(kinds(states)).toEqual(['idle', 'waiting-for-finger', 'capturing', 'error:checksum']);
  });

  it('resyncs over garbage before a packet (a stray 0x55 and a false header byte)', async () => {
    const { reader: r, states } = await reader();
    await r.probe();
    const skippedBefore = r.linkStats.skippedBytes;
    await device.control.finger({ id: 4, afterPolls: 2 });
    await device.control.fault({ type: 'garbage', on: 'GenImg', count: 2 });
    await device.control.fault({ type: 'garbage', bytes: [0xef, 0x01, 0xff, 0x55], on: 'UpChar' });
    const capture = await r.capture({ timeoutMs: FINGER_MS });
    expect(Buffer.from(capture.template).equals(Buffer.from(fingerTemplate(4, 512)))).toBe(true);
    expect(r.linkStats.skippedBytes - skippedBefore).toBe(12);
    expect(kinds(states)).toEqual(['idle', 'waiting-for-finger', 'capturing', 'idle']);
  });

  it('times out when the module falls silent, then resyncs', async () => {
    const { reader: r, states } = await reader({ processingTimeoutMs: 400 });
    await r.probe();
    await device.control.finger({ id: 5 });
    await device.control.fault({ type: 'silence', on: 'Img2Tz' });
    const started = performance.now();
    const error = await failure(r.capture({ timeoutMs: FINGER_MS }));
    expect(error.code).toBe('timeout');
    expect(error.message).toMatch(/^Img2Tz: no reply within \d+ ms/);
    expect(performance.now() - started).toBeLessThan(FINGER_MS / 2); // Img2Tz's 400 ms budget, not the finger deadline
    await r.capture({ timeoutMs: FINGER_MS });
    expect(kinds(states)).toEqual([
      'idle',
      'waiting-for-finger',
      'capturing',
      'error:timeout',
      'waiting-for-finger',
      'capturing',
      'idle',
    ]);
  });

  it('times out (and says why) when the module has another address', async () => {
    await device.control.request('configure', { address: 0x12345678 });
    try {
      const { reader: wrong, states } = await reader({ commandTimeoutMs: 400 });
      const error = await failure(wrong.probe());
      expect(error.code).toBe('timeout');
      expect(error.message).toMatch(/address FFFFFFFF .* or a module with another address/);
      expect(kinds(states)).toEqual(['error:timeout']);
      await wrong.close();
      const { reader: right } = await reader({ address: 0x12345678 });
      expect((await right.probe()).deviceAddress).toBe('12345678');
    } finally {
      await device.control.request('configure', { address: 0xffffffff });
    }
  });

  it('refuses a reply from another address', async () => {
    const { reader: r, states } = await reader();
    await device.control.fault({ type: 'reply-address', address: 0x0badf00d, on: 'ReadSysPara' });
    const error = await failure(r.probe());
    expect(error.code).toBe('protocol');
    expect(error.message).toMatch(/address 0x0BADF00D, but this module is 0xFFFFFFFF/);
    expect(kinds(states)).toEqual(['error:protocol']);
  });

  it('gives no-finger at the deadline and cancelled on abort, and returns to idle', async () => {
    const { reader: r, states } = await reader();
    await r.probe();
    expect((await failure(r.capture({ timeoutMs: 150 }))).code).toBe('no-finger');
    const abort = new AbortController();
    const waiting = r.waitForFinger({ timeoutMs: 5000, signal: abort.signal });
    setTimeout(() => abort.abort(), 100);
    expect((await failure(waiting)).code).toBe('cancelled');
    expect(kinds(states)).toEqual(['idle', 'waiting-for-finger', 'idle', 'waiting-for-finger', 'idle']);
    expect(states[1]?.kind === 'waiting-for-finger' && states[1].deadline).toBeGreaterThan(Date.now() - 5000);
  });

  it('reports the module code when a finger image is too messy', async () => {
    const { reader: r } = await reader();
    await device.control.finger({ id: 6, quality: 'messy' });
    const error = await failure(r.capture({ timeoutMs: FINGER_MS }));
    expect(error).toMatchObject({ code: 'device', deviceCode: 0x06 });
    expect(error.message).toBe('Img2Tz failed: code 0x06: the fingerprint image is too disorderly to extract features');
  });

  it('identifies against the library (Search) and verifies 1:1 (LoadChar + Match, DownChar + Match)', async () => {
    const { reader: r } = await reader();
    await device.control.request('enroll', { page: 5, id: 21 });
    await device.control.finger({ id: 21 });
    expect(await r.identify({ timeoutMs: FINGER_MS })).toEqual({ matched: true, id: 5, score: 150 });
    expect(await r.verify(5, { timeoutMs: FINGER_MS })).toEqual({ matched: true, score: 120 });
    await device.control.finger({ id: 22 });
    expect(await r.identify({ timeoutMs: FINGER_MS })).toEqual({ matched: false });
    expect(await r.verify(5, { timeoutMs: FINGER_MS })).toEqual({ matched: false });
    expect(await r.verifyTemplate(fingerTemplate(22, 512), { timeoutMs: FINGER_MS })).toEqual({ matched: true, score: 120 });
    expect(await r.verifyTemplate(fingerTemplate(21, 512), { timeoutMs: FINGER_MS })).toEqual({ matched: false });
  });

  it('times out on a truncated reply and recovers', async () => {
    // The per-packet budget (1 s on top of the packet's wire time) also bounds the recovery's
    // complete stream, so it stays at the generous default.
    const { reader: r, states } = await reader();
    await r.probe();
    await device.control.finger({ id: 8 });
    await device.control.fault({ type: 'truncate', on: 'UpChar', bytes: 12 + 139 + 60 });
    const error = await failure(r.capture({ timeoutMs: FINGER_MS }));
    expect(error.code).toBe('timeout');
    expect(error.message).toMatch(/^UpChar: no reply within \d+ ms/);
    expect((await r.capture({ timeoutMs: FINGER_MS })).templateBytes).toBe(512);
    expect(kinds(states)).toEqual(['idle', 'waiting-for-finger', 'capturing', 'error:timeout', 'waiting-for-finger', 'capturing', 'idle']);
  });

  it('stops a finger wait when closed, and ends absent', async () => {
    const { reader: r, states } = await reader();
    await r.probe();
    const polls = (await device.control.state()).polls;
    const waiting = failure(r.waitForFinger({ timeoutMs: FINGER_MS }));
    await eventually('a GenImg poll to reach the module', async () => (await device.control.state()).polls > polls);
    const started = performance.now();
    await r.close();
    expect((await waiting).code).toBe('closed');
    expect(performance.now() - started).toBeLessThan(FINGER_MS / 2); // not the finger deadline
    expect(kinds(states)).toEqual(['idle', 'waiting-for-finger', 'absent']);
    expect((await failure(r.probe())).code).toBe('closed');
  });

  it("sets aside the GenImg answer a reader closed mid-poll left on the line: the next session's VfyPwd waits for its own", async () => {
    const { reader: first } = await reader();
    await first.probe();
    // This poll is answered 1.5 s late: after the reader has gone and the next one has sent VfyPwd.
    await device.control.fault({ type: 'delay', ms: 1500, on: 'GenImg' });
    const polls = (await device.control.state()).polls;
    const waiting = failure(first.waitForFinger({ timeoutMs: FINGER_MS }));
    await eventually('the GenImg poll to reach the module', async () => (await device.control.state()).polls > polls);
    await first.close();
    expect((await waiting).code).toBe('closed');
    // VfyPwd's own answer queues behind the late one, so its budget covers the delay.
    const { reader: next } = await reader({ commandTimeoutMs: 5000 });
    expect(await next.probe()).toMatchObject({ protocol: 'zfm', handshake: 'HandShake' });
    expect(next.linkStats.staleReplies).toBe(1);
  });

  it('refuses a second operation while one runs', async () => {
    const { reader: r } = await reader();
    await r.probe();
    const first = r.waitForFinger({ timeoutMs: 300 });
    expect((await failure(r.capture({ timeoutMs: 300 }))).code).toBe('busy');
    expect((await failure(first)).code).toBe('no-finger');
  });
});

describe('ZfmReader against other ZFM variants', () => {
  it('probes a ZFM-20 (no HandShake 0x40: falls back to PortControl) and a module with a password', async () => {
    const device = await startEmulatedDevice({ protocol: 'zfm', config: { model: 'zfm20', password: 0x1234, delays: fast } });
    try {
      const wrong = new ZfmReader(await SerialTransport.open(device.hostPath, { baudRate: 57600 }), { optionalTimeoutMs: OPTIONAL_MS });
      const error = await failure(wrong.probe());
      expect(error).toMatchObject({ code: 'device', deviceCode: 0x13, message: 'VfyPwd failed: code 0x13: wrong password' });
      await wrong.close();
      const right = new ZfmReader(await SerialTransport.open(device.hostPath, { baudRate: 57600 }), {
        password: 0x1234,
        optionalTimeoutMs: OPTIONAL_MS,
      });
      expect(await right.probe()).toMatchObject({
        handshake: 'PortControl',
        capacity: 162,
        model: 'ZFM/AS608 family',
        capabilities: { led: true },
      });
      await right.led('ready');
      expect((await device.control.state()).led).toEqual({ on: true });
      await right.close();
    } finally {
      await device.stop();
    }
  });
});

describe('ZfmReader when the module goes away mid-stream', () => {
  it('gives disconnected and moves to absent when the emulator dies during the template upload', async () => {
    const device = await startEmulatedDevice({ protocol: 'zfm', config: { delays: fast } });
    try {
      const transport = await SerialTransport.open(device.hostPath, { baudRate: 57600 });
      // Budgets far beyond the time the harness takes to end socat after the emulator dies, so
      // only the port going away can end the stream, never a timeout.
      const r = new ZfmReader(transport, { commandTimeoutMs: 10_000, processingTimeoutMs: 10_000 });
      const states: ReaderState[] = [];
      r.onStateChange((s) => states.push(s));
      await r.probe();
      await device.control.finger({ id: 9, afterPolls: 2 });
      await device.control.fault({ type: 'exit', on: 'UpChar', afterBytes: 200 });
      const error = await failure(r.capture({ timeoutMs: FINGER_MS }));
      expect(error.code).toBe('disconnected');
      expect(kinds(states)).toEqual(['idle', 'waiting-for-finger', 'capturing', 'absent']);
      await device.ended;
      expect((await failure(r.capture({ timeoutMs: 100 }))).code).toBe('disconnected');
      await r.close();
      expect(kinds(states)).toEqual(['idle', 'waiting-for-finger', 'capturing', 'absent']);
    } finally {
      await device.stop();
    }
  });
});
