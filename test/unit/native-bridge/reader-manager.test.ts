// Discovery and hotplug with @serialport/binding-mock: ports are created and removed between
// polls the way USB adapters come and go. The reader factory opens the mock port for real (so an
// open of an unknown device would show) and puts a fake reader on it.
import { SerialPortMock } from 'serialport';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReaderError } from '../../../native-bridge/drivers/reader';
import type { ReaderCandidate } from '../../../native-bridge/manager/candidates';
import { ReaderManager, type HidListing, type ReaderManagerEvent, type ReaderManagerOptions } from '../../../native-bridge/manager/manager';
import type { HidDeviceInfo } from '../../../native-bridge/transports/hid-cp2110/node-hid';
import { FakeReader } from './fake-reader';

// @serialport/binding-mock's MockBinding, as serialport itself loads it: importing the package
// here would load its ESM build, a second registry of mock ports that SerialPortMock never sees.
const MockBinding = SerialPortMock.binding;

const CH340 = { vendorId: '1a86', productId: '7523', manufacturer: 'QinHeng' };
const CP2102 = { vendorId: '10C4', productId: 'EA60', manufacturer: 'Silicon Labs' };
const ARDUINO = { vendorId: '2341', productId: '0043', manufacturer: 'Arduino (www.arduino.cc)' };

class Harness {
  readonly opened: string[] = [];
  readonly readers: FakeReader[] = [];
  readonly events: ReaderManagerEvent[] = [];
  hid: HidListing = { availability: { available: true, hidapiVersion: 'test' }, devices: [] };
  failProbeOn = new Set<string>();
  clock = 0;
  readonly manager: ReaderManager;

  constructor(options: Partial<ReaderManagerOptions> = {}) {
    this.manager = new ReaderManager({
      listSerialPorts: () => MockBinding.list(),
      listHidDevices: async () => this.hid,
      openReader: (candidate) => this.open(candidate),
      now: () => this.clock,
      ...options,
    });
    this.manager.onEvent((event) => this.events.push(event));
  }

  private async open(candidate: ReaderCandidate) {
    this.opened.push(candidate.path);
    if (candidate.transport === 'serial') {
      const port = new SerialPortMock({ path: candidate.path, baudRate: 57_600 });
      await new Promise<void>((resolve, reject) => port.on('open', resolve).on('error', reject));
      const reader = new FakeReader({ id: `zfm:${candidate.path}`, path: candidate.path });
      const close = reader.close.bind(reader);
      reader.close = async () => {
        await close();
        if (port.isOpen) await new Promise<void>((resolve) => port.close(() => resolve()));
      };
      if (this.failProbeOn.has(candidate.path)) {
        await reader.close();
        throw new ReaderError('timeout', `nothing answered VfyPwd on ${candidate.path}`);
      }
      this.readers.push(reader);
      return { reader, info: await reader.probe() };
    }
    const reader = new FakeReader({ id: `cp2110:${candidate.path}`, path: candidate.path });
    this.readers.push(reader);
    return { reader, info: await reader.probe() };
  }

  async poll() {
    await this.manager.poll();
    await this.manager.settle();
  }

  types() {
    return this.events.map((e) => e.type);
  }

  /** The reader id of every chosen-changed event, in order. */
  chosenIds() {
    return this.events.flatMap((e) => (e.type === 'chosen-changed' ? [e.readerId] : []));
  }
}

let harness: Harness | undefined;
beforeEach(() => MockBinding.reset());
afterEach(async () => {
  await harness?.manager.stop();
  harness = undefined;
  MockBinding.reset();
});

function make(options: Partial<ReaderManagerOptions> = {}) {
  harness = new Harness(options);
  return harness;
}

describe('ReaderManager discovery', () => {
  it('probes a port that appears only when its USB id is a known USB-serial bridge', async () => {
    const h = make();
    MockBinding.createPort('/dev/ttyUSB0', CH340);
    MockBinding.createPort('/dev/ttyACM0', ARDUINO);
    MockBinding.createPort('/dev/ttyS0', {});
    await h.poll();
    expect(h.opened).toEqual(['/dev/ttyUSB0']);
    expect(h.types()).toEqual(['hid-availability', 'device-ignored', 'device-ignored', 'reader-found', 'chosen-changed']);
    const ignored = h.events.filter((e) => e.type === 'device-ignored');
    expect(ignored.map((e) => e.type === 'device-ignored' && e.reason)).toEqual([
      'USB 2341:0043 is not a known USB-serial bridge; the station does not write to it',
      'no USB id is not a known USB-serial bridge; the station does not write to it',
    ]);
    expect(h.manager.chosen?.reader.id).toBe('zfm:/dev/ttyUSB0');
    expect(h.manager.snapshot()).toMatchObject({
      chosenId: 'zfm:/dev/ttyUSB0',
      readers: [{ id: 'zfm:/dev/ttyUSB0', state: { kind: 'idle' }, candidate: { bridge: 'WCH CH340', vendorId: '1a86', productId: '7523' } }],
      ignored: [{ path: '/dev/ttyACM0' }, { path: '/dev/ttyS0' }],
    });
    // Polling again changes nothing and never opens the unknown devices.
    await h.poll();
    expect(h.opened).toEqual(['/dev/ttyUSB0']);
  });

  it('matches USB ids however the platform spells them (Windows gives upper case)', async () => {
    const h = make();
    MockBinding.createPort('COM7', CP2102);
    await h.poll();
    expect(h.opened).toEqual(['COM7']);
    expect(h.manager.snapshot().readers[0]?.candidate.bridge).toBe('Silicon Labs CP210x');
  });

  it('probes an unknown device only when the facility named its port', async () => {
    const h = make({ allowedSerialPaths: ['/dev/ttyACM0'] });
    MockBinding.createPort('/dev/ttyACM0', ARDUINO);
    MockBinding.createPort('/dev/ttyACM1', ARDUINO);
    await h.poll();
    expect(h.opened).toEqual(['/dev/ttyACM0']);
  });

  it('announces a reader absent when its port disappears, and finds it again when it returns', async () => {
    const h = make();
    MockBinding.createPort('/dev/ttyUSB0', CH340);
    await h.poll();
    const first = h.readers[0]!;

    MockBinding.reset();
    await h.poll();
    expect(h.types().slice(-2)).toEqual(['reader-absent', 'chosen-changed']);
    expect(first.closed).toBe(true);
    expect(h.manager.chosen).toBeUndefined();
    expect(h.manager.snapshot().readers).toEqual([]);

    MockBinding.createPort('/dev/ttyUSB0', CH340);
    await h.poll();
    expect(h.types().slice(-2)).toEqual(['reader-found', 'chosen-changed']);
    expect(h.opened).toEqual(['/dev/ttyUSB0', '/dev/ttyUSB0']);
    expect(h.manager.chosen?.reader).toBe(h.readers[1]);
    expect(h.readers[1]).not.toBe(first);
  });

  it('chooses the configured reader when it is there, the first found otherwise', async () => {
    const h = make({ preferred: { serialNumber: '2' } });
    MockBinding.createPort('/dev/ttyUSB0', CH340); // serial number 1
    await h.poll();
    expect(h.manager.chosen?.candidate.path).toBe('/dev/ttyUSB0');

    MockBinding.createPort('/dev/ttyUSB1', CH340); // serial number 2: the preferred one
    await h.poll();
    expect(h.manager.chosen?.candidate.path).toBe('/dev/ttyUSB1');

    // The preferred one is unplugged: the other takes over, and gives way again when it returns.
    MockBinding.reset();
    MockBinding.createPort('/dev/ttyUSB0', CH340); // serial number 1 again
    await h.poll();
    expect(h.manager.chosen?.candidate.path).toBe('/dev/ttyUSB0');
    MockBinding.createPort('/dev/ttyUSB1', CH340);
    await h.poll();
    expect(h.manager.chosen?.candidate.path).toBe('/dev/ttyUSB1');
    expect(h.chosenIds()).toEqual([
      'zfm:/dev/ttyUSB0',
      'zfm:/dev/ttyUSB1',
      'zfm:/dev/ttyUSB0',
      'zfm:/dev/ttyUSB1',
    ]);
  });

  it('follows a preference given later (the station’s settings), by reader id: at once when that reader is there, when it comes otherwise', async () => {
    const h = make();
    MockBinding.createPort('/dev/ttyUSB0', CH340);
    await h.poll();
    MockBinding.createPort('/dev/ttyUSB1', CP2102);
    await h.poll();
    expect(h.manager.chosen?.reader.id).toBe('zfm:/dev/ttyUSB0');
    h.manager.setPreferred({ readerId: 'zfm:/dev/ttyUSB1' });
    expect(h.manager.chosen?.reader.id).toBe('zfm:/dev/ttyUSB1');
    // No preference any more: the reader in use stays.
    h.manager.setPreferred(undefined);
    expect(h.manager.chosen?.reader.id).toBe('zfm:/dev/ttyUSB1');
    // A reader not plugged in yet: the one in use stays until it comes.
    h.manager.setPreferred({ readerId: 'zfm:/dev/ttyUSB2' });
    expect(h.manager.chosen?.reader.id).toBe('zfm:/dev/ttyUSB1');
    MockBinding.createPort('/dev/ttyUSB2', CH340);
    await h.poll();
    expect(h.manager.chosen?.reader.id).toBe('zfm:/dev/ttyUSB2');
    expect(h.chosenIds()).toEqual([
      'zfm:/dev/ttyUSB0',
      'zfm:/dev/ttyUSB1',
      'zfm:/dev/ttyUSB2',
    ]);
  });

  it('keeps the reader in use when a second one appears without a preference', async () => {
    const h = make();
    MockBinding.createPort('/dev/ttyUSB0', CH340);
    await h.poll();
    MockBinding.createPort('/dev/ttyUSB1', CP2102);
    await h.poll();
    expect(h.manager.chosen?.candidate.path).toBe('/dev/ttyUSB0');
    expect(h.manager.snapshot().readers.map((r) => r.id)).toEqual(['zfm:/dev/ttyUSB0', 'zfm:/dev/ttyUSB1']);
  });

  it('reports a known bridge where nothing answers, and tries again only after a while', async () => {
    const h = make({ reprobeAfterMs: 30_000 });
    h.failProbeOn.add('/dev/ttyUSB0');
    MockBinding.createPort('/dev/ttyUSB0', CH340);
    await h.poll();
    expect(h.types()).toEqual(['hid-availability', 'probe-failed']);
    expect(h.manager.snapshot().unanswered).toEqual([
      { candidate: expect.objectContaining({ path: '/dev/ttyUSB0' }), message: 'nothing answered VfyPwd on /dev/ttyUSB0' },
    ]);
    h.clock = 10_000;
    await h.poll();
    expect(h.opened).toHaveLength(1);
    h.failProbeOn.clear();
    h.clock = 30_000;
    await h.poll();
    expect(h.opened).toHaveLength(2);
    expect(h.manager.chosen?.candidate.path).toBe('/dev/ttyUSB0');
  });

  it('passes every state change of a reader on as an event', async () => {
    const h = make();
    MockBinding.createPort('/dev/ttyUSB0', CH340);
    await h.poll();
    const reader = h.readers[0]!;
    await reader.capture({ timeoutMs: 1000 });
    expect(h.events.filter((e) => e.type === 'reader-state').map((e) => e.type === 'reader-state' && e.state.kind)).toEqual([
      'waiting-for-finger',
      'capturing',
      'idle',
    ]);
  });

  it('lets go of a reader whose device vanished while the port stays listed, and probes again', async () => {
    const h = make();
    MockBinding.createPort('/dev/ttyUSB0', CH340);
    await h.poll();
    h.readers[0]!.disconnect();
    await h.poll();
    expect(h.types().slice(-4)).toEqual(['reader-absent', 'chosen-changed', 'reader-found', 'chosen-changed']);
    expect(h.manager.chosen?.reader).toBe(h.readers[1]);
  });

  it('does not unplug everything when a listing fails', async () => {
    let failSerial = false;
    const h = make({ listSerialPorts: () => (failSerial ? Promise.reject(new Error('udev went away')) : MockBinding.list()) });
    MockBinding.createPort('/dev/ttyUSB0', CH340);
    await h.poll();
    failSerial = true;
    await h.poll();
    expect(h.types().at(-1)).toBe('listing-failed');
    expect(h.manager.chosen?.candidate.path).toBe('/dev/ttyUSB0');
  });
});

describe('ReaderManager and HID bridges', () => {
  const cp2110: HidDeviceInfo = { vendorId: 0x10c4, productId: 0xea80, path: '/dev/hidraw3', serialNumber: '0001A2B3', product: 'CP2110 HID USB-to-UART Bridge' };
  const keyboard: HidDeviceInfo = { vendorId: 0x046d, productId: 0xc31c, path: '/dev/hidraw0', product: 'USB Keyboard' };

  it('probes a CP2110 by its VID/PID and never a keyboard', async () => {
    const h = make();
    h.hid = { availability: { available: true, hidapiVersion: 'test' }, devices: [keyboard, cp2110] };
    await h.poll();
    expect(h.opened).toEqual(['/dev/hidraw3']);
    expect(h.manager.snapshot().readers[0]?.candidate).toMatchObject({ transport: 'hid-cp2110', bridge: 'Silicon Labs CP2110', serialNumber: '0001A2B3' });
    h.hid = { ...h.hid, devices: [keyboard] };
    await h.poll();
    expect(h.types().slice(-2)).toEqual(['reader-absent', 'chosen-changed']);
  });

  it('reports node-hid that cannot load as a status, and goes on with serial readers', async () => {
    const h = make();
    h.hid = { availability: { available: false, reason: "node-hid's native binding did not load: libudev.so.1 missing" }, devices: [] };
    MockBinding.createPort('/dev/ttyUSB0', CH340);
    await h.poll();
    expect(h.events[0]).toEqual({ type: 'hid-availability', availability: h.hid.availability });
    expect(h.manager.snapshot().hid).toEqual(h.hid.availability);
    expect(h.manager.chosen?.candidate.path).toBe('/dev/ttyUSB0');
  });
});

describe('ReaderManager polling', () => {
  it('finds a reader plugged in while it polls every interval, and closes readers on stop', async () => {
    const h = make({ pollIntervalMs: 20 });
    const found = new Promise<void>((resolve) => h.manager.onEvent((e) => e.type === 'reader-found' && resolve()));
    h.manager.start();
    await new Promise((resolve) => setTimeout(resolve, 50));
    MockBinding.createPort('/dev/ttyUSB0', CH340);
    await found;
    const reader = h.readers[0]!;
    await h.manager.stop();
    expect(reader.closed).toBe(true);
    expect(h.manager.chosen).toBeUndefined();
  });
});
