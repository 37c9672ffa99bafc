// The preload of the station window: exposes the station contract as window.idhini and nothing
// else. It runs sandboxed, so it is bundled into one CommonJS file (dist/electron/preload.cjs) by
// build/bundle-shell.ts; only 'electron' stays outside the bundle.
import { contextBridge, ipcRenderer } from 'electron';
import { createPreloadBridge } from './bridge';

contextBridge.exposeInMainWorld('idhini', createPreloadBridge(ipcRenderer));
