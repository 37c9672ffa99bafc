// Runs inside `umockdev-run` (see cp2110.test.ts): the real node-hid binding, the real hidapi
// hidraw backend and the real ioctl()/read()/write() calls, against the emulated CP2110 of
// test/fixtures/umockdev, with the project's ZfmReader probing the module behind it. Prints one
// JSON object with what it saw; exits non-zero on any error.
import { ZfmReader } from '../../native-bridge/drivers/zfm-reader';
import { listCp2110Bridges, loadNodeHid, openCp2110Transport } from '../../native-bridge/transports/hid-cp2110';

const { api, availability } = await loadNodeHid();
if (!api) throw new Error(`node-hid unavailable: ${JSON.stringify(availability)}`);
const bridges = await listCp2110Bridges(api);
const bridge = bridges[0];
if (!bridge) throw new Error('no CP2110 enumerated');

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
