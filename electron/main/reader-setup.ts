// The fingerprint side a shell hands the station core (ReaderSetup), and the training one: the
// virtual reader behind the station's local device service, for the sandbox's authorization page.
// No native module is loaded here, so browser mode (scripts/station-web-runtime.ts) runs the very
// same training readers as the Electron shell; the production readers are in readers.ts.
import { VirtualReader } from '../../native-bridge/drivers/virtual-reader';
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
export async function trainingReaders(options: { sandboxUrl: string; deviceServicePort: number }): Promise<ReaderSetup & { readonly reader: VirtualReader }> {
  const reader = new VirtualReader({ sandboxUrl: options.sandboxUrl });
  const info = await reader.probe().catch(async (error: unknown) => {
    await reader.close();
    throw error;
  });
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
    reader,
    async close() {
      readers.close();
      await deviceService.close();
      await reader.close();
    },
  };
}
