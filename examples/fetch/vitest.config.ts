import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@programrun/source'] },
  ssr: { resolve: { conditions: ['@programrun/source'] } },
  test: { include: ['*.test.ts'], testTimeout: 30_000 },
});
