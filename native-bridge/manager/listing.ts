// The real listings: SerialPort.list() and node-hid's enumeration of the known HID bridges.
import { SerialPort } from 'serialport';
import { loadNodeHid } from '../transports/hid-cp2110/node-hid';
import type { SerialPortListing, UsbId } from './candidates';
import { DEFAULT_KNOWN_HID_BRIDGES } from './candidates';
import type { HidListing } from './manager';

export function listSerialPorts(): Promise<readonly SerialPortListing[]> {
  return SerialPort.list();
}

/**
 * Enumerates only the known HID bridges' VID/PIDs: a full HID enumeration walks every keyboard and
 * mouse on the bus, every 2 s. When node-hid cannot load, the listing is empty and says why.
 */
export async function listHidBridges(known: readonly UsbId[] = DEFAULT_KNOWN_HID_BRIDGES): Promise<HidListing> {
  const { api, availability } = await loadNodeHid();
  if (!api) return { availability, devices: [] };
  const lists = await Promise.all(known.map((b) => api.devices(Number.parseInt(b.vendorId, 16), Number.parseInt(b.productId, 16))));
  return { availability, devices: lists.flat() };
}
