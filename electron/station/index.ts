// The station core: what the Electron shell, the browser host and the tests import.
export { createStation, STATION_COMMANDS_IN_FLIGHT, type Station } from './station';
export { FileSecretStore, type FileSecretStoreOptions } from './file-secret-store';
export { OWNER_ONLY_FILE_MODE, OWNER_ONLY_FOLDER_MODE, ownerOnlyFolder, windowsOwnerOnlyArgs, windowsOwnerOnlyFolderArgs, type OwnerOnlyOptions } from './owner-only';
export {
  defaultTiming,
  deviceOsOf,
  memorySecretStore,
  type Clock,
  type DeviceOs,
  type JournalPoint,
  type LogDestination,
  type SecretStore,
  type StationDeps,
  type StationTiming,
} from './deps';
export { createStationLogger, Scrubber, type StationLogger } from './logging';
export { nativeReaders, noReaders, readerPreferenceOf, type LocalServiceHandle, type ManagedLocalService, type NativeReadersOptions, type ReadersFacade, type ReaderSideSettings } from './readers';
export {
  LocalDeviceServiceController,
  deviceServiceOrigins,
  officialServiceRuns,
  type DeviceServiceControllerOptions,
  type DeviceServiceSettings,
  type LocalDeviceServiceView,
  type OfficialServiceWatch,
} from './device-service';
export { ProvisioningError, provisioningFilePath, readProvisioningFile, type StationProvisioning } from './provisioning';
