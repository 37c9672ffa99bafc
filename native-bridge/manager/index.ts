export {
  ReaderManager,
  type ReaderFactory,
  type ReaderManagerOptions,
  type ReaderManagerEvent,
  type ReaderManagerSnapshot,
  type ReaderPreference,
  type ManagedReader,
  type HidListing,
} from './manager';
export {
  DEFAULT_KNOWN_SERIAL_BRIDGES,
  DEFAULT_KNOWN_HID_BRIDGES,
  serialCandidate,
  hidCandidate,
  usbId,
  type ReaderCandidate,
  type SerialPortListing,
  type UsbId,
} from './candidates';
export { listSerialPorts, listHidBridges } from './listing';
export { createReaderFactory, NoReaderAnsweredError, type ReaderFactoryOptions } from './reader-factory';
export { listCommand, createListCommand, type ListDependencies } from './list-command';
