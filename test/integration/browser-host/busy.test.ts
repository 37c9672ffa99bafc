// A bound on the calls in flight (issue 11, defect 10): 1000 look-ups pipelined over one bridge
// connection took 19.5 s and doubled the station's memory. Now one connection has at most
// CALLS_IN_FLIGHT_PER_CONNECTION under way and the station at most STATION_COMMANDS_IN_FLIGHT;
// the rest are answered BUSY at once (retryable, nothing done). The mechanism is proven on smaller
// bounds (the defaults sit above a ward's real traffic and would make the test slow, not stronger).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLS_IN_FLIGHT_PER_CONNECTION, startBrowserHost, type BrowserHost } from '../../../electron/browser-host';
import { errorCatalogue } from '../../../electron/contract';
import { STATION_COMMANDS_IN_FLIGHT } from '../../../electron/station/station';

const PER_CONNECTION = 32;
const PER_STATION = 48;
import { startWorld, type StationHandle, type World } from '../station/harness';
import { connectBridge } from './bridge-client';

let world: World;
let s: StationHandle;
let host: BrowserHost;
let dir: string;
const secret = 'per-launch-secret-for-the-busy-test-0123456789';

beforeAll(async () => {
  world = await startWorld();
  s = await world.station({ extra: { maxCommandsInFlight: PER_STATION } });
  dir = await mkdtemp(path.join(tmpdir(), 'idhini-busy-'));
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'index.html'), '<!doctype html><title>Idhini</title>');
  host = await startBrowserHost({ core: s.station.hosted, rendererDir: dir, secret, log: s.station.log, callsInFlightPerConnection: PER_CONNECTION });
});

afterAll(async () => {
  await host.close();
  await world.close();
  await rm(dir, { recursive: true, force: true });
});

describe('calls in flight', () => {
  it('BUSY is a retryable error, and the default bounds leave room for one window inside the station', () => {
    expect(errorCatalogue.BUSY.retryable).toBe(true);
    expect(STATION_COMMANDS_IN_FLIGHT).toBeGreaterThan(CALLS_IN_FLIGHT_PER_CONNECTION);
  });

  it('1000 look-ups pipelined over one connection: at most the bound are worked on, the rest answered BUSY at once', async () => {
    const client = await connectBridge(host.url, secret);
    const outcomes = await Promise.all(Array.from({ length: 1000 }, () => client.invoke('patient.lookUp', { idType: 'National ID', idNumber: '30000001' })));
    client.close();
    const busy = outcomes.filter((o) => !o.ok && o.error?.code === 'BUSY');
    const done = outcomes.filter((o) => o.ok);
    expect(busy.length + done.length).toBe(1000);
    expect(done.length).toBeGreaterThanOrEqual(PER_CONNECTION);
    // Queued instead of refused, every one would have been done in the end: most were refused at once.
    expect(busy.length).toBeGreaterThan(500);
  });

  it('the station as a whole takes on at most its bound; the others are answered BUSY, nothing done', async () => {
    const auditBefore = (await s.ok('audit.read', { action: 'patient.lookUp' })).total;
    const outcomes = await Promise.all(Array.from({ length: PER_STATION + 40 }, () => s.station.bridge.invoke('patient.lookUp', { idType: 'National ID', idNumber: '30000002' })));
    const busy = outcomes.filter((o) => !o.ok && o.error.code === 'BUSY').length;
    expect(busy).toBe(40);
    expect((await s.ok('audit.read', { action: 'patient.lookUp' })).total - auditBefore).toBe(PER_STATION);
  });
});
