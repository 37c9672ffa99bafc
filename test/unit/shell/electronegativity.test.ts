// Doyensec's Electronegativity over the Electron shell (electron/main and electron/preload, scanned
// together so its global checks see the navigation limits and permission handlers of main when
// judging the whole), through its programmatic API. Any finding not on the allowlist below fails.
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import run from '@doyensec/electronegativity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Findings accepted, each with why. Keep it short: a new finding is a question, not a chore. */
const allowlist: Record<string, string> = {
  // Electronegativity looks for a CSP in webRequest.onHeadersReceived or a <meta> tag. Ours is sent
  // by the app:// protocol handler with every response (electron/main/csp.ts, app-protocol.ts) and
  // proven by test/unit/shell/app-protocol.test.ts.
  CSP_GLOBAL_CHECK: 'CSP set in app:// responses',
};

interface Finding {
  id: string;
  file: string;
  location?: { line: number };
  sample?: string;
  description: string;
}

let dir: string;
let findings: Finding[];
let parseErrors: { file: string; message: string }[];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'idhini-electronegativity-'));
  await cp('electron/main', path.join(dir, 'main'), { recursive: true });
  await cp('electron/preload', path.join(dir, 'preload'), { recursive: true });
  const result = (await run({
    input: dir,
    isRelative: true,
    electronVersionOverride: '45.4.1',
    // The one check that fetches Electron's release list from the network (not reachable here;
    // the Electron version is pinned in package.json and reviewed on upgrade).
    excludeFromScan: ['availablesecurityfixesglobalcheck'],
  })) as { issues: Finding[]; errors: { file: string; message: string }[] };
  findings = result.issues;
  parseErrors = result.errors;
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('electronegativity over electron/main and electron/preload', () => {
  it('parses every file of the shell', () => {
    expect(parseErrors).toEqual([]);
  });

  it('finds nothing outside the allowlist', () => {
    const unexpected = findings
      .filter((finding) => !(finding.id in allowlist))
      .map((finding) => `${finding.id} ${finding.file}:${finding.location?.line ?? 0} ${finding.description} — ${finding.sample ?? ''}`);
    expect(unexpected).toEqual([]);
  });

  it('still runs its checks: the allowlisted finding is there (the scan is not silently empty)', () => {
    expect(findings.map((finding) => finding.id)).toContain('CSP_GLOBAL_CHECK');
  });
});
