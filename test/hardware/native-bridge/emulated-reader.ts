// What the driver tests over a socat PTY share: one emulated device for a describe block, the
// readers a test opens on its host side (closed after each test, with the device's faults cleared
// and the finger lifted), and how a test reads a reader's states and failures.
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { FingerprintReader, ReaderError, ReaderState } from '../../../native-bridge/drivers/reader';
import { startEmulatedDevice, type EmulatedDevice, type EmulatorLaunch } from '../../../native-bridge/emulators/harness';
import { SerialTransport } from '../../../native-bridge/transports/serial';

/** The states a reader went through, errors with their code: `['idle', 'error:timeout']`. */
export function kinds(states: ReaderState[]): string[] {
  return states.map((s) => (s.kind === 'error' ? `error:${s.code}` : s.kind));
}

/** The error an operation fails with; a test fails if it succeeds. */
export async function failure(promise: Promise<unknown>): Promise<ReaderError> {
  try {
    await promise;
  } catch (error) {
    return error as ReaderError;
  }
  throw new Error('expected the operation to fail');
}

/**
 * Resolves once `condition` holds, checked every few ms: tests wait for what they need to have
 * happened instead of sleeping for a guess. Fails after `withinMs` (generous: a loaded machine is
 * slow, not broken), naming what it waited for.
 */
export async function eventually(what: string, condition: () => boolean | Promise<boolean>, withinMs = 10_000): Promise<void> {
  const deadline = performance.now() + withinMs;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error(`waited ${withinMs} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export interface OpenedReader<R> {
  readonly reader: R;
  readonly transport: SerialTransport;
  /** Every state the reader announced, in order. */
  readonly states: ReaderState[];
}

/**
 * Registers in the calling describe block: the emulated device `launch` describes, started before
 * the block's tests and stopped after them, and after each test the readers it opened closed, the
 * device's faults cleared and the finger lifted. `reader(options)` opens the host side at
 * `baudRate` and builds a reader on it with `make`. `device` is filled in when the block's tests
 * start: read it inside tests and hooks only.
 */
export function useEmulatedReader<R extends FingerprintReader, O>(
  launch: EmulatorLaunch,
  baudRate: number,
  make: (transport: SerialTransport, options: O | undefined) => R,
): { readonly device: EmulatedDevice; reader(options?: O): Promise<OpenedReader<R>> } {
  const device = {} as EmulatedDevice;
  const open: R[] = [];

  beforeAll(async () => {
    Object.assign(device, await startEmulatedDevice(launch));
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((r) => r.close()));
    await device.control.request('clear-faults');
    await device.control.request('lift');
  });
  afterAll(async () => {
    await device.stop?.();
  });

  return {
    device,
    async reader(options) {
      const transport = await SerialTransport.open(device.hostPath, { baudRate });
      const created = make(transport, options);
      const states: ReaderState[] = [];
      created.onStateChange((s) => states.push(s));
      open.push(created);
      return { reader: created, transport, states };
    },
  };
}
