// The documentation's own tests: they start servers and install packages, so files run one
// at a time with generous timeouts.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@programrun/source'] },
  ssr: { resolve: { conditions: ['@programrun/source'] } },
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
