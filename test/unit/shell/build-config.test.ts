// What can be proven of packaging without the Electron download: the configuration and the fuses.
import { FuseV1Options, FuseVersion } from '@electron/fuses';
import { describe, expect, it } from 'vitest';
import config, { NAPI_PREBUILT, REBUILT_FOR_ELECTRON, rebuildNativeModules } from '../../../build/electron-builder.config';
import { ELECTRON_FUSES, FusesLibraryTooOldError, fuseConfig, fuseSettings } from '../../../build/fuses';
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

  // Electron 45's fuse wire as @electron/fuses 2.x names it (FuseV1Options): nine fuses.
  const electron45Wire = Object.fromEntries(ELECTRON_FUSES.map((name, index) => [name, index]));

  it("sets every fuse of Electron 45's wire: runAsNode off, cookie encryption on, the app only from asar, no file:// privileges", () => {
    expect(ELECTRON_FUSES).toHaveLength(9);
    const windows = fuseConfig('win32', electron45Wire) as unknown as Record<string, unknown>;
    expect(windows.version).toBe(FuseVersion.V1);
    expect(windows.strictlyRequireAllFuses).toBe(true);
    for (let index = 0; index < ELECTRON_FUSES.length; index++) expect(typeof windows[index]).toBe('boolean');
    const settings = fuseSettings('win32');
    expect(settings).toMatchObject({
      RunAsNode: false,
      EnableCookieEncryption: true,
      OnlyLoadAppFromAsar: true,
      GrantFileProtocolExtraPrivileges: false,
      EnableNodeOptionsEnvironmentVariable: false,
      EnableNodeCliInspectArguments: false,
    });
  });

  it('turns asar integrity on where Electron checks it (Windows, whose resource electron-builder 26 writes; macOS), off on Linux', () => {
    expect(fuseSettings('win32').EnableEmbeddedAsarIntegrityValidation).toBe(true);
    expect(fuseSettings('darwin').EnableEmbeddedAsarIntegrityValidation).toBe(true);
    expect(fuseSettings('linux').EnableEmbeddedAsarIntegrityValidation).toBe(false);
    expect((fuseConfig('win32', electron45Wire) as unknown as Record<number, boolean>)[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(true);
  });

  it('stops the build when the installed @electron/fuses does not know a fuse of the wire, naming the upgrade', () => {
    const known = Object.keys(FuseV1Options).filter((key) => Number.isNaN(Number(key)));
    if (known.includes('WasmTrapHandlers')) expect(() => fuseConfig('win32', FuseV1Options)).not.toThrow();
    else expect(() => fuseConfig('win32', FuseV1Options)).toThrow(FusesLibraryTooOldError);
    const { WasmTrapHandlers: _dropped, ...older } = electron45Wire;
    expect(() => fuseConfig('linux', older)).toThrow(/WasmTrapHandlers.*@electron\/fuses@\^2/);
  });

  it('flips the fuses for the platform being packed, after packing', async () => {
    const flipped: unknown[] = [];
    const context = { electronPlatformName: 'win32', packager: { addElectronFuses: async (_context: unknown, config: unknown) => void flipped.push(config) } };
    const afterPack = config.afterPack as (context: unknown) => Promise<void>;
    const known = Object.keys(FuseV1Options).filter((key) => Number.isNaN(Number(key)));
    if (!known.includes('WasmTrapHandlers')) {
      await expect(afterPack(context)).rejects.toThrow(FusesLibraryTooOldError);
      return;
    }
    await afterPack(context);
    expect(flipped).toEqual([fuseConfig('win32', FuseV1Options)]);
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
