// The fingerprint side the Electron shell hands the station core. In production: the exchange's
// own hardware service (monitored) and the station's reader manager (serial and CP2110 modules). In
// training: the virtual reader behind the local device service, for the sandbox's authorization page.
import { HardwareServiceMonitor } from '../../native-bridge/agent';
import { VirtualReader } from '../../native-bridge/drivers/virtual-reader';
import { ReaderManager, createReaderFactory, listHidBridges, listSerialPorts } from '../../native-bridge/manager';
import { singleReaderSource, startLocalDeviceService } from '../../native-bridge/service';
import { nativeReaders, type ReadersFacade } from '../station';

/** The work_station_id the biometric authorize carries in training (the local device service reports it too). */
const TRAINING_WORKSTATION = 'IDHINI-TRAINING';

export interface ReaderSetup {
  readonly readers: ReadersFacade;
  close(): Promise<void>;
}

/** Training: the virtual reader presents the sandbox's demo patients' fingers. */
export async function trainingReaders(options: { sandboxUrl: string; deviceServicePort: number | 'auto' }): Promise<ReaderSetup> {
  const reader = new VirtualReader({ sandboxUrl: options.sandboxUrl });
  const service = await startLocalDeviceService({
    devices: singleReaderSource(reader),
    allowedOrigins: [options.sandboxUrl],
    port: options.deviceServicePort,
    workstationID: TRAINING_WORKSTATION,
    version: 'idhini-training',
  }).catch(async (error: unknown) => {
    await reader.close();
    throw error;
  });
  const readers = nativeReaders({ localService: service, localWorkstationId: TRAINING_WORKSTATION, reader, readerInfo: await reader.probe() });
  return {
    readers,
    async close() {
      readers.close();
      await service.close();
      await reader.close();
    },
  };
}

/**
 * Production: commercial scanners through the exchange's hardware service, which the payer's page
 * talks to itself; the station's own modules (serial, CP2110) are found and listed by the reader
 * manager. Offering those to the payer's page needs the local device service, whose CORS must
 * follow the link allowlist in settings, which the core only reads once it has started: not wired
 * in the shell yet (see electron/main/README.md).
 */
export async function stationReaders(): Promise<ReaderSetup> {
  const monitor = new HardwareServiceMonitor();
  monitor.start();
  const manager = new ReaderManager({ listSerialPorts, listHidDevices: () => listHidBridges(), openReader: createReaderFactory() });
  const unavailable: { piece: string; reason: string }[] = [];
  manager.onEvent((event) => {
    if (event.type === 'hid-availability' && !event.availability.available) {
      unavailable.splice(0, unavailable.length, { piece: 'node-hid', reason: event.availability.reason });
    }
  });
  manager.start();
  const readers = nativeReaders({ hardwareService: monitor, discover: async () => manager.snapshot().readers.map((r) => r.info), unavailable });
  return {
    readers,
    async close() {
      readers.close();
      await manager.stop();
      await monitor.stop();
    },
  };
}
