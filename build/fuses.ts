// Electron's fuses for the packaged app, flipped in the Electron binary after packing (afterPack in
// electron-builder.config.ts). Every fuse of the V1 wire is set explicitly (strictlyRequireAllFuses),
// so an Electron upgrade that adds a fuse fails the build until someone decides it here.
import { FuseV1Options, FuseVersion, type FuseV1Config } from '@electron/fuses';

export const fuses = {
  version: FuseVersion.V1,
  strictlyRequireAllFuses: true,
  // ELECTRON_RUN_AS_NODE would turn the signed app into a general Node runtime.
  [FuseV1Options.RunAsNode]: false,
  // Cookies on disk encrypted with the OS keystore (the station keeps none; the link views are in memory).
  [FuseV1Options.EnableCookieEncryption]: true,
  // NODE_OPTIONS / NODE_EXTRA_CA_CERTS and --inspect would let anyone at the machine inject code or a CA.
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
  [FuseV1Options.EnableNodeCliInspectArguments]: false,
  // Off: electron-builder writes the asar integrity Electron checks on macOS only; on Windows and
  // Linux (our targets) turning it on without that resource would stop the app from starting.
  [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: false,
  // The app runs only from app.asar, never from a loose app/ folder beside it.
  [FuseV1Options.OnlyLoadAppFromAsar]: true,
  [FuseV1Options.LoadBrowserProcessSpecificV8Snapshot]: false,
  // The renderer comes from app://, so file:// gets no privileges beyond a browser's.
  [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
} satisfies FuseV1Config;
