// `npm run bench [-- --json]`: runs every module in bench/metrics and reports
// its metrics. A metric module's default export returns one or more measurements; goals are
// reported, not enforced: speed belongs in benchmarks, never in timed tests.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface Metric {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  /** Human-readable goal, e.g. "<= 1.15". */
  readonly goal: string;
}

export type MetricModule = { default: () => Promise<Metric[]> };

const args = process.argv.slice(2);
const json = args.includes('--json');

const metricsDir = join(dirname(fileURLToPath(import.meta.url)), 'metrics');
const files = readdirSync(metricsDir)
  .filter((f) => /\.ts$/.test(f))
  .sort();

const metrics: Metric[] = [];
for (const file of files) {
  const mod = (await import(pathToFileURL(join(metricsDir, file)).href)) as MetricModule;
  const results = await mod.default();
  metrics.push(...results);
  if (!json) for (const m of results) console.error(`${m.name}: ${m.value} ${m.unit} (goal ${m.goal})`);
}

if (json) process.stdout.write(`${JSON.stringify({ metrics })}\n`);
