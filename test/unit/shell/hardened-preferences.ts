// The security flags every renderer the shell creates must carry, written out here rather than
// read from electron/main/web-preferences.ts, so a flag dropped there fails the tests that use it.
import { expect } from 'vitest';

export function expectHardened(prefs: object): void {
  expect(prefs).toMatchObject({
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    enableWebSQL: false,
    plugins: false,
    disableBlinkFeatures: 'Auxclick',
  });
  expect(prefs).not.toHaveProperty('enableBlinkFeatures');
}
