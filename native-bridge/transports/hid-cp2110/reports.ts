// The CP2110 HID-to-UART report formats of Silicon Labs AN434 ("CP2110/4 Interface Specification"),
// as pure functions: bytes in, bytes out. Cross-checked against Silicon Labs' own SLABHIDtoUART.h
// constants (parity 1 = odd, 2 = even; libsigrok's serial_hid_cp2110.c has these two swapped).
//
// - UART data travels in interrupt reports whose report ID is the number of data bytes (1..63).
// - Everything else is a feature report with its own ID; multi-byte fields are big-endian.

/** The largest data report carries 63 bytes: a 64-byte HID report minus its report ID. */
export const MAX_DATA_BYTES_PER_REPORT = 63;

/** The feature reports this transport uses (AN434 also defines reset, status, GPIO and version). */
export const FeatureReport = {
  uartEnable: 0x41,
  purgeFifos: 0x43,
  uartConfig: 0x50,
} as const;

/** AN434 allows 300 bps to 1 Mbps. */
export const MIN_BAUD_RATE = 300;
export const MAX_BAUD_RATE = 1_000_000;

export type Parity = 'none' | 'odd' | 'even' | 'mark' | 'space';
export type FlowControl = 'none' | 'rts-cts';
export type DataBits = 5 | 6 | 7 | 8;
/** 'short' is one stop bit; 'long' is 1.5 stop bits with 5 data bits, otherwise 2. */
export type StopBits = 'short' | 'long';

export interface UartConfig {
  readonly baudRate: number;
  readonly parity: Parity;
  readonly flowControl: FlowControl;
  readonly dataBits: DataBits;
  readonly stopBits: StopBits;
}

/** The fingerprint modules this bridge carries speak 8N1 without flow control. */
export const DEFAULT_UART_CONFIG: UartConfig = {
  baudRate: 57_600,
  parity: 'none',
  flowControl: 'none',
  dataBits: 8,
  stopBits: 'short',
};

export class Cp2110ReportError extends Error {
  override readonly name = 'Cp2110ReportError';
}

const PARITY_CODES: readonly Parity[] = ['none', 'odd', 'even', 'mark', 'space'];
const FLOW_CONTROL_CODES: readonly FlowControl[] = ['none', 'rts-cts'];
const STOP_BIT_CODES: readonly StopBits[] = ['short', 'long'];

export function uartEnableReport(enabled: boolean): Uint8Array {
  return Uint8Array.of(FeatureReport.uartEnable, enabled ? 0x01 : 0x00);
}

export interface PurgeSelection {
  readonly transmit: boolean;
  readonly receive: boolean;
}

/** Purge type bits: 0x01 the transmit FIFO, 0x02 the receive FIFO. */
export function purgeFifosReport(which: PurgeSelection = { transmit: true, receive: true }): Uint8Array {
  const bits = (which.transmit ? 0x01 : 0) | (which.receive ? 0x02 : 0);
  if (bits === 0) throw new Cp2110ReportError('Purge FIFOs needs at least one FIFO to purge.');
  return Uint8Array.of(FeatureReport.purgeFifos, bits);
}

export function validateUartConfig(config: UartConfig): void {
  if (!Number.isInteger(config.baudRate) || config.baudRate < MIN_BAUD_RATE || config.baudRate > MAX_BAUD_RATE) {
    throw new Cp2110ReportError(
      `The CP2110 runs its UART at ${MIN_BAUD_RATE}..${MAX_BAUD_RATE} baud; ${String(config.baudRate)} is outside that range.`,
    );
  }
  if (![5, 6, 7, 8].includes(config.dataBits)) {
    throw new Cp2110ReportError(`The CP2110 sends 5 to 8 data bits, not ${String(config.dataBits)}.`);
  }
  if (!PARITY_CODES.includes(config.parity)) throw new Cp2110ReportError(`Unknown parity '${String(config.parity)}'.`);
  if (!FLOW_CONTROL_CODES.includes(config.flowControl)) {
    throw new Cp2110ReportError(`Unknown flow control '${String(config.flowControl)}' (the CP2110 knows none and RTS/CTS).`);
  }
  if (!STOP_BIT_CODES.includes(config.stopBits)) throw new Cp2110ReportError(`Unknown stop bits '${String(config.stopBits)}'.`);
}

/** Set UART Config: baud rate (4 bytes, big-endian), parity, flow control, data bits, stop bits. */
export function uartConfigReport(config: UartConfig): Uint8Array {
  validateUartConfig(config);
  const report = new Uint8Array(9);
  const view = new DataView(report.buffer);
  report[0] = FeatureReport.uartConfig;
  view.setUint32(1, config.baudRate, false);
  report[5] = PARITY_CODES.indexOf(config.parity);
  report[6] = FLOW_CONTROL_CODES.indexOf(config.flowControl);
  report[7] = config.dataBits - 5;
  report[8] = STOP_BIT_CODES.indexOf(config.stopBits);
  return report;
}

/** Reads a Get UART Config answer (report ID first, as hidapi returns it; padding after it ignored). */
export function decodeUartConfigReport(report: Uint8Array): UartConfig {
  if (report.length < 9 || report[0] !== FeatureReport.uartConfig) {
    throw new Cp2110ReportError(
      `Expected a UART Config report (ID 0x50, 9 bytes); got ${report.length} bytes starting ${hexByte(report[0])}.`,
    );
  }
  const view = new DataView(report.buffer, report.byteOffset, report.byteLength);
  const parity = PARITY_CODES[report[5] ?? -1];
  const flowControl = FLOW_CONTROL_CODES[report[6] ?? -1];
  const dataBitsCode = report[7] ?? -1;
  const stopBits = STOP_BIT_CODES[report[8] ?? -1];
  if (parity === undefined) throw new Cp2110ReportError(`UART Config carries an unknown parity code ${hexByte(report[5])}.`);
  if (flowControl === undefined) throw new Cp2110ReportError(`UART Config carries an unknown flow-control code ${hexByte(report[6])}.`);
  if (dataBitsCode > 3) throw new Cp2110ReportError(`UART Config carries an unknown data-bits code ${hexByte(dataBitsCode)}.`);
  if (stopBits === undefined) throw new Cp2110ReportError(`UART Config carries an unknown stop-bits code ${hexByte(report[8])}.`);
  return {
    baudRate: view.getUint32(1, false),
    parity,
    flowControl,
    dataBits: (dataBitsCode + 5) as DataBits,
    stopBits,
  };
}

export function sameUartConfig(a: UartConfig, b: UartConfig): boolean {
  return (
    a.baudRate === b.baudRate &&
    a.parity === b.parity &&
    a.flowControl === b.flowControl &&
    a.dataBits === b.dataBits &&
    a.stopBits === b.stopBits
  );
}

/** Splits outgoing bytes into data reports: [count, ...count bytes], at most 63 bytes each. */
export function dataReports(bytes: Uint8Array): Uint8Array[] {
  const reports: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length; offset += MAX_DATA_BYTES_PER_REPORT) {
    const chunk = bytes.subarray(offset, Math.min(offset + MAX_DATA_BYTES_PER_REPORT, bytes.length));
    const report = new Uint8Array(chunk.length + 1);
    report[0] = chunk.length;
    report.set(chunk, 1);
    reports.push(report);
  }
  return reports;
}

/**
 * The UART bytes of one interrupt-in report, or undefined when the report is not a data report.
 * Bytes after the count are padding (Windows pads every read to the longest input report).
 * A report shorter than its count claims yields what it has: the protocol above checks its own
 * framing and checksums, so nothing is silently invented or thrown away here.
 */
export function dataReportPayload(report: Uint8Array): Uint8Array | undefined {
  const count = report[0];
  if (count === undefined || count < 1 || count > MAX_DATA_BYTES_PER_REPORT) return undefined;
  return report.slice(1, 1 + count);
}

function hexByte(value: number | undefined): string {
  return value === undefined ? 'nothing' : `0x${value.toString(16).padStart(2, '0')}`;
}
