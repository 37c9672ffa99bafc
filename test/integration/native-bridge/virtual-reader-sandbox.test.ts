// The virtual reader against the real conformance sandbox (electron/sandbox), served through the
// local device service exactly as the sandbox's authorization page calls it: GET /status, then
// POST /capture {hint: {patient_id}, finger?} from the sandbox's origin.
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, PATIENTS, type RunningSandbox } from '../../../electron/sandbox';
import { matchFinger } from '../../../electron/sandbox/world/fingerprints';
import { VirtualReader } from '../../../native-bridge/drivers/virtual-reader';
import { singleReaderSource } from '../../../native-bridge/service/device-source';
import { startLocalDeviceService, type LocalDeviceService } from '../../../native-bridge/service/server';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function setUp(): Promise<{ sandbox: RunningSandbox; service: LocalDeviceService; reader: VirtualReader }> {
  const sandbox = await startSandbox({ port: 0, seed: 'virtual-reader-test' });
  cleanups.push(() => sandbox.close());
  const reader = new VirtualReader({ sandboxUrl: sandbox.url, fingerDelayMs: 20 });
  cleanups.push(() => reader.close());
  const service = await startLocalDeviceService({ devices: singleReaderSource(reader), allowedOrigins: [sandbox.url], port: 0 });
  cleanups.push(() => service.close());
  return { sandbox, service, reader };
}

const fromPage = (sandbox: RunningSandbox, service: LocalDeviceService, path: string, body?: unknown) =>
  fetch(`${service.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { origin: sandbox.url, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

describe('the virtual reader with the real sandbox', () => {
  const patient = PATIENTS.find((p) => p.nationalId === '30000001')!;

  it("captures a template the sandbox matches to the demo patient's enrolled finger", async () => {
    const { sandbox, service } = await setUp();
    const status = (await (await fromPage(sandbox, service, '/status')).json()) as { devices: { status: string; model?: string }[] };
    expect(status.devices).toEqual([expect.objectContaining({ deviceId: 'virtual', status: 'connected' })]);

    const response = await fromPage(sandbox, service, '/capture', { hint: { patient_id: patient.crId }, finger: 'LEFT_INDEX' });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(sandbox.url);
    const body = (await response.json()) as { template: string; templateBytes: number; protocol: string };
    expect(body).toMatchObject({ templateBytes: 512, protocol: 'virtual' });
    expect(matchFinger(patient, Buffer.from(body.template, 'base64'))).toBe('LEFT_INDEX');
  });

  it('presents a finger the sandbox matches to no one when the trainer asks for a rejection', async () => {
    const { sandbox, service, reader } = await setUp();
    reader.setMode('non-matching');
    const response = await fromPage(sandbox, service, '/capture', { hint: { patient_id: patient.crId } });
    const body = (await response.json()) as { template: string };
    for (const p of PATIENTS) expect(matchFinger(p, Buffer.from(body.template, 'base64'))).toBeNull();
  });

  it('has nothing to present for the patient whose fingerprints are unusable', async () => {
    const { sandbox, service } = await setUp();
    const unusable = PATIENTS.find((p) => p.fingerprintsUnusable)!;
    const response = await fromPage(sandbox, service, '/capture', { hint: { patient_id: unusable.crId } });
    const body = (await response.json()) as { template: string };
    expect(matchFinger(unusable, Buffer.from(body.template, 'base64'))).toBeNull();
  });
});
