// What discovery finds before anything is opened: serial ports and HID devices, named by the
// identity the diff uses (transport + path + serial number + PnP id), and sorted into the ones the
// station may probe and the ones it must leave alone. A probe writes bytes to the device; the
// station never writes to a device it does not recognise as a USB-serial bridge (or a CP2110),
// unless the facility configured that port by name.
import type { HidDeviceInfo } from '../transports/hid-cp2110/node-hid';

export interface UsbId {
  /** Four lowercase hex digits, e.g. '10c4'. */
  readonly vendorId: string;
  readonly productId: string;
  readonly name: string;
}

/** USB-serial bridges that fingerprint modules sit behind (USB-TTL adapters and module boards). */
export const DEFAULT_KNOWN_SERIAL_BRIDGES: readonly UsbId[] = [
  { vendorId: '10c4', productId: 'ea60', name: 'Silicon Labs CP210x' },
  { vendorId: '1a86', productId: '7523', name: 'WCH CH340' },
  { vendorId: '1a86', productId: '5523', name: 'WCH CH341' },
  { vendorId: '1a86', productId: '55d4', name: 'WCH CH9102' },
  { vendorId: '0403', productId: '6001', name: 'FTDI FT232R' },
  { vendorId: '0403', productId: '6015', name: 'FTDI FT-X' },
  { vendorId: '067b', productId: '2303', name: 'Prolific PL2303' },
  { vendorId: '067b', productId: '23a3', name: 'Prolific PL2303GC' },
];

/** HID-to-UART bridges the station drives itself. */
export const DEFAULT_KNOWN_HID_BRIDGES: readonly UsbId[] = [{ vendorId: '10c4', productId: 'ea80', name: 'Silicon Labs CP2110' }];

/** A serial port as SerialPort.list() (and MockBinding.list()) describe it. */
export interface SerialPortListing {
  readonly path: string;
  readonly manufacturer?: string | undefined;
  readonly serialNumber?: string | undefined;
  readonly pnpId?: string | undefined;
  readonly locationId?: string | undefined;
  readonly vendorId?: string | undefined;
  readonly productId?: string | undefined;
}

export interface ReaderCandidate {
  /** transport + path + serial number + PnP id: a device that comes back on another path is another candidate. */
  readonly key: string;
  readonly transport: 'serial' | 'hid-cp2110';
  /** COM3, /dev/ttyUSB0, /dev/cu.usbserial-…, or a HID path. */
  readonly path: string;
  readonly vendorId?: string;
  readonly productId?: string;
  readonly serialNumber?: string;
  readonly manufacturer?: string;
  readonly pnpId?: string;
  /** The known bridge this device is, when it is one. */
  readonly bridge?: string;
}

/** Normalises a USB id as the platforms spell it ('10C4', '0x10c4', 4292) to '10c4'. */
export function usbId(value: string | number | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  const n = typeof value === 'number' ? value : Number.parseInt(value.replace(/^0x/i, ''), 16);
  return Number.isInteger(n) && n >= 0 && n <= 0xffff ? n.toString(16).padStart(4, '0') : undefined;
}

export function candidateKey(c: Pick<ReaderCandidate, 'transport' | 'path' | 'serialNumber' | 'pnpId'>): string {
  return [c.transport, c.path, c.serialNumber ?? '', c.pnpId ?? ''].join('|');
}

function known(list: readonly UsbId[], vendorId: string | undefined, productId: string | undefined): UsbId | undefined {
  return list.find((b) => usbId(b.vendorId) === vendorId && usbId(b.productId) === productId);
}

export function serialCandidate(port: SerialPortListing, knownBridges: readonly UsbId[]): ReaderCandidate {
  const vendorId = usbId(port.vendorId);
  const productId = usbId(port.productId);
  const bridge = known(knownBridges, vendorId, productId);
  const base = {
    transport: 'serial' as const,
    path: port.path,
    ...(vendorId ? { vendorId } : {}),
    ...(productId ? { productId } : {}),
    ...(port.serialNumber ? { serialNumber: port.serialNumber } : {}),
    ...(port.manufacturer ? { manufacturer: port.manufacturer } : {}),
    ...(port.pnpId ? { pnpId: port.pnpId } : {}),
    ...(bridge ? { bridge: bridge.name } : {}),
  };
  return { key: candidateKey(base), ...base };
}

/** A HID device that is a known HID-UART bridge, or undefined (keyboards, FIDO keys… are never candidates). */
export function hidCandidate(device: HidDeviceInfo, knownBridges: readonly UsbId[]): ReaderCandidate | undefined {
  const vendorId = usbId(device.vendorId);
  const productId = usbId(device.productId);
  const bridge = known(knownBridges, vendorId, productId);
  if (!bridge || !device.path) return undefined;
  const base = {
    transport: 'hid-cp2110' as const,
    path: device.path,
    ...(vendorId ? { vendorId } : {}),
    ...(productId ? { productId } : {}),
    ...(device.serialNumber ? { serialNumber: device.serialNumber } : {}),
    ...(device.manufacturer ? { manufacturer: device.manufacturer } : {}),
    bridge: bridge.name,
  };
  return { key: candidateKey(base), ...base };
}
