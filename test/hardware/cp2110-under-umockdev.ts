// Runs inside `umockdev-run` (see cp2110.test.ts): the real node-hid binding, the real hidapi
// hidraw backend and the real ioctl()/read()/write() calls, against the emulated CP2110 of
// test/fixtures/umockdev. Prints one JSON object with what it saw; exits non-zero on any error.
import { listCp2110Bridges, loadNodeHid, openCp2110Transport } from '../../native-bridge/transports/hid-cp2110';
import { ZFM_EXCHANGE } from '../fixtures/umockdev/cp2110';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

async function exchange(transport: Awaited<ReturnType<typeof openCp2110Transport>>, command: Uint8Array, replyLength: number) {
  const received: Uint8Array[] = [];
  let total = 0;
  const reply = new Promise<Uint8Array>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${replyLength}-byte reply within 5 s (got ${total})`)), 5000);
    const stop = transport.onData((chunk) => {
      received.push(chunk);
      total += chunk.length;
      if (total >= replyLength) {
        clearTimeout(timer);
        stop();
        resolve(Buffer.concat(received));
      }
    });
  });
  await transport.write(command);
  return { reply: await reply, chunks: received.map((c) => c.length) };
}

const { api, availability } = await loadNodeHid();
if (!api) throw new Error(`node-hid unavailable: ${JSON.stringify(availability)}`);
const bridges = await listCp2110Bridges(api);
const bridge = bridges[0];
if (!bridge) throw new Error('no CP2110 enumerated');
const transport = await openCp2110Transport(bridge.path);
const vfyPwd = await exchange(transport, ZFM_EXCHANGE.vfyPwd, ZFM_EXCHANGE.vfyPwdAck.length);
const readSysPara = await exchange(transport, ZFM_EXCHANGE.readSysPara, ZFM_EXCHANGE.readSysParaAck.length);
await transport.close();

console.log(
  JSON.stringify({
    availability,
    bridges,
    uart: transport.uartConfig,
    vfyPwd: { reply: hex(vfyPwd.reply), chunks: vfyPwd.chunks },
    readSysPara: { reply: hex(readSysPara.reply), chunks: readSysPara.chunks },
  }),
);
