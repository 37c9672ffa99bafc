// The suite in four groups, run one after the other (sequence.groupOrder), chosen by file name:
//   0 unit + integration  in parallel, a worker per core: no Chromium, no stopwatch
//   1 timing              `*.timing.test.ts`, one file at a time: the few tests that measure
//                         wall-clock time (a latency injected, a retry's wait), with nothing else
//                         of ours competing for the 2 cores
//   2 hardware            one file at a time: reader drivers over socat PTYs against emulator
//                         processes paced to the baud rate, umockdev
//   3 browser             `*.browser.test.ts`, wherever it lives: Chromium (every screen on the real
//                         station core, the e2e flows through station:web, the sandbox's
//                         authorization page), itself several processes
// test/unit/suite-groups.test.ts holds every test file to these names. `npx vitest run <file or
// folder>` still runs just that; `--project browser` runs one group.
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

const browserFiles = 'test/**/*.browser.test.ts';
const timingFiles = 'test/**/*.timing.test.ts';
const tests = (folder: string): string => `test/${folder}/**/*.test.{ts,tsx}`;

export default defineConfig({
  test: {
    // Inherited by every project (`extends: true`); arrays are concatenated, so no `include` here.
    exclude: ['node_modules/**', 'test/fixtures/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: [tests('unit')], exclude: [browserFiles, timingFiles], sequence: { groupOrder: 0 }, maxWorkers: availableParallelism() },
      },
      {
        extends: true,
        test: { name: 'integration', include: [tests('integration')], exclude: [browserFiles, timingFiles], sequence: { groupOrder: 0 }, maxWorkers: availableParallelism() },
      },
      {
        extends: true,
        test: { name: 'timing', include: [timingFiles], sequence: { groupOrder: 1 }, maxWorkers: 1 },
      },
      {
        extends: true,
        test: { name: 'hardware', include: [tests('hardware')], exclude: [browserFiles, timingFiles], sequence: { groupOrder: 2 }, maxWorkers: 1 },
      },
      {
        extends: true,
        test: { name: 'browser', include: [browserFiles], sequence: { groupOrder: 3 }, maxWorkers: 1 },
      },
    ],
  },
});
