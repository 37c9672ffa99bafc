// Electron's fuses for the packaged app, flipped in the Electron binary after packing (afterPack in
// electron-builder.config.ts). Every fuse of Electron 45's V1 wire is set explicitly
// (strictlyRequireAllFuses), so an Electron upgrade that adds a fuse fails the build until someone
// decides it here. The fuses are named, not numbered: the installed @electron/fuses turns each name
// into its place on the wire, and one too old to know a fuse Electron 45 has (before 2.x:
// WasmTrapHandlers) stops the build saying so, rather than leaving that fuse at Electron's default.
import { FuseVersion, type FuseV1Config } from '@electron/fuses';

/** The fuses of Electron 45's wire, by their @electron/fuses names, in wire order. */
export const ELECTRON_FUSES = [
  'RunAsNode',
  'EnableCookieEncryption',
  'EnableNodeOptionsEnvironmentVariable',
  'EnableNodeCliInspectArguments',
  'EnableEmbeddedAsarIntegrityValidation',
  'OnlyLoadAppFromAsar',
  'LoadBrowserProcessSpecificV8Snapshot',
  'GrantFileProtocolExtraPrivileges',
  'WasmTrapHandlers',
] as const;

export type FuseName = (typeof ELECTRON_FUSES)[number];

/** Electron's own platform names, as electron-builder's afterPack context gives them. */
export type PackagedPlatform = 'win32' | 'linux' | 'darwin' | 'mas';

/** What each fuse is set to on a platform. */
export function fuseSettings(platform: PackagedPlatform): Record<FuseName, boolean> {
  return {
    // ELECTRON_RUN_AS_NODE would turn the signed app into a general Node runtime.
    RunAsNode: false,
    // Cookies on disk encrypted with the OS keystore (the station keeps none; the link views are in memory).
    EnableCookieEncryption: true,
    // NODE_OPTIONS / NODE_EXTRA_CA_CERTS and --inspect would let anyone at the machine inject code or a CA.
    EnableNodeOptionsEnvironmentVariable: false,
    EnableNodeCliInspectArguments: false,
    // Electron checks app.asar against the hash electron-builder 26 embeds: a Windows resource (Electron
    // 30 and later) or the macOS Info.plist. Linux has no such check in Electron: left off there, so the
    // table says what the binary does.
    EnableEmbeddedAsarIntegrityValidation: platform !== 'linux',
    // The app runs only from app.asar, never from a loose app/ folder beside it (which would bypass the check above).
    OnlyLoadAppFromAsar: true,
    LoadBrowserProcessSpecificV8Snapshot: false,
    // The renderer comes from app://, so file:// gets no privileges beyond a browser's.
    GrantFileProtocolExtraPrivileges: false,
    // Electron's default: WebAssembly bounds checks by the OS's trap handlers.
    WasmTrapHandlers: true,
  };
}

export class FusesLibraryTooOldError extends Error {
  override readonly name = 'FusesLibraryTooOldError';
}

/**
 * The config @electron/fuses flips for a platform. `options` is that library's FuseV1Options (name →
 * place on the wire); a fuse it does not know stops the build.
 */
export function fuseConfig(platform: PackagedPlatform, options: Readonly<Record<string, unknown>>): FuseV1Config {
  const settings = fuseSettings(platform);
  const config: Record<string | number, unknown> = { version: FuseVersion.V1, strictlyRequireAllFuses: true };
  for (const name of ELECTRON_FUSES) {
    const index = options[name];
    if (typeof index !== 'number') {
      throw new FusesLibraryTooOldError(`@electron/fuses does not know the fuse ${name} of Electron 45's wire: upgrade it to ^2.1.3 (npm install -D @electron/fuses@^2.1.3)`);
    }
    config[index] = settings[name];
  }
  return config as FuseV1Config;
}
