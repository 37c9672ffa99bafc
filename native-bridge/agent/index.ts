export { HardwareServiceMonitor, DEFAULT_HARDWARE_SERVICE_URLS, type HardwareServiceMonitorOptions } from './monitor';
export {
  parseStatus,
  stateKind,
  isConnectedScanner,
  HardwareServiceStatusError,
  STATION_SERVICE_PROVIDER,
  type HardwareServiceState,
  type HardwareServiceStateKind,
  type HardwareServiceStatus,
  type HardwareServiceDevice,
} from './status';
export { isLoopbackHost } from './loopback-http';
