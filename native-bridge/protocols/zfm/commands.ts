// ZFM instructions: encoders for command-packet content and decoders for acknowledge payloads.
// Multi-byte fields are big-endian. Content = instruction byte, then its parameters.

import { describeZfmCode } from './codes';
import { hex } from '../hex';
import { ZfmPid, type ZfmPacket } from './packet';

export const ZfmInstruction = {
  GenImg: 0x01,
  Img2Tz: 0x02,
  Match: 0x03,
  Search: 0x04,
  RegModel: 0x05,
  Store: 0x06,
  LoadChar: 0x07,
  UpChar: 0x08,
  DownChar: 0x09,
  UpImage: 0x0a,
  DownImage: 0x0b,
  DeleteChar: 0x0c,
  Empty: 0x0d,
  SetSysPara: 0x0e,
  ReadSysPara: 0x0f,
  SetPwd: 0x12,
  VfyPwd: 0x13,
  GetRandomCode: 0x14,
  SetAddress: 0x15,
  ReadInfPage: 0x16,
  /** AS608 Port_Control; pyfingerprint's "handshake" on FPM10A sends it with parameter 0. */
  PortControl: 0x17,
  WriteNotepad: 0x18,
  ReadNotepad: 0x19,
  HighSpeedSearch: 0x1b,
  TemplateCount: 0x1d,
  ReadIndexTable: 0x1f,
  GetImageEx: 0x28,
  Cancel: 0x30,
  AuraLedConfig: 0x35,
  CheckSensor: 0x36,
  SoftReset: 0x3d,
  HandShake: 0x40,
  LedOn: 0x50,
  LedOff: 0x51,
  GetEcho: 0x53,
} as const;
export type ZfmInstructionName = keyof typeof ZfmInstruction;

const instructionNames: ReadonlyMap<number, ZfmInstructionName> = new Map(
  (Object.entries(ZfmInstruction) as Array<[ZfmInstructionName, number]>).map(([name, code]) => [code, name]),
);

export function zfmInstructionName(code: number): string {
  return instructionNames.get(code) ?? `instruction 0x${hex(code, 2)}`;
}

/** SetSysPara parameter numbers. */
export const ZfmSystemParameter = { baudN: 4, securityLevel: 5, packetSizeCode: 6 } as const;

export const ZFM_PACKET_SIZES = [32, 64, 128, 256] as const;
export type ZfmPacketSize = (typeof ZFM_PACKET_SIZES)[number];

export function packetSizeFromCode(code: number): ZfmPacketSize {
  const size = ZFM_PACKET_SIZES[code];
  if (size === undefined) throw new ZfmDecodeError(`packet-size code ${code} is not 0..3`);
  return size;
}

export function packetSizeCode(size: number): number {
  const code = ZFM_PACKET_SIZES.indexOf(size as ZfmPacketSize);
  if (code < 0) throw new RangeError(`ZFM packet size ${size} is not one of ${ZFM_PACKET_SIZES.join(', ')}`);
  return code;
}

/** A reply that cannot be what the protocol says it is (too short, out-of-range field). */
export class ZfmDecodeError extends Error {
  override readonly name = 'ZfmDecodeError';
}

// --- field encoders -------------------------------------------------------------------------

type Field = readonly [bytes: 1 | 2 | 4, value: number, what: string];

function content(instruction: number, ...fields: Field[]): Uint8Array {
  const size = fields.reduce((n, [bytes]) => n + bytes, 1);
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  out[0] = instruction;
  let at = 1;
  for (const [bytes, value, what] of fields) {
    const max = 2 ** (8 * bytes) - 1;
    if (!Number.isInteger(value) || value < 0 || value > max) {
      throw new RangeError(`${zfmInstructionName(instruction)}: ${what} ${value} is outside 0..${max}`);
    }
    if (bytes === 1) view.setUint8(at, value);
    else if (bytes === 2) view.setUint16(at, value);
    else view.setUint32(at, value);
    at += bytes;
  }
  return out;
}

const u8 = (value: number, what: string): Field => [1, value, what];
const u16 = (value: number, what: string): Field => [2, value, what];
const u32 = (value: number, what: string): Field => [4, value, what];

function bufferId(id: number): Field {
  if (!Number.isInteger(id) || id < 1 || id > 6) throw new RangeError(`CharBuffer id ${id} is not 1..6`);
  return u8(id, 'buffer id');
}

export type AuraMode = 'breathing' | 'flashing' | 'on' | 'off' | 'fade-on' | 'fade-off';
export type AuraColour = 'red' | 'blue' | 'purple' | 'green' | 'yellow' | 'cyan' | 'white';
export const AURA_MODES: Readonly<Record<AuraMode, number>> = {
  breathing: 1,
  flashing: 2,
  on: 3,
  off: 4,
  'fade-on': 5,
  'fade-off': 6,
};
export const AURA_COLOURS: Readonly<Record<AuraColour, number>> = {
  red: 1,
  blue: 2,
  purple: 3,
  green: 4,
  yellow: 5,
  cyan: 6,
  white: 7,
};

export interface AuraLedSetting {
  readonly mode: AuraMode;
  readonly colour: AuraColour;
  /** 0..255, lower is faster (breathing, flashing). */
  readonly speed: number;
  /** Cycles for breathing/flashing; 0 = forever. */
  readonly count: number;
}

const I = ZfmInstruction;

/** Command-packet content for every instruction the station uses. */
export const zfmCommand = {
  genImg: () => content(I.GenImg),
  getImageEx: () => content(I.GetImageEx),
  img2Tz: (buffer: number) => content(I.Img2Tz, bufferId(buffer)),
  match: () => content(I.Match),
  search: (buffer: number, startPage: number, pageCount: number) =>
    content(I.Search, bufferId(buffer), u16(startPage, 'start page'), u16(pageCount, 'page count')),
  highSpeedSearch: (buffer: number, startPage: number, pageCount: number) =>
    content(I.HighSpeedSearch, bufferId(buffer), u16(startPage, 'start page'), u16(pageCount, 'page count')),
  regModel: () => content(I.RegModel),
  store: (buffer: number, pageId: number) => content(I.Store, bufferId(buffer), u16(pageId, 'page id')),
  loadChar: (buffer: number, pageId: number) => content(I.LoadChar, bufferId(buffer), u16(pageId, 'page id')),
  upChar: (buffer: number) => content(I.UpChar, bufferId(buffer)),
  downChar: (buffer: number) => content(I.DownChar, bufferId(buffer)),
  upImage: () => content(I.UpImage),
  downImage: () => content(I.DownImage),
  deleteChar: (pageId: number, count: number) => content(I.DeleteChar, u16(pageId, 'page id'), u16(count, 'count')),
  empty: () => content(I.Empty),
  setSysPara: (parameter: number, value: number) => content(I.SetSysPara, u8(parameter, 'parameter'), u8(value, 'value')),
  readSysPara: () => content(I.ReadSysPara),
  setPwd: (password: number) => content(I.SetPwd, u32(password, 'password')),
  vfyPwd: (password: number) => content(I.VfyPwd, u32(password, 'password')),
  setAddress: (address: number) => content(I.SetAddress, u32(address, 'address')),
  portControl: (on: 0 | 1) => content(I.PortControl, u8(on, 'port state')),
  templateCount: () => content(I.TemplateCount),
  readIndexTable: (page: number) => {
    if (!Number.isInteger(page) || page < 0 || page > 3) throw new RangeError(`index page ${page} is not 0..3`);
    return content(I.ReadIndexTable, u8(page, 'index page'));
  },
  cancel: () => content(I.Cancel),
  checkSensor: () => content(I.CheckSensor),
  softReset: () => content(I.SoftReset),
  handShake: () => content(I.HandShake),
  getEcho: () => content(I.GetEcho),
  auraLedConfig: (setting: AuraLedSetting) =>
    content(
      I.AuraLedConfig,
      u8(AURA_MODES[setting.mode], 'mode'),
      u8(setting.speed, 'speed'),
      u8(AURA_COLOURS[setting.colour], 'colour'),
      u8(setting.count, 'count'),
    ),
  ledOn: () => content(I.LedOn),
  ledOff: () => content(I.LedOff),
} as const;

// --- acknowledge decoding ---------------------------------------------------------------------

export interface ZfmAck {
  readonly code: number;
  /** The acknowledge content after the confirmation code. */
  readonly params: Uint8Array;
}

export function decodeAck(packet: ZfmPacket): ZfmAck {
  if (packet.pid !== ZfmPid.ack) throw new ZfmDecodeError(`expected an acknowledge packet (07), got PID 0x${hex(packet.pid, 2)}`);
  const code = packet.content[0];
  if (code === undefined) throw new ZfmDecodeError('acknowledge packet without a confirmation code');
  return { code, params: packet.content.subarray(1) };
}

/** "code 0x02: no finger on the sensor" */
export function ackMessage(code: number): string {
  return `code 0x${hex(code, 2)}: ${describeZfmCode(code).message}`;
}

function need(params: Uint8Array, bytes: number, what: string): DataView {
  if (params.length < bytes) throw new ZfmDecodeError(`${what} reply has ${params.length} bytes, needs ${bytes}`);
  return new DataView(params.buffer, params.byteOffset, params.byteLength);
}

export interface ZfmStatusRegister {
  readonly busy: boolean;
  /** A finger matched (the "Pass" bit). */
  readonly passed: boolean;
  readonly passwordVerified: boolean;
  /** The image buffer holds a valid image. */
  readonly imageBufferValid: boolean;
  readonly raw: number;
}

export interface ZfmSystemParameters {
  readonly status: ZfmStatusRegister;
  readonly systemId: number;
  readonly capacity: number;
  readonly securityLevel: number;
  readonly address: number;
  readonly packetSizeCode: number;
  readonly packetSize: ZfmPacketSize;
  readonly baudN: number;
  readonly baudRate: number;
}

export function decodeStatusRegister(raw: number): ZfmStatusRegister {
  return {
    busy: (raw & 1) !== 0,
    passed: (raw & 2) !== 0,
    passwordVerified: (raw & 4) !== 0,
    imageBufferValid: (raw & 8) !== 0,
    raw,
  };
}

/** ReadSysPara: 16 bytes, eight big-endian words (address spans two). */
export function decodeSystemParameters(params: Uint8Array): ZfmSystemParameters {
  const view = need(params, 16, 'ReadSysPara');
  const packetSizeCodeValue = view.getUint16(12);
  const baudN = view.getUint16(14);
  if (baudN < 1 || baudN > 12) throw new ZfmDecodeError(`ReadSysPara baud N ${baudN} is not 1..12`);
  return {
    status: decodeStatusRegister(view.getUint16(0)),
    systemId: view.getUint16(2),
    capacity: view.getUint16(4),
    securityLevel: view.getUint16(6),
    address: view.getUint32(8),
    packetSizeCode: packetSizeCodeValue,
    packetSize: packetSizeFromCode(packetSizeCodeValue),
    baudN,
    baudRate: 9600 * baudN,
  };
}

/** The inverse of decodeSystemParameters, for emulators and tests. */
export function encodeSystemParameters(p: Omit<ZfmSystemParameters, 'status' | 'packetSize' | 'baudRate'> & { status: number }): Uint8Array {
  const out = new Uint8Array(16);
  const view = new DataView(out.buffer);
  view.setUint16(0, p.status);
  view.setUint16(2, p.systemId);
  view.setUint16(4, p.capacity);
  view.setUint16(6, p.securityLevel);
  view.setUint32(8, p.address);
  view.setUint16(12, p.packetSizeCode);
  view.setUint16(14, p.baudN);
  return out;
}

export interface ZfmSearchResult {
  readonly pageId: number;
  readonly score: number;
}

/** Search / HighSpeedSearch: PageID(2), MatchScore(2). */
export function decodeSearchResult(params: Uint8Array): ZfmSearchResult {
  const view = need(params, 4, 'Search');
  return { pageId: view.getUint16(0), score: view.getUint16(2) };
}

/** Match: score(2). */
export function decodeMatchScore(params: Uint8Array): number {
  return need(params, 2, 'Match').getUint16(0);
}

export function decodeTemplateCount(params: Uint8Array): number {
  return need(params, 2, 'TemplateCount').getUint16(0);
}

/** ReadIndexTable: a 32-byte bitmap; byte i bit k is template 256·page + 8i + k. */
export function decodeIndexTable(page: number, params: Uint8Array): number[] {
  need(params, 32, 'ReadIndexTable');
  const used: number[] = [];
  for (let i = 0; i < 32; i += 1) {
    const byte = params[i] ?? 0;
    for (let k = 0; k < 8; k += 1) if (byte & (1 << k)) used.push(256 * page + 8 * i + k);
  }
  return used;
}
