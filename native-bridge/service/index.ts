export {
  startLocalDeviceService,
  describeServiceEvent,
  type LocalDeviceService,
  type LocalDeviceServiceOptions,
  type LocalDeviceServiceEvent,
} from './server';
export { singleReaderSource, deviceStatus, type DeviceSource, type SourceReader } from './device-source';
export { HARDWARE_SERVICE_PORT, PortUnavailableError, somethingListens } from './port';
