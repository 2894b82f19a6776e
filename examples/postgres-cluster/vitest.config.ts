// Tests boot real host processes (and migrate a fresh schema): generous hook timeouts.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@programrun/source'] },
  ssr: { resolve: { conditions: ['@programrun/source'] } },
  test: { include: ['*.test.ts'], testTimeout: 60_000, hookTimeout: 60_000 },
});
