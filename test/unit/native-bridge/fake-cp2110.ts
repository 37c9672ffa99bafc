// An in-process CP2110 for unit tests: it keeps the UART configuration the host writes (as the
// chip does), records every feature report and data report, and lets a test push input reports.
import { EventEmitter } from 'node:events';
import type { HidApi, HidDeviceHandle, HidDeviceInfo } from '../../../native-bridge/transports/hid-cp2110/node-hid';

export class FakeCp2110 extends EventEmitter implements HidDeviceHandle {
  readonly featureReports: number[][] = [];
  readonly dataReports: number[][] = [];
  uartEnabled = false;
  /** The last UART Config payload written (8 bytes after the report ID), as the chip would keep it. */
  uartConfig: number[] = [0x00, 0x00, 0x25, 0x80, 0x00, 0x00, 0x03, 0x00];
  /** When set, Get UART Config answers this instead (a chip that refused the setting). */
  uartConfigOverride: number[] | undefined;
  closed = false;
  failWrites: Error | undefined;

  async write(data: number[] | Buffer): Promise<number> {
    if (this.closed) throw new Error('device has been closed');
    if (this.failWrites) throw this.failWrites;
    this.dataReports.push([...data]);
    return data.length;
  }

  async sendFeatureReport(data: number[] | Buffer): Promise<number> {
    if (this.closed) throw new Error('device has been closed');
    const bytes = [...data];
    this.featureReports.push(bytes);
    if (bytes[0] === 0x41) this.uartEnabled = bytes[1] === 1;
    if (bytes[0] === 0x50) this.uartConfig = bytes.slice(1, 9);
    return bytes.length;
  }

  async getFeatureReport(reportId: number, length: number): Promise<Buffer> {
    if (this.closed) throw new Error('device has been closed');
    if (reportId !== 0x50) throw new Error(`fake CP2110 has no readable feature report 0x${reportId.toString(16)}`);
    // hidraw answers with the report's own length, whatever buffer length the host offered.
    void length;
    return Buffer.from([0x50, ...(this.uartConfigOverride ?? this.uartConfig)]);
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  /** The chip sends UART bytes to the host as one input report. */
  receive(report: number[]): void {
    this.emit('data', Buffer.from(report));
  }

  /** All UART bytes the host sent, reassembled from the data reports. */
  sentBytes(): number[] {
    return this.dataReports.flatMap((report) => report.slice(1, 1 + (report[0] ?? 0)));
  }
}

export function fakeHidApi(devices: Map<string, FakeCp2110>, listing: HidDeviceInfo[] = []): HidApi {
  return {
    devices: async (vendorId, productId) =>
      listing.filter((d) => (vendorId === undefined || d.vendorId === vendorId) && (productId === undefined || d.productId === productId)),
    open: async (path) => {
      const device = devices.get(path);
      if (!device) throw new Error(`cannot open device with path ${path}`);
      return device;
    },
  };
}
