import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ReaderError, type ReaderState } from '../../../native-bridge/drivers/reader';
import { NON_MATCHING_TEMPLATE_BYTES, VirtualReader } from '../../../native-bridge/drivers/virtual-reader';
import { singleReaderSource } from '../../../native-bridge/service/device-source';
import { startLocalDeviceService } from '../../../native-bridge/service/server';
import { freePort } from './hardware-service-stand-in';

const template = (seed: number) => Buffer.from(Uint8Array.from({ length: 512 }, (_, i) => (i * seed + seed) & 0xff));
const ENROLLED: Record<string, { finger: string; template: string }[]> = {
  'CR-30000001': [
    { finger: 'right-thumb', template: template(3).toString('base64') },
    { finger: 'left-index', template: template(5).toString('base64') },
  ],
};

/** A stand-in for the sandbox's GET /sandbox/patients/{cr_id}/fingerprints. */
async function sandboxStandIn() {
  const requests: string[] = [];
  const server = http.createServer((request, response) => {
    requests.push(request.url ?? '');
    const match = /^\/sandbox\/patients\/([^/]+)\/fingerprints$/.exec(request.url ?? '');
    const fingers = match ? ENROLLED[decodeURIComponent(match[1]!)] : undefined;
    if (!fingers) {
      response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'NOT_FOUND' }));
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(fingers));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url, requests };
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function reader(sandboxUrl: string, fingerDelayMs = 30) {
  const r = new VirtualReader({ sandboxUrl, fingerDelayMs });
  const states: ReaderState['kind'][] = [];
  r.onStateChange((s) => states.push(s.kind));
  cleanups.push(() => r.close());
  return { r, states };
}

describe('the virtual reader of training mode', () => {
  it('says it is virtual in its ReaderInfo', async () => {
    const { r } = reader('http://127.0.0.1:9');
    // Nothing to probe: ready at once, so GET /status shows it connected before any probe.
    expect(r.state.kind).toBe('idle');
    expect(await r.probe()).toEqual({
      id: 'virtual',
      protocol: 'virtual',
      transport: 'virtual',
      path: 'virtual',
      model: 'Idhini virtual reader (training mode, no hardware)',
      capabilities: { identify: false, verify: false, led: false },
    });
    expect(r.state.kind).toBe('idle');
  });

  it("presents the hinted demo patient's enrolled finger, the named one if asked", async () => {
    const sandbox = await sandboxStandIn();
    const { r, states } = reader(sandbox.url);
    await r.probe();
    const first = await r.capture({ timeoutMs: 5000, hint: { patientId: 'CR-30000001' } });
    expect(Buffer.from(first.template).equals(template(3))).toBe(true);
    expect(first).toMatchObject({ protocol: 'virtual', templateBytes: 512 });
    const named = await r.capture({ timeoutMs: 5000, hint: { patientId: 'CR-30000001' }, finger: 'left-index' });
    expect(Buffer.from(named.template).equals(template(5))).toBe(true);
    expect(sandbox.requests).toEqual(['/sandbox/patients/CR-30000001/fingerprints', '/sandbox/patients/CR-30000001/fingerprints']);
    expect(states).toEqual(['waiting-for-finger', 'capturing', 'idle', 'waiting-for-finger', 'capturing', 'idle']);
  });

  it('presents a finger that matches no one when the trainer asks for it', async () => {
    const sandbox = await sandboxStandIn();
    const { r } = reader(sandbox.url);
    r.setMode('non-matching');
    r.presentPatient('CR-30000001');
    const captures = [await r.capture({ timeoutMs: 5000 }), await r.capture({ timeoutMs: 5000 })];
    for (const capture of captures) {
      expect(capture.templateBytes).toBe(NON_MATCHING_TEMPLATE_BYTES);
      expect(Buffer.from(capture.template).equals(template(3))).toBe(false);
      expect(Buffer.from(capture.template).equals(template(5))).toBe(false);
    }
    expect(Buffer.from(captures[0]!.template).equals(Buffer.from(captures[1]!.template))).toBe(false);
    r.setMode('enrolled');
    expect(Buffer.from((await r.capture({ timeoutMs: 5000 })).template).equals(template(3))).toBe(true);
  });

  it('presents a stranger’s finger for a patient the sandbox does not know', async () => {
    const sandbox = await sandboxStandIn();
    const { r } = reader(sandbox.url);
    const capture = await r.capture({ timeoutMs: 5000, hint: { patientId: '99999999' } });
    expect(capture.templateBytes).toBe(NON_MATCHING_TEMPLATE_BYTES);
  });

  it('needs to know the patient', async () => {
    const { r } = reader('http://127.0.0.1:9');
    await expect(r.capture({ timeoutMs: 5000 })).rejects.toMatchObject({ code: 'not-supported' });
    expect(r.state).toMatchObject({ kind: 'error', code: 'not-supported' });
  });

  it('times out without a finger, can be cancelled, and goes back to idle', async () => {
    const sandbox = await sandboxStandIn();
    const { r } = reader(sandbox.url, 200);
    await expect(r.capture({ timeoutMs: 50, hint: { patientId: 'CR-30000001' } })).rejects.toMatchObject({ code: 'no-finger' });
    expect(r.state.kind).toBe('idle');
    const abort = new AbortController();
    const pending = r.capture({ timeoutMs: 5000, signal: abort.signal, hint: { patientId: 'CR-30000001' } });
    await expect(r.capture({ timeoutMs: 5000, hint: { patientId: 'CR-30000001' } })).rejects.toMatchObject({ code: 'busy' });
    abort.abort();
    await expect(pending).rejects.toMatchObject({ code: 'cancelled' });
    expect(r.state.kind).toBe('idle');
  });

  it('reports an unreachable sandbox as a disconnected reader', async () => {
    const { r } = reader(`http://127.0.0.1:${await freePort()}`);
    const failure = await r.capture({ timeoutMs: 5000, hint: { patientId: 'CR-30000001' } }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ReaderError);
    expect(failure).toMatchObject({ code: 'disconnected', message: expect.stringMatching(/training sandbox at http:\/\/127\.0\.0\.1:\d+ did not answer/) });
    expect(r.state).toMatchObject({ kind: 'error', code: 'disconnected' });
  });

  it('is closed for good once closed', async () => {
    const { r } = reader('http://127.0.0.1:9');
    await r.probe();
    await r.close();
    expect(r.state.kind).toBe('absent');
    await expect(r.capture({ timeoutMs: 5000, hint: { patientId: 'x' } })).rejects.toMatchObject({ code: 'closed' });
  });

  it('serves the local device service’s POST /capture with the hinted patient', async () => {
    const sandbox = await sandboxStandIn();
    const { r } = reader(sandbox.url);
    const service = await startLocalDeviceService({ devices: singleReaderSource(r), allowedOrigins: [sandbox.url], port: 0 });
    cleanups.push(() => service.close());
    const response = await fetch(`${service.url}/capture`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: sandbox.url },
      body: JSON.stringify({ hint: { patient_id: 'CR-30000001' }, timeout_ms: 5000 }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ template: template(3).toString('base64'), templateBytes: 512, deviceId: 'virtual', protocol: 'virtual' });
  });
});
