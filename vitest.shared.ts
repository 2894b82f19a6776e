// The vitest settings every package shares: tests run against sources (the
// @programrun/source export condition), so no build is needed first.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@programrun/source'] },
  ssr: { resolve: { conditions: ['@programrun/source'] } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Property tests do real work; CI runs several packages at once on few cores.
    testTimeout: 60_000,
  },
});
