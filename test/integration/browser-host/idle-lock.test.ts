// Issue 20, defect 2: the idle lock never fired in browser mode, because the screens' polling
// (work.queue every minute, and every command but station.*) counted as the nurse's activity: with a
// one-minute lock and a window that only polled, the station was still open after 80 s. Here the
// real core behind the real browser host, a bridge client that only polls what the screens poll and
// listens to the events, and the machine's clock (on which idle time is counted) moved by the test.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startBrowserHost, type BrowserHost } from '../../../electron/browser-host';
import { personCommands, type CommandName } from '../../../electron/contract';
import { eventually, fastTiming, startWorld, type StationHandle, type World } from '../station/harness';
import { connectBridge, type BridgeClient } from './bridge-client';

const ADMIN = { name: 'IT officer', role: 'administrator' as const, pin: '771199' };
const secret = 'per-launch-secret-for-the-idle-lock-test-0123456789';

/** What the screens send by themselves: the minute's queue, the claims, views after events, the status, readers, settings. */
const POLLS: readonly [CommandName, unknown][] = [
  ['work.queue', {}],
  ['claims.list', {}],
  ['workflow.list', {}],
  ['station.status', {}],
  ['readers.state', {}],
  ['settings.get', {}],
  ['patient.recent', {}],
];

let world: World;
let s: StationHandle;
let host: BrowserHost;
let client: BridgeClient;
let dir: string;
let machineNow: number;

beforeEach(async () => {
  machineNow = Date.parse('2026-03-04T09:00:00Z');
  world = await startWorld();
  s = await world.station({
    extra: {
      idleClock: { now: () => machineNow },
      timing: { ...fastTiming, idleCheckMs: 20 },
      provisioning: { source: 'launcher', settings: {}, staff: [ADMIN] },
    },
  });
  await s.ok('station.unlock', { pin: ADMIN.pin });
  await s.ok('settings.update', { idleLockMinutes: 1 });
  dir = await mkdtemp(path.join(tmpdir(), 'idhini-idle-'));
  await writeFile(path.join(dir, 'index.html'), '<!doctype html><title>Idhini</title>');
  host = await startBrowserHost({ core: s.station.hosted, rendererDir: dir, secret, log: s.station.log });
  client = await connectBridge(host.url, secret);
});

afterEach(async () => {
  client.close();
  await host.close();
  await world.close();
  await rm(dir, { recursive: true, force: true });
});

const lockedEvents = () => client.received.map((text) => JSON.parse(text) as { type: string; event?: { type: string; reason?: string } }).filter((f) => f.type === 'event' && f.event?.type === 'station.locked');

/** Moves the machine's clock on by `seconds`, polling every 5 s of it as the screens would; answers whether the station is still open. */
async function pollFor(seconds: number): Promise<void> {
  for (let passed = 0; passed < seconds; passed += 5) {
    machineNow += 5000;
    for (const [name, input] of POLLS) await client.invoke(name, input);
  }
}

async function isLocked(): Promise<boolean> {
  const status = await client.invoke('station.status', {});
  return (status.value as { locked: boolean }).locked;
}

describe('the idle lock in browser mode', () => {
  it('locks at the set time in a window that only polls: the screens’ polling is no person', async () => {
    await pollFor(55);
    expect(await isLocked()).toBe(false);
    await pollFor(5);
    await eventually(isLocked, (locked) => locked, 'the idle lock, one minute after the last person acted');
    expect(lockedEvents().map((f) => f.event?.reason)).toEqual(['idle']);
    // Locked, the polls get LOCKED and keep nothing awake; the next sign-in opens it again.
    expect((await client.invoke('work.queue', {})).error?.code).toBe('LOCKED');
    await pollFor(20);
    expect(await isLocked()).toBe(true);
    expect((await client.invoke('station.unlock', { pin: ADMIN.pin })).ok).toBe(true);
  });

  it('a person’s act pushes it back: her input (station.reportActivity) and what she does, not what the screens read', async () => {
    await pollFor(40);
    expect((await client.invoke('station.reportActivity', {})).ok).toBe(true);
    await pollFor(50);
    expect(await isLocked()).toBe(false);
    expect((await client.invoke('settings.update', { language: 'sw' })).ok).toBe(true);
    await pollFor(55);
    expect(await isLocked()).toBe(false);
    await pollFor(10);
    await eventually(isLocked, (locked) => locked, 'the idle lock, a minute after her last act');
  });

  it('tells when it will lock on the station’s clock, unmoved by polling', async () => {
    const left = async () => {
      const status = (await client.invoke('station.status', {})).value as { lockAt: string; now: string };
      return Date.parse(status.lockAt) - Date.parse(status.now);
    };
    expect(await left()).toBeGreaterThan(59_900);
    await pollFor(30);
    // 30 s of the machine's time passed with nothing but polls: half the minute is left.
    expect(await left()).toBeGreaterThan(29_900);
    expect(await left()).toBeLessThanOrEqual(30_000);
  });

  it('holds the contract’s line between a person and the screens for every command the screens poll', () => {
    for (const [name] of POLLS) expect(personCommands.has(name), name).toBe(false);
    for (const name of ['workflow.get', 'authorizationView.setArea', 'consent.checkFingerprint', 'claims.get', 'elective.refreshPreauth', 'prescription.check', 'visit.preview'] as const) {
      expect(personCommands.has(name), name).toBe(false);
    }
    for (const name of ['station.reportActivity', 'patient.lookUp', 'consent.confirmSms', 'visit.addLine', 'settings.update'] as const) expect(personCommands.has(name), name).toBe(true);
  });
});
