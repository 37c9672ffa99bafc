// Runs inside `umockdev-run` (see cp2110.test.ts): the real node-hid binding, the real hidapi
// hidraw backend and the real ioctl()/read()/write() calls, against the emulated CP2110 of
// test/fixtures/umockdev, with the project's ZfmReader probing the module behind it. The bridge is
// found as the station finds it (the manager's HID listing by the known bridges' VID/PID). Prints
// one JSON object with what it saw; exits non-zero on any error.
import { ZfmReader } from '../../native-bridge/drivers/zfm-reader';
import { DEFAULT_KNOWN_HID_BRIDGES, hidCandidate, listHidBridges } from '../../native-bridge/manager';
import { openCp2110Transport } from '../../native-bridge/transports/hid-cp2110';

const { availability, devices } = await listHidBridges();
if (!availability.available) throw new Error(`node-hid unavailable: ${JSON.stringify(availability)}`);
const bridges = devices
  .filter((device) => hidCandidate(device, DEFAULT_KNOWN_HID_BRIDGES))
  .map(({ path, serialNumber, manufacturer, product, release }) => ({ path, serialNumber, manufacturer, product, release }));
const bridge = bridges[0];
if (!bridge?.path) throw new Error('no CP2110 enumerated');

const transport = await openCp2110Transport(bridge.path);
const uart = transport.uartConfig;
// How the module's bytes arrived: one entry per interrupt-in report.
const reports: number[] = [];
transport.onData((chunk) => reports.push(chunk.length));

const reader = new ZfmReader(transport);
const info = await reader.probe();
const state = reader.state.kind;
await reader.close();

console.log(JSON.stringify({ availability, bridges, uart, info, state, reports }));
