import { describe, expect, it } from 'vitest';
import { Cp2110TransportError, openCp2110Transport } from '../../../native-bridge/transports/hid-cp2110/transport';
import { FakeCp2110, fakeHidApi } from './fake-cp2110';

const PATH = 'fake-hid-1';

async function open(device = new FakeCp2110(), uart = {}) {
  const transport = await openCp2110Transport(PATH, { hid: fakeHidApi(new Map([[PATH, device]])), uart });
  return { device, transport };
}

describe('Cp2110Transport', () => {
  it('opens by enabling the UART, configuring 57600 8N1, then purging both FIFOs', async () => {
    const { device, transport } = await open();
    expect(device.featureReports.map((r) => Buffer.from(r).toString('hex'))).toEqual(['4101', '500000e10000000300', '4303']);
    expect(transport.kind).toBe('hid-cp2110');
    expect(transport.baudRate).toBe(57_600);
    await transport.close();
    expect(device.closed).toBe(true);
  });

  it('sends writes as ≤63-byte reports in order and keeps concurrent writes apart', async () => {
    const { device, transport } = await open();
    const first = Uint8Array.from({ length: 100 }, (_, i) => i);
    const second = Uint8Array.from({ length: 5 }, () => 0xee);
    await Promise.all([transport.write(first), transport.write(second)]);
    expect(device.dataReports.map((r) => r[0])).toEqual([63, 37, 5]);
    expect(device.sentBytes()).toEqual([...first, ...second]);
    await transport.close();
  });

  it('hands on the payload of each input report and skips non-data reports', async () => {
    const { device, transport } = await open();
    const chunks: string[] = [];
    transport.onData((chunk) => chunks.push(Buffer.from(chunk).toString('hex')));
    device.receive([0x02, 0xef, 0x01]);
    device.receive([0x00, 0x00]);
    device.receive([0x03, 0xff, 0xff, 0xff, 0, 0, 0]);
    expect(chunks).toEqual(['ef01', 'ffffff']);
    await transport.close();
  });

  it('changes the baud rate in place and checks the chip took it', async () => {
    const { device, transport } = await open();
    await transport.setBaudRate(115_200);
    expect(Buffer.from(device.featureReports.at(-1)!).toString('hex')).toBe('500001c20000000300');
    expect(transport.baudRate).toBe(115_200);
    await transport.close();
  });

  it('fails to open when the chip answers with another configuration than the one written', async () => {
    const device = new FakeCp2110();
    device.uartConfigOverride = [0x00, 0x00, 0x25, 0x80, 0x00, 0x00, 0x03, 0x00];
    await expect(open(device)).rejects.toThrow(/asked for 57600 8N1, it runs 9600 8N1/);
    expect(device.closed).toBe(true);
  });

  it('refuses an impossible configuration before touching the device', async () => {
    const device = new FakeCp2110();
    await expect(open(device, { baudRate: 50 })).rejects.toThrow(/300\.\.1000000 baud/);
    expect(device.featureReports.map((r) => r[0])).toEqual([0x41]);
  });

  it('purges the FIFOs on flush', async () => {
    const { device, transport } = await open();
    await transport.flush();
    expect(Buffer.from(device.featureReports.at(-1)!).toString('hex')).toBe('4303');
    await transport.close();
  });

  it('reports a read error as a disconnect, once, and refuses later writes', async () => {
    const { device, transport } = await open();
    const lost: Error[] = [];
    transport.onDisconnect((error) => lost.push(error));
    device.emit('error', new Error('hid_read_timeout: unexpected poll error (device disconnected)'));
    device.emit('error', new Error('again'));
    expect(lost).toHaveLength(1);
    expect(lost[0]!.message).toMatch(/went away: hid_read_timeout/);
    await expect(transport.write(Uint8Array.of(1))).rejects.toThrow(/is gone/);
    await transport.close();
  });

  it('reports a failed write as a disconnect', async () => {
    const { device, transport } = await open();
    const lost: Error[] = [];
    transport.onDisconnect((error) => lost.push(error));
    device.failWrites = new Error('No such device');
    await expect(transport.write(Uint8Array.of(1, 2))).rejects.toThrow(Cp2110TransportError);
    expect(lost.map((e) => e.message)).toEqual([`The CP2110 bridge at ${PATH} went away: No such device`]);
  });

  it('does not report a requested close as a disconnect', async () => {
    const { device, transport } = await open();
    const lost: Error[] = [];
    transport.onDisconnect((error) => lost.push(error));
    await transport.close();
    device.emit('error', new Error('closing'));
    expect(lost).toEqual([]);
    await expect(transport.write(Uint8Array.of(1))).rejects.toThrow(/closed/);
  });

  it('says clearly when the path cannot be opened', async () => {
    await expect(openCp2110Transport('nowhere', { hid: fakeHidApi(new Map()) })).rejects.toThrow(
      /Could not open the CP2110 bridge at nowhere: cannot open device/,
    );
  });
});
