// Fingerprint readers as the nurse must see them: the station's own reader, the exchange's hardware
// service on the workstation (port 18065), and the station's local device service that stands in for
// it. Each failure has its own state, so the screen can say what to do about it.
import { z } from 'zod';
import { noInput, timestamp } from './common';

export const readerState = z.strictObject({
  state: z.enum(['absent', 'idle', 'waiting-for-finger', 'capturing', 'error']),
  readerId: z.string().max(200).nullable(),
  label: z.string().max(200).nullable(),
  connection: z.enum(['serial', 'hid', 'virtual']).nullable(),
  protocol: z.enum(['zfm', 'gt521']).nullable(),
  /** The training-mode reader that presents the demo patients' fingers: always labelled as such. */
  virtual: z.boolean(),
  message: z.string().max(500).nullable(),
});

export const hardwareServiceState = z.strictObject({
  state: z.enum(['not-running', 'no-scanner', 'agent-not-signed-in', 'ready']),
  scanners: z.array(z.strictObject({ deviceId: z.string().max(200), type: z.string().max(100), status: z.string().max(100) })),
  workstationId: z.string().max(200).nullable(),
  version: z.string().max(100).nullable(),
  checkedAt: timestamp.nullable(),
});

export const localDeviceServiceState = z.strictObject({
  state: z.enum(['off', 'running', 'failed']),
  url: z.string().max(300).nullable(),
  message: z.string().max(500).nullable(),
});

/** A page (the payer's, or the sandbox's) asked the local device service for a capture. */
export const captureRequest = z.strictObject({ origin: z.string().max(300), requestedAt: timestamp });

export const readersSnapshot = z.strictObject({
  reader: readerState,
  hardwareService: hardwareServiceState,
  localDeviceService: localDeviceServiceState,
  capture: captureRequest.nullable(),
});

export const readerInfo = z.strictObject({
  readerId: z.string().min(1).max(200),
  label: z.string().max(200),
  connection: z.enum(['serial', 'hid', 'hardware-service', 'virtual']),
  protocol: z.enum(['zfm', 'gt521']).nullable(),
  /** Serial port or HID path as the operating system names it (COM3, /dev/ttyUSB0, …). */
  path: z.string().max(300).nullable(),
});

export const readerCommands = {
  /** The current state; `refresh` probes the readers and the hardware service first. */
  'readers.state': { input: z.strictObject({ refresh: z.boolean().optional() }), output: readersSnapshot },
  /** Readers found now (serial, HID, the hardware service's scanners, the virtual reader). */
  'readers.list': { input: noInput, output: z.strictObject({ items: z.array(readerInfo) }) },
  /** Declines the capture a page asked for. */
  'readers.cancelCapture': { input: noInput, output: readersSnapshot },
};

export const readerEvents = [
  z.strictObject({ type: z.literal('readers.changed'), readers: readersSnapshot }),
  z.strictObject({ type: z.literal('capture.requested'), capture: captureRequest }),
] as const;

export type ReadersSnapshot = z.infer<typeof readersSnapshot>;
