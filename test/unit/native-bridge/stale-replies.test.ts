// Replies of both UART protocols do not name the command they answer. A reply the waiting command
// cannot give is a late answer to an earlier one (a poll abandoned by a timeout, or by a host that
// crashed mid-poll): the drivers set it aside and wait for the real answer within the command's
// own timeout. Driven in process: the drivers over InProcessModule, the emulators' state machines
// behind it, stale frames slipped in front of a chosen command's reply.
import { describe, expect, it } from 'vitest';
import { Gt521Reader } from '../../../native-bridge/drivers/gt521-reader';
import { ReaderError } from '../../../native-bridge/drivers/reader';
import { ZfmReader } from '../../../native-bridge/drivers/zfm-reader';
import { Gt521Module } from '../../../native-bridge/emulators/gt521-module';
import { ZfmModule } from '../../../native-bridge/emulators/zfm-module';
import {
  GT521_ACK,
  GT521_NACK,
  Gt521Command,
  encodeGt521Packet,
  gt521CommandOf,
  implausibleGt521Reply,
  type Gt521CommandName,
} from '../../../native-bridge/protocols/gt521';
import {
  ZFM_DEFAULT_ADDRESS,
  ZfmInstruction,
  ZfmPid,
  encodeZfmPacket,
  implausibleZfmAck,
  type ZfmInstructionName,
} from '../../../native-bridge/protocols/zfm';
import { InProcessModule } from './in-process-module';

const zfmAck = (code: number, params: number[] = []): Uint8Array =>
  encodeZfmPacket({ address: ZFM_DEFAULT_ADDRESS, pid: ZfmPid.ack, content: Uint8Array.from([code, ...params]) });
const zfmCommand = (name: ZfmInstructionName) => (written: Uint8Array) => written[6] === ZfmPid.command && written[9] === ZfmInstruction[name];

const gt521Response = (ack: boolean, parameter: number): Uint8Array => encodeGt521Packet(ack ? GT521_ACK : GT521_NACK, parameter);
const gt521Is = (name: Gt521CommandName) => (written: Uint8Array) => written.length === 12 && gt521CommandOf(written) === Gt521Command[name];

async function failure(promise: Promise<unknown>): Promise<ReaderError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ReaderError) return error;
    throw error;
  }
  throw new Error('expected the operation to fail');
}

function zfmReader(options: { coalesce?: boolean; commandTimeoutMs?: number } = {}) {
  const module = new ZfmModule({ model: 'r503' });
  module.powerOn();
  const line = new InProcessModule(module, { coalesce: options.coalesce ?? false });
  const reader = new ZfmReader(line, { commandTimeoutMs: options.commandTimeoutMs ?? 1000 });
  return { module, line, reader };
}

function gt521Reader(options: { coalesce?: boolean } = {}) {
  const module = new Gt521Module();
  module.powerOn();
  const line = new InProcessModule(module, { coalesce: options.coalesce ?? false });
  return { module, line, reader: new Gt521Reader(line) };
}

describe('ZFM: acknowledges a command cannot give are set aside', () => {
  it.each([false, true])(
    "a late GenImg 'no finger' (02) in front of VfyPwd's answer is not taken for it (coalesced: %s)",
    async (coalesce) => {
      const { line, reader } = zfmReader({ coalesce });
      line.before(zfmCommand('VfyPwd'), [zfmAck(0x02)]);
      expect(await reader.probe()).toMatchObject({ protocol: 'zfm', packetSize: 128, capacity: 200, handshake: 'HandShake' });
      expect(reader.linkStats.staleReplies).toBe(1);
      await reader.close();
    },
  );

  it("a bare 00 where ReadSysPara's 16 bytes are due is a late answer too", async () => {
    const { line, reader } = zfmReader();
    line.before(zfmCommand('ReadSysPara'), [zfmAck(0x00)]);
    expect(await reader.probe()).toMatchObject({ packetSize: 128, capacity: 200, securityLevel: 3 });
    expect(reader.linkStats.staleReplies).toBe(1);
    await reader.close();
  });

  it('the tail of a template stream a crashed session left on the line is set aside', async () => {
    const { line, reader } = zfmReader();
    const tail = encodeZfmPacket({ address: ZFM_DEFAULT_ADDRESS, pid: ZfmPid.endOfData, content: new Uint8Array(128).fill(0x5a) });
    line.before(zfmCommand('VfyPwd'), [tail]);
    await reader.probe();
    expect(reader.linkStats.staleReplies).toBe(1);
    await reader.close();
  });

  it("a late 'no match' (08) is not a failed identification: Search's own answer is", async () => {
    const { module, line, reader } = zfmReader();
    module.control({ op: 'enroll', page: 5, id: 21 });
    module.control({ op: 'finger', id: 21 });
    line.before(zfmCommand('Search'), [zfmAck(0x08, [0x00, 0x00])]);
    expect(await reader.identify({ timeoutMs: 2000 })).toEqual({ matched: true, id: 5, score: 150 });
    expect(reader.linkStats.staleReplies).toBe(1);
    await reader.close();
  });

  it("GenImg's own 'no finger' still means: poll again", async () => {
    const { module, reader } = zfmReader();
    module.control({ op: 'finger', id: 3, afterPolls: 2 });
    expect((await reader.capture({ timeoutMs: 2000 })).templateBytes).toBe(512);
    expect(reader.linkStats.staleReplies).toBe(0);
    await reader.close();
  });

  it('a code the command can give is its answer (VfyPwd: 13, wrong password)', async () => {
    const { line, reader } = zfmReader();
    line.before(zfmCommand('VfyPwd'), [zfmAck(0x13)], true);
    expect(await failure(reader.probe())).toMatchObject({ code: 'device', deviceCode: 0x13, message: 'VfyPwd failed: code 0x13: wrong password' });
    await reader.close();
  });

  it('times out when only a stale reply comes, and says what it set aside', async () => {
    const { line, reader } = zfmReader({ commandTimeoutMs: 100 });
    line.before(zfmCommand('VfyPwd'), [zfmAck(0x02)], true);
    const error = await failure(reader.probe());
    expect(error.code).toBe('timeout');
    expect(error.message).toMatch(/^no reply to VfyPwd from address FFFFFFFF .*or a module with another address; ignored an acknowledge with code 0x02: no finger on the sensor, which VfyPwd cannot give$/);
    await reader.close();
  });
});

describe('GT-521: responses a command cannot give are set aside', () => {
  it.each([false, true])(
    "a late IsPressFinger 'not pressed' ACK in front of Open's does not make Open's ACK read as its data packet (coalesced: %s)",
    async (coalesce) => {
      const { line, reader } = gt521Reader({ coalesce });
      line.before(gt521Is('Open'), [gt521Response(true, 0x1012)]);
      expect(await reader.probe()).toMatchObject({ firmware: '20120521', serialNumber: '0123456789ABCDEF0123456789ABCDEF', baudRate: 115200 });
      expect(reader.linkStats.staleReplies).toBe(1);
      await reader.close();
    },
  );

  it("a late CaptureFinger NACK 'finger not pressed' is not CmosLed's answer", async () => {
    const { line, reader } = gt521Reader();
    line.before(gt521Is('CmosLed'), [gt521Response(false, 0x1012)]);
    expect(await reader.probe()).toMatchObject({ protocol: 'gt521', handshake: 'Open' });
    expect(reader.linkStats.staleReplies).toBe(1);
    await reader.close();
  });

  it("a late 'not pressed' ACK (0x1012) is never reported as the enrolled ID Identify1_N found", async () => {
    const { module, line, reader } = gt521Reader();
    module.control({ op: 'enroll', slot: 3, id: 30 });
    module.control({ op: 'finger', id: 30 });
    line.before(gt521Is('Identify1_N'), [gt521Response(true, 0x1012)]);
    expect(await reader.identify({ timeoutMs: 2000 })).toEqual({ matched: true, id: 3 });
    expect(reader.linkStats.staleReplies).toBe(1);
    await reader.close();
  });

  it("IsPressFinger's own 'not pressed' still means: poll again", async () => {
    const { module, reader } = gt521Reader();
    module.control({ op: 'finger', id: 12, afterPolls: 3 });
    expect((await reader.capture({ timeoutMs: 2000 })).templateBytes).toBe(498);
    expect(reader.linkStats.staleReplies).toBe(0);
    await reader.close();
  });
});

describe('the reply tables', () => {
  it('ZFM: each instruction accepts its own codes, the failures any instruction meets, and nothing else', () => {
    const ack = (code: number, params = 0) => ({ code, params: new Uint8Array(params) });
    expect(implausibleZfmAck(ZfmInstruction.GenImg, ack(0x02))).toBeUndefined();
    expect(implausibleZfmAck(ZfmInstruction.VfyPwd, ack(0x13))).toBeUndefined();
    expect(implausibleZfmAck(ZfmInstruction.VfyPwd, ack(0x21))).toBeUndefined();
    expect(implausibleZfmAck(ZfmInstruction.Img2Tz, ack(0x06))).toBeUndefined();
    expect(implausibleZfmAck(ZfmInstruction.HandShake, ack(0xfc))).toBeUndefined();
    expect(implausibleZfmAck(ZfmInstruction.GetEcho, ack(0x55))).toBeUndefined();
    expect(implausibleZfmAck(ZfmInstruction.Search, ack(0x00, 4))).toBeUndefined();
    expect(implausibleZfmAck(ZfmInstruction.VfyPwd, ack(0x02))).toBe('an acknowledge with code 0x02: no finger on the sensor, which VfyPwd cannot give');
    expect(implausibleZfmAck(ZfmInstruction.Img2Tz, ack(0x09))).toMatch(/which Img2Tz cannot give$/);
    expect(implausibleZfmAck(ZfmInstruction.GetEcho, ack(0x00))).toMatch(/which GetEcho cannot give$/);
    expect(implausibleZfmAck(ZfmInstruction.Search, ack(0x00, 0))).toBe("an acknowledge with 0 parameter bytes, where Search's carries 4");
    // An instruction outside the table (AutoEnroll 0x31) is answered by whatever comes.
    expect(implausibleZfmAck(0x31, ack(0x02))).toBeUndefined();
  });

  it('GT-521: ACK parameters and NACK codes per command', () => {
    const response = (ack: boolean, parameter: number) => ({ deviceId: 1, code: ack ? GT521_ACK : GT521_NACK, parameter });
    expect(implausibleGt521Reply(Gt521Command.IsPressFinger, response(true, 0x1012))).toBeUndefined();
    expect(implausibleGt521Reply(Gt521Command.CaptureFinger, response(false, 0x1012))).toBeUndefined();
    expect(implausibleGt521Reply(Gt521Command.Identify1_N, response(true, 2999))).toBeUndefined();
    expect(implausibleGt521Reply(Gt521Command.Verify1_1, response(false, 0x1007))).toBeUndefined();
    expect(implausibleGt521Reply(Gt521Command.CmosLed, response(false, 0x1006))).toBeUndefined();
    expect(implausibleGt521Reply(Gt521Command.SetTemplate, response(false, 12))).toBeUndefined();
    expect(implausibleGt521Reply(Gt521Command.Open, response(true, 0x1012))).toBe('an ACK with parameter 0x1012, which Open cannot give');
    expect(implausibleGt521Reply(Gt521Command.Identify1_N, response(true, 3000))).toMatch(/which Identify1_N cannot give$/);
    expect(implausibleGt521Reply(Gt521Command.CmosLed, response(false, 0x1012))).toBe(
      'a NACK 0x1012 (finger is not pressed), which CmosLed cannot give',
    );
    expect(implausibleGt521Reply(Gt521Command.Verify1_1, response(false, 12))).toMatch(/^a NACK 0x000C, which Verify1_1 cannot give$/);
  });
});
