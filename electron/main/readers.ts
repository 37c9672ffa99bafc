// The fingerprint side the Electron shell hands the station core in production: the exchange's
// own hardware service (monitored) and the station's reader manager (serial and CP2110 modules),
// whose readers the station offers to the payer's page through its local device service whenever
// the hardware service does not run (training: reader-setup.ts). The service's CORS follows the link
// allowlist in settings: the core hands its settings to the controller (electron/station/device-service.ts),
// and the reader manager's choice follows the reader chosen in settings.
import { HardwareServiceMonitor, type HardwareServiceMonitorOptions } from '../../native-bridge/agent';
import { ReaderManager, createReaderFactory, listHidBridges, listSerialPorts, type ReaderManagerOptions } from '../../native-bridge/manager';
import { LocalDeviceServiceController, nativeReaders } from '../station';
import type { ReaderSetup } from './reader-setup';

export interface StationReadersOptions {
  /** Reported by the station's device service and sent as work_station_id while it serves the page: the computer's name. */
  readonly workstationID: string;
  readonly version: string;
  /** Tests: where the hardware service is looked for, and the port the station's service prefers (default 18065 for both). */
  readonly monitor?: HardwareServiceMonitorOptions;
  readonly preferredPort?: number;
  /** Tests: listings instead of the machine's serial ports and HID devices, and what answers on them. */
  readonly listings?: Pick<ReaderManagerOptions, 'listSerialPorts' | 'listHidDevices'> & Partial<Pick<ReaderManagerOptions, 'openReader'>>;
}

/**
 * Production: commercial scanners through the exchange's hardware service, which the payer's page
 * talks to itself; the station's own modules (serial, CP2110), found by the reader manager, offered
 * to that page through the station's device service while the hardware service does not run.
 */
export async function stationReaders(options: StationReadersOptions): Promise<ReaderSetup> {
  const monitor = new HardwareServiceMonitor(options.monitor);
  monitor.start();
  const manager = new ReaderManager({
    listSerialPorts: options.listings?.listSerialPorts ?? listSerialPorts,
    listHidDevices: options.listings?.listHidDevices ?? (() => listHidBridges()),
    openReader: options.listings?.openReader ?? createReaderFactory(),
  });
  const unavailable: { piece: string; reason: string }[] = [];
  manager.onEvent((event) => {
    if (event.type === 'hid-availability' && !event.availability.available) {
      unavailable.splice(0, unavailable.length, { piece: 'node-hid', reason: event.availability.reason });
    }
  });
  manager.start();
  const devices = manager.deviceSource();
  const deviceService = new LocalDeviceServiceController({
    devices,
    officialService: monitor,
    port: 'auto',
    ...(options.preferredPort === undefined ? {} : { preferredPort: options.preferredPort }),
    workstationID: options.workstationID,
    version: options.version,
  });
  const readers = nativeReaders({
    hardwareService: monitor,
    localService: deviceService,
    devices,
    discover: async () => manager.snapshot().readers.map((r) => r.info),
    unavailable,
    // The reader chosen in settings (settings.reader), handed over by the core at start and on every change.
    preferReader: (preference) => manager.setPreferred(preference),
  });
  return {
    readers,
    deviceService,
    async close() {
      readers.close();
      await deviceService.close();
      await manager.stop();
      await monitor.stop();
    },
  };
}
