// What a checksum failure says: which frame failed, in words a support engineer can act on. The
// GT-521 has two kinds (its 12-byte responses and its data packets); ZFM packets are all alike.
import { describe, expect, it } from 'vitest';
import { Gt521Reader } from '../../../native-bridge/drivers/gt521-reader';
import { ReaderError } from '../../../native-bridge/drivers/reader';
import { ZfmReader } from '../../../native-bridge/drivers/zfm-reader';
import { Gt521Module } from '../../../native-bridge/emulators/gt521-module';
import { ZfmModule } from '../../../native-bridge/emulators/zfm-module';
import { GT521_ACK, Gt521Command, encodeGt521Packet, gt521CommandOf } from '../../../native-bridge/protocols/gt521';
import { ZFM_DEFAULT_ADDRESS, ZfmInstruction, ZfmPid, encodeZfmPacket } from '../../../native-bridge/protocols/zfm';
import { InProcessModule } from './in-process-module';

function corrupted(frame: Uint8Array): Uint8Array {
  const copy = frame.slice();
  copy[copy.length - 1] = (copy[copy.length - 1] ?? 0) ^ 0x5a;
  return copy;
}

async function failure(promise: Promise<unknown>): Promise<ReaderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (error instanceof ReaderError) return error;
  throw new Error(`expected a ReaderError, got ${String(error)}`);
}

describe('checksum failures name the frame that failed', () => {
  it('GT-521: a response packet', async () => {
    const line = new InProcessModule(new Gt521Module());
    const reader = new Gt521Reader(line);
    const isOpen = (written: Uint8Array) => written.length === 12 && gt521CommandOf(written) === Gt521Command.Open;
    line.before(isOpen, [corrupted(encodeGt521Packet(GT521_ACK, 0))], true);
    const error = await failure(reader.probe());
    expect(error).toMatchObject({ code: 'checksum', message: 'a response packet from the module failed its checksum (computed 0x0130, received 0x5B30)' });
    await reader.close();
  });

  it('GT-521: a data packet', async () => {
    const module = new Gt521Module();
    const line = new InProcessModule(module);
    const reader = new Gt521Reader(line);
    await reader.probe();
    module.control({ op: 'finger', id: 5 });
    const isMakeTemplate = (written: Uint8Array) => written.length === 12 && gt521CommandOf(written) === Gt521Command.MakeTemplate;
    line.before(isMakeTemplate, [encodeGt521Packet(GT521_ACK, 0), corrupted(Uint8Array.of(0x5a, 0xa5, 0x01, 0x00, ...new Uint8Array(498), 0x00, 0x01))], true);
    const error = await failure(reader.capture({ timeoutMs: 2000 }));
    expect(error.code).toBe('checksum');
    expect(error.message).toMatch(/^a data packet from the module failed its checksum/);
    await reader.close();
  });

  it('ZFM: a packet', async () => {
    const line = new InProcessModule(new ZfmModule());
    const reader = new ZfmReader(line);
    const isVfyPwd = (written: Uint8Array) => written[6] === ZfmPid.command && written[9] === ZfmInstruction.VfyPwd;
    const ack = encodeZfmPacket({ address: ZFM_DEFAULT_ADDRESS, pid: ZfmPid.ack, content: Uint8Array.of(0x00) });
    line.before(isVfyPwd, [corrupted(ack)], true);
    const error = await failure(reader.probe());
    expect(error).toMatchObject({ code: 'checksum', message: 'a packet from the module failed its checksum (computed 0x000A, received 0x0050)' });
    await reader.close();
  });
});
