// node-hid is an optional native piece: its binding needs hidraw/libudev (Linux), IOKit (macOS) or
// the Windows HID stack, and a prebuild for this platform. Loading it must never take the station
// down, so it is imported lazily, the binding is touched once inside a try, and the outcome is a
// status value the station can show ("HID readers unavailable: …") instead of an exception.

import type * as NodeHid from 'node-hid';

/** What this project needs of a HID device listing entry (node-hid's `Device`). */
export interface HidDeviceInfo {
  readonly vendorId: number;
  readonly productId: number;
  readonly path?: string | undefined;
  readonly serialNumber?: string | undefined;
  readonly manufacturer?: string | undefined;
  readonly product?: string | undefined;
  readonly release?: number | undefined;
  readonly interface?: number | undefined;
  readonly usagePage?: number | undefined;
  readonly usage?: number | undefined;
}

/** The subset of node-hid's `HIDAsync` this project uses (async API only: never block the main thread). */
export interface HidDeviceHandle {
  write(data: number[] | Buffer): Promise<number>;
  sendFeatureReport(data: number[] | Buffer): Promise<number>;
  getFeatureReport(reportId: number, length: number): Promise<Buffer>;
  on(event: 'data', listener: (data: Buffer) => void): unknown;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  removeAllListeners(event?: 'data' | 'error'): unknown;
  close(): Promise<void>;
}

export interface HidApi {
  devices(vendorId?: number, productId?: number): Promise<HidDeviceInfo[]>;
  open(path: string): Promise<HidDeviceHandle>;
}

export type HidAvailability =
  | { readonly available: true; readonly hidapiVersion: string }
  | { readonly available: false; readonly reason: string };

type NodeHidModule = typeof NodeHid;

let loading: Promise<{ api: HidApi; availability: HidAvailability } | { api?: undefined; availability: HidAvailability }> | undefined;

/**
 * Loads node-hid once per process. Resolves, never rejects: `api` is present only when the native
 * binding loaded; `availability` says why not otherwise.
 */
export function loadNodeHid(): Promise<{ api?: HidApi; availability: HidAvailability }> {
  loading ??= (async () => {
    let hid: NodeHidModule;
    try {
      const imported = (await import('node-hid')) as NodeHidModule & { default?: NodeHidModule };
      hid = imported.default ?? imported;
    } catch (error) {
      return { availability: { available: false, reason: `node-hid is not installed: ${describe(error)}` } };
    }
    let hidapiVersion: string;
    try {
      // The binding is loaded lazily by node-hid; this is the first call that touches it.
      hidapiVersion = hid.getHidapiVersion();
    } catch (error) {
      return { availability: { available: false, reason: `node-hid's native binding did not load: ${describe(error)}` } };
    }
    const api: HidApi = {
      devices: (vendorId, productId) =>
        vendorId === undefined || productId === undefined ? hid.devicesAsync() : hid.devicesAsync(vendorId, productId),
      open: async (path) => (await hid.HIDAsync.open(path)) as unknown as HidDeviceHandle,
    };
    return { api, availability: { available: true, hidapiVersion } };
  })();
  return loading;
}

export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
