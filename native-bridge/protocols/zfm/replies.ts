// Which acknowledges each instruction can produce (reference §1.4 codes, §1.5 instruction set).
// An acknowledge does not name the command it answers. One that the command cannot produce —
// 0x02 "no finger" in reply to VfyPwd, a bare 00 where ReadSysPara's 16 bytes are due — is the
// late answer to an earlier command (a GenImg abandoned by a timeout, or by a host that crashed
// mid-poll), never this command's answer, and a host must keep waiting for its own.

import { ackMessage, ZfmInstruction, type ZfmAck, type ZfmInstructionName } from './commands';
import { ZFM_ECHO_OK } from './codes';

interface ReplyRule {
  /** The code of success (00, except GetEcho's 0x55). */
  readonly ok?: number;
  /** Failure codes of this instruction, besides those any instruction can meet. */
  readonly failures?: readonly number[];
  /** Parameter bytes a successful reply carries at least (ReadSysPara 16, Search 4...). */
  readonly okParams?: number;
}

/**
 * Failures any instruction can meet: a garbled command packet (01), an undefined error (19), an
 * address or password refusal (20, 21), and the R503's unsupported command, hardware error and
 * execution failure (FC, FD, FE).
 */
const ANY_INSTRUCTION: readonly number[] = [0x01, 0x19, 0x20, 0x21, 0xfc, 0xfd, 0xfe];

const rules: Readonly<Record<ZfmInstructionName, ReplyRule>> = {
  GenImg: { failures: [0x02, 0x03] },
  GetImageEx: { failures: [0x02, 0x03, 0x07] },
  // 04/05 are AS608's dry/wet; 28 is the R503's "correlated with a previous feature" (enrolment).
  Img2Tz: { failures: [0x04, 0x05, 0x06, 0x07, 0x15, 0x28] },
  Match: { failures: [0x08], okParams: 2 },
  // 24: the R503's "library empty".
  Search: { failures: [0x09, 0x24], okParams: 4 },
  HighSpeedSearch: { failures: [0x09, 0x24], okParams: 4 },
  RegModel: { failures: [0x0a] },
  Store: { failures: [0x0b, 0x18] },
  LoadChar: { failures: [0x0b, 0x0c] },
  UpChar: { failures: [0x0d, 0x0f] },
  DownChar: { failures: [0x0e] },
  UpImage: { failures: [0x0f] },
  DownImage: { failures: [0x0e] },
  DeleteChar: { failures: [0x0b, 0x10] },
  Empty: { failures: [0x11] },
  SetSysPara: { failures: [0x18, 0x1a, 0x1b] },
  ReadSysPara: { okParams: 16 },
  SetPwd: { failures: [0x18] },
  VfyPwd: { failures: [0x13] },
  GetRandomCode: { okParams: 4 },
  SetAddress: { failures: [0x18] },
  ReadInfPage: { failures: [0x0d, 0x0f] },
  PortControl: { failures: [0x1d] },
  WriteNotepad: { failures: [0x18, 0x1c] },
  ReadNotepad: { failures: [0x1c], okParams: 32 },
  TemplateCount: { okParams: 2 },
  ReadIndexTable: { okParams: 32 },
  Cancel: {},
  AuraLedConfig: {},
  CheckSensor: { failures: [0x29] },
  SoftReset: { failures: [0x14] },
  HandShake: {},
  LedOn: {},
  LedOff: {},
  GetEcho: { ok: ZFM_ECHO_OK },
};

interface ResolvedRule {
  readonly name: string;
  readonly ok: number;
  readonly codes: ReadonlySet<number>;
  readonly okParams: number;
}

const resolved: ReadonlyMap<number, ResolvedRule> = new Map(
  (Object.entries(rules) as Array<[ZfmInstructionName, ReplyRule]>).map(([name, rule]) => {
    const ok = rule.ok ?? 0x00;
    const codes = new Set([ok, ...ANY_INSTRUCTION, ...(rule.failures ?? [])]);
    return [ZfmInstruction[name], { name, ok, codes, okParams: rule.okParams ?? 0 }];
  }),
);

/**
 * Why `ack` cannot be the answer to `instruction` (then it is a stale reply to an earlier
 * command), or undefined when it can. An instruction outside the table accepts any acknowledge.
 */
export function implausibleZfmAck(instruction: number, ack: ZfmAck): string | undefined {
  const rule = resolved.get(instruction);
  if (!rule) return undefined;
  if (!rule.codes.has(ack.code)) return `an acknowledge with ${ackMessage(ack.code)}, which ${rule.name} cannot give`;
  if (ack.code === rule.ok && ack.params.length < rule.okParams) {
    return `an acknowledge with ${ack.params.length} parameter bytes, where ${rule.name}'s carries ${rule.okParams}`;
  }
  return undefined;
}
