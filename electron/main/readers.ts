// The fingerprint side the Electron shell hands the station core. In production: the exchange's
// own hardware service (monitored) and the station's reader manager (serial and CP2110 modules),
// whose readers the station offers to the payer's page through its local device service whenever
// the hardware service does not run. In training: the virtual reader behind the local device
// service, for the sandbox's authorization page. Either way the service's CORS follows the link
// allowlist in settings: the core hands its settings to the controller (electron/station/device-service.ts),
// and the reader manager's choice follows the reader chosen in settings.
import { HardwareServiceMonitor, type HardwareServiceMonitorOptions } from '../../native-bridge/agent';
import { VirtualReader } from '../../native-bridge/drivers/virtual-reader';
import { ReaderManager, createReaderFactory, listHidBridges, listSerialPorts, type ReaderManagerOptions } from '../../native-bridge/manager';
import { singleReaderSource } from '../../native-bridge/service';
import { LocalDeviceServiceController, nativeReaders, type ReadersFacade } from '../station';

/** The work_station_id the biometric authorize carries in training (the local device service reports it too). */
const TRAINING_WORKSTATION = 'IDHINI-TRAINING';

export interface ReaderSetup {
  readonly readers: ReadersFacade;
  /** The station's own device service, as the core drives it. */
  readonly deviceService: LocalDeviceServiceController;
  close(): Promise<void>;
}

/** Training: the virtual reader presents the sandbox's demo patients' fingers, on the port the sandbox was told. */
export async function trainingReaders(options: { sandboxUrl: string; deviceServicePort: number }): Promise<ReaderSetup> {
  const reader = new VirtualReader({ sandboxUrl: options.sandboxUrl });
  const info = await reader.probe();
  const deviceService = new LocalDeviceServiceController({
    devices: singleReaderSource(reader, info),
    port: options.deviceServicePort,
    workstationID: TRAINING_WORKSTATION,
    version: 'idhini-training',
  });
  const readers = nativeReaders({ localService: deviceService, reader, readerInfo: info });
  return {
    readers,
    deviceService,
    async close() {
      readers.close();
      await deviceService.close();
      await reader.close();
    },
  };
}

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
