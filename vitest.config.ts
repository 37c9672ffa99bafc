// The suite in three groups, run one after the other (sequence.groupOrder), so the tests that
// measure time never share the 2 cores of CI with the rest:
//   0 unit + integration  in parallel, a worker per core: quick files, no timing on the wire
//   1 hardware            one file at a time: reader drivers over socat PTYs against emulator
//                         processes paced to the baud rate, umockdev
//   2 browser             one file at a time: Chromium (the e2e flows, every screen, the
//                         sandbox's authorization page), itself several processes
// `npx vitest run <file or folder>` still runs just that; `--project hardware` runs one group.
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/** Test files outside test/e2e that drive Chromium; they run in the browser group. */
const chromiumFiles = ['test/unit/renderer/screens.test.ts', 'test/integration/sandbox/authorization-page.test.ts'];
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
        test: {
          name: 'unit',
          include: [tests('unit')],
          exclude: chromiumFiles,
          sequence: { groupOrder: 0 },
          maxWorkers: availableParallelism(),
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: [tests('integration')],
          exclude: chromiumFiles,
          sequence: { groupOrder: 0 },
          maxWorkers: availableParallelism(),
        },
      },
      {
        extends: true,
        test: { name: 'hardware', include: [tests('hardware')], sequence: { groupOrder: 1 }, maxWorkers: 1 },
      },
      {
        extends: true,
        test: { name: 'browser', include: [tests('e2e'), ...chromiumFiles], sequence: { groupOrder: 2 }, maxWorkers: 1 },
      },
    ],
  },
});
