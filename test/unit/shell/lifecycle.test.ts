import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { PowerMonitorApi, StationContentsApi, StationSessionApi } from '../../../electron/main/electron-api';
import { IdleLock, resetRenderer } from '../../../electron/main/idle-lock';
import { APP_ENTRY_URL } from '../../../electron/main/origins';
import { watchRendererProcess } from '../../../electron/main/recovery';
import { applyUpdatePolicy, decideUpdatePolicy, updatePolicyFile } from '../../../electron/main/update-policy';
import { FakeContents, FakePowerMonitor, FakeSession, asApi, recordingLog } from './fake-electron';

function idleSetUp(minutes = 5) {
  const powerMonitor = new FakePowerMonitor();
  const calls: string[] = [];
  let tick: (() => void) | null = null;
  const lock = new IdleLock({
    powerMonitor: asApi<PowerMonitorApi>(powerMonitor),
    idleMinutes: () => minutes,
    lock: async (reason) => void calls.push(`lock:${reason}`),
    reportActivity: async () => void calls.push('activity'),
    log: recordingLog(),
    timers: { setInterval: (callback) => (tick = callback), clearInterval: () => (tick = null) },
    checkEverySeconds: 15,
  });
  return { powerMonitor, calls, lock, tick: () => tick?.() };
}

describe('idle lock', () => {
  it('reports activity while the nurse works and locks once the system has been idle long enough', async () => {
    const { powerMonitor, calls, lock } = idleSetUp(5);
    powerMonitor.idleSeconds = 3;
    await lock.check();
    powerMonitor.idleSeconds = 299;
    await lock.check();
    powerMonitor.idleSeconds = 300;
    await lock.check();
    powerMonitor.idleSeconds = 600;
    await lock.check();
    expect(calls).toEqual(['activity', 'lock:idle']);
    powerMonitor.idleSeconds = 1;
    await lock.check();
    powerMonitor.idleSeconds = 301;
    await lock.check();
    expect(calls).toEqual(['activity', 'lock:idle', 'activity', 'lock:idle']);
  });

  it('reads the idle time on its interval once started, and stops', async () => {
    const { powerMonitor, calls, lock, tick } = idleSetUp(1);
    lock.start();
    powerMonitor.idleSeconds = 61;
    tick();
    await vi.waitFor(() => expect(calls).toEqual(['lock:idle']));
    lock.stop();
    powerMonitor.idleSeconds = 0;
    tick();
    expect(calls).toEqual(['lock:idle']);
  });

  it('locks at once when the screen locks or the machine suspends', async () => {
    const { powerMonitor, calls, lock } = idleSetUp();
    lock.start();
    powerMonitor.emit('lock-screen');
    powerMonitor.emit('suspend');
    await vi.waitFor(() => expect(calls).toEqual(['lock:system', 'lock:system']));
  });

  it('clears the renderer: authorization view closed, storage and cache cleared, renderer loaded afresh', async () => {
    const contents = new FakeContents();
    const session = new FakeSession('station');
    let closed = 0;
    await resetRenderer({
      contents: () => asApi<StationContentsApi>(contents),
      session: asApi<StationSessionApi>(session),
      closeAuthorizationView: () => void closed++,
      log: recordingLog(),
    });
    expect(closed).toBe(1);
    expect(session.cleared).toEqual([{ storages: expect.arrayContaining(['localstorage', 'indexdb', 'cookies', 'cachestorage', 'serviceworkers']) }]);
    expect(session.cacheCleared).toBe(1);
    expect(contents.loaded).toEqual([APP_ENTRY_URL]);
  });
});

describe('render-process-gone recovery', () => {
  function setUp() {
    const contents = new FakeContents();
    let now = 0;
    const restarts: number[] = [];
    const gaveUp: string[] = [];
    watchRendererProcess({
      contents: asApi<StationContentsApi>(contents),
      restart: async () => void restarts.push(now),
      giveUp: (details) => void gaveUp.push(details.reason),
      log: recordingLog(),
      now: () => now,
    });
    return { contents, restarts, gaveUp, advance: (ms: number) => (now += ms) };
  }

  it('restarts the renderer after a crash, but not after a clean exit', () => {
    const { contents, restarts } = setUp();
    contents.emit('render-process-gone', {}, { reason: 'clean-exit', exitCode: 0 });
    expect(restarts).toHaveLength(0);
    contents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 139 });
    contents.emit('render-process-gone', {}, { reason: 'oom', exitCode: 1 });
    expect(restarts).toHaveLength(2);
  });

  it('gives up on a renderer that dies three times within a minute, and recovers after a quiet minute', () => {
    const { contents, restarts, gaveUp, advance } = setUp();
    for (let i = 0; i < 4; i++) {
      contents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 1 });
      advance(1000);
    }
    expect(restarts).toHaveLength(3);
    expect(gaveUp).toEqual(['crashed']);
    advance(60_000);
    contents.emit('render-process-gone', {}, { reason: 'killed', exitCode: 9 });
    expect(restarts).toHaveLength(4);
  });
});

describe('auto-update policy', () => {
  it('is read from the packaged resources only: IDHINI_UPDATE_POLICY counts in a development run alone', () => {
    const log = recordingLog();
    const resourcesPath = path.join('opt', 'Idhini', 'resources');
    const env = { IDHINI_UPDATE_POLICY: path.join('tmp', 'evil-policy.json') };
    expect(updatePolicyFile({ isPackaged: true, env, resourcesPath, log })).toBe(path.join(resourcesPath, 'update-policy.json'));
    expect(log.lines).toEqual([expect.objectContaining({ level: 'warn', message: expect.stringMatching(/IDHINI_UPDATE_POLICY ignored/) })]);
    expect(updatePolicyFile({ isPackaged: false, env, resourcesPath, log })).toBe(env.IDHINI_UPDATE_POLICY);
    expect(updatePolicyFile({ isPackaged: true, env: {}, resourcesPath, log })).toBe(path.join(resourcesPath, 'update-policy.json'));
  });

  const packaged = { platform: 'win32', isPackaged: true };
  it('is off unless configured', () => {
    expect(decideUpdatePolicy({ ...packaged, fileText: null })).toMatchObject({ enabled: false, reason: expect.stringMatching(/not configured/) });
    expect(decideUpdatePolicy({ ...packaged, fileText: '{"enabled": false}' })).toMatchObject({ enabled: false });
    expect(decideUpdatePolicy({ ...packaged, fileText: 'not json' })).toMatchObject({ enabled: false });
    expect(decideUpdatePolicy({ ...packaged, fileText: '{"enabled": true}' })).toMatchObject({ enabled: false });
    expect(decideUpdatePolicy({ ...packaged, fileText: '{"enabled": true, "feedUrl": "http://updates.example.com"}' })).toMatchObject({ enabled: false });
    expect(decideUpdatePolicy({ ...packaged, fileText: '{"enabled": true, "feedUrl": "https://u.example.com", "extra": 1}' })).toMatchObject({ enabled: false });
  });

  it('is on with an https feed in a packaged Windows build, off in development and on Linux', () => {
    const fileText = '{"enabled": true, "feedUrl": "https://updates.example.com/idhini", "checkEveryHours": 12}';
    expect(decideUpdatePolicy({ ...packaged, fileText })).toEqual({ enabled: true, feedUrl: 'https://updates.example.com/idhini', checkEveryMs: 12 * 3_600_000 });
    expect(decideUpdatePolicy({ fileText, platform: 'win32', isPackaged: false })).toMatchObject({ enabled: false });
    expect(decideUpdatePolicy({ fileText, platform: 'linux', isPackaged: true })).toMatchObject({ enabled: false });
  });

  it('never touches the updater when off', () => {
    const updater = vi.fn();
    applyUpdatePolicy({ enabled: false, reason: 'not configured' }, updater, recordingLog());
    expect(updater).not.toHaveBeenCalled();
  });

  it('sets the feed and checks now and on the interval when on', () => {
    const api = { setFeedURL: vi.fn(), checkForUpdates: vi.fn(), on: vi.fn() };
    const intervals: number[] = [];
    applyUpdatePolicy({ enabled: true, feedUrl: 'https://u.example.com/x', checkEveryMs: 1000 }, () => api, recordingLog(), { setInterval: (_cb, ms) => intervals.push(ms) });
    expect(api.setFeedURL).toHaveBeenCalledWith({ url: 'https://u.example.com/x' });
    expect(api.checkForUpdates).toHaveBeenCalledTimes(1);
    expect(intervals).toEqual([1000]);
  });
});
