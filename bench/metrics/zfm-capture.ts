// zfm_capture_wire_ratio: how close a full ZFM capture (GenImg polls until the finger lands,
// Img2Tz, UpChar streamed at the module's packet size) comes to what the hardware itself costs.
// The capture runs through the real serialport stack over a socat PTY against the ZFM emulator,
// paced to 57600 baud. The floor is the wire time of every byte of the capture (10 bits a byte,
// both directions, counted on the host) plus the processing delays the emulator was scripted to
// take; the ratio is the measured time over that floor, the median of several captures.

import type { MetricSpec } from '../metric';
import { median } from '../stats';
import { ZfmReader } from '../../native-bridge/drivers/zfm-reader';
import { startEmulatedDevice } from '../../native-bridge/emulators/harness';
import { SerialTransport } from '../../native-bridge/transports/serial';
import type { ByteTransport } from '../../native-bridge/transports/transport';

const BAUD = 57_600;
const CAPTURES = 7;
const POLLS_BEFORE_FINGER = 3;

/** Counts the bytes a transport carries. */
function counting(transport: ByteTransport): { transport: ByteTransport; bytes: () => number; reset: () => void } {
  let bytes = 0;
  transport.onData((chunk) => (bytes += chunk.length));
  const counted: ByteTransport = {
    kind: transport.kind,
    get path() {
      return transport.path;
    },
    get baudRate() {
      return transport.baudRate;
    },
    write: (data) => {
      bytes += data.length;
      return transport.write(data);
    },
    onData: (listener) => transport.onData(listener),
    onDisconnect: (listener) => transport.onDisconnect(listener),
    flush: () => transport.flush(),
    setBaudRate: (rate) => transport.setBaudRate(rate),
    close: () => transport.close(),
  };
  return { transport: counted, bytes: () => bytes, reset: () => (bytes = 0) };
}

export const specs: readonly MetricSpec[] = [
  { name: 'zfm_capture_wire_ratio', unit: 'ratio', goal: '<= 1.10' },
  { name: 'zfm_capture_ms', unit: 'ms', goal: 'informational (57600 baud, 3 empty polls)' },
];

export default async function zfmCapture(report: (name: string, value: number) => void): Promise<void> {
  // Realistic R503 latencies: capture < 0.2 s, feature extraction well under 0.5 s.
  const device = await startEmulatedDevice({
    protocol: 'zfm',
    config: { model: 'r503', packetSize: 128, baudN: BAUD / 9600, delays: { genImgMs: 150, genImgNoFingerMs: 20, img2TzMs: 250 } },
  });
  try {
    const wire = counting(await SerialTransport.open(device.hostPath, { baudRate: BAUD }));
    const reader = new ZfmReader(wire.transport);
    await reader.probe();
    const ratios: number[] = [];
    const durations: number[] = [];
    for (let i = 0; i < CAPTURES; i += 1) {
      await device.control.finger({ id: 100 + i, afterPolls: POLLS_BEFORE_FINGER });
      await device.control.request('reset-stats');
      wire.reset();
      const started = performance.now();
      const capture = await reader.capture({ timeoutMs: 10_000 });
      const elapsed = performance.now() - started;
      const { stats } = await device.control.state();
      if (stats.rxBytes + stats.txBytes !== wire.bytes()) {
        throw new Error(`the host counted ${wire.bytes()} bytes, the emulator ${stats.rxBytes + stats.txBytes}`);
      }
      if (capture.templateBytes !== 512) throw new Error(`captured ${capture.templateBytes} bytes, expected 512`);
      const floor = (wire.bytes() * 10_000) / BAUD + stats.processingMs;
      ratios.push(elapsed / floor);
      durations.push(elapsed);
      await device.control.request('lift');
    }
    await reader.close();
    report('zfm_capture_wire_ratio', Number(median(ratios).toFixed(3)));
    report('zfm_capture_ms', Math.round(median(durations)));
  } finally {
    await device.stop();
  }
}
