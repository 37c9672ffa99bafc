import type { HidApi, HidDeviceInfo } from './node-hid';
import { CP2110_PRODUCT_ID, CP2110_VENDOR_ID } from './reports';

export interface Cp2110Bridge {
  /** The path node-hid opens: a hidraw node, an IOService path or a Windows device path. */
  readonly path: string;
  readonly serialNumber?: string;
  readonly manufacturer?: string;
  readonly product?: string;
  readonly release?: number;
}

/** CP2110 bridges by their Silicon Labs VID/PID; entries without an openable path are skipped. */
export async function listCp2110Bridges(hid: HidApi): Promise<Cp2110Bridge[]> {
  const devices = await hid.devices(CP2110_VENDOR_ID, CP2110_PRODUCT_ID);
  return devices.filter(isCp2110).flatMap(toBridge);
}

export function isCp2110(device: HidDeviceInfo): boolean {
  return device.vendorId === CP2110_VENDOR_ID && device.productId === CP2110_PRODUCT_ID;
}

function toBridge(device: HidDeviceInfo): Cp2110Bridge[] {
  if (!device.path) return [];
  return [
    {
      path: device.path,
      ...(device.serialNumber ? { serialNumber: device.serialNumber } : {}),
      ...(device.manufacturer ? { manufacturer: device.manufacturer } : {}),
      ...(device.product ? { product: device.product } : {}),
      ...(device.release !== undefined ? { release: device.release } : {}),
    },
  ];
}
