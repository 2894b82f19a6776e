import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

// The CLI's tests run the built binary (dist/bin.js, over the dependencies' dist):
// test/build-setup.ts builds whatever is out of date first (turbo does it before `test`).
export default mergeConfig(
  shared,
  defineConfig({ test: { globalSetup: ['test/build-setup.ts'] } }),
);
