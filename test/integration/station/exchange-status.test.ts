// The station's status follows its exchange calls: a 5xx, a timeout or no answer at all says the
// exchange is not answering (station.status and a station.statusChanged event), and the next answer
// says it is answering again — so the status bar and the screen never disagree.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reachabilityAfter } from '../../../electron/station/session';
import { fastTiming, startWorld, type StationHandle, type World } from './harness';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await fetch(`${world.sandbox.url}/sandbox/faults`, { method: 'DELETE' });
  await world.close();
});

const exchangeState = async (s: StationHandle) => (await s.ok('station.status', {})).exchange.state;
const announced = (s: StationHandle) => s.events.flatMap((e) => (e.type === 'station.statusChanged' ? [e.status.exchange.state] : []));
const clearFaults = async () => void (await fetch(`${world.sandbox.url}/sandbox/faults`, { method: 'DELETE' }));

describe('the exchange in the station status', () => {
  it('is not answering after 503s, and answering again after the next answer, each change announced', async () => {
    const s = await world.station();
    expect(await exchangeState(s)).toBe('reachable');
    await world.control.post('/faults', { fail_rate: 1, status: 503 });
    try {
      expect((await s.refused('patient.lookUp', { idType: 'National ID', idNumber: '30000001' })).code).toBe('EXCHANGE_UNREACHABLE');
      expect(await exchangeState(s)).toBe('unreachable');
      expect(announced(s).at(-1)).toBe('unreachable');
    } finally {
      await clearFaults();
    }
    await s.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000001' });
    expect(await exchangeState(s)).toBe('reachable');
    expect(announced(s).slice(-2)).toEqual(['unreachable', 'reachable']);
  });

  it('is not answering after a call times out', async () => {
    const s = await world.station({ extra: { timing: { ...fastTiming, exchangeTimeoutMs: 300 } } });
    await world.control.post('/faults', { latency_ms: 2000 });
    try {
      expect((await s.refused('patient.lookUp', { idType: 'National ID', idNumber: '30000002' })).code).toBe('EXCHANGE_TIMEOUT');
      expect(await exchangeState(s)).toBe('unreachable');
    } finally {
      await clearFaults();
    }
    await s.ok('patient.lookUp', { idType: 'National ID', idNumber: '30000002' });
    expect(await exchangeState(s)).toBe('reachable');
  });

  it('reads each attempt: a refusal is an answer, a 5xx or silence is not, an abort says nothing', () => {
    expect(reachabilityAfter({ status: 200, errorKind: undefined })).toBe('reachable');
    expect(reachabilityAfter({ status: 422, errorKind: 'rule_violation' })).toBe('reachable');
    expect(reachabilityAfter({ status: 500, errorKind: 'validation' })).toBe('reachable');
    expect(reachabilityAfter({ status: 503, errorKind: 'server' })).toBe('unreachable');
    expect(reachabilityAfter({ status: 500, errorKind: 'server' })).toBe('unreachable');
    expect(reachabilityAfter({ status: undefined, errorKind: 'network' })).toBe('unreachable');
    expect(reachabilityAfter({ status: undefined, errorKind: 'timeout' })).toBe('unreachable');
    expect(reachabilityAfter({ status: undefined, errorKind: 'aborted' })).toBeUndefined();
  });
});
