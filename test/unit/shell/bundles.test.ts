// The preload as Electron loads it: one CommonJS file that requires only 'electron' (a sandboxed
// preload cannot load anything else), which exposes the contract as window.idhini.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_CHANNEL as MAIN_EVENT, INVOKE_CHANNEL as MAIN_INVOKE } from '../../../electron/main/ipc';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from '../../../electron/preload/bridge';

let dir: string;
let code: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'idhini-preload-'));
  const outfile = path.join(dir, 'preload.cjs');
  // The same options as build/bundle-shell.ts uses for the preload.
  await build({ entryPoints: ['electron/preload/index.ts'], outfile, bundle: true, format: 'cjs', platform: 'node', target: 'node22', external: ['electron'], logLevel: 'silent' });
  code = await readFile(outfile, 'utf8');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function loadPreload() {
  const exposed = new Map<string, Record<string, (...args: unknown[]) => unknown>>();
  const invoked: unknown[][] = [];
  const listeners = new Map<string, ((...args: unknown[]) => void)[]>();
  const electron = {
    contextBridge: { exposeInMainWorld: (key: string, api: Record<string, (...args: unknown[]) => unknown>) => exposed.set(key, api) },
    ipcRenderer: {
      invoke: async (...args: unknown[]) => {
        invoked.push(args);
        return { ok: true, value: { shownBy: 'shell' } };
      },
      on: (channel: string, listener: (...args: unknown[]) => void) => listeners.set(channel, [...(listeners.get(channel) ?? []), listener]),
      removeListener: (channel: string, listener: (...args: unknown[]) => void) => listeners.set(channel, (listeners.get(channel) ?? []).filter((l) => l !== listener)),
    },
  };
  const required: string[] = [];
  const module = { exports: {} };
  new Function('require', 'module', 'exports', code)(
    (name: string) => {
      required.push(name);
      if (name !== 'electron') throw new Error(`a sandboxed preload cannot require ${name}`);
      return electron;
    },
    module,
    module.exports,
  );
  return { exposed, invoked, listeners, required };
}

describe('the preload bundle', () => {
  it('uses the channel names of the main side', () => {
    expect([INVOKE_CHANNEL, EVENT_CHANNEL]).toEqual([MAIN_INVOKE, MAIN_EVENT]);
    expect([INVOKE_CHANNEL, EVENT_CHANNEL]).toEqual(['idhini:invoke', 'idhini:event']);
  });

  it('requires nothing but electron and exposes exactly invoke and subscribe as window.idhini', () => {
    const { exposed, required } = loadPreload();
    expect(required).toEqual(['electron']);
    expect([...exposed.keys()]).toEqual(['idhini']);
    expect(Object.keys(exposed.get('idhini') ?? {}).sort()).toEqual(['invoke', 'subscribe']);
  });

  it('invokes idhini:invoke with {name, input} and hands back the outcome', async () => {
    const { exposed, invoked } = loadPreload();
    const outcome = await exposed.get('idhini')?.invoke?.('authorizationView.setArea', { handle: 'lk_c0ffee42', area: null });
    expect(invoked).toEqual([['idhini:invoke', { name: 'authorizationView.setArea', input: { handle: 'lk_c0ffee42', area: null } }]]);
    expect(outcome).toEqual({ ok: true, value: { shownBy: 'shell' } });
  });

  it('relays idhini:event to subscribers without the IPC event, and unsubscribes', () => {
    const { exposed, listeners } = loadPreload();
    const received: unknown[][] = [];
    const unsubscribe = exposed.get('idhini')?.subscribe?.((...args: unknown[]) => void received.push(args)) as () => void;
    const ipcEvent = { sender: { secretive: true } };
    for (const listener of listeners.get('idhini:event') ?? []) listener(ipcEvent, { type: 'station.unlocked', at: '2025-03-04T09:15:00+03:00' });
    expect(received).toEqual([[{ type: 'station.unlocked', at: '2025-03-04T09:15:00+03:00' }]]);
    unsubscribe();
    expect(listeners.get('idhini:event')).toEqual([]);
  });
});
