// ByteTransport over a CP2110 HID-to-UART bridge. Opening follows AN434: enable the UART, write
// the UART configuration, read it back (the chip answers with what it really applied), purge both
// FIFOs. Outgoing bytes go out as data reports of at most 63 bytes, in order; every incoming data
// report is handed on as it arrives.

import type { ByteTransport } from '../transport';
import type { HidApi, HidDeviceHandle } from './node-hid';
import { describe, loadNodeHid } from './node-hid';
import {
  DEFAULT_UART_CONFIG,
  FeatureReport,
  dataReportPayload,
  dataReports,
  decodeUartConfigReport,
  purgeFifosReport,
  sameUartConfig,
  uartConfigReport,
  uartEnableReport,
  type UartConfig,
} from './reports';

/**
 * Feature reports are read with a buffer as long as the longest one the chip has: Windows' HID
 * class driver refuses shorter buffers, and hidraw returns the report's real length anyway.
 */
const FEATURE_READ_LENGTH = 64;

export class Cp2110TransportError extends Error {
  override readonly name = 'Cp2110TransportError';
}

export interface OpenCp2110Options {
  /** UART settings; anything left out is 57600 8N1 without flow control. */
  readonly uart?: Partial<UartConfig>;
  /** node-hid by default; tests pass a fake device. */
  readonly hid?: HidApi;
}

export async function openCp2110Transport(path: string, options: OpenCp2110Options = {}): Promise<Cp2110Transport> {
  const hid = options.hid ?? (await requireNodeHid());
  const config: UartConfig = { ...DEFAULT_UART_CONFIG, ...options.uart };
  let device: HidDeviceHandle;
  try {
    device = await hid.open(path);
  } catch (error) {
    throw new Cp2110TransportError(`Could not open the CP2110 bridge at ${path}: ${describe(error)}`);
  }
  const transport = new Cp2110Transport(path, device, config);
  try {
    await transport.initialise();
  } catch (error) {
    await device.close().catch(() => undefined);
    throw error;
  }
  return transport;
}

async function requireNodeHid(): Promise<HidApi> {
  const { api, availability } = await loadNodeHid();
  if (!api) throw new Cp2110TransportError(availability.available ? 'node-hid did not load.' : availability.reason);
  return api;
}

export class Cp2110Transport implements ByteTransport {
  readonly kind = 'hid-cp2110' as const;
  private config: UartConfig;
  private readonly dataListeners = new Set<(chunk: Uint8Array) => void>();
  private readonly disconnectListeners = new Set<(error: Error) => void>();
  /** Serialises writes and feature reports so reports from two callers never interleave. */
  private queue: Promise<unknown> = Promise.resolve();
  private state: 'opening' | 'open' | 'closed' | 'gone' = 'opening';

  constructor(
    readonly path: string,
    private readonly device: HidDeviceHandle,
    config: UartConfig,
  ) {
    this.config = config;
  }

  get baudRate(): number {
    return this.config.baudRate;
  }

  get uartConfig(): UartConfig {
    return this.config;
  }

  /** @internal Called once by openCp2110Transport. */
  async initialise(): Promise<void> {
    await this.feature(uartEnableReport(true), 'UART enable');
    await this.applyConfig(this.config);
    await this.feature(purgeFifosReport(), 'purge FIFOs');
    this.device.on('data', (report) => this.receive(report));
    this.device.on('error', (error) => this.lose(error));
    this.state = 'open';
  }

  write(bytes: Uint8Array): Promise<void> {
    return this.enqueue(async () => {
      this.assertOpen();
      for (const report of dataReports(bytes)) {
        let written: number;
        try {
          written = await this.device.write(Buffer.from(report));
        } catch (error) {
          throw this.lose(error);
        }
        if (written < report.length) {
          throw new Cp2110TransportError(`The CP2110 took ${written} of a ${report.length}-byte data report.`);
        }
      }
    });
  }

  onData(listener: (chunk: Uint8Array) => void): () => void {
    this.dataListeners.add(listener);
    return () => this.dataListeners.delete(listener);
  }

  onDisconnect(listener: (error: Error) => void): () => void {
    this.disconnectListeners.add(listener);
    return () => this.disconnectListeners.delete(listener);
  }

  /** Purges the chip's receive and transmit FIFOs; nothing is buffered on the host side. */
  flush(): Promise<void> {
    return this.enqueue(async () => {
      this.assertOpen();
      await this.feature(purgeFifosReport(), 'purge FIFOs');
    });
  }

  /** The bridge changes rate in place: no reopen is needed, only a new UART configuration. */
  setBaudRate(baudRate: number): Promise<void> {
    return this.enqueue(async () => {
      this.assertOpen();
      await this.applyConfig({ ...this.config, baudRate });
    });
  }

  async close(): Promise<void> {
    if (this.state === 'closed') return;
    const wasOpen = this.state !== 'gone';
    this.state = 'closed';
    this.dataListeners.clear();
    this.disconnectListeners.clear();
    await this.queue.catch(() => undefined);
    this.device.removeAllListeners('data');
    if (wasOpen) await this.device.close().catch(() => undefined);
  }

  private async applyConfig(config: UartConfig): Promise<void> {
    await this.feature(uartConfigReport(config), 'set UART config');
    let answer: Buffer;
    try {
      answer = await this.device.getFeatureReport(FeatureReport.uartConfig, FEATURE_READ_LENGTH);
    } catch (error) {
      throw this.failure('get UART config', error);
    }
    const applied = decodeUartConfigReport(answer);
    if (!sameUartConfig(applied, config)) {
      throw new Cp2110TransportError(
        `The CP2110 did not take the UART configuration: asked for ${formatConfig(config)}, it runs ${formatConfig(applied)}.`,
      );
    }
    this.config = applied;
  }

  private async feature(report: Uint8Array, what: string): Promise<void> {
    let sent: number;
    try {
      sent = await this.device.sendFeatureReport(Buffer.from(report));
    } catch (error) {
      throw this.failure(what, error);
    }
    if (sent < report.length) throw new Cp2110TransportError(`The CP2110 took ${sent} of ${report.length} bytes of ${what}.`);
  }

  private receive(report: Buffer): void {
    if (this.state !== 'open') return;
    const payload = dataReportPayload(report);
    if (!payload) return;
    for (const listener of [...this.dataListeners]) listener(payload);
  }

  /** A read or write error on an open device means it went away (unplugged, hidraw node removed). */
  private lose(error: unknown): Error {
    const gone = new Cp2110TransportError(`The CP2110 bridge at ${this.path} went away: ${describe(error)}`);
    if (this.state !== 'open') return gone;
    this.state = 'gone';
    this.device.removeAllListeners('data');
    void this.device.close().catch(() => undefined);
    for (const listener of [...this.disconnectListeners]) listener(gone);
    this.disconnectListeners.clear();
    return gone;
  }

  private failure(what: string, error: unknown): Error {
    if (this.state === 'open') return this.lose(error);
    return new Cp2110TransportError(`CP2110 ${what} failed at ${this.path}: ${describe(error)}`);
  }

  private assertOpen(): void {
    if (this.state === 'closed') throw new Cp2110TransportError(`The CP2110 transport at ${this.path} is closed.`);
    if (this.state === 'gone') throw new Cp2110TransportError(`The CP2110 bridge at ${this.path} is gone.`);
  }

  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

function formatConfig(config: UartConfig): string {
  const parity = { none: 'N', odd: 'O', even: 'E', mark: 'M', space: 'S' }[config.parity];
  const stop = config.stopBits === 'short' ? '1' : config.dataBits === 5 ? '1.5' : '2';
  return `${config.baudRate} ${config.dataBits}${parity}${stop}${config.flowControl === 'rts-cts' ? ' RTS/CTS' : ''}`;
}
