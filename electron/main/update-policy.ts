// The auto-update policy: off unless the facility's IT configured it. A consent station must not
// change under a nurse's hands because a server said so; updates are something IT turns on, with a
// feed it controls, over https. The policy file (update-policy.json beside the app's resources, where
// the installer puts it) says {"enabled": true, "feedUrl": "https://…", "checkEveryHours": 6}. Only a
// development run may point elsewhere with IDHINI_UPDATE_POLICY: in a packaged station an environment
// variable would let whoever starts the app choose what it runs next.
import path from 'node:path';
import { z } from 'zod';
import type { ShellLog } from './electron-api';

const policyFile = z.strictObject({
  enabled: z.boolean(),
  feedUrl: z.url({ protocol: /^https$/ }).optional(),
  checkEveryHours: z.number().min(1).max(168).optional(),
});

/** Where the update policy is read from: the packaged resources always; IDHINI_UPDATE_POLICY in a development run only. */
export function updatePolicyFile(input: { isPackaged: boolean; env: Readonly<Record<string, string | undefined>>; resourcesPath: string; log: ShellLog }): string {
  const shipped = path.join(input.resourcesPath, 'update-policy.json');
  const fromEnv = input.env.IDHINI_UPDATE_POLICY;
  if (fromEnv === undefined || fromEnv === '') return shipped;
  if (input.isPackaged) {
    input.log.warn({}, 'IDHINI_UPDATE_POLICY ignored: a packaged station reads its update policy from its resources only');
    return shipped;
  }
  return fromEnv;
}

export type UpdatePolicy = { enabled: false; reason: string } | { enabled: true; feedUrl: string; checkEveryMs: number };

export interface UpdatePolicyInput {
  /** The policy file's text, or null when there is none. */
  fileText: string | null;
  platform: string;
  /** app.isPackaged: a development run never updates itself. */
  isPackaged: boolean;
}

export function decideUpdatePolicy(input: UpdatePolicyInput): UpdatePolicy {
  if (input.fileText === null) return { enabled: false, reason: 'not configured (no update policy file)' };
  let json: unknown;
  try {
    json = JSON.parse(input.fileText);
  } catch {
    return { enabled: false, reason: 'the update policy file is not valid JSON' };
  }
  const parsed = policyFile.safeParse(json);
  if (!parsed.success) return { enabled: false, reason: `the update policy file is invalid: ${parsed.error.issues[0]?.message ?? 'unknown field'}` };
  const policy = parsed.data;
  if (!policy.enabled) return { enabled: false, reason: 'turned off in the update policy file' };
  if (policy.feedUrl === undefined) return { enabled: false, reason: 'enabled without an https feedUrl' };
  if (!input.isPackaged) return { enabled: false, reason: 'a development run does not update itself' };
  // Electron's autoUpdater speaks Squirrel (Windows, macOS); Linux packages update through the
  // system's package manager (deb) or by replacing the AppImage.
  if (input.platform !== 'win32' && input.platform !== 'darwin') return { enabled: false, reason: `no built-in updater on ${input.platform}` };
  return { enabled: true, feedUrl: policy.feedUrl, checkEveryMs: (policy.checkEveryHours ?? 6) * 3_600_000 };
}

/** Electron's autoUpdater, by the calls the policy uses. */
export interface AutoUpdaterApi {
  setFeedURL(options: { url: string }): void;
  checkForUpdates(): void;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** Applies the policy: nothing at all when off; otherwise a check now and at the set interval. */
export function applyUpdatePolicy(policy: UpdatePolicy, updater: () => AutoUpdaterApi, log: ShellLog, timers: { setInterval(callback: () => void, ms: number): unknown } = globalThis): void {
  if (!policy.enabled) {
    log.info({ reason: policy.reason }, 'auto-update off');
    return;
  }
  const api = updater();
  api.on('error', (error) => log.warn({ error: error.name }, 'update check failed'));
  api.setFeedURL({ url: policy.feedUrl });
  api.checkForUpdates();
  timers.setInterval(() => api.checkForUpdates(), policy.checkEveryMs);
  log.info({ feed: new URL(policy.feedUrl).host }, 'auto-update on');
}
