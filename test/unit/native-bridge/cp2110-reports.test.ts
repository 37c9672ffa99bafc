import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  Cp2110ReportError,
  dataReportPayload,
  dataReports,
  decodeUartConfigReport,
  purgeFifosReport,
  uartConfigReport,
  uartEnableReport,
  type UartConfig,
} from '../../../native-bridge/transports/hid-cp2110/reports';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('CP2110 feature reports (AN434)', () => {
  it('enables and disables the UART with report 0x41', () => {
    expect(hex(uartEnableReport(true))).toBe('4101');
    expect(hex(uartEnableReport(false))).toBe('4100');
  });

  it('purges the FIFOs with report 0x43: bit 0 transmit, bit 1 receive', () => {
    expect(hex(purgeFifosReport())).toBe('4303');
    expect(hex(purgeFifosReport({ transmit: true, receive: false }))).toBe('4301');
    expect(hex(purgeFifosReport({ transmit: false, receive: true }))).toBe('4302');
    expect(() => purgeFifosReport({ transmit: false, receive: false })).toThrow(Cp2110ReportError);
  });

  it('writes the UART configuration as report 0x50 with a big-endian baud rate', () => {
    const config: UartConfig = { baudRate: 57_600, parity: 'none', flowControl: 'none', dataBits: 8, stopBits: 'short' };
    expect(hex(uartConfigReport(config))).toBe('500000e10000000300');
    // 115200 7E2 with RTS/CTS: parity 2 = even, flow 1 = hardware, data bits code 2 = 7, stop 1 = long
    expect(hex(uartConfigReport({ baudRate: 115_200, parity: 'even', flowControl: 'rts-cts', dataBits: 7, stopBits: 'long' }))).toBe(
      '500001c20002010201',
    );
    expect(hex(uartConfigReport({ ...config, baudRate: 9600, parity: 'odd' }))).toBe('5000002580' + '01000300');
    expect(hex(uartConfigReport({ ...config, baudRate: 1_000_000, parity: 'mark', dataBits: 5 }))).toBe('50000f4240' + '03000000');
    expect(hex(uartConfigReport({ ...config, parity: 'space', dataBits: 6 }))).toBe('500000e100' + '04000100');
  });

  it('refuses settings the chip cannot run, with a message naming the setting', () => {
    const config: UartConfig = { baudRate: 57_600, parity: 'none', flowControl: 'none', dataBits: 8, stopBits: 'short' };
    expect(() => uartConfigReport({ ...config, baudRate: 299 })).toThrow(/300\.\.1000000 baud; 299/);
    expect(() => uartConfigReport({ ...config, baudRate: 1_000_001 })).toThrow(Cp2110ReportError);
    expect(() => uartConfigReport({ ...config, baudRate: 9600.5 })).toThrow(Cp2110ReportError);
    expect(() => uartConfigReport({ ...config, dataBits: 9 as 8 })).toThrow(/5 to 8 data bits/);
    expect(() => uartConfigReport({ ...config, flowControl: 'xon-xoff' as 'none' })).toThrow(/flow control/);
  });

  it('reads a UART Config answer back, ignoring padding after the nine bytes', () => {
    const answer = Buffer.concat([Buffer.from('500001c20002010201', 'hex'), Buffer.alloc(55)]);
    expect(decodeUartConfigReport(answer)).toEqual({
      baudRate: 115_200,
      parity: 'even',
      flowControl: 'rts-cts',
      dataBits: 7,
      stopBits: 'long',
    });
    expect(() => decodeUartConfigReport(Buffer.from('4101', 'hex'))).toThrow(/ID 0x50.*starting 0x41/);
    expect(() => decodeUartConfigReport(Buffer.from('500000e10009000300', 'hex'))).toThrow(/parity code 0x09/);
    expect(() => decodeUartConfigReport(Buffer.from('500000e10000000400', 'hex'))).toThrow(/data-bits code 0x04/);
  });

  it('round-trips every valid configuration', () => {
    const configs = fc.record<UartConfig>({
      baudRate: fc.integer({ min: 300, max: 1_000_000 }),
      parity: fc.constantFrom('none', 'odd', 'even', 'mark', 'space'),
      flowControl: fc.constantFrom('none', 'rts-cts'),
      dataBits: fc.constantFrom(5, 6, 7, 8),
      stopBits: fc.constantFrom('short', 'long'),
    });
    fc.assert(fc.property(configs, (config) => {
        expect(decodeUartConfigReport(uartConfigReport(config))).toEqual(config);
      }));
  });
});

describe('CP2110 data reports', () => {
  it('splits writes into reports of at most 63 bytes whose ID is the byte count', () => {
    const bytes = Uint8Array.from({ length: 140 }, (_, i) => i);
    const reports = dataReports(bytes);
    expect(reports.map((r) => r.length)).toEqual([64, 64, 15]);
    expect(reports.map((r) => r[0])).toEqual([63, 63, 14]);
    expect(hex(reports[2]!)).toBe('0e' + hex(bytes.subarray(126)));
    expect(dataReports(new Uint8Array(0))).toEqual([]);
  });

  it('reassembles any byte string from its reports', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), (bytes) => {
        const reports = dataReports(bytes);
        expect(reports.every((r) => r[0] === r.length - 1 && r.length >= 2 && r.length <= 64)).toBe(true);
        const joined = Buffer.concat(reports.map((r) => dataReportPayload(r)!));
        expect(hex(joined)).toBe(hex(bytes));
      }),
    );
  });

  it('reads the payload of an input report and ignores Windows-style padding', () => {
    const padded = Buffer.concat([Buffer.from('03aabbcc', 'hex'), Buffer.alloc(60, 0)]);
    expect(hex(dataReportPayload(padded)!)).toBe('aabbcc');
  });

  it('hands on what a short report has rather than inventing bytes', () => {
    expect(hex(dataReportPayload(Buffer.from('05aabb', 'hex'))!)).toBe('aabb');
  });

  it('is not a data report when the ID is 0 or a feature report ID', () => {
    expect(dataReportPayload(Buffer.from('00aabb', 'hex'))).toBeUndefined();
    expect(dataReportPayload(Buffer.from('41', 'hex'))).toBeUndefined();
    expect(dataReportPayload(new Uint8Array(0))).toBeUndefined();
  });
});
