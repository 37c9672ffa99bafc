// The Node versions package.json's `engines` promises are ones every production dependency runs
// on: the lowest version it admits, and the Node running this suite. What npm installs is read from
// package-lock.json (a dependency is production unless the lock marks it dev), so a new version
// that asks for a later Node fails here, by name, before a ward PC finds out.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string }; dependencies: Record<string, string> };
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; dev?: boolean; devOptional?: boolean; engines?: { node?: string } | string[] }>;
};

/** Production packages of the lock with the Node range each declares. */
const production = Object.entries(lock.packages)
  .filter(([path, entry]) => path !== '' && entry.dev !== true && entry.devOptional !== true)
  .map(([path, entry]) => ({ name: `${path.replace(/^.*node_modules\//, '')}@${entry.version ?? '?'}`, node: Array.isArray(entry.engines) ? undefined : entry.engines?.node }));

/** The product's TypeScript (what ships and what the launchers run), tests and benchmarks left out. */
function productSources(): string[] {
  return ['electron', 'renderer', 'native-bridge', 'scripts', 'build'].flatMap((dir) =>
    readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && /\.(ts|tsx|mjs)$/.test(entry.name))
      .map((entry) => join(entry.parentPath, entry.name)),
  );
}

describe('engines', () => {
  const lowest = semver.minVersion(pkg.engines.node);

  it('declares a Node range whose lowest version is 20', () => {
    expect(lowest?.major).toBe(20);
  });

  it.each([
    ['the lowest Node package.json admits', lowest?.version ?? ''],
    ['the Node running this suite', process.versions.node],
  ])('has every production dependency run on %s (%s)', (_what, version) => {
    expect(production.length).toBeGreaterThan(50);
    const refusing = production.filter((p) => p.node !== undefined && !semver.satisfies(version, p.node)).map((p) => `${p.name} needs node ${p.node}`);
    expect(refusing).toEqual([]);
  });

  it('lists as a production dependency only what product code imports (an unused one, like @fastify/cors was, is dead weight on every ward PC)', () => {
    const sources = productSources().map((file) => readFileSync(file, 'utf8'));
    // By an import or a require.resolve, in any quotes.
    const imported = (name: string) => sources.some((source) => ["'", '"', '`'].some((q) => source.includes(`${q}${name}${q}`) || source.includes(`${q}${name}/`)));
    expect(Object.keys(pkg.dependencies).filter((name) => !imported(name))).toEqual([]);
  });
});
