// Two projects: the package's unit tests, and the browser tests (test/browser/), which
// drive a real Chromium against a real reference server and run one file at a time so a
// file's timings (live updates within a second) are not skewed by another's browser. In the
// repository's suite, turbo runs this package's tests after the heaviest other suites
// (packages/console/turbo.json): with the cores saturated, Chromium's renderer was seen
// receiving a stream chunk 1.1–1.7 s after the server had written it.
import { configDefaults, defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

export default mergeConfig(
  shared,
  defineConfig({
    test: {
      projects: [
        {
          extends: true,
          test: { name: 'unit', exclude: [...configDefaults.exclude, 'test/browser/**'] },
        },
        {
          extends: true,
          test: {
            name: 'browser',
            include: ['test/browser/**/*.test.ts'],
            fileParallelism: false,
            // After the unit tests, so they do not compete for the CPU either.
            sequence: { groupOrder: 1 },
            testTimeout: 90_000,
            hookTimeout: 60_000,
          },
        },
      ],
    },
  }),
);
