// `npm run bench [-- --json] [-- --only NAME]`: runs every module in bench/metrics and reports its
// metrics, each with its goal and whether it was met. A goal missed (or a figure that could not be
// measured) fails that metric, not the suite: the other metrics are still measured and reported,
// and the run ends with a count of what was missed. Speed belongs in benchmarks, never in timed tests.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, runModule, type Metric, type MetricModule } from './metric';

const args = process.argv.slice(2);
const json = args.includes('--json');
/** `--only renderer` runs bench/metrics/renderer.ts alone (a module's file name without .ts). */
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;

const metricsDir = join(dirname(fileURLToPath(import.meta.url)), 'metrics');
const files = readdirSync(metricsDir)
  .filter((f) => /\.ts$/.test(f) && (only === undefined || f === `${only}.ts`))
  .sort();
if (files.length === 0) throw new Error(`no metric module ${only ?? ''} in bench/metrics`);

const metrics: Metric[] = [];
for (const file of files) {
  const results = await runModule((await import(pathToFileURL(join(metricsDir, file)).href)) as MetricModule);
  metrics.push(...results);
  if (!json) for (const m of results) console.error(describe(m));
}

const missed = metrics.filter((m) => m.met === false);
if (json) process.stdout.write(`${JSON.stringify({ metrics })}\n`);
else console.error(missed.length === 0 ? 'Every goal met.' : `${missed.length} of ${metrics.filter((m) => m.met !== null).length} goals missed: ${missed.map((m) => m.name).join(', ')}`);
