export * from './reports';
export { loadNodeHid, type HidApi, type HidAvailability, type HidDeviceHandle, type HidDeviceInfo } from './node-hid';
export { openCp2110Transport, Cp2110Transport, Cp2110TransportError, type OpenCp2110Options } from './transport';
