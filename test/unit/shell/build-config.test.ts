// What can be proven of packaging without the Electron download: the configuration and the fuses.
import { FuseV1Options, FuseVersion } from '@electron/fuses';
import { describe, expect, it } from 'vitest';
import config, { NAPI_PREBUILT, REBUILT_FOR_ELECTRON, rebuildNativeModules } from '../../../build/electron-builder.config';
import { fuses } from '../../../build/fuses';
import { MAIN_BUNDLE } from '../../../build/paths';

describe('packaging configuration', () => {
  it('builds AppImage and deb for Linux and NSIS for Windows', () => {
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
    expect(config.win?.target).toEqual([{ target: 'nsis', arch: ['x64'] }]);
    expect(config.nsis).toMatchObject({ oneClick: false, perMachine: true });
  });

  it('packs the bundles into asar with the main bundle as the entry', () => {
    expect(config.asar).toBe(true);
    expect(config.extraMetadata).toEqual({ main: MAIN_BUNDLE });
    expect(config.files).toEqual(expect.arrayContaining(['dist/electron/**/*', 'dist/renderer/**/*']));
    expect(config.asarUnpack).toEqual(['**/*.node']);
  });

  it('sets every fuse, with runAsNode off, cookie encryption on, the app only from asar and no file:// privileges', () => {
    expect(fuses.version).toBe(FuseVersion.V1);
    expect(fuses.strictlyRequireAllFuses).toBe(true);
    const numeric = Object.values(FuseV1Options).filter((v): v is FuseV1Options => typeof v === 'number');
    for (const option of numeric) expect(typeof fuses[option]).toBe('boolean');
    expect(fuses[FuseV1Options.RunAsNode]).toBe(false);
    expect(fuses[FuseV1Options.EnableCookieEncryption]).toBe(true);
    expect(fuses[FuseV1Options.OnlyLoadAppFromAsar]).toBe(true);
    expect(fuses[FuseV1Options.GrantFileProtocolExtraPrivileges]).toBe(false);
    expect(fuses[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(false);
    expect(fuses[FuseV1Options.EnableNodeCliInspectArguments]).toBe(false);
  });

  it('flips the fuses in the packed binary after packing', async () => {
    const flipped: unknown[] = [];
    const context = { packager: { addElectronFuses: async (_context: unknown, config: unknown) => void flipped.push(config) } };
    const afterPack = config.afterPack as (context: unknown) => Promise<void>;
    await afterPack(context);
    expect(flipped).toEqual([fuses]);
  });

  it('rebuilds only better-sqlite3 for Electron and keeps the Node-API prebuilds of node-hid and serialport', async () => {
    expect(REBUILT_FOR_ELECTRON).toEqual(['better-sqlite3']);
    expect(NAPI_PREBUILT).toEqual(['node-hid', '@serialport/bindings-cpp']);
    const requests: unknown[] = [];
    const answer = await rebuildNativeModules(
      { appDir: '/app', electronVersion: '45.4.1', arch: 'x64', platform: { nodeName: 'win32' } },
      async (request) => void requests.push(request),
    );
    expect(requests).toEqual([{ buildPath: '/app', electronVersion: '45.4.1', arch: 'x64', platform: 'win32', onlyModules: ['better-sqlite3'], force: true }]);
    // false: electron-builder must not go on to rebuild every native module itself.
    expect(answer).toBe(false);
    expect(config.npmRebuild).toBe(true);
    expect(config.buildDependenciesFromSource).toBe(false);
  });

  it('ships an update policy that is off', async () => {
    const { readFile } = await import('node:fs/promises');
    expect(JSON.parse(await readFile('build/update-policy.json', 'utf8'))).toEqual({ enabled: false });
    expect(config.extraResources).toEqual([{ from: 'build/update-policy.json', to: 'update-policy.json' }]);
  });
});
