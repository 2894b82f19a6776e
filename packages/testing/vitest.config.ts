import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@programrun/source'] },
  ssr: { resolve: { conditions: ['@programrun/source'] } },
  test: { include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
