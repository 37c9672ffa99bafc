// `reader list`: the readers this workstation has, without writing to anything unless asked:
// serial ports (each marked with the known USB-serial bridge it is, if any), CP2110 HID bridges,
// and the exchange's hardware service with its scanners. `--probe` also opens the known bridges
// and reports what answers (the same factory the manager uses).
import type { CliCommand, CliValues } from '../cli/command';
import { CliUsageError, optionalInteger } from '../cli/command';
import { HardwareServiceMonitor, DEFAULT_HARDWARE_SERVICE_URLS } from '../agent/monitor';
import type { HardwareServiceState } from '../agent/status';
import type { ReaderInfo } from '../drivers/reader';
import { DEFAULT_KNOWN_HID_BRIDGES, DEFAULT_KNOWN_SERIAL_BRIDGES, hidCandidate, serialCandidate, type ReaderCandidate, type SerialPortListing } from './candidates';
import { listHidBridges, listSerialPorts } from './listing';
import type { HidListing, ReaderFactory } from './manager';
import { createReaderFactory } from './reader-factory';

export interface ListDependencies {
  readonly listSerialPorts: () => Promise<readonly SerialPortListing[]>;
  readonly listHidDevices: () => Promise<HidListing>;
  readonly checkHardwareService: (baseUrls: readonly string[], timeoutMs: number) => Promise<HardwareServiceState>;
  readonly openReader: ReaderFactory;
}

const realDependencies: ListDependencies = {
  listSerialPorts,
  listHidDevices: () => listHidBridges(),
  checkHardwareService: (baseUrls, timeoutMs) => new HardwareServiceMonitor({ baseUrls, timeoutMs, watchDeviceEvents: false }).check(),
  openReader: createReaderFactory(),
};

type ProbeOutcome = { readonly info: Omit<ReaderInfo, 'id' | 'path'> } | { readonly error: string };

export function createListCommand(deps: ListDependencies): CliCommand {
  return {
    summary: 'list the readers found: serial ports, CP2110 HID bridges, the hardware service',
    usage: '[--probe] [--service-url URL] [--timeout-ms T]',
    options: { probe: { type: 'boolean' }, 'service-url': { type: 'string' }, 'timeout-ms': { type: 'string' } },
    async run(values: CliValues) {
      const timeoutMs = optionalInteger(values, 'timeout-ms', 100, 30_000) ?? 4000;
      const baseUrls = serviceUrls(values['service-url']);
      const [serialPorts, hid, service] = await Promise.all([
        deps.listSerialPorts(),
        deps.listHidDevices(),
        deps.checkHardwareService(baseUrls, timeoutMs),
      ]);
      const serial = serialPorts.map((port) => serialCandidate(port, DEFAULT_KNOWN_SERIAL_BRIDGES));
      const bridges = hid.devices.flatMap((device) => hidCandidate(device, DEFAULT_KNOWN_HID_BRIDGES) ?? []);
      const candidates = [...serial.filter((c) => c.bridge), ...bridges];
      const probed = new Map<string, ProbeOutcome>();
      if (values.probe === true) {
        // One at a time: two probes on one USB hub are fine, but the output reads in order.
        for (const candidate of candidates) probed.set(candidate.key, await probe(deps.openReader, candidate));
      }
      return {
        readers: [
          ...candidates.map((c) => ({ source: c.transport, ...describeCandidate(c), ...(probed.get(c.key) ?? {}) })),
          ...(service.kind === 'not-running'
            ? []
            : service.status.devices.map((d) => ({ source: 'hardware-service', deviceId: d.deviceId, type: d.type, status: d.status }))),
        ],
        serial: serial.map((c) => ({ ...describeCandidate(c), knownBridge: c.bridge ?? null })),
        hid: hid.availability.available
          ? { available: true, hidapiVersion: hid.availability.hidapiVersion, bridges: bridges.map(describeCandidate) }
          : { available: false, reason: hid.availability.reason, bridges: [] },
        hardwareService:
          service.kind === 'not-running'
            ? { state: service.kind, reason: service.reason }
            : {
                state: service.kind,
                baseUrl: service.baseUrl,
                workstationID: service.status.workstationID ?? null,
                isAuthed: service.status.isAuthed,
                version: service.status.version ?? null,
                devices: service.status.devices,
                cardReaders: service.status.cardReaders,
              },
      };
    },
  };
}

export const listCommand: CliCommand = createListCommand(realDependencies);

function serviceUrls(value: string | boolean | undefined): readonly string[] {
  if (value === undefined) return DEFAULT_HARDWARE_SERVICE_URLS;
  if (typeof value !== 'string') throw new CliUsageError('--service-url needs a URL');
  try {
    return [new URL(value).origin];
  } catch {
    throw new CliUsageError(`--service-url must be a URL such as https://localhost:18065, got '${value}'`);
  }
}

function describeCandidate(c: ReaderCandidate) {
  return {
    path: c.path,
    vendorId: c.vendorId ?? null,
    productId: c.productId ?? null,
    manufacturer: c.manufacturer ?? null,
    serialNumber: c.serialNumber ?? null,
    ...(c.bridge ? { bridge: c.bridge } : {}),
  };
}

async function probe(openReader: ReaderFactory, candidate: ReaderCandidate): Promise<ProbeOutcome> {
  try {
    const { reader, info } = await openReader(candidate);
    await reader.close();
    const { id: _id, path: _path, ...rest } = info;
    return { info: rest };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}
