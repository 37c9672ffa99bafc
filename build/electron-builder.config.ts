// electron-builder configuration: Linux (AppImage, deb) and Windows (NSIS). `npm run dist` builds the
// renderer and the shell bundles first; see build/README.md for what packaging needs that this
// machine lacks (the Electron download).
import { FuseV1Options } from '@electron/fuses';
import type { Configuration } from 'electron-builder';
import { fuseConfig, type PackagedPlatform } from './fuses';
import { MAIN_BUNDLE } from './paths';

/** Native modules rebuilt against Electron's ABI: better-sqlite3 has no Node-API prebuild. */
export const REBUILT_FOR_ELECTRON = ['better-sqlite3'];
/**
 * Node-API modules whose shipped prebuilds load in Electron as they are (node-hid, serialport's
 * bindings): @electron/rebuild does not recognise their prebuild layout and would rebuild them from
 * source, which needs a compiler on the build machine for nothing.
 */
export const NAPI_PREBUILT = ['node-hid', '@serialport/bindings-cpp'];

export interface RebuildRequest {
  buildPath: string;
  electronVersion: string;
  arch: string;
  platform: NodeJS.Platform;
  onlyModules: string[];
  force: boolean;
}

/** beforeBuild: rebuilds only what must be rebuilt, then tells electron-builder not to rebuild everything. */
export async function rebuildNativeModules(
  context: { appDir: string; electronVersion: string; arch: string; platform: { nodeName: NodeJS.Platform } },
  rebuild: (request: RebuildRequest) => Promise<unknown> = async (request) => (await import('@electron/rebuild')).rebuild(request),
): Promise<false> {
  await rebuild({
    buildPath: context.appDir,
    electronVersion: context.electronVersion,
    arch: context.arch,
    platform: context.platform.nodeName,
    onlyModules: REBUILT_FOR_ELECTRON,
    force: true,
  });
  return false;
}

const config: Configuration = {
  appId: 'ke.idhini.station',
  productName: 'Idhini',
  copyright: 'Idhini contributors',
  directories: { output: 'release', buildResources: 'build/resources' },
  // The main bundle is the entry; package.json itself has no "main" (it is an ESM project).
  extraMetadata: { main: MAIN_BUNDLE },
  files: ['dist/electron/**/*', 'dist/renderer/**/*', 'package.json', '!**/*.map'],
  asar: true,
  asarUnpack: ['**/*.node'],
  npmRebuild: true,
  buildDependenciesFromSource: false,
  beforeBuild: (context) => rebuildNativeModules(context),
  afterPack: async (context) => {
    await context.packager.addElectronFuses(context, fuseConfig(context.electronPlatformName as PackagedPlatform, FuseV1Options));
  },
  extraResources: [{ from: 'build/update-policy.json', to: 'update-policy.json' }],
  linux: {
    target: ['AppImage', 'deb'],
    category: 'MedicalSoftware',
    maintainer: 'Idhini contributors',
    synopsis: 'Biometric consent station for ward nurses',
  },
  deb: {
    // libusb for node-hid's hidraw-less fallback; libsecret so safeStorage has a keyring backend.
    depends: ['libusb-1.0-0', 'libsecret-1-0', 'libnss3', 'libgtk-3-0', 'libxss1', 'libasound2'],
  },
  win: { target: [{ target: 'nsis', arch: ['x64'] }] },
  nsis: {
    oneClick: false,
    perMachine: true,
    allowToChangeInstallationDirectory: false,
    createDesktopShortcut: true,
  },
};

export default config;
