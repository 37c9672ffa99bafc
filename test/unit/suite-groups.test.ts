// The suite's groups are chosen by file name (vitest.config.ts): `*.browser.test.ts` drives
// Chromium and runs in the browser group, `*.timing.test.ts` measures wall-clock time and runs one
// file at a time with nothing else of ours beside it, the rest of test/unit and test/integration run
// in parallel. A file named wrong would run Chromium or a stopwatch in the parallel group, or run
// nowhere at all; here every test file is held to the rule.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, matchesGlob, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import config from '../../vitest.config';

const root = resolve(import.meta.dirname, '../..');

function filesUnder(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

/** Every test file; test/fixtures holds inputs of tests (files a lint test refuses, say), not tests. */
const testFiles = filesUnder('test').filter((file) => /\.test\.tsx?$/.test(file) && !file.startsWith('test/fixtures/'));

interface Project {
  readonly name: string;
  readonly include: readonly string[];
  readonly exclude: readonly string[];
}

const rootExclude = config.test?.exclude ?? [];
const projects: Project[] = (config.test?.projects ?? []).map((project) => {
  if (typeof project !== 'object' || project === null || !('test' in project) || project.test === undefined) throw new Error('every project is an inline config');
  return { name: project.test.name as string, include: project.test.include ?? [], exclude: [...rootExclude, ...(project.test.exclude ?? [])] };
});

const matchesAny = (file: string, globs: readonly string[]) => globs.some((glob) => matchesGlob(file, glob));
const projectsOf = (file: string) => projects.filter((p) => matchesAny(file, p.include) && !matchesAny(file, p.exclude)).map((p) => p.name);

/** Relative imports of a module, resolved to files under the root (`import type` left out: it loads nothing). */
function importsOf(file: string): string[] {
  const source = readFileSync(join(root, file), 'utf8');
  const specifiers = [...source.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^;]*?from\s+'([^']+)'/gm), ...source.matchAll(/^\s*import\s+'([^']+)'/gm)].map((m) => m[1] as string);
  return specifiers.flatMap((s) => {
    if (s === 'playwright-core') return ['playwright-core'];
    if (!s.startsWith('.')) return [];
    const base = join(dirname(file), s);
    return [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].filter((candidate) => existsSync(join(root, candidate)));
  });
}

const reaches = new Map<string, boolean>();
/** Whether loading the file loads Chromium's driver: playwright-core reached through its imports. */
function drivesChromium(file: string): boolean {
  const known = reaches.get(file);
  if (known !== undefined) return known;
  // A cycle back to a file under way adds nothing its other imports do not.
  reaches.set(file, false);
  const found = importsOf(file).some((dep) => dep === 'playwright-core' || drivesChromium(dep));
  reaches.set(file, found);
  return found;
}

describe('the suite’s groups, by file name', () => {
  it('puts every test file in exactly one group', () => {
    expect(testFiles.length).toBeGreaterThan(100);
    const misplaced = testFiles.map((file) => ({ file, groups: projectsOf(file) })).filter((f) => f.groups.length !== 1);
    expect(misplaced).toEqual([]);
  });

  it('runs every file that drives Chromium in the browser group, and only those', () => {
    const chromium = testFiles.filter((file) => drivesChromium(file));
    expect(chromium.length).toBeGreaterThan(10);
    expect(chromium.filter((file) => !file.endsWith('.browser.test.ts'))).toEqual([]);
    expect(testFiles.filter((file) => file.endsWith('.browser.test.ts') && !chromium.includes(file))).toEqual([]);
    for (const file of chromium) expect(projectsOf(file), file).toEqual(['browser']);
  });

  it('finds Chromium behind a helper module, and not behind a type-only import', () => {
    expect(drivesChromium('test/e2e/support.ts')).toBe(true);
    expect(importsOf('test/e2e/flows.ts')).not.toContain('playwright-core');
  });
});
