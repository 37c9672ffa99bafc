import { afterEach, describe, expect, it } from 'vitest';
import { HardwareServiceMonitor } from '../../../native-bridge/agent/monitor';
import type { HardwareServiceState } from '../../../native-bridge/agent/status';
import { SCANNER, freePort, startStandIn, type StandIn } from './hardware-service-stand-in';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function standIn(options: { tls?: boolean } = {}): Promise<StandIn> {
  const service = await startStandIn(options);
  cleanups.push(() => service.stop());
  return service;
}

function monitor(baseUrls: string[], options: { pollIntervalMs?: number; timeoutMs?: number } = {}) {
  const m = new HardwareServiceMonitor({ baseUrls, pollIntervalMs: options.pollIntervalMs ?? 60_000, timeoutMs: options.timeoutMs ?? 3000 });
  cleanups.push(() => m.stop());
  return m;
}

/** Resolves with the next state the monitor announces that satisfies the predicate. */
function nextState(m: HardwareServiceMonitor, predicate: (s: HardwareServiceState) => boolean, withinMs = 3000) {
  return new Promise<HardwareServiceState>((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`no matching state within ${withinMs} ms; last ${JSON.stringify(m.state)}`));
    }, withinMs);
    const stop = m.onChange((state) => {
      if (!predicate(state)) return;
      clearTimeout(timer);
      stop();
      resolve(state);
    });
  });
}

describe('HardwareServiceMonitor against a stand-in hardware service', () => {
  it('is ready when a scanner is connected and the agent is signed in, and exposes the workstationID', async () => {
    const service = await standIn();
    const m = monitor([service.baseUrl]);
    const state = await m.check();
    expect(state).toMatchObject({
      kind: 'ready',
      baseUrl: service.baseUrl,
      status: { workstationID: 'WS-KNH-017', devices: [SCANNER], isAuthed: true, version: '2.3.1' },
    });
    expect(m.workstationID).toBe('WS-KNH-017');
  });

  it('tells "no scanner" from "agent not signed in"', async () => {
    const service = await standIn();
    const m = monitor([service.baseUrl]);
    service.status.devices = [];
    expect((await m.check()).kind).toBe('no-scanner');
    service.status.devices = [{ ...SCANNER, status: 'Disconnected' }];
    expect((await m.check()).kind).toBe('no-scanner');
    // A card reader is not a fingerprint scanner.
    service.status.devices = [{ deviceId: 'ACR1252-1', status: 'connected', type: 'ACR1252 NFC card reader' }];
    expect((await m.check()).kind).toBe('no-scanner');
    service.status.devices = [SCANNER];
    service.status.isAuthed = false;
    expect((await m.check()).kind).toBe('agent-signed-out');
    // The workstationID is there whenever the service answers, signed in or not.
    expect(m.workstationID).toBe('WS-KNH-017');
  });

  it('is "not running" when nothing listens, with the reason, and has no workstationID', async () => {
    const port = await freePort();
    const m = monitor([`http://127.0.0.1:${port}`, `https://127.0.0.1:${port}`]);
    const state = await m.check();
    expect(state.kind).toBe('not-running');
    expect(state.kind === 'not-running' && state.reason).toMatch(/connection refused/);
    expect(m.workstationID).toBeUndefined();
  });

  it('tries http, then https with the self-signed certificate of a loopback service', async () => {
    const service = await standIn({ tls: true });
    const m = monitor([`http://localhost:${service.port}`, `https://localhost:${service.port}`]);
    const state = await m.check();
    expect(state).toMatchObject({ kind: 'ready', baseUrl: `https://localhost:${service.port}` });
    // The scheme that answered goes first next time: one request, no failed http attempt.
    const before = service.statusRequests;
    await m.check();
    expect(service.statusRequests).toBe(before + 1);
  });

  it('gives up within the timeout on a service that never answers', async () => {
    const service = await standIn();
    service.hang = true;
    const m = monitor([service.baseUrl], { timeoutMs: 400 });
    const state = await m.check();
    expect(state.kind).toBe('not-running');
    // The request gets what is left of the check's 400 ms (how long that is waited: hardware-service-monitor.timing.test.ts).
    const left = /did not answer within (\d+) ms/.exec(state.kind === 'not-running' ? state.reason : '')?.[1];
    expect(Number(left)).toBeGreaterThan(0);
    expect(Number(left)).toBeLessThanOrEqual(400);
  });

  it('moves between the states on device events, long before the next poll', async () => {
    const service = await standIn();
    const m = monitor([service.baseUrl], { pollIntervalMs: 60_000 });
    const seen: string[] = [];
    m.onChange((state) => seen.push(state.kind));
    const ready = nextState(m, (s) => s.kind === 'ready');
    m.start();
    await ready;
    await waitFor(() => service.socketCount() === 1);

    const unplugged = nextState(m, (s) => s.kind === 'no-scanner');
    service.deviceEvent((s) => (s.devices = []));
    await unplugged;

    const signedOut = nextState(m, (s) => s.kind === 'agent-signed-out');
    service.deviceEvent((s) => {
      s.devices = [SCANNER];
      s.isAuthed = false;
    });
    await signedOut;

    const back = nextState(m, (s) => s.kind === 'ready');
    service.deviceEvent((s) => (s.isAuthed = true));
    await back;

    const stopped = nextState(m, (s) => s.kind === 'not-running');
    await service.stop();
    await stopped;
    expect(seen).toEqual(['ready', 'no-scanner', 'agent-signed-out', 'ready', 'not-running']);
  });

  it('announces a change only when something changed, not on every poll', async () => {
    const service = await standIn();
    const m = monitor([service.baseUrl], { pollIntervalMs: 50 });
    const seen: string[] = [];
    m.onChange((state) => seen.push(state.kind));
    m.start();
    await waitFor(() => service.statusRequests >= 5);
    expect(seen).toEqual(['ready']);
    service.status.version = '2.4.0';
    await waitFor(() => m.state.kind === 'ready' && m.state.status.version === '2.4.0');
    expect(seen).toEqual(['ready', 'ready']);
  });
});

async function waitFor(condition: () => boolean, withinMs = 3000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
