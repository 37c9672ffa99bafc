// GT-521F32/F52 commands, NACK error codes and reply decoders (ADH-Tech protocol; command table
// in the reader-protocols reference §2.4).

import { hex } from '../hex';
import { encodeGt521Packet } from './packet';

export const Gt521Command = {
  Open: 0x01,
  Close: 0x02,
  UsbInternalCheck: 0x03,
  ChangeBaudrate: 0x04,
  SetIapMode: 0x05,
  ModuleInfo: 0x06,
  CmosLed: 0x12,
  GetEnrollCount: 0x20,
  CheckEnrolled: 0x21,
  EnrollStart: 0x22,
  Enroll1: 0x23,
  Enroll2: 0x24,
  Enroll3: 0x25,
  IsPressFinger: 0x26,
  DeleteId: 0x40,
  DeleteAll: 0x41,
  Verify1_1: 0x50,
  Identify1_N: 0x51,
  VerifyTemplate1_1: 0x52,
  IdentifyTemplate1_N: 0x53,
  CaptureFinger: 0x60,
  MakeTemplate: 0x61,
  GetImage: 0x62,
  GetRawImage: 0x63,
  GetTemplate: 0x70,
  SetTemplate: 0x71,
  SetSecurityLevel: 0xf0,
  GetSecurityLevel: 0xf1,
  StandbyMode: 0xf9,
} as const;
export type Gt521CommandName = keyof typeof Gt521Command;

const commandNames: ReadonlyMap<number, Gt521CommandName> = new Map(
  (Object.entries(Gt521Command) as Array<[Gt521CommandName, number]>).map(([name, code]) => [code, name]),
);

export function gt521CommandName(code: number): string {
  return commandNames.get(code) ?? `command 0x${hex(code, 2)}`;
}

/** The module always powers up at 9600; ChangeBaudrate accepts only these. */
export const GT521_POWER_ON_BAUD = 9600;
export const GT521_BAUD_RATES = [9600, 19200, 38400, 57600, 115200] as const;

/** Open(1) data: FirmwareVersion u32, IsoAreaMaxSize u32, DeviceSerialNumber[16]. */
export const GT521_OPEN_INFO_BYTES = 24;
/** MakeTemplate / GetTemplate / SetTemplate data. */
export const GT521_TEMPLATE_BYTES = 498;
/** GetImage: 202 × 258, 8-bit. */
export const GT521_IMAGE_BYTES = 202 * 258;
/** GetRawImage: 160 × 120 (QVGA). */
export const GT521_RAW_IMAGE_BYTES = 160 * 120;

/** The NACK error codes by name, for the code that sends or answers them. */
export const Gt521Error = {
  timeout: 0x1001,
  invalidBaud: 0x1002,
  invalidPosition: 0x1003,
  notUsed: 0x1004,
  alreadyUsed: 0x1005,
  communication: 0x1006,
  verifyFailed: 0x1007,
  identifyFailed: 0x1008,
  databaseFull: 0x1009,
  databaseEmpty: 0x100a,
  turnError: 0x100b,
  badFinger: 0x100c,
  enrollFailed: 0x100d,
  notSupported: 0x100e,
  deviceError: 0x100f,
  captureCancelled: 0x1010,
  invalidParameter: 0x1011,
  fingerNotPressed: 0x1012,
} as const;

const errors: ReadonlyArray<readonly [number, string, string]> = [
  [Gt521Error.timeout, 'timeout', 'capture timeout (obsolete)'],
  [Gt521Error.invalidBaud, 'invalid-baud', 'invalid baud rate'],
  [Gt521Error.invalidPosition, 'invalid-position', 'the ID is outside the valid range'],
  [Gt521Error.notUsed, 'not-used', 'the ID is not used'],
  [Gt521Error.alreadyUsed, 'already-used', 'the ID is already used'],
  [Gt521Error.communication, 'communication-error', 'communication error'],
  [Gt521Error.verifyFailed, 'verify-failed', '1:1 verification failed'],
  [Gt521Error.identifyFailed, 'identify-failed', '1:N identification failed'],
  [Gt521Error.databaseFull, 'database-full', 'the database is full'],
  [Gt521Error.databaseEmpty, 'database-empty', 'the database is empty'],
  [Gt521Error.turnError, 'turn-error', 'enrolment steps out of order'],
  [Gt521Error.badFinger, 'bad-finger', 'too bad a fingerprint'],
  [Gt521Error.enrollFailed, 'enroll-failed', 'enrolment failed'],
  [Gt521Error.notSupported, 'not-supported', 'the command is not supported'],
  [Gt521Error.deviceError, 'device-error', 'device error (the sensor may be faulty)'],
  [Gt521Error.captureCancelled, 'capture-cancelled', 'capture cancelled'],
  [Gt521Error.invalidParameter, 'invalid-parameter', 'invalid parameter'],
  [Gt521Error.fingerNotPressed, 'finger-not-pressed', 'finger is not pressed'],
];

export interface Gt521ErrorInfo {
  readonly name: string;
  readonly message: string;
}

export const GT521_ERRORS: ReadonlyMap<number, Gt521ErrorInfo> = new Map(
  errors.map(([code, name, message]) => [code, { name, message }]),
);

/**
 * A NACK parameter: one of the error codes above, or — below 0x1000, after Enroll3 or
 * SetTemplate — the ID of the enrolled template this one duplicates.
 */
export function describeGt521Error(parameter: number): Gt521ErrorInfo {
  const known = GT521_ERRORS.get(parameter);
  if (known) return known;
  if (parameter < 0x1000) return { name: 'duplicate', message: `the fingerprint duplicates enrolled ID ${parameter}` };
  return { name: 'unknown', message: `unknown error code 0x${hex(parameter, 4)}` };
}

function id(value: number, what = 'ID'): number {
  if (!Number.isInteger(value) || value < 0 || value > 2999) throw new RangeError(`GT-521 ${what} ${value} is not 0..2999`);
  return value;
}

const C = Gt521Command;

/** Complete 12-byte command packets. */
export const gt521Command = {
  open: (withInfo: boolean) => encodeGt521Packet(C.Open, withInfo ? 1 : 0),
  close: () => encodeGt521Packet(C.Close, 0),
  changeBaudrate: (baud: number) => {
    if (!(GT521_BAUD_RATES as readonly number[]).includes(baud)) {
      throw new RangeError(`GT-521 baud rate ${baud} is not one of ${GT521_BAUD_RATES.join(', ')}`);
    }
    return encodeGt521Packet(C.ChangeBaudrate, baud);
  },
  cmosLed: (on: boolean) => encodeGt521Packet(C.CmosLed, on ? 1 : 0),
  getEnrollCount: () => encodeGt521Packet(C.GetEnrollCount, 0),
  checkEnrolled: (templateId: number) => encodeGt521Packet(C.CheckEnrolled, id(templateId)),
  /** -1 enrols without storing: Enroll3 then returns the template as data. */
  enrollStart: (templateId: number) => encodeGt521Packet(C.EnrollStart, templateId === -1 ? -1 : id(templateId)),
  enroll: (step: 1 | 2 | 3) => encodeGt521Packet(C.Enroll1 + step - 1, 0),
  isPressFinger: () => encodeGt521Packet(C.IsPressFinger, 0),
  deleteId: (templateId: number) => encodeGt521Packet(C.DeleteId, id(templateId)),
  deleteAll: () => encodeGt521Packet(C.DeleteAll, 0),
  verify: (templateId: number) => encodeGt521Packet(C.Verify1_1, id(templateId)),
  identify: () => encodeGt521Packet(C.Identify1_N, 0),
  /** 0 = fast; non-zero = best image (slower, for enrolment). */
  captureFinger: (best: boolean) => encodeGt521Packet(C.CaptureFinger, best ? 1 : 0),
  makeTemplate: () => encodeGt521Packet(C.MakeTemplate, 0),
  getImage: () => encodeGt521Packet(C.GetImage, 0),
  getRawImage: () => encodeGt521Packet(C.GetRawImage, 0),
  getTemplate: (templateId: number) => encodeGt521Packet(C.GetTemplate, id(templateId)),
  setTemplate: (templateId: number, skipDuplicateCheck = false) =>
    encodeGt521Packet(C.SetTemplate, (id(templateId) | (skipDuplicateCheck ? 0xffff0000 : 0)) >>> 0),
} as const;

export interface Gt521OpenInfo {
  /** Eight hex digits, as the module reports it. */
  readonly firmwareVersion: string;
  /** Size of the ISO-9660 CD-image area of USB mode (not an ISO template). */
  readonly isoAreaMaxSize: number;
  /** 32 hex digits. */
  readonly serialNumber: string;
}

export function decodeOpenInfo(data: Uint8Array): Gt521OpenInfo {
  if (data.length !== GT521_OPEN_INFO_BYTES) {
    throw new RangeError(`GT-521 Open info is ${data.length} bytes, expected ${GT521_OPEN_INFO_BYTES}`);
  }
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  return {
    firmwareVersion: hex(view.getUint32(0, true), 8),
    isoAreaMaxSize: view.getUint32(4, true),
    serialNumber: Array.from(data.subarray(8, 24), (b) => hex(b, 2)).join(''),
  };
}

export function encodeOpenInfo(info: { firmwareVersion: number; isoAreaMaxSize: number; serialNumber: Uint8Array }): Uint8Array {
  if (info.serialNumber.length !== 16) throw new RangeError('GT-521 serial number must be 16 bytes');
  const out = new Uint8Array(GT521_OPEN_INFO_BYTES);
  const view = new DataView(out.buffer);
  view.setUint32(0, info.firmwareVersion, true);
  view.setUint32(4, info.isoAreaMaxSize, true);
  out.set(info.serialNumber, 8);
  return out;
}
