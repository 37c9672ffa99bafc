import { describe, expect, it } from 'vitest';
import type { StationEvent } from '../../../electron/contract';
import { createDispatcher } from '../../../electron/main/dispatch';
import { EVENT_CHANNEL, INVOKE_CHANNEL, registerStationIpc } from '../../../electron/main/ipc';
import { eventExamples, outputExamples } from '../contract/examples';
import type { IpcMainApi } from '../../../electron/main/electron-api';
import { FakeContents, FakeIpcMain, asApi, recordingLog } from './fake-electron';
import { testStation } from './test-station';

const topFrame = { url: 'app://idhini/index.html', parent: null };

function setUp() {
  const ipcMain = new FakeIpcMain();
  const station = new FakeContents();
  const core = testStation();
  const log = recordingLog();
  const observed: { name: string; ok: boolean }[] = [];
  const events: StationEvent[] = [];
  const setAreas: unknown[] = [];
  const dispatch = createDispatcher({
    core,
    setArea: (input) => {
      setAreas.push(input);
      return { ok: true, value: { shownBy: 'shell' } };
    },
    observe: (name, outcome) => void observed.push({ name, ok: outcome.ok }),
    log,
  });
  const undo = registerStationIpc({ ipcMain: asApi<IpcMainApi>(ipcMain), station: () => station, dispatch, subscribe: (l) => core.subscribe(l), observeEvent: (e) => void events.push(e), log });
  const call = (message: unknown, sender: { id: number } = station, frame: { url: string; parent: object | null } | null = topFrame) =>
    ipcMain.invoke(INVOKE_CHANNEL, sender, frame, message) as Promise<{ ok: boolean; value?: unknown; error?: { code: string; details?: { field?: string } } }>;
  return { ipcMain, station, core, log, observed, events, setAreas, call, undo };
}

describe('IPC: the contract over idhini:invoke / idhini:event', () => {
  it('carries a valid call from the station window to the core and its answer back', async () => {
    const { call, core, observed } = setUp();
    const outcome = await call({ name: 'station.status', input: {} });
    expect(outcome).toEqual({ ok: true, value: outputExamples['station.status'] });
    expect(core.calls).toEqual([{ name: 'station.status', input: {} }]);
    expect(observed).toEqual([{ name: 'station.status', ok: true }]);
  });

  it('refuses a call from a subframe of the station window', async () => {
    const { call, core, log } = setUp();
    const outcome = await call({ name: 'settings.get', input: {} }, undefined, { url: 'app://idhini/index.html', parent: topFrame });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'VALIDATION', details: { field: 'sender' } } });
    expect(core.calls).toHaveLength(0);
    expect(log.lines.some((l) => l.message === 'IPC call refused: foreign sender')).toBe(true);
  });

  it('refuses a call from another webContents (the authorization view, say), even from its top frame', async () => {
    const { call, core } = setUp();
    const other = new FakeContents();
    expect(await call({ name: 'settings.get', input: {} }, other, { url: 'https://payer.example.com/', parent: null })).toMatchObject({ ok: false });
    expect(await call({ name: 'settings.get', input: {} }, other, topFrame)).toMatchObject({ ok: false });
    expect(core.calls).toHaveLength(0);
  });

  it('refuses a call from the station window once it shows anything but app://idhini', async () => {
    const { call, core } = setUp();
    for (const url of ['https://payer.example.com/', 'file:///tmp/index.html', 'app://idhini.attacker.net/', 'data:text/html,x', 'about:blank']) {
      expect(await call({ name: 'settings.get', input: {} }, undefined, { url, parent: null })).toMatchObject({ ok: false, error: { code: 'VALIDATION' } });
    }
    expect(await call({ name: 'settings.get', input: {} }, undefined, null)).toMatchObject({ ok: false });
    expect(core.calls).toHaveLength(0);
  });

  it('refuses invalid payloads before the core sees them', async () => {
    const { call, core } = setUp();
    expect(await call({ name: 'station.selfDestruct', input: {} })).toMatchObject({ ok: false, error: { code: 'UNKNOWN_COMMAND' } });
    expect(await call(null)).toMatchObject({ ok: false, error: { code: 'UNKNOWN_COMMAND' } });
    expect(await call('settings.get')).toMatchObject({ ok: false, error: { code: 'UNKNOWN_COMMAND' } });
    expect(await call({ name: 'patient.lookUp', input: { idType: 'National ID', idNumber: '../../etc' } })).toMatchObject({ ok: false, error: { code: 'VALIDATION' } });
    expect(await call({ name: 'settings.get', input: { extra: 'key' } })).toMatchObject({ ok: false, error: { code: 'VALIDATION' } });
    expect(core.calls).toHaveLength(0);
  });

  it('answers authorizationView.setArea in the shell, not the core', async () => {
    const { call, core, setAreas } = setUp();
    const input = { handle: 'lk_c0ffee42', area: { x: 10, y: 20, width: 300, height: 400 } };
    expect(await call({ name: 'authorizationView.setArea', input })).toEqual({ ok: true, value: { shownBy: 'shell' } });
    expect(setAreas).toEqual([input]);
    expect(core.calls).toHaveLength(0);
  });

  it('turns an answer outside the contract into INTERNAL: nothing extra reaches the renderer', async () => {
    const { call, core } = setUp();
    core.answer('facility.signIn', { ok: true, value: { ...outputExamples['facility.signIn'], accessToken: 'eyJ.secret' } });
    const outcome = await call({ name: 'facility.signIn', input: {} });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    expect(JSON.stringify(outcome)).not.toContain('eyJ.secret');
    core.answer('facility.signIn', { ok: false, error: { code: 'SIGN_IN_FAILED', message: 'x', retryable: false, token: 'eyJ.secret' } });
    expect(JSON.stringify(await call({ name: 'facility.signIn', input: {} }))).not.toContain('eyJ.secret');
  });

  it('turns a core that throws into INTERNAL and logs no message from it', async () => {
    const { call, core, log } = setUp();
    core.invoke = async () => {
      throw new Error('upstream said client_secret=demo-hospital-secret');
    };
    expect(await call({ name: 'settings.get', input: {} })).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    expect(JSON.stringify(log.lines)).not.toContain('demo-hospital-secret');
  });

  it('relays events checked against the contract to the station window only', async () => {
    const { core, station, events } = setUp();
    for (const event of eventExamples) core.emit(event);
    expect(station.sent.map((s) => s.channel)).toEqual(eventExamples.map(() => EVENT_CHANNEL));
    expect(station.sent.map((s) => s.args[0])).toEqual(eventExamples);
    expect(events).toHaveLength(eventExamples.length);
  });

  it('drops an event outside the contract', () => {
    const { core, station, log } = setUp();
    core.emit({ type: 'station.locked', reason: 'idle', at: '2025-03-04T09:15:00+03:00', consentToken: 'tok' });
    core.emit({ type: 'something.else' });
    expect(station.sent).toHaveLength(0);
    expect(log.lines.filter((l) => l.message === 'station event refused: outside the contract')).toHaveLength(2);
  });

  it('undoes its registration', () => {
    const { ipcMain, core, undo } = setUp();
    undo();
    expect(ipcMain.handlers.size).toBe(0);
    expect(core.listenerCount()).toBe(0);
  });
});
