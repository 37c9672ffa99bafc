// The fingerprint path of training mode end to end: the station's readers facade over the local
// device service and the virtual reader; the patient's page asks the device service for a capture
// (as the sandbox's authorization page does), presents it, and the station's look-up sees the
// match. work_station_id comes from the device service's workstationID.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VirtualReader } from '../../../native-bridge/drivers/virtual-reader';
import { singleReaderSource, startLocalDeviceService, type LocalDeviceService } from '../../../native-bridge/service';
import { nativeReaders } from '../../../electron/station';
import { eventually, presentAtPage, startWorld, stepOf, type World } from './harness';

let world: World;
let service: LocalDeviceService;
let reader: VirtualReader;
beforeAll(async () => {
  world = await startWorld();
  reader = new VirtualReader({ sandboxUrl: world.sandbox.url, fingerDelayMs: 10 });
  service = await startLocalDeviceService({ devices: singleReaderSource(reader, await reader.probe()), allowedOrigins: [world.sandbox.url], port: 0, workstationID: 'WS-TRAINING-07' });
});
afterAll(async () => {
  await service.close();
  await reader.close();
  await world.close();
});

describe('fingerprint by the virtual reader through the local device service', () => {
  it('the page captures from the device service; the station sees the match and names the workstation', async () => {
    const info = await reader.probe();
    const readers = nativeReaders({ localService: service, localWorkstationId: 'WS-TRAINING-07', reader, readerInfo: info });
    const s = await world.station({ readers });
    const snapshot = await s.ok('readers.state', {});
    expect(snapshot).toMatchObject({ reader: { state: 'idle', virtual: true, connection: 'virtual' }, localDeviceService: { state: 'running', url: service.url } });
    expect((await s.ok('readers.list', {})).items).toEqual([expect.objectContaining({ connection: 'virtual', path: null })]);

    const cr = await world.control.crIdOf('30000001');
    const patient = await s.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000001' });
    const consent = await s.ok('consent.begin', { patientRef: patient.patientRef });
    const started = await s.ok('consent.startFingerprint', { workflowId: consent.workflowId });
    const authorization = [...world.sandbox.context.state.authorizations.values()].at(-1)!;
    expect(authorization.request).toMatchObject({ work_station_id: 'WS-TRAINING-07', authorizing_device_os: 'windows', agent_id: '22334455', provider: 'FID-00-000004-0', ekyc_provider_id: 'Idhini Demo Hospital', factors: ['SHA'], is_integration: true, is_emergency: false });

    // The page: capture at the station's device service, then present the template to the exchange.
    const capture = await fetch(`${service.url}/capture`, { method: 'POST', headers: { 'content-type': 'application/json', origin: world.sandbox.url }, body: JSON.stringify({ hint: { patient_id: cr } }) });
    expect(capture.status).toBe(200);
    const { template } = (await capture.json()) as { template: string };
    expect(s.events.some((e) => e.type === 'capture.requested')).toBe(true);
    expect((await presentAtPage(stepOf(started)!.fingerprint!.link!.url, template)).matched).toBe(true);
    const verified = await eventually(() => s.ok('workflow.get', { workflowId: consent.workflowId }), (v) => v.state === 'visit-opened', 'the match, and the visit it opens');
    expect(stepOf(verified)).toMatchObject({ stage: 'verified' });
    expect(s.events.some((e) => e.type === 'readers.changed')).toBe(true);
  });
});
